"""The weighted opener search: `weighted_winner`, every allowed word a candidate, weighted.

No guess x guess matrix is stored: patterns are computed only for the guesses the
letter-group bound leaves in the running, a chunk at a time, scored by S = sum W log2 W
over their replies (W: reply weight, lower is better) and offered to the exact tie
tracking of scoring.offer, on one bucket.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from pipeline.core.ties import TIE_TOLERANCE
from pipeline.core.wordle import pattern_dtype
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.feedback_jit import fill_patterns, letter_counts
from pipeline.kernels.jit import njit
from pipeline.kernels.opener_search.count_search import rescore
from pipeline.kernels.opener_search.letter_groups import (
    LetterGroups,
    group_bounds,
    group_weights,
    group_work,
)
from pipeline.kernels.opener_search.scoring import offer
from pipeline.kernels.opener_search.settings import SearchSettings
from pipeline.kernels.opener_search.state import tie_state
from pipeline.kernels.partition_jit import settle_float, tally

# One bucket of the weighted search, as its kernels read it.
WeightedBucket = namedtuple(
    "WeightedBucket",
    [
        "encoded",  # (G, L) uint8 every guess's letters
        "lower",  # (G,) each guess's letter-group bound (-inf: no bound)
        "targets_t",  # (L, n) the bucket's words, transposed
        "target_counts",  # their letter counts (feedback_jit.letter_counts)
        "weights",  # (n,) the bucket's words' weights
        "can_resolve",  # bool: a perfect split by a word outside the bucket wins at once
        "block",  # (chunk, n) patterns of a chunk of guesses
        "counts",  # (3**L,) reply histogram scratch
        "mass",  # (3**L,) reply weights scratch
        "touched",  # (n,) replies in use scratch
    ],
)


def weighted_winner(
    encoded: np.ndarray, groups: LetterGroups, ids: np.ndarray, weights: np.ndarray,
    *, settings: SearchSettings | None = None,
) -> tuple[int, bool]:  # fmt: skip
    """(best second guess, whether it is in the bucket) for the bucket of words `ids`,
    every word weighted by `weights` (aligned with ids); `groups` are letter_groups of
    every word over every word; `encoded` as feedback.check_encoded returns it (checked
    once by the caller, not per bucket). settings: the mechanisms that run (only
    letter_groups and perfect_split apply here) and the sizes."""
    if encoded.ndim != 2 or encoded.dtype != np.uint8 or not encoded.flags.c_contiguous:
        raise ValueError("encoded words must be a C-contiguous (n, L) uint8 array")
    settings = settings if settings is not None else SearchSettings()
    total = float(weights.sum())
    ties = tie_state(np.array([TIE_TOLERANCE * total]), settings.records, np.inf)
    bucket = weighted_bucket(encoded, groups, ids, weights, ties.tol[0], settings)
    perfect, _ = offer_weighted_guesses(bucket, ids, True, ties)
    if not (perfect and bucket.can_resolve):
        outside = bucket.lower <= ties.thr[0]  # the best so far plus the tolerance
        outside[ids] = False
        offer_weighted_guesses(bucket, np.flatnonzero(outside), False, ties)
    if ties.overflow[0]:
        return rescore(feedback_matrix(encoded, encoded[ids], engine="jit"), ids, weights)
    if ties.rec_n[0, 0] > 0:
        return int(ties.rec_g[0, 0, 0]), True
    return int(ties.rec_g[0, 1, 0]), False


def weighted_bucket(
    encoded: np.ndarray, groups: LetterGroups, ids: np.ndarray, weights: np.ndarray,
    tolerance: float, settings: SearchSettings,
) -> WeightedBucket:  # fmt: skip
    """The WeightedBucket of words `ids`: every guess's letter-group bound on it, and
    whether a perfect split decides at once (module docstring)."""
    n = len(ids)
    total = float(weights.sum())
    slots = groups.guess_groups.shape[1]
    margin = 1e-9 * total * (slots + 1) * (2.0 + abs(np.log2(total)) + np.log2(n))
    lower = np.full(len(groups.guess_groups), -np.inf)
    if settings.letter_groups:
        whole = total * np.log2(total)
        n_groups = len(groups.group_letter)
        scores = np.empty(n_groups + 1, dtype=np.float64)
        scores[n_groups] = whole
        group_weights(ids, 0, n, weights, groups, group_work(groups), scores)
        group_bounds(groups.guess_groups, scores, (slots - 1) * whole + margin, lower)
    # A perfect split beats every other split by at least the cost of merging the two
    # lightest words; when that exceeds the tolerance, the first perfect split wins.
    light = np.sort(weights)[:2]
    gap = light.sum() * np.log2(light.sum()) - np.sum(light * np.log2(light))
    n_bins = 3 ** encoded.shape[1]
    targets_t = np.ascontiguousarray(encoded[ids].T)
    return WeightedBucket(
        encoded=encoded,
        lower=lower,
        targets_t=targets_t,
        target_counts=letter_counts(targets_t),
        weights=weights,
        can_resolve=settings.perfect_split and bool(gap > 2 * tolerance + 4 * margin),
        block=np.empty((settings.weighted_chunk, n), dtype=pattern_dtype(encoded.shape[1])),
        counts=np.zeros(n_bins, np.int64),
        mass=np.zeros(n_bins),
        touched=np.empty(max(n, 1), np.int64),
    )


@njit(cache=True, nogil=True)
def offer_weighted_rows(bucket, ids, sub, in_bucket, ties):  # pragma: no cover - compiled
    """Score rows of `sub` (guesses `ids` x the bucket's words, words weighted by their
    raw weights) on bucket 0 by S = sum W log2 W over replies, and offer them in order.
    Returns (any perfect split, stopped early): with can_resolve a perfect split by a
    word outside the bucket is the winner, so scoring stops there."""
    counts, mass, touched = bucket.counts, bucket.mass, bucket.touched
    n = sub.shape[1]
    no_columns = np.empty(0, dtype=np.int64)
    perfect = False
    for i in range(ids.size):
        k = tally(sub[i], no_columns, False, bucket.weights, True, counts, mass, touched)
        _, minus_s, _, _ = settle_float(counts, mass, touched, k, n, True, False)
        s = -minus_s
        if s <= ties.thr[0]:
            offer(0, ids[i], s, in_bucket, ties)
        if k == n:
            perfect = True
            if bucket.can_resolve and not in_bucket:
                return perfect, True
    return perfect, False


@njit(cache=True, nogil=True)
def offer_weighted_guesses(bucket, rows, in_bucket, ties):  # pragma: no cover - compiled
    """offer_weighted_rows for the guesses `rows` (word order) on the bucket (a
    WeightedBucket). Patterns are computed only for guesses whose lower bound still
    passes the best so far, bucket.block.shape[0] at a time. Returns (any perfect split,
    stopped early)."""
    encoded, lower, block, thr = bucket.encoded, bucket.lower, bucket.block, ties.thr
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
        fill_patterns(letters[:m], bucket.targets_t, bucket.target_counts, block[:m])
        found, stop = offer_weighted_rows(bucket, chosen[:m], block[:m], in_bucket, ties)
        perfect = perfect or found
        if stop:
            return perfect, True
    return perfect, False
