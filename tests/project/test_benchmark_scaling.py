"""The scaling benchmark's bookkeeping: job logs read back, and the projection's
replay of a job graph (hand-worked schedules)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks import scaling
from benchmarks.scaling import Job, in_optimal_stage, parse_jobs, read_measurements, simulate
from pipeline.stages.adapter import RESOURCES_LINE
from tests.support.workflow_helpers import EDITION

BENCHMARK_HEADER = (
    "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time"
)


def job(jobid: int, after: set[int] = frozenset(), rule: str = "r", inputs=()) -> Job:
    return Job(jobid, rule, list(inputs), [f"out{jobid}"], None, after=set(after))


def test_cpu_and_memory_come_from_the_log_line_the_adapter_writes(tmp_path: Path):
    (tmp_path / "b.tsv").write_text(
        f"{BENCHMARK_HEADER}\n25.0\t0:00:25\t300\t0\t0\t0\t0\t0\t60\t15.2\n"
    )
    (tmp_path / "j.log").write_text(
        "progress ...\n2026 INFO pipeline: " + RESOURCES_LINE % (24.75, 512.5) + "\n"
    )
    (tmp_path / "c.tsv").write_text(
        f"{BENCHMARK_HEADER}\n3.0\t0:00:03\t90\t0\t0\t0\t0\t0\t90\t2.5\n"
    )
    jobs = {
        1: Job(1, "a", [], ["x"], "b.tsv", "j.log"),
        2: Job(2, "b", [], ["y"], "c.tsv", "missing.log"),  # no log: the sampled values
    }
    read_measurements(tmp_path, jobs)
    assert (jobs[1].wall, jobs[1].cpu, jobs[1].max_rss) == (25.0, 24.75, 512.5)
    assert (jobs[2].wall, jobs[2].cpu, jobs[2].max_rss) == (3.0, 2.5, 90.0)


def test_replay_of_a_diamond_on_one_and_two_cores():
    # 1 -> (2, 3) -> 4, walls 1, 4, 2, 1
    jobs = {1: job(1), 2: job(2, {1}), 3: job(3, {1}), 4: job(4, {2, 3})}
    walls = {1: 1.0, 2: 4.0, 3: 2.0, 4: 1.0}
    ones = dict.fromkeys(jobs, 1)
    assert simulate(jobs, ones, walls, 1) == pytest.approx(8.0)
    assert simulate(jobs, ones, walls, 2) == pytest.approx(6.0)  # 1, then 2 beside 3, then 4
    # a job asking for two threads waits for both cores
    assert simulate(jobs, ones | {3: 2}, walls, 2) == pytest.approx(8.0)


def test_replay_starts_the_ready_jobs_of_highest_priority_first():
    # 1, 2, 3 ready at once, 4 after 3; every wall 2, two cores
    jobs = {1: job(1), 2: job(2), 3: job(3), 4: job(4, {3})}
    walls = dict.fromkeys(jobs, 2.0)
    ones = dict.fromkeys(jobs, 1)
    assert simulate(jobs, ones, walls, 2) == pytest.approx(6.0)  # 1 and 2, 3, then 4
    jobs[3].priority = 1
    assert simulate(jobs, ones, walls, 2) == pytest.approx(4.0)  # 3 and 1, then 4 and 2


def test_the_run_log_gives_the_graph_threads_and_priorities():
    log = (
        "[Mon Nov 23 23:55:16 2026]\nrule make_a:\n    input: raw.txt\n    output: a.txt\n"
        "    log: logs/a.log\n    jobid: 3\n    benchmark: logs/a.tsv\n    priority: 3\n"
        "    threads: 8\n    resources: tmpdir=/tmp\n\n"
        "[Mon Nov 23 23:55:17 2026]\nrule make_b:\n    input: a.txt, raw.txt\n"
        "    output: b.txt, c.txt\n    jobid: 5\n    threads: 1\n\n"
        "localrule all:\n    input: b.txt\n    jobid: 0\n"
    )
    jobs = parse_jobs(log)
    assert sorted(jobs) == [3, 5]
    a, b = jobs[3], jobs[5]
    assert (a.rule, a.outputs, a.log, a.benchmark) == (
        "make_a",
        ["a.txt"],
        "logs/a.log",
        "logs/a.tsv",
    )
    assert (a.threads, a.priority, a.after) == (8, 3, set())
    assert (b.outputs, b.threads, b.priority, b.after) == (["b.txt", "c.txt"], 1, 0, {3})


def test_a_part_of_the_graph_takes_outside_dependencies_as_met():
    jobs = {1: job(1), 2: job(2, {1}), 3: job(3, {2})}
    walls = {1: 5.0, 2: 1.0, 3: 1.0}
    part = {jobid: jobs[jobid] for jobid in (2, 3)}
    assert simulate(part, dict.fromkeys(jobs, 1), walls, 4) == pytest.approx(2.0)


def test_the_optimal_stage_is_its_searches_merge_and_tree_players():
    assert in_optimal_stage(job(1, rule="solve_optimal"))
    assert in_optimal_stage(job(2, rule="merge_optimal"))
    assert in_optimal_stage(
        job(3, rule="play_strategy", inputs=[f"data/derived/{EDITION}/optimal_trees.parquet"])
    )
    assert not in_optimal_stage(
        job(4, rule="play_strategy", inputs=[f"data/derived/{EDITION}/openers.parquet"])
    )
    assert not in_optimal_stage(job(5, rule="summarize_benchmarks"))


def test_rules_sharing_the_cores_are_those_on_one_thread_at_2_cores_and_more_at_16():
    def job2(rule: str, output: str, threads: int) -> Job:
        return Job(0, rule, [], [output], None, threads=threads)

    jobs2 = {
        "p1": job2("rank_opener_part", "p1", 1),
        "p0": job2("rank_opener_part", "p0", 1),
        "e": job2("threaded_rule", "e", 2),  # measured at 2 threads already
        "u": job2("play_strategy", "u", 1),  # one thread at 16 cores too
    }
    at16 = {"p0": 2, "p1": 2, "e": 16}
    assert scaling.shared_core_rules(jobs2, at16) == {"rank_opener_part": "p0"}


def test_the_split_cost_counts_only_the_rules_the_split_changes():
    split = {"merge": (1, 2.0), "parts": (7, 122.0), "units": (14, 36.0)}
    unsplit = {"merge": (1, 1.5), "parts": (1, 119.0), "units": (11, 24.0)}
    # merge is the same job in both runs: its split-run CPU stands for both
    assert scaling.like_for_like_unsplit(split, unsplit) == pytest.approx(2.0 + 119.0 + 24.0)
    assert scaling.like_for_like_unsplit(split, split) == pytest.approx(160.0)


def test_snakemake_time_is_the_start_and_what_no_job_accounts_for(tmp_path: Path):
    # a --cores 1 run that began at t=1000 and took 20 s: job 1 ran 3 s and ended at 1005
    # (so it started at 1002: 2 s of start), job 2 ran 10 s and ended at 1016
    jobs = {}
    for jobid, wall, end in ((1, 3.0, 1005.0), (2, 10.0, 1016.0)):
        bench = tmp_path / f"{jobid}.tsv"
        bench.write_text("s\n")
        os.utime(bench, (end, end))
        jobs[jobid] = Job(jobid, "r", [], [f"out{jobid}"], bench.name, wall=wall)
    start, per_job = scaling.snakemake_time(tmp_path, jobs, 20.0, 1000.0)
    assert start == pytest.approx(2.0)
    assert per_job == pytest.approx((20.0 - 2.0 - 13.0) / 2)
