"""The one tie rule: when two scores are equal, and how ties break.

Scores (entropies in bits, expected guesses, fixed-point sums) that differ only by the
order floats were summed in must not decide a ranking. The rule, used by every stage,
kernel and the assistant:

- Groups are anchored at their best score: the best score not yet grouped opens a
  group, and every score within `tolerance` of it (inclusive) joins that group. The
  next group opens at the best score left. So 1.0, 1 - 0.6e-9 and 1 - 1.2e-9 make two
  groups, {1.0, 1 - 0.6e-9} and {1 - 1.2e-9}: a chain of near-ties never links scores
  further apart than the tolerance.
- Within a group, ties break by the caller's keys in order (for example "is a possible
  answer" first), then by position (word_id).

Kernels that pick a best guess while streaming (the second-guess and optimal searches)
apply the same rule to the winner: everything within the tolerance of the best, then
the same keys.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from pipeline.core.arrays import distinct

TIE_TOLERANCE = 1e-9


def tie_groups(
    scores: np.ndarray, *, higher_is_better: bool, tolerance: float | int = TIE_TOLERANCE
) -> np.ndarray:
    """Group number of each score, 0 for the best group (see the module docstring).

    Equal scores always share a group, so the rule runs over the distinct scores. A
    distinct score more than the tolerance past the one before it opens a group whatever
    that group's anchor (the anchor is at or before its neighbour); only the near-ties
    left are walked one by one. (Walking all of them cost 4 ms per 15 000 scores, and the
    two_step strategy ranks every word at each node: 40 % of its games.)"""
    signed = _lower_is_better(scores, higher_is_better)
    tolerance = _exact_tolerance(signed, tolerance)
    values, _, inverse = distinct(signed)
    opens = np.ones(values.size, dtype=bool)
    if values.dtype.kind == "i":  # the exact gap: wrapping uint64 subtraction of sorted int64
        opens[1:] = values[1:].view(np.uint64) - values[:-1].view(np.uint64) > tolerance
    else:
        opens[1:] = values[1:] > values[:-1] + tolerance
    last_open = np.maximum.accumulate(np.where(opens, np.arange(values.size), 0))
    # Python numbers: exact for int64 fixed-point scores, which float64 would round.
    exact = values.tolist()
    anchor = 0
    for position in np.flatnonzero(~opens).tolist():
        anchor = max(anchor, int(last_open[position]))
        if exact[position] > exact[anchor] + tolerance:
            opens[position] = True
            anchor = position
    return (np.cumsum(opens) - 1)[inverse]


def _lower_is_better(scores: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Scores as an int64 or float64 array where lower is better."""
    values = np.asarray(scores)
    if not np.issubdtype(values.dtype, np.integer):
        values = values.astype(np.float64)
    else:
        values = values.astype(np.int64)
    return -values if higher_is_better else values


def _exact_tolerance(signed: np.ndarray, tolerance: float | int) -> float | int:
    """For integer scores the tolerance as an int (its floor: the same ties), so that
    comparisons stay exact above 2**53, where adding a float would round the score."""
    if np.issubdtype(signed.dtype, np.integer):
        return math.floor(tolerance)
    return tolerance


def rank_order(
    scores: np.ndarray,
    *,
    higher_is_better: bool,
    keys: Sequence[np.ndarray] = (),
    tolerance: float | int = TIE_TOLERANCE,
) -> np.ndarray:
    """Positions in rank order: by tie group, then by each key ascending, then position."""
    groups = tie_groups(scores, higher_is_better=higher_is_better, tolerance=tolerance)
    columns = [np.arange(groups.size), *reversed([np.asarray(key) for key in keys]), groups]
    return np.lexsort(columns)


def leading_positions(
    scores: np.ndarray,
    count: int,
    *,
    higher_is_better: bool,
    keys: Sequence[np.ndarray] = (),
    tolerance: float | int = TIE_TOLERANCE,
) -> np.ndarray:
    """rank_order(...)[:count], ranking only the scores within the tolerance of the
    count-th best: they hold every group the first `count` can come from, whole (groups
    form in score order, so the best scores group alone as they do among all)."""
    signed = _lower_is_better(scores, higher_is_better)
    count = min(count, signed.size)
    if count <= 0:
        return np.empty(0, dtype=np.intp)
    tolerance = _exact_tolerance(signed, tolerance)
    if signed.dtype.kind == "f" and np.isnan(signed).any():  # NaN joins the last group
        return rank_order(signed, higher_is_better=False, keys=keys, tolerance=tolerance)[:count]
    last = np.partition(signed, count - 1)[count - 1]
    if signed.dtype.kind == "i":  # exact, and never past the largest int64
        limit = np.int64(min(int(last) + tolerance, np.iinfo(np.int64).max))
    else:
        limit = last + tolerance
    near = np.flatnonzero(signed <= limit)
    order = rank_order(
        signed[near],
        higher_is_better=False,
        keys=[np.asarray(key)[near] for key in keys],
        tolerance=tolerance,
    )
    return near[order[:count]]


def ranks(
    scores: np.ndarray,
    *,
    higher_is_better: bool,
    keys: Sequence[np.ndarray] = (),
    tolerance: float | int = TIE_TOLERANCE,
) -> np.ndarray:
    """1-based rank of each score by rank_order (ranks are all distinct)."""
    order = rank_order(scores, higher_is_better=higher_is_better, keys=keys, tolerance=tolerance)
    result = np.empty(order.size, dtype=np.int32)
    result[order] = np.arange(1, order.size + 1, dtype=np.int32)
    return result


def best_position(
    scores: np.ndarray,
    *,
    higher_is_better: bool,
    keys: Sequence[np.ndarray] = (),
    tolerance: float | int = TIE_TOLERANCE,
) -> int:
    """Position of the winner: rank_order's first, without sorting everything."""
    signed = _lower_is_better(scores, higher_is_better)
    if signed.size == 0:
        raise ValueError("no scores to choose from")
    tolerance = _exact_tolerance(signed, tolerance)
    candidates = np.flatnonzero(signed <= signed.min() + tolerance)
    for key in keys:
        column = np.asarray(key)[candidates]
        candidates = candidates[column == column.min()]
    return int(candidates[0])
