"""Opening guesses ranked by two-step information, with the best second guess per reply.

For an opener o the candidates split into buckets by the reply pattern o receives. For
each bucket b the best second guess is the allowed word whose reply pattern has the
highest entropy over b (candidates weighted: uniform over the answers in mode "answers",
p_common over every allowed word in mode "prior"), by the tie rule of
pipeline.core.ties: within the tolerance of the best, a word in b first, then the lower
word_id. A bucket of one word is solved by guessing it (entropy 0, second guess = that
word); the all-green bucket {o} is the game already won at guess one and is reported the
same way. Per opener, with q_b the probability of bucket b:

    h1 = -sum_b q_b log2 q_b          h2_expected = sum_b q_b H2(b)
    two_step_total = h1 + h2_expected
    expected_left_after_two = sum_b q_b E[candidates left after the second reply | b],
        where a won game (guess one or two was the answer) leaves 0 candidates
    p_solved_by_two = sum over buckets whose second guess is in the bucket of the
        probability that it is the answer (this includes the all-green bucket).

The searches themselves are pipeline.kernels.opener_search.
"""

from __future__ import annotations

import numpy as np

from pipeline.analysis.openers.tables import SecondGuesses
from pipeline.kernels.feedback import check_encoded, feedback_matrix
from pipeline.kernels.opener_search import CountSearch, build_letter_groups, weighted_winner
from pipeline.kernels.partition import bucket_layout, bucket_stats, float_stats


def _second_guesses(
    opener: int,
    opener_row: np.ndarray,
    patterns: np.ndarray,
    columns: np.ndarray,
    starts: np.ndarray,
    replies: np.ndarray,
    winners: np.ndarray,
    in_bucket: np.ndarray,
    weights: np.ndarray | None,
) -> SecondGuesses:
    """Assemble SecondGuesses. `opener_row` is the opener's replies over every column;
    `replies` holds one pattern row per distinct winner, in ascending word_id; weights
    are per column (None: uniform)."""
    sizes = np.diff(starts)
    chosen, row_of_bucket = np.unique(winners, return_inverse=True)
    member_weights = None if weights is None else weights[columns]
    entropy, expected = bucket_stats(
        replies,
        row_of_bucket.astype(np.int64),
        columns,
        starts,
        weights=member_weights,
    )
    if weights is None:
        bucket_weight = sizes.astype(np.float64)
        total = float(columns.size)
        own = np.ones(winners.size)  # answers mode: every answer weighs 1
    else:
        bucket_weight = np.add.reduceat(member_weights, starts[:-1])
        total = float(weights.sum())
        own = weights[winners]  # prior mode: the columns are every word, by word_id
    solved = np.where(in_bucket, own / bucket_weight, 0.0)
    h1 = float_stats(opener_row[None, :], weights=weights).entropy[0]
    return SecondGuesses(
        opener=opener,
        h1=float(h1),
        pattern_ids=patterns.astype(np.int64),
        sizes=sizes.astype(np.int64),
        probabilities=bucket_weight / total,
        second_ids=winners.astype(np.int64),
        second_entropies=entropy,
        second_is_candidate=in_bucket.astype(bool),
        expected_left=expected - solved,
        solve_probabilities=solved,
    )


def part_openers(n_words: int, number: int, parts: int) -> np.ndarray:
    """word_ids of part `number` of `parts` of the answers-mode ranking: every
    `parts`-th word_id from `number`. Dealt out, not cut into ranges, so every part gets
    a like share of the costly openers (neighbouring words cost alike)."""
    if not 0 <= number < parts:
        raise ValueError(f"part {number} does not exist among {parts} parts")
    return np.arange(number, n_words, parts, dtype=np.int64)


def answer_second_guesses(search: CountSearch, opener: int) -> SecondGuesses:
    """Mode answers: best second guess per bucket of `opener` over every answer."""
    columns, starts, patterns = bucket_layout(search.matrix[opener])
    found = search.winners(columns, starts)
    replies = search.matrix[np.unique(found.winners)]
    return _second_guesses(
        opener, search.matrix[opener], patterns, columns, starts, replies, found.winners,
        found.in_bucket, None,
    )  # fmt: skip


class PriorSearch:
    """Mode prior: every allowed word a candidate, weighted by `weights`. No guess x guess
    matrix is ever stored: patterns are computed for the opener rows and for the guesses
    still in the running. The letter groups are built once, for every opener."""

    def __init__(self, encoded: np.ndarray, weights: np.ndarray) -> None:
        self.encoded, _ = check_encoded(encoded, encoded)
        self.weights = np.asarray(weights, dtype=np.float64)
        self.groups = build_letter_groups(self.encoded, self.encoded)

    def second_guesses(self, opener: int) -> SecondGuesses:
        encoded, weights = self.encoded, self.weights
        row = feedback_matrix(encoded[[opener]], encoded, engine="jit")[0]
        columns, starts, patterns = bucket_layout(row)
        winners = np.empty(len(starts) - 1, dtype=np.int64)
        in_bucket = np.ones(len(starts) - 1, dtype=bool)
        for b in range(len(starts) - 1):
            ids = columns[starts[b] : starts[b + 1]]
            if len(ids) == 1:
                winners[b] = ids[0]
            else:
                winners[b], in_bucket[b] = weighted_winner(encoded, self.groups, ids, weights[ids])
        replies = feedback_matrix(encoded[np.unique(winners)], encoded, engine="jit")
        return _second_guesses(
            int(opener), row, patterns, columns, starts, replies, winners, in_bucket, weights
        )
