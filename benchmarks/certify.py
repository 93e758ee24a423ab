"""The certified top list's cost: the optimal stage of the reference edition, timed alone.

Runs the stage (everything after the two-step ranking) at --cores 2 in a prepared scratch
folder, then reads every job's benchmark file for its CPU seconds and the stage's own
artifact for what was proven: per mode, the bound pass, the proofs the stop rule needed
(the ranking's top K, the K lowest-bounded, and the screened ones) and what they cost.
"""

from __future__ import annotations

import csv
import shutil
import time
from pathlib import Path

import polars as pl

from benchmarks import scaling
from benchmarks.kernels import report
from pipeline.artifacts import catalog

STAGE_RULES = ("solve_optimal", "bound_openers", "merge_bounds", "screen_openers", "merge_optimal")


def job_seconds(workdir: Path, rule: str, edition: str) -> dict[str, float]:
    """Job name (the benchmark file's stem, mode first) -> its CPU seconds."""
    folder = workdir / "logs" / "benchmarks" / rule / edition
    seconds = {}
    for path in sorted(folder.glob("*.tsv")):
        with path.open(encoding="utf-8") as handle:
            row = next(csv.DictReader(handle, delimiter="\t"))
        seconds[path.stem] = float(row["cpu_time"])
    return seconds


def bench_certify(workdir: Path, edition: str, cores: int = 2) -> None:
    """Time the optimal stage of `edition` (its ranking already built in workdir; what
    the stage built before, its parts and its two artifacts, is removed first)."""
    target = catalog.OPTIMAL_OPENERS.format(edition=edition)
    shutil.rmtree(workdir / "data" / "work" / edition / "optimal", ignore_errors=True)
    for path in (catalog.OPTIMAL_OPENERS, catalog.OPTIMAL_TREES):
        for suffix in ("", ".seal.json"):
            (workdir / (path.format(edition=edition) + suffix)).unlink(missing_ok=True)
    began = time.perf_counter()
    scaling.snakemake(workdir, target, "--cores", str(cores))
    wall = time.perf_counter() - began
    table = pl.read_parquet(workdir / target)
    print(f"certified top list: the optimal stage of {edition} (--cores {cores})")
    report(f"wall of the whole stage, both modes, --cores {cores}", wall, "s", "(target <= 240)")
    cpu = {rule: job_seconds(workdir, rule, edition) for rule in STAGE_RULES}
    for mode in ("normal", "hard"):
        rows = table.filter(pl.col("mode") == mode)
        solved = {name: s for name, s in cpu["solve_optimal"].items() if name.startswith(mode)}
        screen = {name: s for name, s in cpu["screen_openers"].items() if name.startswith(mode)}
        bounds = sum(s for name, s in cpu["bound_openers"].items() if name.startswith(mode))
        searched = rows.filter(pl.col("nodes") > 0).height
        top = rows.filter(pl.col("in_top"))
        print(f"  {mode} mode: {rows.height} openers, certified top {top.height}")
        report("  CPU of the bound pass", bounds, "s")
        report("  openers proven as jobs (ranking's top K, lowest bounds)", len(solved), "")
        report("  CPU of those proofs", sum(solved.values()), "s")
        report("  openers searched by the screen", searched - len(solved), "")
        report("  CPU of the screen jobs", sum(screen.values()), "s")
        if top.height:
            last = top.sort("total_guesses")[-1]
            print(f"    top list: {', '.join(top.sort('total_guesses', 'opener')['opener'])}")
            print(f"    last total {last['total_guesses'][0]}; every other opener bounded above")
