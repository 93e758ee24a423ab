"""The three ways the opener search solves one bucket (count_search picks one by size).

- `solve_by_groups`, the letter-group bound (letter_groups): the bucket's own words
  first, then every other guess in word order, a block at a time, skipping what the bound
  rules out. The bounds of a block are taken against the best score so far, so the
  threshold tightens between blocks, and a perfect split ends the scan before the bounds
  of the guesses after it are computed.
- `solve_by_pairs`, the pair bound (pair_bound): every guess's untold pairs counted, the
  guess with the fewest scored as a seed, then only the guesses whose pair count can
  still come within the tolerance of it.
- `solve_by_survivor_pairs`, the pair bound on larger buckets: the pairs are counted
  only for the guesses the letter-group bound leaves within the best so far, about a
  tenth of them, copied side by side from the transposed matrix.
Each takes the OpenerContext (state) and the bucket's index, and returns the next free
histogram base, as scoring.score_guesses does. A bucket's own words are scored first:
with `perfect_split` the first perfect candidate wins at once.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit
from pipeline.kernels.opener_search.letter_groups import (
    bucket_group_scores,
    group_bound,
    group_bounds,
)
from pipeline.kernels.opener_search.pair_bound import (
    count_pairs,
    fewest_pairs,
    gather_guesses,
    guesses_at_most,
    guesses_within,
    most_pairs_within,
    picked_within,
)
from pipeline.kernels.opener_search.scoring import (
    IN_BUCKET,
    OUTSIDE,
    TRANSPOSED,
    score_guesses,
    score_seed,
)
from pipeline.kernels.opener_search.state import Bounds, reads_of


@njit(cache=True, nogil=True)
def bucket_members(answer_rows, columns, lo, hi, members):  # pragma: no cover - compiled
    """The words (word_ids) of the bucket columns[lo:hi] into members; returns how many."""
    for k in range(lo, hi):
        members[k - lo] = answer_rows[columns[k]]
    return hi - lo


@njit(cache=True, nogil=True)
def bounded_guesses(bounds, b, offset, first, last, limit, use_bound):  # pragma: no cover
    """Guesses first..last-1 outside bucket b whose letter-group bound (kept in
    bounds.lower) is at most limit, into bounds.left, in word order; returns how many.
    Bound and filter in one pass. use_bound False: every guess's bound is 0."""
    guess_groups, scores, cand_bucket = bounds.guess_groups, bounds.scores, bounds.cand_bucket
    lower, left = bounds.lower, bounds.left
    n_left = 0
    for g in range(first, last):
        total = group_bound(guess_groups, g, scores, offset) if use_bound else 0
        lower[g] = total
        left[n_left] = g
        n_left += (total <= limit) & (cand_bucket[g] != b)
    return n_left


@njit(cache=True, nogil=True)
def solve_by_groups(context, b, transposed, base):  # pragma: no cover - compiled
    """Best guess for bucket b with the letter-group bound (when settings.letter_groups;
    without it every guess is scored): the bucket's own words first (bounded one by one:
    the full bound array costs more than most buckets), then, unless one split it
    perfectly, the rest in word order, a block at a time, skipping what the bound rules
    out. transposed: read the bucket from the transposed matrix."""
    data, query, scratch, settings = context.data, context.query, context.scratch, context.settings
    best, members, lower = context.ties.best, scratch.members, scratch.lower
    lo, hi = query.starts[b], query.starts[b + 1]
    guess_groups = context.groups.guess_groups
    offset = 0
    if settings.letter_groups:
        offset = bucket_group_scores(
            context.groups, context.work, data.values, query.columns, lo, hi, scratch.ones,
            scratch.scores,
        )  # fmt: skip
    n = bucket_members(data.answer_rows, query.columns, lo, hi, scratch.members)
    for k in range(n):
        g = members[k]
        lower[g] = (
            group_bound(guess_groups, g, scratch.scores, offset) if settings.letter_groups else 0
        )
    reads, ties = reads_of(data, query, scratch), context.ties
    base = score_guesses(reads, ties, settings, b, members, n, IN_BUCKET, transposed, base)
    bounds = Bounds(guess_groups, scratch.scores, lower, scratch.left, query.cand_bucket)
    n_guesses = data.matrix.shape[0]
    first = np.int64(0)
    while first < n_guesses and not (settings.perfect_split and best[b] == 0):
        last = min(first + settings.block, n_guesses)
        limit = ties.thr[b]
        n_left = bounded_guesses(bounds, b, offset, first, last, limit, settings.letter_groups)
        base = score_guesses(
            reads, ties, settings, b, scratch.left, n_left, OUTSIDE, transposed, base
        )
        first = last
    return base


@njit(cache=True, nogil=True)
def solve_by_pairs(context, b, base):  # pragma: no cover - compiled
    """Best guess for bucket b with the pair bound: count every guess's untold pairs,
    score the guess with the fewest exactly (no offer: the cut only), then score the
    bucket's own words and, unless one split it perfectly, the guesses whose pair count
    can still come within the tolerance of that score, in word order, from the
    transposed matrix."""
    data, query, scratch, ties = context.data, context.query, context.scratch, context.ties
    lo, hi = query.starts[b], query.starts[b + 1]
    bound, counts, lower = data.pair_table[hi - lo], scratch.counts, scratch.lower
    count_pairs(data.matrix_t, query.columns, lo, hi, scratch.small, counts)
    reads, settings = reads_of(data, query, scratch), context.settings
    s, base = score_seed(reads, fewest_pairs(counts), b, scratch.lanes_out, base)
    cut = most_pairs_within(bound, s + ties.tol[b])
    n = bucket_members(data.answer_rows, query.columns, lo, hi, scratch.members)
    for k in range(n):
        lower[scratch.members[k]] = bound[counts[scratch.members[k]]]
    base = score_guesses(reads, ties, settings, b, scratch.members, n, IN_BUCKET, TRANSPOSED, base)
    if not (settings.perfect_split and ties.best[b] == 0):
        n_left = guesses_within(counts, cut, query.cand_bucket, b, bound, lower, scratch.left)
        base = score_guesses(
            reads, ties, settings, b, scratch.left, n_left, OUTSIDE, TRANSPOSED, base
        )
    return base


@njit(cache=True, nogil=True)
def solve_by_survivor_pairs(context, b, base):  # pragma: no cover - compiled
    """Best guess for bucket b (module docstring): every guess's letter-group bound; the
    bucket's own words scored; unless one split it perfectly, the guess of least bound
    scored as a seed; the pairs counted for the guesses whose bound is within the best so
    far (`picked`, word order); the one with the fewest scored as a second seed; then,
    in word order, those whose pair bound is still within the best."""
    data, query, scratch, ties = context.data, context.query, context.scratch, context.ties
    lo, hi = query.starts[b], query.starts[b + 1]
    n, bound, picked, lower = hi - lo, data.pair_table[hi - lo], scratch.picked, scratch.lower
    offset = bucket_group_scores(
        context.groups, context.work, data.values, query.columns, lo, hi, scratch.ones,
        scratch.scores,
    )  # fmt: skip
    least = group_bounds(context.groups.guess_groups, scratch.scores, offset, lower)
    bucket_members(data.answer_rows, query.columns, lo, hi, scratch.members)
    reads, settings = reads_of(data, query, scratch), context.settings
    base = score_guesses(reads, ties, settings, b, scratch.members, n, IN_BUCKET, TRANSPOSED, base)
    if settings.perfect_split and ties.best[b] == 0:
        return base
    s, base = score_seed(reads, least, b, scratch.lanes_out, base)
    limit = min(ties.thr[b], s + ties.tol[b])
    n_picked = guesses_at_most(lower, limit, query.cand_bucket, b, picked)
    if n_picked == 0:
        return base
    rows = np.empty((n, n_picked), dtype=data.matrix_t.dtype)
    gather_guesses(data.matrix_t, query.columns, lo, hi, picked, n_picked, rows)
    picked_counts = scratch.counts[:n_picked]
    count_pairs(rows, np.arange(n), np.int64(0), n, scratch.small, picked_counts)
    s, base = score_seed(reads, picked[fewest_pairs(picked_counts)], b, scratch.lanes_out, base)
    cut = most_pairs_within(bound, min(ties.thr[b], s + ties.tol[b]))
    n_left = picked_within(picked_counts, picked, n_picked, cut, bound, lower, scratch.left)
    return score_guesses(reads, ties, settings, b, scratch.left, n_left, OUTSIDE, TRANSPOSED, base)
