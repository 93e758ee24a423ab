"""Numba kernels of the weighted second-guess search (pipeline.kernels.second_guess's
`weighted_winner`): every allowed word a candidate, weighted, patterns computed only for
the guesses the letter-group bound leaves in the running, and the exact tie tracking of
guess_scores_jit.offer.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.kernels.feedback_jit import fill_patterns
from pipeline.kernels.guess_scores_jit import offer
from pipeline.kernels.partition_jit import settle_float, tally


@njit(cache=True, nogil=True)
def offer_weighted_rows(
    ids,
    sub,
    weights,
    in_bucket,
    can_resolve,
    counts,
    mass,
    touched,
    tol,
    best,
    thr,
    rec_g,
    rec_s,
    rec_n,
    overflow,
):  # pragma: no cover - compiled
    """Score rows of `sub` (guesses `ids` x the bucket's words, words weighted by their
    raw weights) on bucket 0 by S = sum W log2 W over replies, and offer them in order.
    Returns (any perfect split, stopped early): with can_resolve a perfect split by a
    word outside the bucket is the winner, so scoring stops there."""
    n = sub.shape[1]
    no_columns = np.empty(0, dtype=np.int64)
    perfect = False
    for i in range(ids.size):
        k = tally(sub[i], no_columns, False, weights, True, counts, mass, touched)
        _, minus_s, _, _ = settle_float(counts, mass, touched, k, n, True, False)
        s = -minus_s
        if s <= thr[0]:
            offer(0, ids[i], s, in_bucket, tol, best, thr, rec_g, rec_s, rec_n, overflow)
        if k == n:
            perfect = True
            if can_resolve and not in_bucket:
                return perfect, True
    return perfect, False


@njit(cache=True, nogil=True)
def offer_weighted_guesses(
    encoded,
    rows,
    lower,
    targets_t,
    target_counts,
    weights,
    in_bucket,
    can_resolve,
    block,
    scratch,
    state,
):  # pragma: no cover - compiled
    """offer_weighted_rows for the guesses `rows` (word order) on the bucket whose words
    are targets_t (transposed, with their letter counts). Patterns are computed only for
    guesses whose lower bound still passes the best so far, block.shape[0] at a time.
    Returns (any perfect split, stopped early)."""
    counts, mass, touched = scratch
    tol, best, thr, rec_g, rec_s, rec_n, overflow = state
    size = block.shape[0]
    chosen = np.empty(size, dtype=np.int64)
    letters = np.empty((size, encoded.shape[1]), dtype=encoded.dtype)
    perfect = False
    i = 0
    while i < rows.size:
        m = 0
        while i < rows.size and m < size:
            g = rows[i]
            i += 1
            if lower[g] <= thr[0]:
                chosen[m] = g
                letters[m] = encoded[g]
                m += 1
        if m == 0:
            break
        fill_patterns(letters[:m], targets_t, target_counts, block[:m])
        found, stop = offer_weighted_rows(
            chosen[:m], block[:m], weights, in_bucket, can_resolve, counts, mass, touched,
            tol, best, thr, rec_g, rec_s, rec_n, overflow,
        )  # fmt: skip
        perfect = perfect or found
        if stop:
            return perfect, True
    return perfect, False
