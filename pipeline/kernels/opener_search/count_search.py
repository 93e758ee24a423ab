"""The opener search over stored guess x answer columns, answers uniform: `CountSearch`.

For a bucket b (the answers that gave one reply to an opener) the best second guess is
the guess whose replies split b best: the lowest fixed-point S (partition.fixed_point),
with the tie rule of pipeline.core.ties applied while streaming (scoring.offer): the
winner is the first guess in the bucket within the tolerance of the best, else the first
guess outside it. Buckets are solved one after the other, each by one of the three paths
of `buckets`, chosen by its size (settings); a bucket whose tie list overflows is
rescored the plain way. Pruning never changes a result.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.core.ties import TIE_TOLERANCE, best_position
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.jit import njit
from pipeline.kernels.opener_search.buckets import (
    solve_by_groups,
    solve_by_pairs,
    solve_by_survivor_pairs,
)
from pipeline.kernels.opener_search.letter_groups import build_letter_groups, group_work
from pipeline.kernels.opener_search.pair_bound import pair_bound_table
from pipeline.kernels.opener_search.scoring import BIG
from pipeline.kernels.opener_search.settings import SearchSettings
from pipeline.kernels.opener_search.state import (
    OpenerContext,
    Query,
    SearchData,
    scratch,
    tie_state,
)
from pipeline.kernels.partition import FixedPoint, fixed_point, float_stats


@dataclass(frozen=True)
class BucketWinners:
    """Per bucket: the best second guess (word_id), whether it lies in the bucket, and
    its fixed-point S over the bucket (answers uniform; 0 for a perfect split)."""

    winners: np.ndarray
    in_bucket: np.ndarray
    best_s: np.ndarray


class CountSearch:
    """Best second guesses over stored guess x answer columns, answers uniform.

    matrix: (G, A) patterns, rows guesses, columns answers; answer_rows: word_id of each
    column; encoded: every guess's letters (G, L); settings: the mechanisms that run
    (settings.SearchSettings, default all; the same winners with any of them off). The
    set-up is paid once; `winners` may run in several threads at once.
    """

    def __init__(
        self,
        matrix: np.ndarray,
        answer_rows: np.ndarray,
        encoded: np.ndarray,
        *,
        table: FixedPoint | None = None,
        settings: SearchSettings | None = None,
    ) -> None:
        matrix = np.ascontiguousarray(matrix)
        answer_rows = np.asarray(answer_rows, dtype=np.int64)
        if matrix.ndim != 2 or matrix.shape[1] != len(answer_rows) or matrix.shape[0] == 0:
            raise ValueError(f"matrix of shape {matrix.shape} does not match the answers")
        if encoded.shape[0] != matrix.shape[0]:
            raise ValueError(f"{encoded.shape[0]} words for a matrix of {matrix.shape[0]} rows")
        sample = np.unique(np.linspace(0, matrix.shape[0] - 1, 16).astype(np.int64))
        if not np.array_equal(
            feedback_matrix(encoded[sample], encoded[answer_rows]), matrix[sample]
        ):
            raise ValueError("the pattern matrix does not match the words")
        self.matrix = matrix
        self.answer_rows = answer_rows
        self.settings = settings = settings if settings is not None else SearchSettings()
        self.kernel_settings = settings.kernel(matrix.shape[1])
        self.groups = build_letter_groups(encoded, encoded[answer_rows])
        self.table = table if table is not None else fixed_point(matrix.shape[1])
        self.data = SearchData(
            matrix=matrix,
            matrix_t=np.ascontiguousarray(matrix.T),
            answer_rows=answer_rows,
            delta=self.table.delta,
            values=self.table.values,
            pair_table=pair_bound_table(self.table.values, max(self.kernel_settings.pairs_to, 0)),
            span=int(np.iinfo(matrix.dtype).max) + 1,
        )

    def winners(self, columns: np.ndarray, starts: np.ndarray) -> BucketWinners:
        """Best second guess of each bucket columns[starts[b]:starts[b + 1]] (answer
        columns, each bucket ascending)."""
        columns = np.ascontiguousarray(columns, dtype=np.int64)
        starts = np.ascontiguousarray(starts, dtype=np.int64)
        sizes = np.diff(starts)
        cand_bucket = np.full(self.matrix.shape[0], -1, dtype=np.int64)
        cand_bucket[self.answer_rows[columns]] = np.repeat(np.arange(sizes.size), sizes)
        tol = np.floor(TIE_TOLERANCE * sizes * self.table.scale).astype(np.int64)
        query = Query(columns=columns, starts=starts, cand_bucket=cand_bucket)
        winners, in_bucket, ties = solve_counts(
            self.data, self.groups, self.kernel_settings, query, tol, self.settings.records
        )
        for b in np.flatnonzero(ties.overflow):
            members = columns[starts[b] : starts[b + 1]]
            winners[b], in_bucket[b] = rescore(self.matrix[:, members], self.answer_rows[members])
        return BucketWinners(winners, in_bucket, ties.best)


def rescore(
    patterns: np.ndarray, members: np.ndarray, weights: np.ndarray | None = None
) -> tuple[int, bool]:
    """The plain way: every guess's entropy over the bucket, then the tie rule (highest
    first; a member of the bucket first; then the lowest word_id)."""
    entropy = float_stats(patterns, weights=weights).entropy
    in_bucket = np.zeros(patterns.shape[0], dtype=bool)
    in_bucket[members] = True
    winner = best_position(entropy, higher_is_better=True, keys=[~in_bucket])
    return winner, bool(in_bucket[winner])


@njit(cache=True, nogil=True)
def solve_counts(data, groups, settings, query, tol, records):  # pragma: no cover - compiled
    """Best second guess per bucket of the query (module docstring): buckets of
    settings.survivors_from..pairs_to answers by survivor pairs, of pairs_from..pairs_to
    by the pair bound, the others by the letter-group bound, read transposed up to
    small_bucket answers. Returns (winner word_id, winner in bucket) per bucket and the
    TieState (the best S per bucket, and which overflowed)."""
    n_guesses, n_answers = data.matrix.shape
    buffers = scratch(n_guesses, n_answers, groups.group_letter.size, data.span)
    ties = tie_state(tol, records, BIG)
    context = OpenerContext(data, groups, group_work(groups), settings, query, ties, buffers)
    starts = query.starts
    base = np.int64(0)  # not the literal 0: one compiled version of each callee
    for b in range(starts.size - 1):
        n = starts[b + 1] - starts[b]
        if n < 2:
            ties.best[b] = 0
        elif settings.survivors_from <= n <= settings.pairs_to:
            base = solve_by_survivor_pairs(context, b, base)
        elif settings.pairs_from <= n <= settings.pairs_to:
            base = solve_by_pairs(context, b, base)
        else:
            base = solve_by_groups(context, b, n <= settings.small_bucket, base)
    winners, in_bucket = pick_winners(starts, query.columns, data.answer_rows, ties)
    return winners, in_bucket, ties


@njit(cache=True, nogil=True)
def pick_winners(starts, columns, answer_rows, ties):  # pragma: no cover - compiled
    """(winner word_id, winner in bucket) per bucket from the tie lists: the first of class
    0 (in the bucket), else the first of class 1; a bucket of one is its own winner."""
    rec_g, rec_n = ties.rec_g, ties.rec_n
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
