"""The first-run benchmark's split of the jobs' CPU (benchmarks/first_run.py), read back
from the shared fixture build's job logs, against the Snakemake log's own job count and
the job logs read here line by line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.first_run import cost_by_rule
from tests.support.workflow_helpers import FIXTURE_CONFIG

RESOURCES = re.compile(r"resources: ([\d.]+) s CPU")
SPLIT = re.compile(r"of which: ([\d.]+) s CPU starting, ([\d.]+) s CPU compiling")


def jobs_run(checkout: Path) -> dict[str, int]:
    """Rule -> jobs, from the build's Snakemake log ("Finished jobid: 6 (Rule: x)")."""
    logs = sorted((checkout / ".snakemake" / "log").glob("*.snakemake.log"))
    text = logs[0].read_text(encoding="utf-8")  # the build; later runs found nothing to do
    finished = re.findall(r"^Finished jobid: \d+ \(Rule: (\w+)\)$", text, re.M)
    return {rule: finished.count(rule) for rule in set(finished)}


def test_the_jobs_cpu_is_split_by_rule_into_starting_compiling_and_work(built_checkout):
    costs = cost_by_rule(built_checkout)
    by_folder: dict[str, list[tuple[float, float, float]]] = {}
    for log in (built_checkout / "logs").rglob("*.log"):
        text = log.read_text(encoding="utf-8")
        cpu, split = RESOURCES.findall(text), SPLIT.findall(text)
        if cpu and split:
            rule = log.relative_to(built_checkout / "logs").parts[0]
            by_folder.setdefault(rule, []).append((float(cpu[-1]), *map(float, split[-1])))
    assert costs["rank_opener_part"].jobs == FIXTURE_CONFIG["openers"]["parts"]
    ran = jobs_run(built_checkout)  # by rule; the costs are by log folder, a rule's name
    assert sum(cost.jobs for cost in costs.values()) == sum(ran.values()) - ran.get("all", 0)
    for rule in costs.keys() & ran.keys():
        assert costs[rule].jobs == ran[rule], rule
    # logs/report/ holds the report's items and tables: the rules with no folder of their own
    others = set(ran) - set(costs) - {"all"}
    assert others and set(costs) - set(ran) == {"report"}
    assert costs["report"].jobs == sum(ran[rule] for rule in others)
    for rule, jobs in by_folder.items():
        cost = costs[rule]
        assert cost.jobs == len(jobs), rule
        assert cost.cpu == pytest.approx(sum(j[0] for j in jobs), abs=1e-6), rule
        assert cost.starting == pytest.approx(sum(j[1] for j in jobs), abs=1e-6), rule
        assert cost.compiling == pytest.approx(sum(j[2] for j in jobs), abs=1e-6), rule
        assert 0.05 * cost.jobs < cost.starting < cost.cpu, rule  # an interpreter each
        assert cost.work >= 0, rule
