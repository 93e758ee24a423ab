"""Issue 62, measurement M1: an upper bound on a guess's class count, before any partition.

For a set of n answers and a guess g with distinct letters, each position's colour is a
function of the answer alone: green when the answer has g's letter there, yellow when it
has the letter elsewhere, grey otherwise. Let c_i be how many of the three colours occur
at position i and m_i = n minus the most common one's count. Every answer with the most
common colour at each position outside a set S falls into one of at most prod_{i in S} c_i
classes, and each other answer into at most one more, so the class count
k <= min over S of (prod_{i in S} c_i + sum_{i not in S} m_i). (A guess with a repeated
letter is given k <= n: its colours depend on each other.)

With that k, Selby's guess bound 3n - k - hit (selby.guess_bound) is a lower bound
that costs a few table reads. This measures, at the second level of the bound pass (the
best second guess of each reply class of an opener, normal mode), the share of guesses,
and of reply reads, whose cheap bound is at least the best exact bound of the class, so
that a scan in the cheap bound's order would skip them without reading their replies;
and it checks k <= the bound everywhere.

    python -m benchmarks.class_count_filter [--mirror ../shared/wordle-data] [--openers 10]
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import numpy as np

from benchmarks.family_bound import read_words
from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix

ALPHABET = 26


def class_count_bound(guesses: np.ndarray, members: np.ndarray) -> np.ndarray:
    """The upper bound on each guess's class count over the encoded answers `members`."""
    n, length = members.shape
    at = np.zeros((length, ALPHABET), dtype=np.int64)  # answers with letter x at i
    for i in range(length):
        at[i] = np.bincount(members[:, i], minlength=ALPHABET)
    holds = np.zeros(ALPHABET, dtype=np.int64)  # answers holding letter x anywhere
    for letter in range(ALPHABET):
        holds[letter] = int(np.any(members == letter, axis=1).sum())
    green = np.stack([at[i][guesses[:, i]] for i in range(length)], axis=1)
    yellow = holds[guesses] - green
    grey = n - holds[guesses]
    colours = np.stack([green, yellow, grey], axis=2)  # guesses x positions x 3
    kinds = (colours > 0).sum(axis=2)
    minority = n - colours.max(axis=2)
    best = np.full(len(guesses), n, dtype=np.int64)
    for size in range(length + 1):
        for chosen in itertools.combinations(range(length), size):
            inside = np.prod(kinds[:, list(chosen)], axis=1)  # 1 for the empty set
            outside = minority[:, [i for i in range(length) if i not in chosen]].sum(axis=1)
            best = np.minimum(best, (inside + outside).astype(np.int64))
    repeated = np.array([len(set(g.tolist())) < length for g in guesses])
    return np.where(repeated, n, np.minimum(best, n))


def class_counts(replies: np.ndarray) -> np.ndarray:
    """The number of distinct replies in each row."""
    ordered = np.sort(replies, axis=1)
    return 1 + (np.diff(ordered, axis=1) != 0).sum(axis=1)


def measure_class(
    matrix: np.ndarray, guesses: np.ndarray, answers: np.ndarray, members: np.ndarray
) -> tuple[int, int, int, int]:
    """(guesses skipped, guesses, reply reads skipped, reads) of one class of answers."""
    n = len(members)
    replies = matrix[:, members]
    k = class_counts(replies)
    hit = np.isin(np.arange(len(guesses)), answers[members]).astype(np.int64)
    exact = 3 * n - k - hit
    bound = class_count_bound(guesses, guesses[answers[members]])
    if np.any(k > bound):
        raise AssertionError("a class count above its bound")
    cheap = 3 * n - bound - hit
    skipped = cheap >= exact.min()
    skipped[np.argmin(exact)] = False  # the best guess itself is read
    return int(skipped.sum()), len(guesses), int(skipped.sum()) * n, len(guesses) * n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=Path("../shared/wordle-data"))
    parser.add_argument("--openers", type=int, default=10)
    args = parser.parse_args(argv)
    allowed = read_words(args.mirror / "allowed.txt")
    answer_words = read_words(args.mirror / "nyt20230701/answers.txt")
    guesses = encode_words(allowed)
    rows = {word: i for i, word in enumerate(allowed)}
    answers = np.array([rows[w] for w in answer_words])
    matrix = feedback_matrix(guesses, guesses[answers])
    chosen = np.random.default_rng(62).choice(len(allowed), args.openers, replace=False)
    totals = np.zeros(4, dtype=np.int64)
    started = time.process_time()
    for opener in sorted(chosen.tolist()):
        row = matrix[opener]
        for reply in np.unique(row).tolist():
            members = np.flatnonzero(row == reply)
            if len(members) >= 3:
                totals += measure_class(matrix, guesses, answers, members)
    seconds = time.process_time() - started
    print(f"nyt20230701, normal mode, second level of {args.openers} seeded openers "
          f"(classes of 3 or more answers), {seconds:.0f} CPU s:")  # fmt: skip
    print(f"guesses skipped by the class-count bound: {totals[0]:,} of {totals[1]:,} "
          f"({100 * totals[0] / totals[1]:.1f} %); reply reads skipped: "
          f"{100 * totals[2] / totals[3]:.1f} %")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
