"""Numba kernels of the second-guess search: the best guess for each bucket of answers.

For a bucket b (the answers that gave one reply to an opener) the best second guess is
the guess whose replies split b best: the lowest fixed-point S (answers uniform) or the
lowest sum of W log2 W over its replies (weighted), with the tie rule of
pipeline.core.ties applied while streaming (`offer`): every guess within the tolerance
of the best so far is kept, in word order, per class (in the bucket or not); the winner
is the first of class 0, else the first of class 1.

What makes it cheap:
- Letter-group bound. A guess's reply is the tuple of the replies of its letter groups
  (a letter and the positions it holds in the guess), and a group's reply depends only
  on the candidate's greens on those positions and its copies of the letter. By
  subadditivity the reply entropy is at most the sum of the group entropies, which cost
  one small merge per group and bucket. This rules out almost all (guess, bucket) pairs
  (about 97% of the pattern reads on the real lists) before a single pattern is read.
- The bound is taken a block of guesses at a time, against the best score so far: the
  threshold tightens between blocks, and a perfect split ends the scan before the
  bounds of the guesses after it are computed.
- Pair bound, on buckets of a few to a few dozen answers (pair_search_jit): a guess
  that leaves p pairs of answers untold scores at least the least S of any partition
  with p pairs. The pairs cost a fast row comparison; the guess with the fewest is
  scored first, and only guesses whose bound comes within the tolerance of its score
  are scored at all (about 9 per bucket of 11-20 answers on the real lists, against
  about 1000 after the letter-group bound). From SURVIVOR_PAIRS answers
  (second_guess.py) the pairs are counted only for the guesses the letter-group bound
  leaves in the running.
- The guesses left are scored four at a time (partition_jit.lanes4_s), stopping once all
  four pass the best score so far plus the tolerance. On a bucket of few answers they
  are read from the transposed matrix: its few answer rows stay in cache, where each
  guess row would cost a cache line per answer. Otherwise the first cells of the next
  few guesses in the running are requested from memory ahead (prefetch_jit) while the
  current four are scored: the matrix is larger than the cache.
- A bucket's own words are scored first. A perfect split (all replies distinct) beats
  any other by far more than the tolerance, so the first perfect candidate wins at once,
  otherwise the first perfect non-candidate in word order.
If a tie list overflows, the caller rescores that bucket the plain way. Pruning never
changes a result. The scoring and the tie lists are guess_scores_jit's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.kernels.guess_scores_jit import IN_BUCKET, OUTSIDE, score_guesses
from pipeline.kernels.letter_groups_jit import bucket_group_scores, group_bound
from pipeline.kernels.pair_bound_jit import BLOCK as PAIR_BLOCK
from pipeline.kernels.pair_search_jit import solve_by_pairs, solve_by_survivor_pairs


@njit(cache=True, nogil=True)
def bounded_guesses(
    guess_groups, scores, offset, first, last, limit, cand_bucket, b, use_bound, lower, left
):  # pragma: no cover - compiled
    """Guesses first..last-1 outside bucket b whose letter-group bound (kept in lower) is
    at most limit, into left, in word order; returns how many. Bound and filter in one
    pass."""
    n_left = 0
    for g in range(first, last):
        total = group_bound(guess_groups, g, scores, offset) if use_bound else 0
        lower[g] = total
        left[n_left] = g
        n_left += (total <= limit) & (cand_bucket[g] != b)
    return n_left


@njit(cache=True, nogil=True)
def tie_state(n_buckets, records):  # pragma: no cover - compiled
    """(best, thr, rec_g, rec_s, rec_n, overflow) for `offer` over n_buckets buckets."""
    big = np.iinfo(np.int64).max
    return (
        np.full(n_buckets, big, dtype=np.int64),
        np.full(n_buckets, big, dtype=np.int64),
        np.zeros((n_buckets, 2, records), dtype=np.int64),
        np.zeros((n_buckets, 2, records), dtype=np.int64),
        np.zeros((n_buckets, 2), dtype=np.int64),
        np.zeros(n_buckets, dtype=np.bool_),
    )


@njit(cache=True, nogil=True)
def pick_winners(starts, columns, answer_rows, rec_g, rec_n):  # pragma: no cover - compiled
    """(winner word_id, winner in bucket) per bucket from the tie lists: the first of class
    0 (in the bucket), else the first of class 1; a bucket of one is its own winner."""
    n_buckets = starts.size - 1
    winners = np.empty(n_buckets, dtype=np.int64)
    in_bucket = np.empty(n_buckets, dtype=np.bool_)
    for b in range(n_buckets):
        if starts[b + 1] - starts[b] == 1:
            winners[b] = answer_rows[columns[starts[b]]]
            in_bucket[b] = True
        elif rec_n[b, 0] > 0:
            winners[b] = rec_g[b, 0, 0]
            in_bucket[b] = True
        else:
            winners[b] = rec_g[b, 1, 0]
            in_bucket[b] = False
    return winners, in_bucket


@njit(cache=True, nogil=True)
def solve_by_groups(
    matrix, matrix_t, transposed, answer_rows, columns, lo, hi, b, cand_bucket, delta,
    values, use_bound, groups, work, block, scratch, hist, base, state,
):  # fmt: skip
    """Best guess for bucket b with the letter-group bound (see the module docstring):
    the bucket's own words first (bounded one by one: the full bound array costs more
    than most buckets), then, unless one split it perfectly, the rest in word order, a
    block at a time, skipping what the bound rules out. Returns the next free histogram
    base."""
    guess_groups = groups[0]
    tol, best, thr, rec_g, rec_s, rec_n, overflow = state
    scores, ones, members, left, lower, _ = scratch
    n_guesses = matrix.shape[0]
    offset = 0
    if use_bound:
        offset = bucket_group_scores(groups, work, values, columns, lo, hi, ones, scores)
    for k in range(lo, hi):
        g = answer_rows[columns[k]]
        members[k - lo] = g
        lower[g] = group_bound(guess_groups, g, scores, offset) if use_bound else 0
    base = score_guesses(
        matrix, matrix_t, transposed, members, hi - lo, lower, columns, lo, hi, b, IN_BUCKET,
        delta, hist, base, tol, best, thr, rec_g, rec_s, rec_n, overflow,
    )  # fmt: skip
    first = np.int64(0)
    while first < n_guesses and best[b] != 0:
        last = min(first + block, n_guesses)
        n_left = bounded_guesses(
            guess_groups, scores, offset, first, last, thr[b], cand_bucket, b, use_bound,
            lower, left,
        )  # fmt: skip
        base = score_guesses(
            matrix, matrix_t, transposed, left, n_left, lower, columns, lo, hi, b, OUTSIDE,
            delta, hist, base, tol, best, thr, rec_g, rec_s, rec_n, overflow,
        )  # fmt: skip
        first = last
    return base


@njit(cache=True, nogil=True)
def solve_counts(
    matrix, answer_rows, columns, starts, cand_bucket, delta, values, tol, records, span,
    use_bound, groups, work, layout, pairs,
):  # fmt: skip
    """Best second guess per bucket, answers uniform (see the module docstring).

    columns: answer columns sorted by bucket; starts: bucket offsets into columns;
    cand_bucket[g]: the bucket holding guess g, -1 if none. Buckets are solved one after
    the other, those of pairs[1]..pairs[3] answers with the pair bound (table pairs[0];
    from pairs[2] answers counted among the letter-group bound's survivors only), the
    others with the letter-group bound. Returns (winner word_id, winner in bucket,
    best S, overflowed) per bucket. `groups`: LetterGroups.kernel_arguments(); `work`:
    its scratch, LetterGroups.work(); `layout`: (matrix transposed, the largest bucket
    read from it, guesses bounded per block).
    """
    matrix_t, small_bucket, block = layout
    bound_table, pairs_from, survivors_from, pairs_to = pairs
    n_buckets, n_guesses = starts.size - 1, matrix.shape[0]
    best, thr, rec_g, rec_s, rec_n, overflow = tie_state(n_buckets, records)
    state = (tol, best, thr, rec_g, rec_s, rec_n, overflow)
    hist = np.zeros((4, span), dtype=np.int64)
    scratch = (
        np.zeros(groups[1].size + 1, dtype=np.int64),  # letter-group scores
        np.ones(columns.size, dtype=np.float64),  # answer weights
        np.empty(columns.size, dtype=np.int64),  # the bucket's words
        np.empty(n_guesses, dtype=np.int64),  # the guesses left
        np.zeros(n_guesses, dtype=np.int64),  # their lower bounds
        np.empty((3, 4), dtype=np.int64),  # lanes4 output
    )
    counts = np.zeros(n_guesses, dtype=np.uint16)
    small = np.zeros(PAIR_BLOCK, dtype=np.uint8)
    picked = np.empty(n_guesses, dtype=np.int64)
    base = np.int64(0)  # not the literal 0: one compiled version of each callee
    for b in range(n_buckets):
        lo, hi = starts[b], starts[b + 1]
        if hi - lo < 2:
            best[b] = 0
        elif use_bound and survivors_from <= hi - lo <= pairs_to:
            base = solve_by_survivor_pairs(
                matrix, matrix_t, answer_rows, columns, lo, hi, b, cand_bucket, delta, values,
                bound_table[hi - lo], groups, work, counts, small, scratch, hist, base, state,
                picked,
            )  # fmt: skip
        elif use_bound and pairs_from <= hi - lo <= pairs_to:
            base = solve_by_pairs(
                matrix, matrix_t, answer_rows, columns, lo, hi, b, cand_bucket, delta,
                bound_table[hi - lo], counts, small, scratch, hist, base, state,
            )  # fmt: skip
        else:
            base = solve_by_groups(
                matrix, matrix_t, hi - lo <= small_bucket, answer_rows, columns, lo, hi, b,
                cand_bucket, delta, values, use_bound, groups, work, block, scratch, hist,
                base, state,
            )  # fmt: skip
    winners, in_bucket = pick_winners(starts, columns, answer_rows, rec_g, rec_n)
    return winners, in_bucket, best, overflow
