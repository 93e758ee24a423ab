"""How the whole pipeline scales with --cores: measured at 1 and 2 cores, projected beyond.

Each run starts from the raw inputs (downloads excluded: data/raw is fetched once and kept)
with numba's cache warm. Snakemake records every job's wall seconds (its `benchmark:`
files); CPU seconds and peak memory come from the last line of each job's log, the
kernel's exact accounting (Snakemake's files sample them, every 0.5 s for the first 15 s
and then every 30 s: a 25 s job's CPU is its 15 s sample). The run log gives every
job's inputs, outputs and log, hence the job graph. The projection replays that graph
on N cores: a job asks for the threads its rule asks for at N cores (read from a dry
run), and takes wall1 * ((1 - f) + f / t) with t threads, where f, the part of the job
that threads speed up, comes from the same job's wall at 1 and 2 threads (Amdahl); a rule
whose jobs share the cores (one thread each at 2 cores, more at 16) has one of its jobs
run again alone at 1 and at 2 threads, back to back, and its f stands for the rule's jobs. Jobs
start in the order Snakemake would: as soon as their inputs exist and enough cores are
free, those of the highest `priority:` first. It is given for the whole pipeline, for
today's stages (the optimal-tree stage left out) and for the optimal stage on its own.

The jobs are not all of a run's wall: Snakemake starts (imports, Snakefile, job graph)
before the first job, and between jobs it checks outputs, writes its records and picks
the next. Both are measured in the --cores 1 run, where the jobs run one after another
(see snakemake_time), and the projection is also given with them: the start added once,
the rest per job, on the chain like a job's own time.
"""

from __future__ import annotations

import csv
import heapq
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Job:
    """One job of a run: what it read and wrote, its benchmark file, its measurements."""

    jobid: int
    rule: str
    inputs: list[str]
    outputs: list[str]
    benchmark: str | None
    log: str | None = None
    threads: int = 1
    priority: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    max_rss: float = 0.0
    after: set[int] = field(default_factory=set)


def snakemake(workdir: Path, *args: str, log: Path | None = None) -> str:
    """Run the workflow in `workdir` (the repository's Snakefile and default profile)."""
    command = [
        sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"),
        "--workflow-profile", str(REPO / "workflow" / "profiles" / "default"), *args,
    ]  # fmt: skip
    result = subprocess.run(command, cwd=workdir, capture_output=True, text=True, check=True)
    if log is not None:
        log.write_text(result.stdout + result.stderr)
    return result.stdout + result.stderr


# The split undone: one opener-ranking job, one solver job per strategy (the opener
# benchmark whole). The split may cost at most 10 % more CPU than this (issue 15).
UNSPLIT_CONFIG = "openers:\n  parts: 1\nsolver:\n  openers_per_job: 100000\n"


def fresh_run(workdir: Path, cores: int, *args: str) -> tuple[float, str, float]:
    """Wall seconds, log and start (epoch seconds) of a whole run from the raw inputs at
    `cores` cores."""
    for folder in ("data/derived", "data/work", "logs", ".snakemake"):
        shutil.rmtree(workdir / folder, ignore_errors=True)
    began, epoch = time.perf_counter(), time.time()
    output = snakemake(workdir, "--cores", str(cores), *args)
    return time.perf_counter() - began, output, epoch


def snakemake_time(
    workdir: Path, jobs: dict[int, Job], wall: float, began: float
) -> tuple[float, float]:
    """Snakemake's own seconds in a run whose jobs ran one after another (--cores 1): its
    start, up to the first job (a job's benchmark file is written as it ends, so it
    started its wall before that), and the rest of the run's wall that no job accounts
    for, per job."""
    ends = {jobid: (workdir / job.benchmark).stat().st_mtime for jobid, job in jobs.items()}
    start = min(ends[jobid] - job.wall for jobid, job in jobs.items()) - began
    between = wall - start - sum(job.wall for job in jobs.values())
    return max(start, 0.0), max(between / len(jobs), 0.0)


def unsplit_jobs(workdir: Path) -> dict[int, Job]:
    """The jobs, measured, of a whole run at --cores 1 with the split undone."""
    config = workdir / "unsplit.yaml"
    config.write_text(UNSPLIT_CONFIG)
    _, log, _ = fresh_run(workdir, 1, "--configfile", str(config))
    jobs = parse_jobs(log)
    read_measurements(workdir, jobs)
    return jobs


def cpu_by_rule(jobs: dict[int, Job]) -> dict[str, tuple[int, float]]:
    """Per rule: (jobs, CPU seconds of them all)."""
    totals: dict[str, tuple[int, float]] = {}
    for job in jobs.values():
        count, cpu = totals.get(job.rule, (0, 0.0))
        totals[job.rule] = (count + 1, cpu + job.cpu)
    return totals


def like_for_like_unsplit(
    split: dict[str, tuple[int, float]], unsplit: dict[str, tuple[int, float]]
) -> float:
    """CPU of the unsplit run with the jobs the split leaves alone (rules with as many jobs
    in both runs: the same jobs, the same work) taken from the split run, so that the
    machine's drift between the two runs (8 % has been seen) is not counted as the split's
    cost; the rules the split changes count as measured in each run."""
    same = [rule for rule in split.keys() & unsplit.keys() if split[rule][0] == unsplit[rule][0]]
    drift = sum(split[rule][1] - unsplit[rule][1] for rule in same)
    return sum(cpu for _, cpu in unsplit.values()) + drift


def _field(block: str, name: str) -> list[str]:
    """The comma-separated items of one `name:` line of a job's block in a run log."""
    found = re.search(rf"^\s+{name}: (.*)$", block, re.M)
    return [item.strip() for item in found.group(1).split(",")] if found else []


def parse_jobs(log: str) -> dict[int, Job]:
    """The jobs a run log lists, with their inputs, outputs and benchmark files."""
    jobs: dict[int, Job] = {}
    for block in re.split(r"\n(?=(?:\[[^\]]+\]\n)?(?:local)?(?:rule|checkpoint) \w+:)", log):
        rule = re.search(r"^(?:local)?(?:rule|checkpoint) (\w+):", block, re.M)
        jobid = re.search(r"^\s+jobid: (\d+)", block, re.M)
        if not rule or not jobid or rule.group(1) == "all":
            continue

        bench, log = _field(block, "benchmark"), _field(block, "log")
        threads, priority = _field(block, "threads"), _field(block, "priority")
        jobs[int(jobid.group(1))] = Job(
            int(jobid.group(1)), rule.group(1), _field(block, "input"), _field(block, "output"),
            bench[0] if bench else None, log[0] if log else None,
            int(threads[0]) if threads else 1, int(priority[0]) if priority else 0,
        )  # fmt: skip
    producer = {path: job.jobid for job in jobs.values() for path in job.outputs}
    for job in jobs.values():
        job.after = {producer[path] for path in job.inputs if path in producer}
    return jobs


# The last line of a successful job's log (pipeline.stages.adapter.RESOURCES_LINE).
RESOURCES = re.compile(r"resources: ([\d.]+) s CPU .*, peak memory ([\d.]+) MB$", re.M)


def logged_resources(log: Path | None) -> tuple[float, float] | None:
    """(CPU s, peak RSS MB) from a job log's resources line, or None where it has none.
    Preferred to Snakemake's benchmark record, which samples CPU now and then and misses
    what ran since the last sample."""
    found = RESOURCES.findall(log.read_text(encoding="utf-8")) if log and log.is_file() else []
    return (float(found[-1][0]), float(found[-1][1])) if found else None


def read_measurements(workdir: Path, jobs: dict[int, Job]) -> None:
    """Wall (s) of each job from its Snakemake benchmark file; CPU (s) and peak RSS (MB)
    from its log's resources line, else (a job that does not write one) the file's."""
    for job in jobs.values():
        if job.benchmark is None:
            continue
        with open(workdir / job.benchmark, newline="") as handle:
            row = next(csv.DictReader(handle, delimiter="\t"))
        job.wall = float(row["s"])
        job.cpu = float(row["cpu_time"]) if row["cpu_time"] not in ("", "NA", "-") else job.wall
        job.max_rss = float(row["max_rss"]) if row["max_rss"] not in ("", "NA", "-") else 0.0
        logged = logged_resources(workdir / job.log if job.log else None)
        if logged:
            job.cpu, job.max_rss = logged


# The optimal-tree stage, measured on its own (issue 15): its searches, their merge and
# the benchmark's strategies that play the stored trees.
OPTIMAL_RULES = ("solve_optimal", "merge_optimal")


def in_optimal_stage(job: Job) -> bool:
    """Whether the job belongs to the optimal-tree stage."""
    plays_trees = any(path.endswith("optimal_trees.parquet") for path in job.inputs)
    return job.rule in OPTIMAL_RULES or plays_trees


def planned_threads(workdir: Path, cores: int) -> dict[str, int]:
    """Threads each job asks for at `cores` cores (job name -> threads), from a dry run."""
    output = snakemake(workdir, "--dry-run", "--forceall", "--cores", str(cores))
    threads = {}
    for job in parse_jobs(output).values():
        threads[" ".join(job.outputs)] = job.threads
    return threads


def parallel_fraction(wall1: float, wall2: float, threads2: int) -> float:
    """Amdahl's parallel fraction f from a job's wall at 1 and at `threads2` threads."""
    if threads2 <= 1 or wall2 <= 0 or wall1 <= 0:
        return 0.0
    speedup = wall1 / wall2
    f = (1 - 1 / speedup) / (1 - 1 / threads2)
    return min(max(f, 0.0), 1.0)


def simulate(
    jobs: dict[int, Job], threads: dict[int, int], walls: dict[int, float], cores: int
) -> float:
    """Projected wall of the job graph on `cores` cores. List scheduling, as Snakemake
    chooses: the ready jobs of highest priority first, then by job id, each started
    when its threads are free. `jobs` may be part of a run: dependencies on jobs
    outside it are taken as met."""
    waiting = {jobid: job.after & jobs.keys() for jobid, job in jobs.items()}

    def order(jobid: int) -> tuple[int, int]:
        return -jobs[jobid].priority, jobid

    ready = sorted((jobid for jobid, deps in waiting.items() if not deps), key=order)
    running: list[tuple[float, int]] = []
    free, now, done = cores, 0.0, set()
    while ready or running:
        started = True
        while started:
            started = False
            for jobid in list(ready):
                need = min(threads[jobid], cores)
                if need <= free:
                    ready.remove(jobid)
                    free -= need
                    heapq.heappush(running, (now + walls[jobid], jobid))
                    started = True
        now, finished = heapq.heappop(running)
        free += min(threads[finished], cores)
        done.add(finished)
        for jobid, deps in waiting.items():
            if finished in deps:
                deps.discard(finished)
                if not deps and jobid not in done and jobid not in ready:
                    ready.append(jobid)
        ready.sort(key=order)
    return now


def shared_core_rules(jobs2: dict[str, Job], at16: dict[str, int]) -> dict[str, str]:
    """Rules whose jobs ran on one thread at --cores 2 but ask for more at 16 cores (`at16`:
    planned_threads at 16), each with one of its jobs (outputs joined by spaces): their f
    needs a run of its own."""
    chosen: dict[str, str] = {}
    for outputs, job in sorted(jobs2.items()):
        if job.threads == 1 and at16.get(outputs, 1) > 1:
            chosen.setdefault(job.rule, outputs)
    return chosen


def rule_fractions(workdir: Path, jobs2: dict[str, Job], at16: dict[str, int]) -> dict[str, float]:
    """f per shared-core rule: one of its jobs run alone at --cores 2 with 1 thread, then
    with 2 (the same bytes again), back to back, so that the machine's drift between the
    whole runs does not enter f."""
    fractions = {}
    for rule, outputs in shared_core_rules(jobs2, at16).items():
        walls = []
        for threads in (1, 2):
            output = snakemake(
                workdir, "--cores", "2", "--set-threads", f"{rule}={threads}",
                "--force", *outputs.split(),
            )  # fmt: skip
            (job,) = parse_jobs(output).values()
            read_measurements(workdir, {job.jobid: job})
            walls.append(job.wall)
        fractions[rule] = parallel_fraction(walls[0], walls[1], 2)
    return fractions


def measure(workdir: Path) -> dict[str, object]:
    """Run the pipeline from the raw inputs at 1 and 2 cores; project 4, 8 and 16 cores;
    and once more at 1 core unsplit, for the CPU the split costs."""
    unsplit = unsplit_jobs(workdir)
    wall1, log1, began1 = fresh_run(workdir, 1)
    jobs1 = parse_jobs(log1)
    read_measurements(workdir, jobs1)
    start, per_job = snakemake_time(workdir, jobs1, wall1, began1)
    wall2, log2, _ = fresh_run(workdir, 2)
    jobs2 = {" ".join(job.outputs): job for job in parse_jobs(log2).values()}
    read_measurements(workdir, {job.jobid: job for job in jobs2.values()})
    asked = {cores: planned_threads(workdir, cores) for cores in (1, 2, 4, 8, 16)}
    by_rule = rule_fractions(workdir, jobs2, asked[16])
    fractions = {}
    for jobid, job in jobs1.items():
        other = jobs2.get(" ".join(job.outputs))
        if job.rule in by_rule:
            fractions[jobid] = by_rule[job.rule]
        else:
            fractions[jobid] = (
                parallel_fraction(job.wall, other.wall, other.threads) if other else 0.0
            )
    optimal = {jobid for jobid, job in jobs1.items() if in_optimal_stage(job)}
    rules_split, rules_unsplit = cpu_by_rule(jobs1), cpu_by_rule(unsplit)
    graphs = {
        "all": jobs1,
        "today": {jobid: job for jobid, job in jobs1.items() if jobid not in optimal},
        "optimal": {jobid: jobs1[jobid] for jobid in optimal},
    }
    projected: dict[str, dict[int, float]] = {name: {} for name in graphs}
    with_snakemake: dict[str, dict[int, float]] = {name: {} for name in graphs}
    for cores, planned in asked.items():
        threads = {jobid: planned.get(" ".join(job.outputs), 1) for jobid, job in jobs1.items()}
        walls = {
            jobid: job.wall
            * ((1 - fractions[jobid]) + fractions[jobid] / min(threads[jobid], cores))
            for jobid, job in jobs1.items()
        }
        padded = {jobid: wall + per_job for jobid, wall in walls.items()}
        for name, graph in graphs.items():
            projected[name][cores] = simulate(graph, threads, walls, cores) if graph else 0.0
            with_snakemake[name][cores] = (
                start + simulate(graph, threads, padded, cores) if graph else 0.0
            )
    return {
        "wall1": wall1,
        "wall2": wall2,
        "cpu1": sum(job.cpu for job in jobs1.values()),
        "cpu1_optimal": sum(jobs1[jobid].cpu for jobid in optimal),
        "cpu2": sum(job.cpu for job in jobs2.values()),
        "cpu_unsplit": sum(job.cpu for job in unsplit.values()),
        "cpu_unsplit_like": like_for_like_unsplit(rules_split, rules_unsplit),
        "rules_split": rules_split,
        "rules_unsplit": rules_unsplit,
        "jobs": jobs1,
        "jobs2": jobs2,
        "rule_fractions": by_rule,
        "projected": projected,
        "with_snakemake": with_snakemake,
        "snakemake_start": start,
        "snakemake_per_job": per_job,
    }
