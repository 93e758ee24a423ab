"""The second-guess search: the best guess for each bucket of answers (checked entry points).

See pipeline.kernels.second_guess_jit for the method. Two searches share it:
- `CountSearch`: answers uniform over stored guess x answer columns (the openers stage
  for every opener, the solver's two-step look-ahead on a node's answers);
- `weighted_winner`: every allowed word a candidate, weighted (prior mode); patterns are
  computed only for the guesses the letter-group bound leaves in the running.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.core.arrays import distinct
from pipeline.core.ties import TIE_TOLERANCE, best_position
from pipeline.core.wordle import pattern_dtype
from pipeline.kernels import letter_groups_jit as groups_jit
from pipeline.kernels import second_guess_jit as jit
from pipeline.kernels import weighted_guess_jit as weighted_jit
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.feedback_jit import letter_counts
from pipeline.kernels.pair_bound import pair_bound_table
from pipeline.kernels.partition import FixedPoint, fixed_point, float_stats

RECORDS = 4  # capacity of each per-bucket tie list; overflow falls back to a rescore
SMALL_BUCKET = 30  # buckets of up to this many answers are read from the transposed matrix
# Buckets of these sizes take the pair bound (pipeline.kernels.pair_bound_jit): from about
# 6 answers it rules out far more than the letter-group bound, and up to about 40 the
# pairs cost less than the letter-group bounds and scores they save (real lists).
PAIR_SIZES = (6, 40)
# From this many answers the pairs are counted only for the guesses the letter-group bound
# leaves in the running (pipeline.kernels.pair_search_jit): below it that bound costs more
# than the pairs it saves (real lists).
SURVIVOR_PAIRS = 16
GUESS_BLOCK = 2048  # guesses bounded at a time, against the best score so far
_WEIGHTED_CHUNK = 64  # guesses whose patterns the weighted search computes at a time


@dataclass(frozen=True)
class LetterGroups:
    """Letter groups of every guess, and per candidate word the facts that fix their replies.

    A guess's reply is the tuple of its letter groups' replies (letter x at positions I),
    so its entropy over any bucket is at most the sum of the groups' entropies
    (subadditivity). A group's reply depends only on the candidate's greens on I and on
    how many copies of x it holds.
    """

    guess_groups: np.ndarray  # (G, max(L, SLOTS)) group ids, padded with K (no group)
    group_letter: np.ndarray  # (K,)
    group_mask: np.ndarray  # (K,) bit i set: the letter is at position i
    group_size: np.ndarray  # (K,) positions in the group
    cand_letters: np.ndarray  # (C, L) distinct letters of each candidate, -1 padded
    cand_cells: np.ndarray  # (C, L) their cells: (position bits << shift) | copies
    popcount: np.ndarray  # (2**L,)
    shift: int  # bits that hold a letter's copies (up to L) in a cell

    def kernel_arguments(self) -> tuple:
        return (
            self.guess_groups, self.group_letter, self.group_mask, self.group_size,
            self.cand_letters, self.cand_cells, self.popcount, self.shift,
        )  # fmt: skip

    def work(self) -> tuple[np.ndarray, ...]:
        """Scratch arrays of the group tallies: a cell per (position bits, copies)."""
        return groups_jit.group_work(len(self.popcount) << self.shift)


def letter_groups(guesses: np.ndarray, candidates: np.ndarray) -> LetterGroups:
    """LetterGroups of encoded guesses (G, L) over encoded candidates (C, L). Group ids
    are numbered in order of first use (guess by guess, letters ascending)."""
    n_guesses, length = guesses.shape
    letters, masks = _distinct_letters(guesses)
    used = letters >= 0
    keys, first_use, inverse = distinct(letters[used] << length | masks[used])
    by_first_use = np.argsort(first_use)
    group_id = np.empty(keys.size, dtype=np.int64)
    group_id[by_first_use] = np.arange(keys.size)
    keys = keys[by_first_use]
    guess_groups = np.full((n_guesses, max(length, groups_jit.SLOTS)), keys.size, dtype=np.int64)
    guess_groups[:, :length][used] = group_id[inverse]
    popcount = np.array([bin(v).count("1") for v in range(1 << length)], dtype=np.int64)
    cand_letters, cand_bits = _distinct_letters(candidates)
    shift = length.bit_length()
    cand_cells = np.where(cand_letters >= 0, cand_bits << shift | popcount[cand_bits], 0)
    group_mask = keys & ((1 << length) - 1)
    return LetterGroups(
        guess_groups=guess_groups.astype(np.uint32),  # unsigned: no negative indexing
        group_letter=keys >> length,
        group_mask=group_mask,
        group_size=popcount[group_mask],
        cand_letters=cand_letters,
        cand_cells=cand_cells,
        popcount=popcount,
        shift=shift,
    )


def _distinct_letters(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(letters, masks), each (N, L): the distinct letters of each encoded word in
    ascending order (-1 padded) and, for each, its positions as bits (0 padded)."""
    n_words, length = words.shape
    codes = words.astype(np.int64)
    same = codes[:, :, None] == codes[:, None, :]  # [word, i, j]: the letters at i and j
    bits = (same << np.arange(length)).sum(axis=2)  # positions of the letter at i
    first = ~(same & np.tri(length, k=-1, dtype=bool)).any(axis=2)  # not at any j < i
    slot = ((codes[:, None, :] < codes[:, :, None]) & first[:, None, :]).sum(axis=2)
    word, position = np.nonzero(first)
    letters = np.full((n_words, length), -1, dtype=np.int64)
    masks = np.zeros((n_words, length), dtype=np.int64)
    letters[word, slot[word, position]] = codes[word, position]
    masks[word, slot[word, position]] = bits[word, position]
    return letters, masks


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
    column; encoded: every guess's letters (G, L). The set-up is paid once.
    use_bound=False turns off all pruning; pair_sizes (smallest, largest) the buckets that
    take the pair bound instead of the letter-group bound (None: none), those from
    survivor_pairs answers counting pairs among the letter-group survivors only;
    small_bucket and block choose the layout read per bucket and the guesses bounded at a
    time (tests: same results).
    """

    def __init__(
        self,
        matrix: np.ndarray,
        answer_rows: np.ndarray,
        encoded: np.ndarray,
        *,
        use_bound: bool = True,
        table: FixedPoint | None = None,
        small_bucket: int = SMALL_BUCKET,
        block: int = GUESS_BLOCK,
        pair_sizes: tuple[int, int] | None = PAIR_SIZES,
        survivor_pairs: int = SURVIVOR_PAIRS,
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
        if block < 1:
            raise ValueError(f"a block of {block} guesses")
        smallest, largest = pair_sizes if pair_sizes is not None else (0, -1)
        self.matrix = matrix
        self.layout = (np.ascontiguousarray(matrix.T), int(small_bucket), int(block))
        self.answer_rows = answer_rows
        self.use_bound = use_bound
        self.groups = letter_groups(encoded, encoded[answer_rows])
        self.table = table if table is not None else fixed_point(matrix.shape[1])
        self.span = int(np.iinfo(matrix.dtype).max) + 1
        largest = min(largest, matrix.shape[1])
        bound = pair_bound_table(self.table.values, max(largest, 0))
        self.pairs = (bound, int(smallest), int(survivor_pairs), int(largest))

    def winners(
        self, columns: np.ndarray, starts: np.ndarray, *, records: int = RECORDS
    ) -> BucketWinners:
        """Best second guess of each bucket columns[starts[b]:starts[b + 1]] (answer
        columns, each bucket ascending)."""
        columns = np.ascontiguousarray(columns, dtype=np.int64)
        starts = np.ascontiguousarray(starts, dtype=np.int64)
        sizes = np.diff(starts)
        cand_bucket = np.full(self.matrix.shape[0], -1, dtype=np.int64)
        cand_bucket[self.answer_rows[columns]] = np.repeat(np.arange(sizes.size), sizes)
        tol = np.floor(TIE_TOLERANCE * sizes * self.table.scale).astype(np.int64)
        winners, in_bucket, best_s, overflow = jit.solve_counts(
            self.matrix, self.answer_rows, columns, starts, cand_bucket, self.table.delta,
            self.table.values, tol, records, self.span, self.use_bound,
            self.groups.kernel_arguments(), self.groups.work(), self.layout, self.pairs,
        )  # fmt: skip
        for b in np.flatnonzero(overflow):
            members = columns[starts[b] : starts[b + 1]]
            winners[b], in_bucket[b] = _rescore(self.matrix[:, members], self.answer_rows[members])
        return BucketWinners(winners, in_bucket, best_s)


def _rescore(
    patterns: np.ndarray, members: np.ndarray, weights: np.ndarray | None = None
) -> tuple[int, bool]:
    """The plain way: every guess's entropy over the bucket, then the tie rule (highest
    first; a member of the bucket first; then the lowest word_id)."""
    entropy = float_stats(patterns, weights=weights).entropy
    in_bucket = np.zeros(patterns.shape[0], dtype=bool)
    in_bucket[members] = True
    winner = best_position(entropy, higher_is_better=True, keys=[~in_bucket])
    return winner, bool(in_bucket[winner])


def weighted_winner(
    encoded: np.ndarray, groups: LetterGroups, ids: np.ndarray, weights: np.ndarray,
    *, records: int = RECORDS,
) -> tuple[int, bool]:  # fmt: skip
    """(best second guess, whether it is in the bucket) for the bucket of words `ids`,
    every word weighted by `weights` (aligned with ids); `groups` are letter_groups of
    every word over every word; `encoded` as feedback.check_encoded returns it (checked
    once by the caller, not per bucket)."""
    if encoded.ndim != 2 or encoded.dtype != np.uint8 or not encoded.flags.c_contiguous:
        raise ValueError("encoded words must be a C-contiguous (n, L) uint8 array")
    n = len(ids)
    total = float(weights.sum())
    whole = total * np.log2(total)
    n_groups = len(groups.group_letter)
    scores = np.empty(n_groups + 1, dtype=np.float64)
    scores[n_groups] = whole
    groups_jit.group_weights(
        ids, 0, n, weights, groups.group_letter, groups.group_mask, groups.group_size,
        groups.cand_letters, groups.cand_cells, groups.popcount, groups.shift, groups.work(),
        scores,
    )  # fmt: skip
    slots = groups.guess_groups.shape[1]
    margin = 1e-9 * total * (slots + 1) * (2.0 + abs(np.log2(total)) + np.log2(n))
    lower = np.empty(len(groups.guess_groups), dtype=np.float64)
    groups_jit.group_bounds(groups.guess_groups, scores, (slots - 1) * whole + margin, lower)
    state = _weighted_state(TIE_TOLERANCE * total, records)
    thr = state[2]  # best score so far plus the tolerance, kept current by the kernel
    n_bins = 3 ** encoded.shape[1]
    scratch = (np.zeros(n_bins, np.int64), np.zeros(n_bins), np.empty(max(n, 1), np.int64))
    # A perfect split beats every other split by at least the cost of merging the two
    # lightest words; when that exceeds the tolerance, the first perfect split wins.
    light = np.sort(weights)[:2]
    gap = light.sum() * np.log2(light.sum()) - np.sum(light * np.log2(light))
    can_resolve = bool(gap > 2 * state[0][0] + 4 * margin)
    targets_t = np.ascontiguousarray(encoded[ids].T)
    block = np.empty((_WEIGHTED_CHUNK, n), dtype=pattern_dtype(encoded.shape[1]))
    common = (targets_t, letter_counts(targets_t), weights)

    def offer_all(rows: np.ndarray, in_bucket: bool) -> tuple[bool, bool]:
        return weighted_jit.offer_weighted_guesses(
            encoded, rows, lower, *common, in_bucket, can_resolve, block, scratch, state
        )

    perfect, _ = offer_all(ids, True)
    if not (perfect and can_resolve):
        outside = lower <= thr[0]
        outside[ids] = False
        offer_all(np.flatnonzero(outside), False)
    _, _, _, rec_g, _, rec_n, overflow = state
    if overflow[0]:
        return _rescore(feedback_matrix(encoded, encoded[ids], engine="jit"), ids, weights)
    if rec_n[0, 0] > 0:
        return int(rec_g[0, 0, 0]), True
    return int(rec_g[0, 1, 0]), False


def _weighted_state(tolerance: float, records: int) -> tuple[np.ndarray, ...]:
    """(tol, best, thr, rec_g, rec_s, rec_n, overflow) of jit.offer for one bucket."""
    return (
        np.array([tolerance]),
        np.full(1, np.inf),
        np.full(1, np.inf),
        np.zeros((1, 2, records), dtype=np.int64),
        np.zeros((1, 2, records), dtype=np.float64),
        np.zeros((1, 2), dtype=np.int64),
        np.zeros(1, dtype=bool),
    )
