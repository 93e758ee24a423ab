"""The pair bound of the opener search, for buckets of a few to a few dozen answers.

A guess that leaves p pairs of a bucket's answers untold (same reply) splits the bucket
into replies of sizes c with sum C(c, 2) = p, so its score S = sum F(c) is at least the
least S of any partition of the bucket's n answers with p such pairs
(`pair_bound_table`). Counting the pairs of every guess at once is a row comparison of
the transposed matrix: for each pair of answers, whether their two rows agree, guess by
guess, a loop the compiler turns into wide byte comparisons. That costs n(n-1)/2
comparisons per guess, cheaper than the letter-group bound up to a few dozen answers,
and the bound is far tighter there: on the real lists a bucket of 11-20 answers leaves
about 9 guesses to score, against about 1000 after the letter-group bound.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit
from pipeline.kernels.opener_search.settings import PAIR_BLOCK, PAIR_CAPACITY

MOST_ANSWERS = 362  # n(n-1)/2 pairs must fit the uint16 counts: 362 * 361 / 2 < 2**16


def pair_bound_table(values: np.ndarray, n_max: int) -> np.ndarray:
    """table[m, p]: the least sum of values[c] over the partitions of m answers into parts
    of sizes c with sum C(c, 2) = p (a huge value where no partition has p pairs).

    values: the fixed-point c*log2(c) table (pipeline.kernels.partition.fixed_point), for
    counts up to at least n_max. An unbounded knapsack over part sizes: a partition of m
    is a part of size c and a partition of m - c.
    """
    if not 0 <= n_max <= MOST_ANSWERS:
        raise ValueError(f"pair bound for buckets of {n_max} answers (at most {MOST_ANSWERS})")
    if len(values) <= n_max:
        raise ValueError(f"a c*log2(c) table up to {len(values) - 1} for buckets of {n_max}")
    most_pairs = n_max * (n_max - 1) // 2
    table = np.full((n_max + 1, most_pairs + 1), np.iinfo(np.int64).max // 4, dtype=np.int64)
    table[0, 0] = 0
    for m in range(1, n_max + 1):
        for c in range(1, m + 1):
            pairs = c * (c - 1) // 2
            merged = table[m - c, : most_pairs + 1 - pairs] + values[c]
            np.minimum(table[m, pairs:], merged, out=table[m, pairs:])
    return table


def pair_counts(matrix_t: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """For every guess, the pairs of answers `columns` it leaves untold (the same reply).
    matrix_t: (answers, guesses) patterns, rows answers."""
    matrix_t = np.ascontiguousarray(matrix_t)
    columns = np.ascontiguousarray(columns, dtype=np.int64)
    if matrix_t.ndim != 2:
        raise ValueError(f"a transposed matrix of shape {matrix_t.shape}")
    if columns.size > MOST_ANSWERS:
        raise ValueError(f"{columns.size} answers: the counts hold at most {MOST_ANSWERS}")
    if columns.size and (columns.min() < 0 or columns.max() >= matrix_t.shape[0]):
        raise ValueError("answer columns outside the matrix")
    out = np.zeros(matrix_t.shape[1], dtype=np.uint16)
    small = np.zeros(PAIR_BLOCK, dtype=np.uint8)
    count_pairs(matrix_t, columns, 0, columns.size, small, out)
    return out


@njit(cache=True, nogil=True)
def add_pairs(ri, matrix_t, columns, first, hi, g0, g1, small):  # pragma: no cover
    """small[g] += the answers columns[first:hi] whose reply to guess g0 + g equals ri[g]
    (ri: an answer's row slice g0:g1); four rows per pass over small."""
    w = g1 - g0
    j = first
    while j + 4 <= hi:
        r1 = matrix_t[columns[j], g0:g1]
        r2 = matrix_t[columns[j + 1], g0:g1]
        r3 = matrix_t[columns[j + 2], g0:g1]
        r4 = matrix_t[columns[j + 3], g0:g1]
        for g in range(w):
            x = ri[g]
            small[g] += (
                np.uint8(x == r1[g]) + np.uint8(x == r2[g])
                + np.uint8(x == r3[g]) + np.uint8(x == r4[g])
            )  # fmt: skip
        j += 4
    while j < hi:
        rj = matrix_t[columns[j], g0:g1]
        for g in range(w):
            small[g] += np.uint8(ri[g] == rj[g])
        j += 1


@njit(cache=True, nogil=True)
def count_pairs(matrix_t, columns, lo, hi, small, out):  # pragma: no cover - compiled
    """out[g] = the pairs of answers columns[lo:hi] with the same reply to guess g.

    matrix_t: (answers, guesses), rows answers. Guesses are taken small.size at a time;
    the counts build up in small (uint8, added into out before they could overflow)."""
    n_guesses = matrix_t.shape[1]
    block = small.size
    for g0 in range(0, n_guesses, block):
        g1 = min(g0 + block, n_guesses)
        w = g1 - g0
        part = small[:w]
        part[:] = 0
        wide = out[g0:g1]
        wide[:] = 0
        pending = 0
        for i in range(lo, hi):
            if pending + (hi - i - 1) > PAIR_CAPACITY:
                for g in range(w):
                    wide[g] += part[g]
                part[:] = 0
                pending = 0
            pending += hi - i - 1
            add_pairs(matrix_t[columns[i], g0:g1], matrix_t, columns, i + 1, hi, g0, g1, part)
        for g in range(w):
            wide[g] += part[g]


@njit(cache=True, nogil=True)
def most_pairs_within(bound, limit):  # pragma: no cover - compiled
    """The largest pair count p with bound[p] <= limit (-1 if none): every guess with
    more pairs scores above limit."""
    cut = -1
    for p in range(bound.size):
        if bound[p] <= limit:
            cut = p
    return cut


@njit(cache=True, nogil=True)
def fewest_pairs(counts):  # pragma: no cover - compiled
    """The first guess with the fewest pairs: its exact score seeds the bucket's cut."""
    least = counts.min()
    g = 0
    while counts[g] != least:
        g += 1
    return g


@njit(cache=True, nogil=True)
def guesses_within(counts, cut, cand_bucket, b, bound, lower, left):  # pragma: no cover
    """Guesses outside bucket b with at most cut pairs, into left in word order, their
    bound into lower; returns how many."""
    n_left = 0
    for g in range(counts.size):
        if counts[g] <= cut and cand_bucket[g] != b:
            lower[g] = bound[counts[g]]
            left[n_left] = g
            n_left += 1
    return n_left


@njit(cache=True, nogil=True)
def guesses_at_most(lower, limit, cand_bucket, b, out):  # pragma: no cover - compiled
    """Guesses outside bucket b whose bound (lower) is at most limit, into out in word
    order; returns how many. A branch, not a branch-free count: few guesses pass, and
    the count's dependent stores cost three times as much."""
    n = 0
    for g in range(lower.size):
        if lower[g] <= limit and cand_bucket[g] != b:
            out[n] = g
            n += 1
    return n


@njit(cache=True, nogil=True)
def gather_guesses(matrix_t, columns, lo, hi, guesses, n_guesses, out):  # pragma: no cover
    """out[i, j] = matrix_t[columns[lo + i], guesses[j]]: the bucket's rows for the
    guesses picked, side by side, so that count_pairs compares them as whole rows."""
    for i in range(hi - lo):
        row = matrix_t[columns[lo + i]]
        target = out[i]
        for j in range(n_guesses):
            target[j] = row[guesses[j]]


@njit(cache=True, nogil=True)
def picked_within(counts, picked, n_picked, cut, bound, lower, left):  # pragma: no cover
    """The picked guesses (picked[:n_picked], with pair counts `counts`) with at most cut
    pairs, into left in word order, their lower bound raised to the pair bound where that
    is higher; returns how many."""
    n_left = 0
    for j in range(n_picked):
        if counts[j] <= cut:
            g = picked[j]
            lower[g] = max(lower[g], bound[counts[j]])
            left[n_left] = g
            n_left += 1
    return n_left
