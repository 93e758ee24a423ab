"""The benchmark command: speed and memory on the real data, each beside a baseline.

Run: `WORDLE_MIRROR=../shared/wordle-data .venv/bin/python -m benchmarks [--section ...]`.
Speed is measured here, never in timed tests: numbers depend on the machine, ratios less so.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

from benchmarks import dev_loop, first_run, scaling, validation
from benchmarks.assistant import bench_assistant
from benchmarks.certify import bench_certify
from benchmarks.kernels import bench_kernels, report
from benchmarks.optimal import bench_optimal
from pipeline.artifacts import catalog
from pipeline.plan.editions import enabled_editions, merge_editions
from pipeline.sources.fetch import resolve_mirror

SECTIONS = ("scaling", "kernels", "optimal", "assistant", "first-run", "loop", "validation")
# The benchmarks measure the reference edition alone, so their numbers compare across
# versions (benchmarks/HISTORY.md): the classic answer list, every other edition off.
EDITION = "nyt2022"
OTHER_EDITIONS_OFF = {"editions": {"nyt2023": {"enabled": False}}}
COMMONNESS = catalog.COMMONNESS.format(wordlist="allowed")  # the edition's allowed list's
# What each section reads, built before it is measured; none: the whole pipeline (the
# assistant reads every artifact, and the scaling runs start from a warm numba cache).
SECTION_TARGETS = {
    "kernels": [
        catalog.MATRIX_INDEX.format(edition=EDITION, matrix="patterns"),
        COMMONNESS,
    ],
    # the optimal section times the optimal stage itself: everything before it is built
    "optimal": [catalog.OPENERS],
}
# The section alone measures the optimal stage of every edition the default config
# enables (today's game's list too); within `all` the reference edition alone. The first
# run is the README's: every edition the default config enables.
EVERY_EDITION_SECTIONS = ("optimal", "first-run")
SCHEMA = scaling.REPO / "workflow" / "schemas" / "config.schema.yaml"
# The scaling runs leave the certified screen out (minutes of proofs per run, measured on
# its own by the optimal section): they measure how the rest of the pipeline scales.
SCALING_CONFIG = {"optimal": {"certify": False}}


def prepare(workdir: Path, mirror: Path, section: str) -> None:
    """A scratch folder with the raw inputs fetched and what `section` reads built once
    (so numba's cache is warm and downloads are out of every measured run)."""
    config = yaml.safe_load((scaling.REPO / "config.yaml").read_text(encoding="utf-8")) or {}
    if section not in EVERY_EDITION_SECTIONS:
        config.setdefault("editions", {}).update(OTHER_EDITIONS_OFF["editions"])
    (workdir / "config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    os.environ["WORDLE_MIRROR"] = str(mirror)
    editions = measured_editions(workdir)
    targets = [t.format(edition=e) for t in SECTION_TARGETS.get(section, []) for e in editions]
    if section == "first-run":  # the raw inputs alone: the measured run builds the rest
        targets = ["--until", "fetch_source"]
    scaling.snakemake(workdir, *targets, "--cores", str(os.cpu_count() or 1))


def measured_editions(workdir: Path) -> list[str]:
    """The editions the scratch config enables (its defaults merged in), oldest first."""
    config = yaml.safe_load((workdir / "config.yaml").read_text(encoding="utf-8")) or {}
    merge_editions(config, SCHEMA)
    return enabled_editions(config)


def leave_out_the_screen(workdir: Path) -> None:
    """The scratch config with SCALING_CONFIG merged in (before the scaling runs)."""
    path = workdir / "config.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    config.setdefault("optimal", {}).update(SCALING_CONFIG["optimal"])
    path.write_text(yaml.safe_dump(config), encoding="utf-8")


def print_scaling(result: dict) -> None:
    print("scaling: the whole pipeline from the raw inputs (numba cache warm), without the")
    print("  certified screen (optimal.certify false; the optimal section times it)")
    report("wall, --cores 1", result["wall1"], "s")
    report("wall, --cores 2", result["wall2"], "s")
    report("--cores 2 / --cores 1", result["wall2"] / result["wall1"], "", "(target <= 0.6)")
    report("CPU of every job, --cores 1 run", result["cpu1"], "s")
    report("CPU of every job, --cores 2 run", result["cpu2"], "s")
    report("CPU of every job, unsplit, --cores 1", result["cpu_unsplit"], "s")
    report("CPU split / unsplit, as measured", result["cpu1"] / result["cpu_unsplit"], "")
    ratio = result["cpu1"] / result["cpu_unsplit_like"]
    report("CPU split / unsplit, like for like", ratio, "", "(target <= 1.10)")
    print("    (the rules with as many jobs in both runs count as in the split run)")
    print("  CPU per rule where the runs differ, split (--cores 1) / unsplit: jobs, s")
    split, unsplit = result["rules_split"], result["rules_unsplit"]
    for rule in sorted(split.keys() | unsplit.keys()):
        (n1, cpu1), (n0, cpu0) = split.get(rule, (0, 0.0)), unsplit.get(rule, (0, 0.0))
        if n1 != n0:
            print(f"    {rule:<24} {n1:4d} jobs {cpu1:8.2f} s  / {n0:4d} jobs {cpu0:8.2f} s")
    report("  of which the optimal-tree stage", result["cpu1_optimal"], "s")
    for rule, fraction in sorted(result["rule_fractions"].items()):
        report(f"f of {rule}, one job alone at 1 and 2 threads", fraction, "")
    print("  Snakemake's own time, measured in the --cores 1 run:")
    report("  start, up to the first job", result["snakemake_start"], "s")
    report("  per job, between jobs", result["snakemake_per_job"], "s")
    graphs = {
        "all": "the whole pipeline",
        "today": "today's stages (the optimal-tree stage left out)",
        "optimal": "the optimal-tree stage on its own",
    }
    for name, label in graphs.items():
        projected = result["projected"][name]
        print(f"  projected wall from the per-job times, {label}:")
        for cores, wall in projected.items():
            report(f"  --cores {cores}", wall, "s")
        report("  --cores 8 / --cores 2", projected[8] / projected[2], "", "(target <= 1/3)")
        padded = result["with_snakemake"][name]
        report("  --cores 8, with Snakemake's own time", padded[8], "s")
        report("  the same, --cores 8 / --cores 2", padded[8] / padded[2], "")
    jobs = sorted(result["jobs"].values(), key=lambda job: -job.wall)
    print("  slowest jobs at --cores 1 (wall s, CPU s, peak MB):")
    for job in jobs[:8]:
        figures = f"{job.wall:8.2f} {job.cpu:8.2f} {job.max_rss:8.0f}"
        print(f"    {job.rule:<24} {figures}  {job.outputs[0]}")
    peaks = {}
    for job in result["jobs"].values():
        peaks[job.rule] = max(peaks.get(job.rule, 0.0), job.max_rss)
    print(
        "  peak memory per rule (MB): "
        + ", ".join(f"{r} {m:.0f}" for r, m in sorted(peaks.items()))
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--section", choices=(*SECTIONS, "all"), default="all")
    parser.add_argument("--mirror", default="", help="mirror folder (WORDLE_MIRROR wins)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument(
        "--data",
        type=Path,
        help="for --section assistant and validation: a folder of built artifacts to use "
        "instead of building them in a scratch folder first",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="for --section validation: also run the real `frictionless validate` on every "
        "row (25 minutes or more on the full build)",
    )
    parser.add_argument(
        "--suite",
        action="store_true",
        help="for --section loop: also run the whole suite (tens of minutes)",
    )
    args = parser.parse_args(argv)
    if args.section == "loop":  # the tests' own fixture, not the real lists
        dev_loop.print_loop(dev_loop.measure(args.suite))
        return 0
    if args.section == "assistant" and args.data:
        bench_assistant(args.data.resolve())
        return 0
    if args.section == "validation" and args.data:
        descriptor = args.data.resolve() / "datapackage.json"
        validation.print_validation(validation.measure(descriptor, args.full))
        return 0
    mirror = resolve_mirror(args.mirror)
    if mirror is None:
        parser.error("set WORDLE_MIRROR or --mirror to the folder with the real raw inputs")
    workdir = Path(tempfile.mkdtemp(prefix="wordle-bench-"))
    print(f"scratch folder: {workdir}; {os.cpu_count()} cores")
    try:
        prepare(workdir, mirror.resolve(), args.section)
        if args.section in ("kernels", "all"):
            derived = workdir / "data" / "derived" / EDITION
            bench_kernels(derived, workdir / COMMONNESS, args.threads)
        if args.section in ("optimal", "all"):
            for edition in measured_editions(workdir):
                bench_certify(workdir, edition, mirror.resolve())
            bench_optimal(mirror.resolve())
        if args.section in ("assistant", "all"):
            bench_assistant(workdir / "data" / "derived" / EDITION)
        if args.section in ("first-run", "all"):
            first_run.print_first_run(first_run.measure(workdir, min(2, os.cpu_count() or 1)))
        if args.section in ("validation", "all"):
            descriptor = workdir / "data" / "derived" / "datapackage.json"
            validation.print_validation(validation.measure(descriptor, args.full))
        if args.section in ("scaling", "all"):
            leave_out_the_screen(workdir)
            print_scaling(scaling.measure(workdir))
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
