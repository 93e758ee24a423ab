"""Numba kernels of the second-guess search on buckets of a few to a few dozen answers,
with the pair bound (pipeline.kernels.pair_bound_jit).

A guess that leaves p pairs of the bucket's answers untold scores at least the least S of
any partition with p pairs, so after counting every guess's pairs only a handful of
guesses are scored. Counting costs n(n-1)/2 row comparisons per guess, so it grows with
the square of the bucket:
- `solve_by_pairs` (up to SURVIVOR_PAIRS - 1 answers on the real lists) counts the pairs
  of every guess;
- `solve_by_survivor_pairs` (larger buckets) first takes the letter-group bound of every
  guess (pipeline.kernels.letter_groups_jit, a few additions per guess), and counts the
  pairs only of the guesses it leaves within the best so far, about a tenth of them,
  copied side by side from the transposed matrix. On the real lists that takes a
  quarter off the time of buckets of 16-40 answers, a tenth off the whole ranking.
Both return the next free histogram base, as score_guesses does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.kernels.guess_scores_jit import IN_BUCKET, OUTSIDE, TRANSPOSED, score_guesses
from pipeline.kernels.letter_groups_jit import bucket_group_scores, group_bounds
from pipeline.kernels.pair_bound_jit import (
    fewest_pairs,
    gather_guesses,
    guesses_at_most,
    guesses_within,
    most_pairs_within,
    pair_counts,
    picked_within,
)
from pipeline.kernels.partition_jit import lanes4_transposed

BIG = np.iinfo(np.int64).max  # no early stop: a seed is scored in full


@njit(cache=True, nogil=True)
def score_seed(matrix_t, g, columns, lo, hi, delta, hist, base, lanes_out):  # pragma: no cover
    """Guess g's exact S on columns[lo:hi], from the transposed matrix (no offer: a seed
    only sets a cut). Returns (S, the next free histogram base)."""
    lanes4_transposed(matrix_t, g, g, g, g, columns, lo, hi, hist, base, delta, BIG, lanes_out)
    return lanes_out[0, 0], base + hi - lo + 1


@njit(cache=True, nogil=True)
def solve_by_pairs(
    matrix, matrix_t, answer_rows, columns, lo, hi, b, cand_bucket, delta, bound, counts,
    small, scratch, hist, base, state,
):  # fmt: skip
    """Best guess for bucket b with the pair bound (pipeline.kernels.pair_bound_jit):
    count every guess's untold pairs, score the guess with the fewest exactly (no offer:
    the cut only), then score the bucket's own words and, unless one split it perfectly,
    the guesses whose pair count can still come within the tolerance of that score, in
    word order, from the transposed matrix. Returns the next free histogram base."""
    tol, best, thr, rec_g, rec_s, rec_n, overflow = state
    _, _, members, left, lower, lanes_out = scratch
    pair_counts(matrix_t, columns, lo, hi, small, counts)
    seed = fewest_pairs(counts)
    s, base = score_seed(matrix_t, seed, columns, lo, hi, delta, hist, base, lanes_out)
    cut = most_pairs_within(bound, s + tol[b])
    for k in range(lo, hi):
        g = answer_rows[columns[k]]
        members[k - lo] = g
        lower[g] = bound[counts[g]]
    base = score_guesses(
        matrix, matrix_t, TRANSPOSED, members, hi - lo, lower, columns, lo, hi, b, IN_BUCKET,
        delta, hist, base, tol, best, thr, rec_g, rec_s, rec_n, overflow,
    )  # fmt: skip
    if best[b] != 0:
        n_left = guesses_within(counts, cut, cand_bucket, b, bound, lower, left)
        base = score_guesses(
            matrix, matrix_t, TRANSPOSED, left, n_left, lower, columns, lo, hi, b, OUTSIDE,
            delta, hist, base, tol, best, thr, rec_g, rec_s, rec_n, overflow,
        )  # fmt: skip
    return base


@njit(cache=True, nogil=True)
def solve_by_survivor_pairs(
    matrix, matrix_t, answer_rows, columns, lo, hi, b, cand_bucket, delta, values, bound,
    groups, work, counts, small, scratch, hist, base, state, picked,
):  # fmt: skip
    """Best guess for bucket b (see the module docstring): every guess's letter-group
    bound; the bucket's own words scored; unless one split it perfectly, the guess of
    least bound scored as a seed; the pairs counted for the guesses whose bound is within
    the best so far (`picked`, word order); the one with the fewest scored as a second
    seed; then, in word order, those whose pair bound is still within the best."""
    tol, best, thr, rec_g, rec_s, rec_n, overflow = state
    scores, ones, members, left, lower, lanes_out = scratch
    n = hi - lo
    offset = bucket_group_scores(groups, work, values, columns, lo, hi, ones, scores)
    least = group_bounds(groups[0], scores, offset, lower)
    for k in range(lo, hi):
        members[k - lo] = answer_rows[columns[k]]
    base = score_guesses(
        matrix, matrix_t, TRANSPOSED, members, n, lower, columns, lo, hi, b, IN_BUCKET,
        delta, hist, base, tol, best, thr, rec_g, rec_s, rec_n, overflow,
    )  # fmt: skip
    if best[b] == 0:
        return base
    s, base = score_seed(matrix_t, least, columns, lo, hi, delta, hist, base, lanes_out)
    n_picked = guesses_at_most(lower, min(thr[b], s + tol[b]), cand_bucket, b, picked)
    if n_picked == 0:
        return base
    rows = np.empty((n, n_picked), dtype=matrix_t.dtype)
    gather_guesses(matrix_t, columns, lo, hi, picked, n_picked, rows)
    picked_counts = counts[:n_picked]
    pair_counts(rows, np.arange(n), np.int64(0), n, small, picked_counts)
    seed = picked[fewest_pairs(picked_counts)]
    s, base = score_seed(matrix_t, seed, columns, lo, hi, delta, hist, base, lanes_out)
    cut = most_pairs_within(bound, min(thr[b], s + tol[b]))
    n_left = picked_within(picked_counts, picked, n_picked, cut, bound, lower, left)
    return score_guesses(
        matrix, matrix_t, TRANSPOSED, left, n_left, lower, columns, lo, hi, b, OUTSIDE,
        delta, hist, base, tol, best, thr, rec_g, rec_s, rec_n, overflow,
    )  # fmt: skip
