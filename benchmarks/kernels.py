"""Kernels on the real lists, each timed beside its numpy baseline in the same run."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from benchmarks.baselines import (
    entropy_answers_numpy,
    second_guesses_numpy,
    square_entropies_numpy,
)
from pipeline.analysis.openers.two_step import answer_second_guesses
from pipeline.artifacts.commonness import read_p_common
from pipeline.artifacts.patterns import read_pattern_matrix
from pipeline.artifacts.words import read_word_index
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.opener_search import CountSearch, SearchSettings
from pipeline.kernels.partition import float_stats, pattern_entropies


def best_time(function: Callable[[], object], repeat: int = 5) -> float:
    """Best wall time of `repeat` calls, in seconds (the least disturbed run)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def report(name: str, value: float, unit: str, target: str = "") -> None:
    print(f"  {name:<56} {value:>10.3f} {unit:<5} {target}")


def bench_kernels(derived: Path, commonness: Path, threads: int) -> None:
    """Patterns, entropies, the square pass and the second-guess search, on the edition in
    `derived` and the commonness of its allowed list."""
    words = derived / "words.parquet"
    index = read_word_index(words)
    encoded, answers = index.encoded, index.encoded[index.answer_rows]
    print(f"kernels: {len(index.words)} guesses x {len(index.answer_rows)} answers")
    feedback_matrix(encoded[:10], answers, engine="jit")  # load the compiled kernel
    jit = best_time(lambda: feedback_matrix(encoded, answers, engine="jit"))
    numpy = best_time(lambda: feedback_matrix(encoded, answers, engine="numpy"), repeat=3)
    report("patterns, full matrix, numba kernel", jit, "s", "(target <= 0.3 s)")
    report("patterns, full matrix, numpy engine (letter groups)", numpy, "s")
    matrix = read_pattern_matrix(
        derived / "patterns" / "index.json", index, words, columns="answers"
    )
    load = best_time(matrix.full, repeat=3)
    report("load the stored matrix, every chunk checked", load, "s")
    full = matrix.full()
    float_stats(full[:10])
    kernel = best_time(lambda: float_stats(full, threads=threads))
    baseline = best_time(lambda: entropy_answers_numpy(full), repeat=3)
    report(f"entropy over the answers, every guess, {threads} threads", kernel, "s", "(<= 1 s)")
    report("the same with numpy bincount", baseline, "s")
    weights = read_p_common(commonness, index)
    pattern_entropies(encoded[:8], encoded, weights)
    square = best_time(lambda: pattern_entropies(encoded, encoded, weights, threads=threads), 2)
    sample = np.arange(0, len(index.words), max(1, len(index.words) // 40))
    slow = best_time(lambda: square_entropies_numpy(encoded, weights, sample), 1)
    report(f"square pass (G x G patterns on the fly), {threads} threads", square, "s", "(<= 10 s)")
    report(f"numpy, {len(sample)} rows scaled to all", slow * len(index.words) / len(sample), "s")
    search = CountSearch(full, index.answer_rows, encoded)
    named = [w for w in ("tarse", "crane", "qajaq", "fuzzy") if w in index.words]
    sample = [index.words.index(w) for w in named] or list(range(min(4, len(index.words))))
    answer_second_guesses(search, sample[0])
    kernel = best_time(lambda: [answer_second_guesses(search, o) for o in sample], 2)
    baseline = best_time(
        lambda: [second_guesses_numpy(full, index.answer_rows, o) for o in sample], 1
    )
    report("second-guess search, 4 openers (tarse crane qajaq fuzzy)", kernel, "s")
    report("per-bucket numpy, the same 4 openers", baseline, "s")
    report("all openers at that rate, one core", kernel / 4 * len(index.words), "s")
    bench_pair_bound(full, index, search)


def bench_pair_bound(full: np.ndarray, index, search: CountSearch) -> None:
    """The second-guess search with and without the pair bound, on 60 openers spread over
    the list (the named four are not typical), alternating, best of 3 each."""
    no_pairs = SearchSettings(pair_bound=False, survivor_pairs=False)
    plain = CountSearch(full, index.answer_rows, index.encoded, settings=no_pairs)
    spread = list(range(0, len(index.words), max(1, len(index.words) // 60)))
    times: dict[str, list[float]] = {"pairs": [], "plain": []}
    for _ in range(3):
        for name, which in (("pairs", search), ("plain", plain)):
            times[name].append(
                best_time(lambda s=which: [answer_second_guesses(s, o) for o in spread], 1)
            )
    pairs, letters = min(times["pairs"]), min(times["plain"])
    report(f"second-guess search, {len(spread)} openers spread over the list", pairs, "s")
    report("the same with the letter-group bound only", letters, "s")
    report("pair bound / letter-group bound only", pairs / letters, "", "(lower is better)")
