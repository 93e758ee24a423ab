"""Certified top openers: bound every opener, prove only those the bound cannot exclude.

The stop rule: once the K-th best proven total T is known, an opener whose lower bound
exceeds T cannot be among the best K, so it need not be searched. `screen_openers`
applies it with a fixed cap (T + 1, T from openers already proven): each opener gets its
partition and second-level bounds (bounds), and one whose bound is below the cap is
searched with the cap as cutoff, which proves its total when that is below the cap and
otherwise proves a lower bound at or above it. Each search starts from an empty memo, so
every opener's result depends only on the opener and the cap, never on which openers
shared a batch: another split of the work changes no value.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from pipeline.kernels.optimal_search.bounds import opener_floor
from pipeline.kernels.optimal_search.context import INF, build_context
from pipeline.kernels.optimal_search.memo import clear_memo
from pipeline.kernels.optimal_search.solve import OptimalResult, check_inputs, solve_one
from pipeline.kernels.optimal_search.tuning import ALL_ON


@dataclass(frozen=True)
class ScreenedOpener:
    """One opener's bounds, and its search result when the bound did not reach the cap.

    partition_bound, second_level_bound: None when they prove that no tree fits;
    second_level_bound is exact below the cap, else some bound >= cap. result: the
    search below the cap (its total when below it, else a lower bound >= cap), or None.
    """

    opener: int
    partition_bound: int | None
    second_level_bound: int | None
    result: OptimalResult | None
    seconds: float


def stop_total(totals: Sequence[int | None], top: int) -> int | None:
    """T of the stop rule: the top-th best proven total, or the worst proven one when
    fewer than top openers have a tree (None when none has)."""
    feasible = sorted(t for t in totals if t is not None)
    if not feasible:
        return None
    return feasible[min(top, len(feasible)) - 1]


def screen_openers(
    matrix: np.ndarray,
    answer_rows: np.ndarray,
    encoded: np.ndarray,
    openers: Sequence[int],
    *,
    hard: bool,
    max_guesses: int,
    cap: int | None,
) -> Iterator[ScreenedOpener]:
    """Bound each opener row and search it below `cap` where its bound is lower (None: no
    cap, every opener is proven). Inputs as for solve.solve_opener."""
    checked = check_inputs(matrix, answer_rows, encoded, max_guesses, None, cap)
    matrix, answer_rows, encoded = checked
    ctx = build_context(matrix, answer_rows, encoded, hard, int(max_guesses), None, ALL_ON)
    limit = INF if cap is None else int(cap)
    for opener in openers:
        if not 0 <= int(opener) < matrix.shape[0]:
            raise ValueError(f"opener must be a word row in 0..{matrix.shape[0] - 1}, got {opener}")
        started = time.process_time()
        first, second = opener_floor(ctx, np.int64(opener), np.int64(limit))
        result = None
        if second < limit:
            clear_memo(ctx.memo)
            result = solve_one(ctx, matrix, encoded, int(opener), limit, started)
        yield ScreenedOpener(
            opener=int(opener),
            partition_bound=None if first >= INF else int(first),
            second_level_bound=None if second >= INF else int(second),
            result=result,
            seconds=time.process_time() - started,
        )
