"""Where a first run's CPU goes: the jobs' own work by rule, compiling, starting the job
processes, and Snakemake itself (issue 72, point 4).

A first run is the README's first command on a fresh clone: every job from the raw
inputs (downloads excluded: they are fetched before), with numba's cache empty. Each
job's log ends with its process's CPU and how much of it went on starting (the
interpreter, Snakemake's script preamble, the imports) and on compiling kernels
(pipeline.stages.adapter.SPLIT_LINE); the rest is the stage's work. The run's CPU in all
is every process Snakemake started and waited for, itself included
(resource.RUSAGE_CHILDREN); what the jobs do not account for is Snakemake's own (and that
of the few jobs whose logs have no such lines).
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchmarks import scaling
from benchmarks.kernels import report

SPLIT = re.compile(r"of which: ([\d.]+) s CPU starting, ([\d.]+) s CPU compiling$", re.M)


@dataclass
class RuleCost:
    """The CPU seconds of one rule's jobs, split."""

    jobs: int = 0
    cpu: float = 0.0
    starting: float = 0.0
    compiling: float = 0.0

    @property
    def work(self) -> float:
        return self.cpu - self.starting - self.compiling


def cost_by_rule(workdir: Path) -> dict[str, RuleCost]:
    """Per rule (named by its log folder, logs/<rule>/: `report` holds the report's items),
    its jobs' CPU and the part of it spent starting and compiling, from the last lines of
    every job log (a job that failed, or a rule that writes no such lines, is left out)."""
    costs: dict[str, RuleCost] = {}
    logs = workdir / "logs"
    for log in sorted(logs.rglob("*.log")):
        rule = log.relative_to(logs).parts[0]
        text = log.read_text(encoding="utf-8", errors="replace")
        cpu, split = scaling.RESOURCES.findall(text), SPLIT.findall(text)
        if rule == "benchmarks" or not cpu or not split:
            continue
        cost = costs.setdefault(rule, RuleCost())
        cost.jobs += 1
        cost.cpu += float(cpu[-1][0])
        cost.starting += float(split[-1][0])
        cost.compiling += float(split[-1][1])
    return costs


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(workdir: Path, cores: int) -> dict[str, object]:
    """A whole run of `workdir` at `cores` cores from its raw inputs, with an empty numba
    cache of its own: its wall and CPU, and the CPU split by rule."""
    cache = Path(tempfile.mkdtemp(prefix="wordle-numba-"))
    before_env = os.environ.get("NUMBA_CACHE_DIR")
    os.environ["NUMBA_CACHE_DIR"] = str(cache)  # the run's processes inherit it
    try:
        before = children_cpu()
        wall, _, _ = scaling.fresh_run(workdir, cores)
        total = children_cpu() - before
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        if before_env is None:
            os.environ.pop("NUMBA_CACHE_DIR", None)
        else:
            os.environ["NUMBA_CACHE_DIR"] = before_env
    return {"cores": cores, "wall": wall, "cpu": total, "rules": cost_by_rule(workdir)}


def print_first_run(result: dict) -> None:
    rules: dict[str, RuleCost] = result["rules"]
    print(f"first run: every job from the raw inputs at --cores {result['cores']}, numba's")
    print("  cache empty (the README's first command on a fresh clone, downloads excluded)")
    report("wall", result["wall"], "s")
    report("CPU of every process", result["cpu"], "s")
    print(f"    {'rule':<24} {'jobs':>5} {'CPU s':>9} {'starting':>9} {'compiling':>9} {'work':>9}")
    for name, cost in sorted(rules.items(), key=lambda item: -item[1].cpu):
        print(f"    {name:<24} {cost.jobs:5d} {cost.cpu:9.1f} {cost.starting:9.1f} "
              f"{cost.compiling:9.1f} {cost.work:9.1f}")  # fmt: skip
    jobs = sum(cost.cpu for cost in rules.values())
    report("the jobs' CPU", jobs, "s")
    report("  of which their stages' own work", sum(c.work for c in rules.values()), "s")
    report("  of which compiling kernels", sum(c.compiling for c in rules.values()), "s")
    count = sum(c.jobs for c in rules.values())
    starting = sum(c.starting for c in rules.values())
    report(f"  of which starting {count} job processes", starting, "s")
    report("Snakemake itself (the run's CPU less the jobs')", result["cpu"] - jobs, "s")
