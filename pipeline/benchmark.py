"""Benchmarks on the real data, each printed beside a baseline measured in the same run.

Run: `WORDLE_MIRROR=../shared/wordle-data python -m pipeline.benchmark [--stage ...]`.
Speed is measured here, never in timed tests: numbers depend on the machine, ratios less so.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from pipeline.matrix import load_pattern_matrix
from pipeline.patterns import encode_words, feedback_matrix, feedback_matrix_numpy
from pipeline.sources import resolve_mirror
from pipeline.words import load_word_index

REPO = Path(__file__).resolve().parents[1]
STAGES = ("patterns", "entropy", "openers", "solver")


def best_time(function: Callable[[], object], repeat: int = 5) -> float:
    """Best wall time of `repeat` calls, in seconds (the least disturbed run)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def run_snakemake(workdir: Path, *targets: str, cores: int = 2) -> float:
    """Run the workflow in `workdir` for `targets`; return the wall seconds."""
    command = [
        sys.executable,
        "-m",
        "snakemake",
        *targets,
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--workflow-profile",
        str(REPO / "workflow" / "profiles" / "default"),
        "--cores",
        str(cores),
        "--quiet",
        "all",
    ]
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


# Runs a Python module's main() in a fresh process, then prints that process's own peak
# resident memory (VmHWM). rusage's ru_maxrss would also count the benchmark process,
# whose memory a forked child inherits in that figure.
_PEAK_WRAPPER = """
import runpy, sys
module = sys.argv[1]
sys.argv = sys.argv[1:]
try:
    runpy.run_module(module, run_name="__main__")
except SystemExit as stop:
    if stop.code:
        raise
status = open("/proc/self/status").read()
print(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM")))
"""


def peak_memory_mb(module: str, args: list[str], cwd: Path) -> float:
    """Peak resident memory (MB) of `python -m module args` run in a process of its own."""
    command = [sys.executable, "-c", _PEAK_WRAPPER, module, *args]
    result = subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True)
    return int(result.stdout.split()[-1]) / 1024


def prepare_workdir(mirror: Path) -> Path:
    """A scratch working directory with the raw inputs and the word index built."""
    workdir = Path(tempfile.mkdtemp(prefix="wordle-bench-"))
    shutil.copy(REPO / "config.yaml", workdir / "config.yaml")
    os.environ["WORDLE_MIRROR"] = str(mirror)
    run_snakemake(workdir, "data/derived/words.parquet", "data/derived/commonness.parquet")
    return workdir


def report(name: str, value: float, unit: str, target: str = "") -> None:
    print(f"  {name:<48} {value:>12.3f} {unit:<6} {target}")


def bench_patterns(workdir: Path) -> None:
    words_path = workdir / "data" / "derived" / "words.parquet"
    index = load_word_index(words_path)
    encoded = encode_words(index.words)
    guesses, answers = encoded, encoded[index.answer_rows]
    print(f"patterns: {len(index.words)} guesses x {len(index.answer_rows)} answers")

    feedback_matrix(guesses[:10], answers)  # JIT compile (or load from cache) outside timing
    kernel = best_time(lambda: feedback_matrix(guesses, answers))
    numpy_full = best_time(lambda: feedback_matrix_numpy(guesses, answers), repeat=3)
    assert np.array_equal(
        feedback_matrix_numpy(guesses, answers), feedback_matrix(guesses, answers)
    )
    report("kernel, full matrix, 1 thread", kernel, "s", "(target <= 0.3 s)")
    report("numpy (letter-group shares), full matrix", numpy_full, "s")
    report("kernel speed-up over numpy", numpy_full / kernel, "x")

    stage = run_snakemake(workdir, "data/derived/patterns/index.json")
    report("pattern stage wall, snakemake --cores 2", stage, "s", "(target <= 15 s)")

    chunk_rows = json.loads((workdir / "data/derived/patterns/index.json").read_text())[
        "chunk_rows"
    ]
    chunk_job = [
        "compute-pattern-chunk",
        "--words",
        str(words_path),
        "--chunk",
        "0",
        "--chunk-rows",
        str(chunk_rows),
    ]
    answers_job = [*chunk_job, "--output", str(workdir / "bench-chunk.npy.zst")]
    square_job = [*chunk_job, "--output", str(workdir / "bench-sq.npy.zst"), "--columns", "guesses"]
    report(
        f"peak memory, one chunk job ({chunk_rows} rows)",
        peak_memory_mb("pipeline.cli", answers_job, workdir),
        "MB",
        "(target <= 300 MB)",
    )
    report(
        f"peak memory, one square chunk job ({chunk_rows} rows)",
        peak_memory_mb("pipeline.cli", square_job, workdir),
        "MB",
    )
    report(
        "peak memory, a chunk job's imports only",
        peak_memory_mb("pipeline.matrix", [], workdir),
        "MB",
    )

    matrix = load_pattern_matrix(workdir / "data/derived/patterns/index.json", words_path)
    raw = int(np.prod(matrix.shape)) * matrix.dtype.itemsize
    document = json.loads((workdir / "data/derived/patterns/index.json").read_text())
    stored = sum(chunk["bytes"] for chunk in document["chunks"])
    report("raw matrix bytes", raw / 1e6, "MB")
    report("compressed bytes", stored / 1e6, "MB")
    report("compressed / raw", 100 * stored / raw, "%", "(target <= 45 %)")
    load = best_time(matrix.full, repeat=3)
    report("load whole matrix with checks", load, "s")


def bench_entropy(workdir: Path) -> None:
    from pipeline.commonness import load_p_common
    from pipeline.entropy import (
        entropies_from_matrix,
        entropy_answers_numpy,
        square_entropies,
        square_entropies_numpy,
    )

    derived = workdir / "data" / "derived"
    index = load_word_index(derived / "words.parquet")
    matrix = load_pattern_matrix(derived / "patterns" / "index.json", derived / "words.parquet")
    print(f"entropy: {matrix.shape[0]} guesses x {matrix.shape[1]} answers")
    full = matrix.full()
    entropies_from_matrix(full[:10])  # JIT warm-up
    kernel = best_time(lambda: entropies_from_matrix(full))
    baseline = best_time(lambda: entropy_answers_numpy(full), repeat=3)
    assert np.allclose(entropies_from_matrix(full), entropy_answers_numpy(full))
    report("entropy_answers, all guesses (kernel)", kernel, "s", "(target <= 1 s)")
    report("entropy_answers, plain numpy (np.bincount)", baseline, "s")
    report("speed-up over numpy", baseline / kernel, "x")

    encoded = encode_words(index.words)
    weights = load_p_common(derived / "commonness.parquet", index)
    square_entropies(encoded, weights, rows=slice(0, 8))  # JIT warm-up
    streaming = best_time(lambda: square_entropies(encoded, weights), repeat=2)
    sample = np.arange(0, len(index.words), max(1, len(index.words) // 40))
    numpy_sample = best_time(lambda: square_entropies_numpy(encoded, weights, sample), repeat=1)
    numpy_full = numpy_sample * len(index.words) / len(sample)
    report("streaming guess x guess pass, 2 threads", streaming, "s", "(target <= 10 s)")
    report(f"plain numpy, {len(sample)} rows scaled to all", numpy_full, "s")
    report("speed-up over numpy", numpy_full / streaming, "x")
    (derived / "entropy.parquet").unlink(missing_ok=True)
    stage = run_snakemake(workdir, "data/derived/entropy.parquet")
    report("entropy stage wall, snakemake --cores 2", stage, "s")


def bench_openers(workdir: Path) -> None:
    from pipeline.openers import AnswerSolver, second_guesses_numpy

    derived = workdir / "data" / "derived"
    index = load_word_index(derived / "words.parquet")
    matrix = load_pattern_matrix(derived / "patterns" / "index.json").full()
    print(f"openers: all {len(index.words)} openers, answers mode")
    solver = AnswerSolver(matrix, index.answer_rows, index.words)
    sample = [index.words.index(word) for word in ("tarse", "crane", "qajaq", "fuzzy")]
    solver.solve(sample[0])  # JIT warm-up
    kernel = best_time(lambda: [solver.solve(opener) for opener in sample], repeat=2)
    baseline = best_time(
        lambda: [second_guesses_numpy(matrix, index.answer_rows, o) for o in sample], repeat=1
    )
    report(f"kernel, {len(sample)} openers (tarse crane qajaq fuzzy)", kernel, "s")
    report(f"per-bucket numpy, same {len(sample)} openers", baseline, "s")
    report("speed-up over numpy", baseline / kernel, "x")

    run_snakemake(workdir, "data/derived/openers.parquet")  # everything before the stage
    for path in [derived / "openers.parquet", *(workdir / "data" / "work").rglob("*.parquet")]:
        path.unlink()
    stage = run_snakemake(workdir, "data/derived/openers.parquet")
    report("opener stage wall, all openers + prior top K, --cores 2", stage, "s", "(<= 600 s)")
    report("per opener, wall x 2 cores / openers", 2000 * stage / len(index.words), "ms")
    report(
        "per-bucket numpy for all openers (estimate)",
        baseline / len(sample) * len(index.words) / 2 / 3600,
        "h",
    )


def bench_solver(workdir: Path) -> None:
    from pipeline.solver import benchmark_solver

    derived = workdir / "data" / "derived"
    print("solver: every strategy against every answer (in-process, after JIT warm-up)")
    greedy = benchmark_solver(
        derived / "words.parquet",
        derived / "commonness.parquet",
        derived / "patterns" / "index.json",
        strategies=[{"name": "greedy_entropy"}],
    )
    report("greedy_entropy alone, all answers", greedy["total"], "s", "(target <= 15 s)")
    targets = ["data/derived/benchmark_summary.parquet"]
    run_snakemake(workdir, *targets)  # builds what the solver stage needs first
    (derived / "benchmark_summary.parquet").unlink()
    stage = run_snakemake(workdir, *targets)
    report("solver stage wall, all strategies, --cores 2", stage, "s", "(target <= 120 s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--stage", choices=(*STAGES, "all"), default="all")
    parser.add_argument("--mirror", default="", help="mirror folder (WORDLE_MIRROR wins)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args(argv)
    mirror = resolve_mirror(args.mirror)
    if mirror is None:
        parser.error("set WORDLE_MIRROR or --mirror to the folder with the real raw inputs")
    workdir = prepare_workdir(mirror.resolve())
    print(f"scratch folder: {workdir}; {os.cpu_count()} cores")
    try:
        if args.stage in ("patterns", "all"):
            bench_patterns(workdir)
        else:
            run_snakemake(workdir, "data/derived/patterns/index.json")
        if args.stage in ("entropy", "all"):
            bench_entropy(workdir)
        if args.stage in ("openers", "all"):
            bench_openers(workdir)
        if args.stage in ("solver", "all"):
            bench_solver(workdir)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
