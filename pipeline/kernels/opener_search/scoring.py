"""Scoring guesses on one bucket, and the exact tie lists every opener search keeps.

`offer` applies the tie rule of pipeline.core.ties while streaming: every guess within the
tolerance of the best so far is kept, in word order, per class (in the bucket or not).
`score_guesses` scores guesses four at a time (partition_jit), skips those whose lower
bound already exceeds the best so far, and ends the scan at a perfect split.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit
from pipeline.kernels.opener_search.prefetch import prefetch
from pipeline.kernels.opener_search.settings import PREFETCH_AHEAD, PREFETCH_CELLS
from pipeline.kernels.partition_jit import lanes4_s, lanes4_transposed

# Flags passed to score_guesses as numpy booleans: a literal True or False would make numba
# compile it, and every caller above it, once for each value (a cold process pays each).
IN_BUCKET = np.bool_(True)
OUTSIDE = np.bool_(False)
TRANSPOSED = np.bool_(True)
BIG = np.iinfo(np.int64).max  # no early stop: a seed is scored in full


@njit(cache=True, nogil=True)
def offer(b, g, s, in_bucket, ties):  # pragma: no cover - compiled
    """Feed score s (lower is better) of guess g on bucket b into the exact tie tracking
    (state.TieState).

    Lists (class 0: guesses in the bucket, 1: the rest) keep, in arrival (= word) order,
    the guesses that beat every earlier guess of their class and lie within tol of the
    best score of all; the winner is the head of list 0, else the head of list 1.
    """
    best, thr, rec_g, rec_s, rec_n = ties.best, ties.thr, ties.rec_g, ties.rec_s, ties.rec_n
    if s < best[b]:
        best[b] = s
        thr[b] = s + ties.tol[b]
        for cls in range(2):
            n = rec_n[b, cls]
            drop = 0
            while drop < n and rec_s[b, cls, drop] > thr[b]:
                drop += 1
            if drop:
                for i in range(n - drop):
                    rec_g[b, cls, i] = rec_g[b, cls, i + drop]
                    rec_s[b, cls, i] = rec_s[b, cls, i + drop]
                rec_n[b, cls] = n - drop
    if s <= thr[b]:
        cls = 0 if in_bucket else 1
        n = rec_n[b, cls]
        if n == 0 or s < rec_s[b, cls, n - 1]:
            if n == rec_g.shape[2]:
                ties.overflow[b] = True
            else:
                rec_g[b, cls, n] = g
                rec_s[b, cls, n] = s
                rec_n[b, cls] = n + 1


@njit(cache=True, nogil=True)
def score_guesses(
    reads, ties, settings, b, guesses, n_guesses, in_bucket, transposed, base
):  # pragma: no cover - compiled
    """Score guesses[:n_guesses] on bucket b four at a time, in order, skipping those
    whose lower bound (reads.lower) already exceeds the best so far, and offer each to
    the tie lists `ties`; with settings.perfect_split a perfect split (S = 0) ends the
    scan: nothing can beat it. transposed: read the transposed matrix (rows answers)
    instead of the guess rows. Returns the next free histogram base (partition_jit)."""
    matrix, matrix_t, delta, columns = reads.matrix, reads.matrix_t, reads.delta, reads.columns
    lo, hi, lower, hist = reads.starts[b], reads.starts[b + 1], reads.lower, reads.hist
    thr = ties.thr
    requests = settings.prefetch and not transposed
    stop_at_perfect = settings.perfect_split
    lane_g = np.zeros(4, dtype=np.int64)
    lanes_out = np.empty((3, 4), dtype=np.int64)
    s = lanes_out[0]
    depth = min(hi - lo, PREFETCH_CELLS)
    i = ahead = queued = 0  # guesses[i:ahead] looked at, `queued` of them requested
    while i < n_guesses:
        limit = thr[b]
        while ahead < n_guesses and queued < PREFETCH_AHEAD:
            g = guesses[ahead]
            ahead += 1
            if lower[g] <= limit:
                if requests:
                    for k in range(lo, lo + depth):
                        prefetch(matrix[g], columns[k])
                queued += 1
        lanes = 0
        while i < n_guesses and lanes < 4:
            g = guesses[i]
            if lower[g] <= limit:
                lane_g[lanes] = g
                lanes += 1
                queued = max(queued - 1, 0)
            i += 1
        ahead = max(ahead, i)
        if lanes == 0:
            break
        for j in range(lanes, 4):
            lane_g[j] = lane_g[0]
        if transposed:
            lanes4_transposed(
                matrix_t, lane_g[0], lane_g[1], lane_g[2], lane_g[3], columns, lo, hi, hist,
                base, delta, limit, lanes_out,
            )  # fmt: skip
        else:
            lanes4_s(
                matrix[lane_g[0]], matrix[lane_g[1]], matrix[lane_g[2]], matrix[lane_g[3]],
                columns, lo, hi, hist, base, delta, limit, lanes_out,
            )  # fmt: skip
        base += hi - lo + 1
        for lane in range(lanes):
            if s[lane] <= thr[b]:
                offer(b, lane_g[lane], s[lane], in_bucket, ties)
                if s[lane] == 0 and stop_at_perfect:
                    return base
    return base


@njit(cache=True, nogil=True)
def score_seed(reads, g, b, lanes_out, base):  # pragma: no cover - compiled
    """Guess g's exact S on bucket b, from the transposed matrix (no offer: a seed only
    sets a cut). Returns (S, the next free histogram base)."""
    lo, hi = reads.starts[b], reads.starts[b + 1]
    lanes4_transposed(
        reads.matrix_t, g, g, g, g, reads.columns, lo, hi, reads.hist, base, reads.delta, BIG,
        lanes_out,
    )  # fmt: skip
    return lanes_out[0, 0], base + hi - lo + 1
