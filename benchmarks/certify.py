"""The certified top list's cost: the optimal stage of an edition, timed alone.

Runs the stage (everything after the two-step ranking) at --cores 2 in a prepared scratch
folder, then reads every job's benchmark file for its CPU and wall seconds and the stage's
own artifact for what was proven: per mode, the bound pass, the words searched (the
ranking's top 2K, the K lowest-bounded, and the screened ones) and what they cost; then the
bounds' quality and their check against the published totals (benchmarks.bound_quality).
"""

from __future__ import annotations

import csv
import shutil
import time
from pathlib import Path

import polars as pl

from benchmarks import scaling
from benchmarks.bound_quality import bench_bound_quality
from benchmarks.kernels import report
from pipeline.artifacts import catalog

# Issue 49's budgets at --cores 2: the whole stage of an edition, both modes, in seconds.
STAGE_WALL_TARGET = {"nyt2022": 180, "nyt2023": 720}
STAGE_RULES = ("solve_optimal", "bound_openers", "merge_bounds", "screen_openers", "merge_optimal")


def job_seconds(
    workdir: Path, rule: str, edition: str, column: str = "cpu_time"
) -> dict[str, float]:
    """Job name (the benchmark file's stem, mode first) -> its CPU seconds (or another
    column of Snakemake's benchmark record: `s`, its wall). CPU is the job log's resources
    line where it has one (scaling.logged_resources; a bound part that logged 103 s
    recorded 75)."""
    folder = workdir / "logs" / "benchmarks" / rule / edition
    seconds = {}
    for path in sorted(folder.glob("*.tsv")):
        with path.open(encoding="utf-8") as handle:
            row = next(csv.DictReader(handle, delimiter="\t"))
        seconds[path.stem] = float(row[column])
        log = workdir / "logs" / rule / edition / f"{path.stem}.log"
        if column == "cpu_time":
            logged = scaling.logged_resources(log)
            if logged:
                seconds[path.stem] = logged[0]
    return seconds


def job_spans(workdir: Path, rule: str, edition: str) -> dict[str, tuple[float, float]]:
    """Job name -> (start, end) in seconds since the epoch: a benchmark record is written
    as its job ends, `s` seconds of wall after it started."""
    folder = workdir / "logs" / "benchmarks" / rule / edition
    walls = job_seconds(workdir, rule, edition, "s")
    ends = {path.stem: path.stat().st_mtime for path in folder.glob("*.tsv")}
    return {name: (ends[name] - wall, ends[name]) for name, wall in walls.items()}


def bench_certify(workdir: Path, edition: str, mirror: Path, cores: int = 2) -> None:
    """Time the optimal stage of `edition` (its ranking already built in workdir; what
    the stage built before, its parts, its two artifacts and its jobs' benchmark records,
    is removed first), then print its bound quality (benchmarks.bound_quality)."""
    target = catalog.OPTIMAL_OPENERS.format(edition=edition)
    shutil.rmtree(workdir / "data" / "work" / edition / "optimal", ignore_errors=True)
    for rule in STAGE_RULES:  # a job of an earlier plan must not count as one of this run
        shutil.rmtree(workdir / "logs" / "benchmarks" / rule / edition, ignore_errors=True)
    for path in (catalog.OPTIMAL_OPENERS, catalog.OPTIMAL_TREES):
        for suffix in ("", ".seal.json"):
            (workdir / (path.format(edition=edition) + suffix)).unlink(missing_ok=True)
    began = time.perf_counter()
    scaling.snakemake(workdir, target, "--cores", str(cores))
    wall = time.perf_counter() - began
    table = pl.read_parquet(workdir / target)
    print(f"certified top list: the optimal stage of {edition} (--cores {cores})")
    budget = STAGE_WALL_TARGET.get(edition)
    report(f"wall of the whole stage, both modes, --cores {cores}", wall, "s",
           f"(target <= {budget})" if budget else "")  # fmt: skip
    cpu = {rule: job_seconds(workdir, rule, edition) for rule in STAGE_RULES}
    spans = {rule: job_spans(workdir, rule, edition) for rule in STAGE_RULES}
    for mode in ("normal", "hard"):
        solved = solved_openers(workdir, edition, mode)
        print_mode(table.filter(pl.col("mode") == mode), mode, cpu, spans, solved)
    bench_bound_quality(workdir, mirror, edition)


def solved_openers(workdir: Path, edition: str, mode: str) -> int:
    """The openers the solve_optimal jobs of `mode` proved: the rows of their parts."""
    parts = (workdir / "data" / "work" / edition / "optimal" / mode).glob("*.summary.parquet")
    return sum(pl.read_parquet(part).height for part in parts)


def print_mode(rows: pl.DataFrame, mode: str, cpu: dict, spans: dict, solved_openers: int
               ) -> None:  # fmt: skip
    """One mode's lines: the bound pass, the proofs (solved_openers openers, in the
    solve_optimal jobs) and the screen, what they cost, and the wall from the mode's first
    job's start to its last job's end."""

    def of_mode(jobs: dict) -> dict:
        return {name: v for name, v in jobs.items() if name.split("-")[0] == mode}

    solved, screen = of_mode(cpu["solve_optimal"]), of_mode(cpu["screen_openers"])
    bounds = sum(of_mode(cpu["bound_openers"]).values())
    searched = rows.filter(pl.col("nodes") > 0).height
    top = rows.filter(pl.col("in_top"))
    print(f"  {mode} mode: {rows.height} openers, certified top {top.height}")
    report("  CPU of the bound pass", bounds, "s")
    report("  words searched (proofs and screen)", searched, "")
    report(
        "  CPU of the searches (proofs and screen)",
        sum(solved.values()) + sum(screen.values()),
        "s",
    )
    report("  openers proven as jobs (ranking's 2K, lowest bounds)", solved_openers, "")
    report("  solve_optimal jobs", len(solved), "")
    report("  CPU of those proofs", sum(solved.values()), "s")
    report("  openers searched by the screen", searched - solved_openers, "")
    report("  CPU of the screen jobs", sum(screen.values()), "s")
    mine = [span for jobs in spans.values() for span in of_mode(jobs).values()]
    wall = max(end for _, end in mine) - min(start for start, _ in mine) if mine else 0.0
    report("  wall, first job to last (the modes interleave)", wall, "s")
    if top.height:
        last = top.sort("total_guesses")[-1]
        print(f"    top list: {', '.join(top.sort('total_guesses', 'opener')['opener'])}")
        print(f"    last total {last['total_guesses'][0]}; every other opener bounded above")
