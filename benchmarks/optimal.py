"""The optimal decision-tree search on the real word lists: section `optimal` of the
benchmark command (tarse in normal mode, salet in hard mode, and the default stage's wall
time), and on its own a table of any openers, optionally beside Selby's program.

Each (mode, opener) runs in its own child process, after a warm-up that loads the compiled
kernels, so the CPU seconds, search nodes and peak memory printed are those of one search
(tree extraction included). With --selby PATH it also times Alex Selby's wordle program
(github.com/alex1770/wordle, built separately; not part of this repository) on the same
lists and machine.

    .venv/bin/python -m benchmarks.optimal --data ../shared/wordle-data \\
        [--normal tarse,salet] [--hard salet,gummi] [--selby /path/to/wordle] [--cpu-limit 600]

`--sample N` searches N seeded random words per mode instead and ends with the mean CPU
of one proof and what proving every word costs (`optimal: {top: all}`, a cluster run),
in CPU-hours: the figure docs/operating.md quotes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NORMAL = "tarse,salet,crate,trace,roate,raise,soare,adieu"
HARD = "salet,tarse,crate,roate,adieu,wends,tewed,raise,soare,abhor"
REPO = Path(__file__).resolve().parents[1]


def read_lists(data: Path) -> tuple[list[str], list[str]]:
    return (data / "allowed.txt").read_text().split(), (data / "answers.txt").read_text().split()


def run_one(data: Path, mode: str, opener: str) -> dict:
    """In the child: warm the kernels up, then solve one opener and report as a dict."""
    from pipeline.kernels.optimal_search import prepare_lists, solve_opener

    lists = prepare_lists(*read_lists(data))
    if opener not in lists.words:
        raise SystemExit(f"{opener!r} is not an allowed word of {data}")
    started = time.process_time()
    solve_opener(lists.matrix, lists.answer_rows, lists.encoded, 0, hard=False, max_guesses=1)
    warm = time.process_time() - started
    base_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    row = lists.words.index(opener)
    result = solve_opener(lists.matrix, lists.answer_rows, lists.encoded, row, hard=mode == "hard")
    return {
        "mode": mode,
        "opener": opener,
        "total": result.total,
        "mean": None if result.total is None else round(result.mean, 4),
        "proven": result.proven,
        "cpu_s": round(result.seconds, 2),
        "nodes": result.nodes,
        "deepest": result.deepest,
        "tree_rows": len(result.guess),
        "kernel_load_s": round(warm, 2),
        "rss_before_mb": round(base_mb),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "reason": result.reason,
    }


def child(data: Path, mode: str, opener: str, cpu_limit: float) -> dict:
    """Run one search in a child process limited to cpu_limit CPU seconds."""
    command = [
        sys.executable,
        "-m",
        "benchmarks.optimal",
        "--data",
        str(data),
        "--one",
        mode,
        opener,
    ]

    done = subprocess.run(
        command, capture_output=True, text=True, cwd=REPO, preexec_fn=cpu_capped(cpu_limit)
    )  # the CPU limit bounds it; no wall-clock limit, the machine may be shared
    if done.returncode != 0:
        over = done.returncode in (-9, -24) or "CPU time limit" in done.stderr
        reason = f"over {cpu_limit:.0f} CPU s" if over else done.stderr.strip()[-300:]
        return {"mode": mode, "opener": opener, "reason": reason}
    return json.loads(done.stdout.strip().splitlines()[-1])


def cpu_capped(seconds: float):
    """A preexec_fn that limits the child to `seconds` of CPU time (then SIGXCPU)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(seconds), int(seconds) + 5))

    return limit


def selby(binary: Path, data: Path, mode: str, opener: str, cpu_limit: float) -> dict:
    """Selby's own CPU time ("Time taken") and score for the same opener."""
    allowed, answers = read_lists(data)
    with tempfile.TemporaryDirectory() as folder:
        paths = [Path(folder, "all"), Path(folder, "hidden")]
        for path, words in zip(paths, (allowed, answers), strict=True):
            path.write_text("\n".join(words) + "\n")
        command = [str(binary), "-a", str(paths[0]), "-h", str(paths[1]), "-w", opener]
        command += ["-H"] if mode == "hard" else []
        done = subprocess.run(
            command, capture_output=True, text=True, preexec_fn=cpu_capped(cpu_limit)
        )
        out = done.stdout
        if done.returncode != 0:
            return {"selby_cpu_s": f">{cpu_limit:.0f}", "selby_total": None}
    seconds = re.search(r"Time taken = ([0-9.]+)s", out)
    score = re.search(r"Best first guess score = (\d+)", out)
    return {
        "selby_cpu_s": float(seconds.group(1)) if seconds else None,
        "selby_total": "inf" if not score or int(score.group(1)) >= 10**9 else int(score.group(1)),
    }


def bench_optimal(data: Path, cpu_limit: float = 600) -> None:
    """Section `optimal`, after benchmarks.certify timed the whole stage: the two searches
    the targets name, each in its own process."""
    from benchmarks.kernels import report

    print("optimal: proven-optimal trees on the real lists (one process per search)")
    for mode, opener, target in (("normal", "tarse", "(target <= 10)"), ("hard", "salet", "")):
        row = child(data, mode, opener, cpu_limit)
        if row.get("cpu_s") is None:
            print(f"  {mode} {opener}: {row.get('reason')}")
            continue
        report(f"{opener}, {mode} mode: CPU of the proof (total {row['total']})", row["cpu_s"],
               "s", target)  # fmt: skip
        report(f"{opener}, {mode} mode: nodes searched", row["nodes"], "")
        report(f"{opener}, {mode} mode: peak memory", row["peak_rss_mb"], "MB", "(target < 2000)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mirror = os.environ.get("WORDLE_MIRROR") or REPO.parent / "shared" / "wordle-data"
    parser.add_argument("--data", type=Path, default=Path(mirror), help="folder of the lists")
    parser.add_argument("--normal", default=NORMAL, help="comma-separated openers (normal mode)")
    parser.add_argument("--hard", default=HARD, help="comma-separated openers (hard mode)")
    parser.add_argument("--selby", type=Path, help="path to Selby's compiled wordle program")
    parser.add_argument("--cpu-limit", type=float, default=600, help="CPU seconds per opener")
    parser.add_argument("--sample", type=int, help="this many seeded random openers per mode")
    parser.add_argument("--seed", type=int, default=49, help="seed of --sample")
    parser.add_argument("--one", nargs=2, metavar=("MODE", "OPENER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.data, *args.one)))
        return
    print(f"# {args.data}: {os.cpu_count()} CPUs; one search per child process, one thread")
    print(HEADER)
    words = sorted(set().union(*read_lists(args.data)))
    if args.sample:
        drawn = random.Random(args.seed).sample(words, args.sample)
        args.normal = args.hard = ",".join(drawn)
    jobs = [("normal", w) for w in args.normal.split(",") if w]
    jobs += [("hard", w) for w in args.hard.split(",") if w]
    rows = []
    for mode, opener in jobs:
        row = child(args.data, mode, opener, args.cpu_limit)
        if args.selby:
            row |= selby(args.selby, args.data, mode, opener, args.cpu_limit)
        print(format_row(row), flush=True)
        rows.append(row)
    if args.sample:
        print_every_opener_cost(rows, len(words), args.cpu_limit)


def print_every_opener_cost(rows: list[dict], n_words: int, cpu_limit: float) -> None:
    """Per mode, the sample's mean CPU of one proof and its extrapolation to every word (a
    search cut at the CPU limit counts as the limit: the figure is then a floor)."""
    for mode in ("normal", "hard"):
        seconds = [row.get("cpu_s") or cpu_limit for row in rows if row["mode"] == mode]
        cut = sum(row.get("cpu_s") is None for row in rows if row["mode"] == mode)
        mean = sum(seconds) / len(seconds)
        floor = f" (at least: {cut} cut at {cpu_limit:.0f} s)" if cut else ""
        print(f"# {mode}: {len(seconds)} openers, mean {mean:.1f} CPU s a proof; every one of "
              f"{n_words} words: {mean * n_words / 3600:.1f} CPU-hours{floor}")  # fmt: skip


HEADER = (
    f"{'mode':6} {'opener':6} {'total':>6} {'mean':>6} {'cpu_s':>7} {'nodes':>9} "
    f"{'peak_MB':>7} {'load_s':>6} {'selby_s':>7} {'selby':>6}  note"
)


def format_row(row: dict) -> str:
    def cell(key, width):
        value = row.get(key)
        return f"{'-' if value is None else value:>{width}}"

    return (
        f"{row['mode']:6} {row['opener']:6} {cell('total', 6)} {cell('mean', 6)} "
        f"{cell('cpu_s', 7)} {cell('nodes', 9)} {cell('peak_rss_mb', 7)} "
        f"{cell('kernel_load_s', 6)} {cell('selby_cpu_s', 7)} {cell('selby_total', 6)}  "
        f"{row.get('reason') or ''}"
    )


if __name__ == "__main__":
    main()
