"""opener_search.pair_bound: untold pairs per guess, and the least score they allow.

The table is checked against every partition of up to 12 answers, the counts against a
plain double loop (including buckets whose counts overflow the byte counters and guess
counts that are not a multiple of the block), and the bound against real scores.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.opener_search import pair_bound as pair_bound_kernels
from pipeline.kernels.opener_search.pair_bound import MOST_ANSWERS, pair_bound_table, pair_counts
from pipeline.kernels.partition import fixed_point
from tests.support.naive import fixed_s


def integer_partitions(m: int, largest: int | None = None):
    """Every partition of m as a non-increasing list of part sizes."""
    largest = m if largest is None else largest
    if m == 0:
        yield []
        return
    for c in range(min(m, largest), 0, -1):
        for rest in integer_partitions(m - c, c):
            yield [c, *rest]


def test_table_is_the_least_score_of_every_partition_with_those_pairs():
    values = fixed_point(20).values
    table = pair_bound_table(values, 12)
    huge = np.iinfo(np.int64).max // 4
    for m in range(13):
        least: dict[int, int] = {}
        for parts in integer_partitions(m):
            pairs = sum(c * (c - 1) // 2 for c in parts)
            score = int(sum(values[c] for c in parts))
            least[pairs] = min(least.get(pairs, score), score)
        for p in range(table.shape[1]):
            assert table[m, p] == least.get(p, huge), (m, p)
    # a few by hand: 3 pairs among 4 answers is a triple (3 log2 3), not 3 pairs
    assert table[4, 3] == values[3]
    assert table[4, 2] == 2 * values[2]
    assert table[5, 0] == 0 and table[5, 10] == values[5]


def naive_pair_counts(matrix_t: np.ndarray, columns: list[int]) -> np.ndarray:
    counts = np.zeros(matrix_t.shape[1], dtype=np.int64)
    for i, j in itertools.combinations(columns, 2):
        counts += matrix_t[i] == matrix_t[j]
    return counts


@pytest.mark.parametrize(
    ("n_answers", "n_guesses", "n_columns"),
    [(30, 50, 2), (30, 50, 7), (60, 5000, 23), (60, 4097, 24), (90, 2049, 41), (90, 300, 90)],
)
def test_pair_counts_equal_a_double_loop(n_answers, n_guesses, n_columns):
    """Few replies (0-3) so that many pairs agree, and one guess that tells no answers
    apart: from 24 answers its count overflows a byte and takes the wide counts; guess
    counts on and off the block size."""
    rng = np.random.default_rng(n_columns)
    matrix_t = rng.integers(0, 4, size=(n_answers, n_guesses), dtype=np.uint8)
    matrix_t[:, 1] = 3
    columns = sorted(rng.choice(n_answers, n_columns, replace=False).tolist())
    found = pair_counts(matrix_t, np.array(columns))
    assert found.dtype == np.uint16
    assert np.array_equal(found, naive_pair_counts(matrix_t, columns))
    assert found[1] == n_columns * (n_columns - 1) // 2


def test_the_bound_never_exceeds_a_real_score():
    # fmt: off
    words = sorted([
        "cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval", "serve",
        "heath", "dwarf", "model", "karma", "stink", "grade", "quiet", "bench", "abate", "feign",
        "major", "death", "fresh", "crust", "stool", "colon", "abase", "marry", "react", "batty",
        "pride", "floss", "helix", "croak", "staff", "paper", "unfed", "whelp", "trawl", "outdo",
    ])
    # fmt: on
    encoded = encode_words(words)
    matrix = feedback_matrix(encoded, encoded)
    values = fixed_point(len(words)).values
    table = pair_bound_table(values, len(words))
    rng = np.random.default_rng(5)
    tight = 0  # guesses with at most two untold pairs, where the bound is the score
    for _ in range(40):
        bucket = sorted(rng.choice(len(words), rng.integers(2, len(words)), replace=False))
        pairs = pair_counts(np.ascontiguousarray(matrix.T), np.array(bucket))
        for g in range(len(words)):
            score = fixed_s(matrix[g, bucket].tolist(), values)
            bound = table[len(bucket), pairs[g]]
            assert bound <= score, (words[g], bucket)
            if pairs[g] <= 2:  # no pair, one pair, two pairs: only one partition each
                assert bound == score, (words[g], bucket)
                tight += 1
    assert tight > 200  # 327 of the 1600 (guess, bucket) pairs


def test_pair_counts_refuse_what_they_cannot_count():
    matrix_t = np.zeros((400, 10), dtype=np.uint8)
    with pytest.raises(ValueError, match="at most 362"):
        pair_counts(matrix_t, np.arange(MOST_ANSWERS + 1))
    with pytest.raises(ValueError, match="outside the matrix"):
        pair_counts(matrix_t[:5], np.array([0, 5]))
    with pytest.raises(ValueError, match="at most 362"):
        pair_bound_table(fixed_point(400).values, MOST_ANSWERS + 1)
    with pytest.raises(ValueError, match="table up to 11"):
        pair_bound_table(fixed_point(10).values, 20)


def test_cut_and_seed_helpers():
    bound = np.array([0, 5, 9, 7, 20])  # not monotone: the largest count within counts
    assert pair_bound_kernels.most_pairs_within(bound, 8) == 3
    assert pair_bound_kernels.most_pairs_within(bound, -1) == -1
    counts = np.array([4, 2, 3, 2], dtype=np.uint16)
    assert pair_bound_kernels.fewest_pairs(counts) == 1
    lower, left = np.zeros(4, np.int64), np.zeros(4, np.int64)
    n = pair_bound_kernels.guesses_within(
        counts, 3, np.array([-1, 0, -1, -1]), 0, bound, lower, left
    )
    assert left[:n].tolist() == [2, 3]  # guess 1 is in bucket 0: scored with the bucket
    assert lower[2] == 7 and lower[3] == 9
    assert Counter(counts.tolist())[2] == 2


def test_survivor_helpers():
    """The letter-group survivors' pair counting: who is picked, their rows side by
    side, and who is left to score with which bound."""
    lower = np.array([3, 9, 2, 5, 1])
    picked = np.zeros(5, np.int64)
    cand_bucket = np.array([-1, -1, 0, -1, 1])
    n = pair_bound_kernels.guesses_at_most(lower, 5, cand_bucket, 0, picked)
    assert picked[:n].tolist() == [0, 3, 4]  # guess 2 is in bucket 0, guess 1 too high
    rng = np.random.default_rng(5)
    matrix_t = rng.integers(0, 243, size=(6, 5), dtype=np.uint8)
    columns = np.array([5, 0, 3, 2], dtype=np.int64)
    rows = np.empty((2, n), dtype=np.uint8)
    pair_bound_kernels.gather_guesses(matrix_t, columns, 1, 3, picked, n, rows)
    assert np.array_equal(rows, matrix_t[np.ix_([0, 3], [0, 3, 4])])
    counts = np.array([4, 1, 2], dtype=np.uint16)
    bound = np.array([0, 2, 6, 7, 20])
    left, lower_out = np.zeros(5, np.int64), lower.copy()
    n_left = pair_bound_kernels.picked_within(counts, picked, n, 2, bound, lower_out, left)
    assert left[:n_left].tolist() == [3, 4]  # guess 0 has 4 pairs, above the cut
    assert lower_out[3] == 5 and lower_out[4] == 6  # the higher of the two bounds
