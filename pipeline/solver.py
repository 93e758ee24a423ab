"""Complete Wordle games against every answer, for several strategies, as one decision tree.

Every strategy here is a deterministic function of what the player knows (the answers, or
the allowed words, still consistent with the feedback so far), so the games against all
answers together form a decision tree: at a node the guess is chosen once, the node's
answers are split by the reply pattern, and each part is a child. Each node is scored
once, not once per answer that passes through it; per node a numba kernel scores every
allowed guess by one pass over the node's answers (a histogram of reply patterns).

Strategies (a strategy is a dict: {"name": ..., parameters ..., "label": optional}; the
parameters and their defaults are STRATEGY_DEFAULTS; the label, default the name, is the
`strategy` value in the tables, so one strategy can run twice with different parameters):

- greedy_entropy: the guess of highest entropy over the remaining answers.
- greedy_entropy_hard: the same, but only words consistent with all feedback so far
  (pattern(previous guess, word) == observed pattern for every previous turn) may be
  guessed: Wordle's hard mode in its strict form.
- most_parts: the guess with the most distinct replies; minimax: the guess whose largest
  reply bucket is smallest.
- two_step: first the top of the two-step opener ranking (openers.parquet, mode
  "answers"; without it computed: the `pool` best openers by H1 ranked by two-step
  entropy), then the second guess of second_guesses.parquet for the reply (without it
  computed: greedy_entropy on the bucket, the same definition), then at every later
  turn the best two-step score H1(g) + sum_b p_b max_g2 H(g2 | b) among the top_n
  guesses by H1 (3Blue1Brown's look-ahead). H1 + E[H2] is the entropy of the pair of
  replies, so it is computed exactly as log2 n - sum_b min_g2 S(g2 | b) / (n * scale)
  with integer S (see below).
- commonness: the answer list is unknown. Candidates are every allowed word consistent
  with the feedback so far, weighted by p_common. Each guess g is scored by the expected
  number of guesses to finish, 3Blue1Brown's model:
      E(g) = p(g) * 1 + (1 - p(g)) * (1 + f(max(H0 - H(g), 0)))
  with p(g) the normalised weight of g among the candidates (0 if it is not one), H0 the
  entropy of the candidate weights, H(g) the weighted entropy of g's replies, and
      f(h) = 2**-h + 2 * (1 - 2**-h) + guesses_ref * h / bits_ref
  the guesses still needed with h bits of uncertainty left (one guess if the next one
  is right, two otherwise, plus guesses_ref extra guesses per bits_ref bits; defaults
  1.5 per 11.5 bits, 3Blue1Brown's regression). The lowest E wins. Games are still
  played against the real answers.
- letter_frequency: the baseline. Among the remaining answers count each letter at each
  position; a word scores the summed positional counts of its letters, each distinct
  letter counted once (at its first position). The pool is the remaining answers
  (pool "candidates") or every allowed word (pool "allowed").
- opener_benchmark: the top `top` openers of the two-step ranking, each followed by
  greedy_entropy; recorded with strategy "opener_benchmark" and the opener per row.

Every strategy takes an optional "opener" (a word played first) except opener_benchmark.
Ties: scores within TIE_TOLERANCE (1e-9; bits for entropies, guesses for E) of the best
are equal; then a word that is still a possible answer wins, then the lower word_id.
Entropies over uniform answers are computed from S = sum_b F(|b|) with the fixed-point
integer F(c) = round(c log2 c * scale), so equal partitions give bit-identical scores and
the summation order never matters: H = log2 n - S / (n * scale).

Speed: a node with few answers gathers its columns from a column-major copy of the
matrix (one streaming read per answer, not a cache miss per guess row), and a possible
answer that splits the node into singletons is best by every criterion, so it is looked
for first; otherwise the first such word in word order ends the scan. The commonness
strategy scores the candidates first: a non-candidate's E is at least 1 + f(0) = 2, so a
candidate below 2 wins without scanning every allowed word. Big kernel calls are split
over THREADS threads by guess rows (each row is scored by one thread, so the results do
not depend on the split).

A game ends when the answer is guessed; a game not solved within max_turns guesses is
recorded as failed (finished = false) with the max_turns guesses it made, so no game can
loop forever. A game is `solved` when it was finished within SUCCESS_TURNS (6) guesses.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from numba import njit

from pipeline.commonness import load_p_common
from pipeline.errors import InputError, PipelineError
from pipeline.feedback_kernel import feedback_kernel, letter_counts
from pipeline.matrix import load_pattern_matrix
from pipeline.parquet import described, write_parquet
from pipeline.patterns import (
    all_green,
    encode_words,
    feedback_matrix,
    pattern_dtype,
)
from pipeline.ties import TIE_TOLERANCE
from pipeline.words import load_word_index

log = logging.getLogger(__name__)

SUCCESS_TURNS = 6  # Wordle allows six guesses
DEFAULT_MAX_TURNS = 12
DEFAULT_BIN_BITS = 0.5
THREADS = 2  # big kernel calls are split over this many threads (the kernels drop the GIL)
_PARALLEL_WORK = 4_000_000  # pattern reads below which one thread is faster
_FEEDBACK_BLOCK = 64  # guess rows of patterns computed at a time by the weighted kernel
_DENSE_COLUMNS = 128  # from this many answer columns a dense histogram beats a touched list
_GATHER_COLUMNS = 512  # up to this many columns a node's columns are gathered first
_GATHER_BLOCK = 256  # guess rows gathered at a time

STRATEGY_DEFAULTS: dict[str, dict[str, Any]] = {
    "greedy_entropy": {"opener": None},
    "greedy_entropy_hard": {"opener": None},
    "most_parts": {"opener": None},
    "minimax": {"opener": None},
    "two_step": {"opener": None, "top_n": 10, "pool": 100},
    "commonness": {"opener": None, "bits_ref": 11.5, "guesses_ref": 1.5},
    "letter_frequency": {"opener": None, "pool": "candidates"},
    "opener_benchmark": {"top": 50, "pool": 100},
}
ALL_STRATEGIES: list[dict[str, Any]] = [{"name": name} for name in STRATEGY_DEFAULTS]

GAMES_SCHEMA = pa.schema(
    [
        described("strategy", pa.string(), "strategy label (config solver.strategies)"),
        described("opener", pa.string(), "the game's first guess"),
        described("answer", pa.string(), "the hidden answer of this game"),
        described(
            "guesses",
            pa.list_(pa.field("item", pa.string(), nullable=False)),
            "every guess of the game, in order",
        ),
        described(
            "patterns",
            pa.list_(pa.field("item", pa.int32(), nullable=False)),
            "reply to each guess: pattern id (sum of c_i * 3^i; 0 grey, 1 yellow, 2 green)",
        ),
        described(
            "candidates",
            pa.list_(pa.field("item", pa.int32(), nullable=False)),
            "answers still possible (consistent with the feedback so far) before each guess",
        ),
        described("n_guesses", pa.int32(), "guesses played (the cap + 1 when the game was capped)"),
        described("finished", pa.bool_(), "the answer was guessed before the turn cap"),
        described("solved", pa.bool_(), "the answer was guessed within six guesses"),
    ]
)

SCORE_MODEL_SCHEMA = pa.schema(
    [
        described("strategy", pa.string(), "strategy label"),
        described("bits_low", pa.float64(), "bin start: log2(answers still possible), bits"),
        described("bits_high", pa.float64(), "bin end, bits (exclusive)"),
        described("mean_bits", pa.float64(), "mean uncertainty of the turns in the bin, bits"),
        described(
            "mean_guesses_left",
            pa.float64(),
            "mean guesses still needed from such a turn, that turn's guess included",
        ),
        described("samples", pa.int64(), "turns in the bin"),
    ]
)


def summary_schema(success_turns: int = SUCCESS_TURNS) -> pa.Schema:
    """Columns of benchmark_summary.parquet (n_1 .. n_<success_turns>)."""
    counts = [
        described(f"n_{k}", pa.int32(), f"games solved in exactly {k} guesses")
        for k in range(1, success_turns + 1)
    ]
    return pa.schema(
        [
            described("strategy", pa.string(), "strategy label; opener_benchmark rows per opener"),
            described("opener", pa.string(), "first guess of every game of the row"),
            described("n_games", pa.int32(), "games played (one per answer)"),
            described("mean_guesses", pa.float64(), "mean guesses per game (capped: cap + 1)"),
            described("median_guesses", pa.float64(), "median guesses per game"),
            described("max_guesses", pa.int32(), "most guesses any game needed"),
            described("total_guesses", pa.int64(), "guesses summed over all games"),
            *counts,
            described("failures", pa.int32(), "games not solved within six guesses"),
            described("capped", pa.int32(), "games stopped at the turn cap"),
            described(
                "gap_to_optimum_mean",
                pa.float64(),
                "mean_guesses minus the proven optimum's mean; null for other lists",
                nullable=True,
            ),
            described(
                "gap_to_optimum_total",
                pa.int64(),
                "total_guesses minus the proven optimum's total; null for other lists",
                nullable=True,
            ),
            described(
                "optimum_source",
                pa.string(),
                "where the optimum comes from (config)",
                nullable=True,
            ),
        ]
    )


# --- numba kernels ------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _gather(
    matrix_f: np.ndarray, rows: np.ndarray, cols: np.ndarray, out: np.ndarray
) -> None:  # pragma: no cover - compiled
    """out[k, j] = matrix[rows[k], cols[j]] from a column-major copy of the matrix, so each
    answer column is one streaming read instead of a cache miss per guess row."""
    for j in range(cols.shape[0]):
        column = matrix_f[:, cols[j]]
        for k in range(rows.shape[0]):
            out[k, j] = column[rows[k]]


@njit(cache=True, nogil=True)
def _touched_stats(
    hist: np.ndarray, touched: np.ndarray, n_touched: int, flogf: np.ndarray
) -> tuple[int, int]:  # pragma: no cover - compiled
    """(S, largest) over the touched bins of a histogram, which is left all zero."""
    s = 0
    largest = 0
    for t in range(n_touched):
        c = hist[touched[t]]
        s += flogf[c]
        if c > largest:
            largest = c
        hist[touched[t]] = 0
    return s, largest


@njit(cache=True, nogil=True)
def _block_stats(
    block: np.ndarray,
    n_rows: int,
    flogf: np.ndarray,
    span: int,
    out_s: np.ndarray,
    out_parts: np.ndarray,
    out_largest: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """_partition_stats for the first n_rows rows of a gathered block (all its columns).

    Four rows at a time, each with its own histogram and branch-free touched list, so
    the increments of the four rows overlap instead of waiting on each other."""
    n_cols = block.shape[1]
    hist = np.zeros((4, span), dtype=np.int64)
    touched = np.empty((4, n_cols), dtype=np.int64)
    h0, h1, h2, h3 = hist[0], hist[1], hist[2], hist[3]
    t0, t1, t2, t3 = touched[0], touched[1], touched[2], touched[3]
    counts = np.zeros(4, dtype=np.int64)
    k0 = 0
    while k0 + 4 <= n_rows:
        r0, r1, r2, r3 = block[k0], block[k0 + 1], block[k0 + 2], block[k0 + 3]
        n0 = n1 = n2 = n3 = 0
        for j in range(n_cols):
            p0, p1, p2, p3 = r0[j], r1[j], r2[j], r3[j]
            t0[n0] = p0
            t1[n1] = p1
            t2[n2] = p2
            t3[n3] = p3
            n0 += h0[p0] == 0
            n1 += h1[p1] == 0
            n2 += h2[p2] == 0
            n3 += h3[p3] == 0
            h0[p0] += 1
            h1[p1] += 1
            h2[p2] += 1
            h3[p3] += 1
        counts[0], counts[1], counts[2], counts[3] = n0, n1, n2, n3
        for q in range(4):
            s, largest = _touched_stats(hist[q], touched[q], counts[q], flogf)
            out_s[k0 + q] = s
            out_parts[k0 + q] = counts[q]
            out_largest[k0 + q] = largest
        k0 += 4
    for k in range(k0, n_rows):
        row = block[k]
        n0 = 0
        for j in range(n_cols):
            p0 = row[j]
            t0[n0] = p0
            n0 += h0[p0] == 0
            h0[p0] += 1
        s, largest = _touched_stats(h0, t0, n0, flogf)
        out_s[k] = s
        out_parts[k] = n0
        out_largest[k] = largest


@njit(cache=True, nogil=True)
def _gathered_stats(
    matrix_f: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    flogf: np.ndarray,
    span: int,
    stop_at_perfect: bool,
    out_s: np.ndarray,
    out_parts: np.ndarray,
    out_largest: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """_partition_stats for a node with few answer columns: rows are gathered block by
    block from the column-major copy. With stop_at_perfect the scan ends after the first
    row whose replies are all distinct; returns how many rows were scored."""
    n_rows = rows.shape[0]
    n_cols = cols.shape[0]
    block = np.empty((_GATHER_BLOCK, n_cols), dtype=matrix_f.dtype)
    for start in range(0, n_rows, _GATHER_BLOCK):
        stop = min(start + _GATHER_BLOCK, n_rows)
        _gather(matrix_f, rows[start:stop], cols, block)
        _block_stats(
            block, stop - start, flogf, span, out_s[start:stop], out_parts[start:stop],
            out_largest[start:stop],
        )  # fmt: skip
        if stop_at_perfect:
            for k in range(start, stop):
                if out_parts[k] == n_cols:
                    return k + 1
    return n_rows


@njit(cache=True, nogil=True)
def _row_stats(
    hist: np.ndarray, span: int, flogf: np.ndarray
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """(S, buckets, largest) of a dense histogram, which is left all zero."""
    s = 0
    parts = 0
    largest = 0
    for p in range(span):
        c = hist[p]
        if c != 0:
            s += flogf[c]
            parts += 1
            if c > largest:
                largest = c
            hist[p] = 0
    return s, parts, largest


@njit(cache=True, nogil=True)
def _partition_stats(
    matrix: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    flogf: np.ndarray,
    span: int,
    out_s: np.ndarray,
    out_parts: np.ndarray,
    out_largest: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """For each guess row: S = sum_b F(|b|), the number of buckets and the largest bucket
    of its replies over the answer columns `cols` (one histogram pass per row).

    Many columns: four rows at a time into four dense histograms (independent increments
    overlap in the CPU), then a scan of every bin. Few columns: a branch-free touched
    list per row, so the cost is O(columns) and never O(patterns).
    """
    n_rows = rows.shape[0]
    n_cols = cols.shape[0]
    hist = np.zeros((4, span), dtype=np.int64)
    if n_cols >= _DENSE_COLUMNS:
        for k0 in range(0, n_rows, 4):
            kk = min(4, n_rows - k0)
            if kk == 4:
                r0 = matrix[rows[k0]]
                r1 = matrix[rows[k0 + 1]]
                r2 = matrix[rows[k0 + 2]]
                r3 = matrix[rows[k0 + 3]]
                h0 = hist[0]
                h1 = hist[1]
                h2 = hist[2]
                h3 = hist[3]
                for j in range(n_cols):
                    c = cols[j]
                    h0[r0[c]] += 1
                    h1[r1[c]] += 1
                    h2[r2[c]] += 1
                    h3[r3[c]] += 1
            else:
                for q in range(kk):
                    row = matrix[rows[k0 + q]]
                    h = hist[q]
                    for j in range(n_cols):
                        h[row[cols[j]]] += 1
            for q in range(kk):
                s, parts, largest = _row_stats(hist[q], span, flogf)
                out_s[k0 + q] = s
                out_parts[k0 + q] = parts
                out_largest[k0 + q] = largest
        return
    h = hist[0]
    touched = np.empty(n_cols, dtype=np.int64)
    for k in range(n_rows):
        row = matrix[rows[k]]
        n_touched = 0
        for j in range(n_cols):
            p = row[cols[j]]
            touched[n_touched] = p
            n_touched += h[p] == 0
            h[p] += 1
        s = 0
        largest = 0
        for t in range(n_touched):
            c = h[touched[t]]
            s += flogf[c]
            if c > largest:
                largest = c
            h[touched[t]] = 0
        out_s[k] = s
        out_parts[k] = n_touched
        out_largest[k] = largest


@njit(cache=True, nogil=True)
def _two_step_sums(
    matrix: np.ndarray,
    members: np.ndarray,
    starts: np.ndarray,
    flogf: np.ndarray,
    span: int,
    best: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """best[b] = min over every guess row of S(row | bucket b), buckets given as
    members[starts[b]:starts[b+1]] (column indices of `matrix`). Buckets of one or two
    answers are 0 (a member splits them perfectly); a bucket drops out once some row
    reaches 0. Rows go four at a time, like _block_stats."""
    n_buckets = starts.shape[0] - 1
    active = np.empty(n_buckets, dtype=np.int64)
    n_active = 0
    largest = 1
    for b in range(n_buckets):
        size = starts[b + 1] - starts[b]
        if size <= 2:
            best[b] = 0
        else:
            best[b] = np.iinfo(np.int64).max
            active[n_active] = b
            n_active += 1
            largest = max(largest, size)
    hist = np.zeros((4, span), dtype=np.int64)
    touched = np.empty((4, largest), dtype=np.int64)
    h0, h1, h2, h3 = hist[0], hist[1], hist[2], hist[3]
    t0, t1, t2, t3 = touched[0], touched[1], touched[2], touched[3]
    counts = np.zeros(4, dtype=np.int64)
    n_rows = matrix.shape[0]
    g = 0
    while g < n_rows and n_active > 0:
        rows_here = min(4, n_rows - g)
        r0 = matrix[g]
        r1 = matrix[min(g + 1, n_rows - 1)]  # repeats of the last row change no minimum
        r2 = matrix[min(g + 2, n_rows - 1)]
        r3 = matrix[min(g + 3, n_rows - 1)]
        k = 0
        while k < n_active:
            b = active[k]
            n0 = n1 = n2 = n3 = 0
            for j in range(starts[b], starts[b + 1]):
                c = members[j]
                p0, p1, p2, p3 = r0[c], r1[c], r2[c], r3[c]
                t0[n0] = p0
                t1[n1] = p1
                t2[n2] = p2
                t3[n3] = p3
                n0 += h0[p0] == 0
                n1 += h1[p1] == 0
                n2 += h2[p2] == 0
                n3 += h3[p3] == 0
                h0[p0] += 1
                h1[p1] += 1
                h2[p2] += 1
                h3[p3] += 1
            counts[0], counts[1], counts[2], counts[3] = n0, n1, n2, n3
            for q in range(4):
                s, _ = _touched_stats(hist[q], touched[q], counts[q], flogf)
                if s < best[b]:
                    best[b] = s
            if best[b] == 0:
                n_active -= 1
                active[k] = active[n_active]
            else:
                k += 1
        g += rows_here


@njit(cache=True, nogil=True)
def _weighted_entropies(
    guesses: np.ndarray,
    cand_t: np.ndarray,
    counts: np.ndarray,
    probs: np.ndarray,
    span: int,
    buffer: np.ndarray,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Entropy (bits) of each guess's replies over candidate words weighted by `probs`
    (summing to 1). Patterns are computed block by block into `buffer` with the feedback
    kernel, so the guess x candidate matrix never exists in memory."""
    n_guesses = guesses.shape[0]
    n_cand = cand_t.shape[1]
    block = buffer.shape[0]
    hist = np.zeros(span, dtype=np.float64)
    seen = np.zeros(span, dtype=np.bool_)
    touched = np.empty(span, dtype=np.int64)
    for start in range(0, n_guesses, block):
        stop = min(start + block, n_guesses)
        rows = buffer[: stop - start]
        feedback_kernel(guesses[start:stop], cand_t, counts, rows)
        for k in range(stop - start):
            row = rows[k]
            n_touched = 0
            for j in range(n_cand):
                p = row[j]
                if not seen[p]:
                    seen[p] = True
                    touched[n_touched] = p
                    n_touched += 1
                hist[p] += probs[j]
            h = 0.0
            for t in range(n_touched):
                q = hist[touched[t]]
                if q > 0.0:
                    h -= q * np.log2(q)
                hist[touched[t]] = 0.0
                seen[touched[t]] = False
            out[start + k] = h


# --- data ----------------------------------------------------------------------------------


def _fixed_point_scale(n_max: int) -> float:
    """Largest power of two scale (at most 2**40) keeping sum_b c log2 c * scale in int64."""
    top = max(n_max, 2) * math.log2(max(n_max, 2))
    return float(2 ** min(40, int(math.floor(math.log2(2.0**62 / top)))))


@dataclass
class SolverData:
    """Everything the strategies read: words, the guess x answer matrix, weights, tables."""

    words: tuple[str, ...]
    answer_rows: np.ndarray  # word_id of each answer (column order)
    matrix: np.ndarray  # (G, A) pattern ids, rows guesses, columns answers
    p_common: np.ndarray  # (G,) prior weight of each word
    openers_path: Path | None = None
    second_guesses_path: Path | None = None
    encoded: np.ndarray = field(init=False)
    # the same [guess, answer] matrix in column-major memory order: a node's answer
    # columns are then contiguous reads (see _gather); indexing is unchanged
    matrix_f: np.ndarray = field(init=False)
    answer_of_row: np.ndarray = field(init=False)
    flogf: np.ndarray = field(init=False)
    scale: float = field(init=False)
    span: int = field(init=False)
    green: int = field(init=False)
    caches: dict[str, dict] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        n_words, n_answers = self.matrix.shape
        if n_words != len(self.words) or n_answers != len(self.answer_rows):
            raise PipelineError(
                f"pattern matrix is {n_words} x {n_answers} but the word index has "
                f"{len(self.words)} guesses and {len(self.answer_rows)} answers"
            )
        self.answer_rows = np.asarray(self.answer_rows, dtype=np.int64)
        self.matrix = np.ascontiguousarray(self.matrix)
        self.matrix_f = np.asfortranarray(self.matrix)
        self.encoded = encode_words(self.words)
        self.answer_of_row = np.full(n_words, -1, dtype=np.int64)
        self.answer_of_row[self.answer_rows] = np.arange(n_answers)
        self.green = all_green(self.length)
        self.span = self.green + 1
        self.scale = _fixed_point_scale(n_answers)
        c = np.arange(n_answers + 1, dtype=np.float64)
        f = np.zeros_like(c)
        f[2:] = c[2:] * np.log2(c[2:])
        self.flogf = np.rint(f * self.scale).astype(np.int64)

    @property
    def length(self) -> int:
        return len(self.words[0])

    @classmethod
    def from_words(
        cls, words: Sequence[str], answers: Sequence[str], p_common: np.ndarray | None = None
    ) -> SolverData:
        """Small in-memory data (tests): words sorted, answers among them."""
        words = tuple(sorted(set(words) | set(answers)))
        rows = np.array(sorted(words.index(a) for a in set(answers)), dtype=np.int64)
        encoded = encode_words(words)
        matrix = feedback_matrix(encoded, encoded[rows])
        weights = np.ones(len(words)) if p_common is None else np.asarray(p_common, float)
        return cls(words, rows, matrix, weights)

    def tolerance(self, n: int) -> int:
        """TIE_TOLERANCE bits as an integer S difference over n uniform answers."""
        return int(math.floor(TIE_TOLERANCE * n * self.scale))

    def word_id(self, word: str) -> int:
        """word_id of a word, or a PipelineError naming it."""
        position = int(np.searchsorted(np.array(self.words), word))
        if position >= len(self.words) or self.words[position] != word:
            raise PipelineError(f"opener {word!r} is not an allowed word")
        return position


def load_solver_data(
    words_path: str | Path,
    commonness_path: str | Path,
    patterns_index: str | Path,
    *,
    openers_path: str | Path | None = None,
    second_guesses_path: str | Path | None = None,
) -> SolverData:
    """Read the word index, commonness and the stored guess x answer matrix."""
    index = load_word_index(words_path)
    stored = load_pattern_matrix(patterns_index, words_path, columns="answers")
    if stored.columns != "answers":
        raise PipelineError(f"{patterns_index}: the solver needs the guess x answer matrix")
    return SolverData(
        index.words,
        index.answer_rows,
        stored.full(),
        load_p_common(commonness_path, index),
        openers_path=Path(openers_path) if openers_path else None,
        second_guesses_path=Path(second_guesses_path) if second_guesses_path else None,
    )


# --- scoring helpers -------------------------------------------------------------------------


def _split_rows(n_rows: int, work: int) -> list[slice]:
    """Row slices for the worker threads (one slice when the work is small)."""
    parts = THREADS if work >= _PARALLEL_WORK and n_rows >= THREADS else 1
    if parts == 1:
        return [slice(0, n_rows)]
    bounds = np.linspace(0, n_rows, parts + 1).astype(int)
    return [slice(bounds[i], bounds[i + 1]) for i in range(parts)]


def _run_parts(function: Callable[[slice], None], parts: list[slice]) -> None:
    """Run function(part) for each part, in threads when there are several."""
    if len(parts) == 1:
        function(parts[0])
        return
    with ThreadPoolExecutor(max_workers=len(parts)) as pool:
        for future in [pool.submit(function, part) for part in parts]:
            future.result()


def columns_of(data: SolverData, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """matrix[rows][:, cols] as a C-contiguous array, read column by column."""
    out = np.empty((len(rows), len(cols)), dtype=data.matrix.dtype)
    _gather(data.matrix_f, rows, cols, out)
    return out


def partition_stats(
    data: SolverData, rows: np.ndarray, cols: np.ndarray, *, stop_at_perfect: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(S, number of buckets, largest bucket) of each guess row over answer columns `cols`.

    With stop_at_perfect the arrays end just after the first row (in `rows` order) that
    splits the columns into singletons, when there is one (one thread then)."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    cols = np.ascontiguousarray(cols, dtype=np.int64)
    s = np.empty(len(rows), dtype=np.int64)
    parts = np.empty(len(rows), dtype=np.int64)
    largest = np.empty(len(rows), dtype=np.int64)
    if len(cols) <= _GATHER_COLUMNS and stop_at_perfect:
        done = _gathered_stats(
            data.matrix_f, rows, cols, data.flogf, data.span, True, s, parts, largest
        )
        return s[:done], parts[:done], largest[:done]

    def run(part: slice) -> None:
        if len(cols) <= _GATHER_COLUMNS:
            _gathered_stats(
                data.matrix_f, rows[part], cols, data.flogf, data.span, False, s[part],
                parts[part], largest[part],
            )  # fmt: skip
        else:
            _partition_stats(
                data.matrix, rows[part], cols, data.flogf, data.span, s[part], parts[part],
                largest[part],
            )  # fmt: skip

    _run_parts(run, _split_rows(len(rows), len(rows) * len(cols)))
    return s, parts, largest


def entropies(data: SolverData, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Entropy (bits) of each guess row's replies over the answer columns, uniform."""
    s, _, _ = partition_stats(data, rows, cols)
    n = len(cols)
    return np.log2(n) - s / (n * data.scale)


def _buckets(row: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions grouped by value, stable; bucket starts incl. the end; value per bucket)."""
    if len(row) == 1:
        return np.zeros(1, np.int64), np.array([0, 1], np.int64), row.astype(np.int64)
    order = np.argsort(row, kind="stable")
    ordered = row[order]
    edges = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
    starts = np.concatenate(([0], edges, [len(row)])).astype(np.int64)
    return order.astype(np.int64), starts, ordered[starts[:-1]].astype(np.int64)


def two_step_sums(data: SolverData, guesses: Sequence[int], cols: np.ndarray) -> np.ndarray:
    """T(g) = sum over g's buckets b of min over every guess g2 of S(g2 | b), per guess g.

    The two-step entropy H1(g) + sum_b p_b max_g2 H(g2 | b) is log2 n - T / (n * scale).
    The buckets of all `guesses` go to one kernel call, so each g2 row is read once; a
    small node's columns are gathered first. g2 rows are split over the threads, each
    keeping its own minima, merged by min (order independent).
    """
    cols = np.ascontiguousarray(cols, dtype=np.int64)
    n_words = data.matrix.shape[0]
    if len(cols) <= _GATHER_COLUMNS:
        matrix = columns_of(data, np.arange(n_words, dtype=np.int64), cols)
        local = np.arange(len(cols), dtype=np.int64)
    else:
        matrix, local = data.matrix, cols
    members: list[np.ndarray] = []
    sizes: list[np.ndarray] = []
    owners: list[np.ndarray] = []
    for i, guess in enumerate(guesses):
        order, starts, _ = _buckets(data.matrix[guess, cols])
        members.append(local[order])
        sizes.append(np.diff(starts))
        owners.append(np.full(len(starts) - 1, i, dtype=np.int64))
    all_sizes = np.concatenate(sizes)
    all_members = np.ascontiguousarray(np.concatenate(members))
    starts = np.concatenate(([0], np.cumsum(all_sizes))).astype(np.int64)
    parts = _split_rows(n_words, n_words * len(cols) * len(guesses))
    minima = np.empty((len(parts), len(all_sizes)), dtype=np.int64)

    def run(part: slice) -> None:
        index = parts.index(part)
        _two_step_sums(matrix[part], all_members, starts, data.flogf, data.span, minima[index])

    _run_parts(run, parts)
    totals = np.zeros(len(guesses), dtype=np.int64)
    np.add.at(totals, np.concatenate(owners), minima.min(axis=0))  # exact int64 sums
    return totals


def weighted_entropies(
    data: SolverData, guesses: np.ndarray, candidates: np.ndarray, probs: np.ndarray
) -> np.ndarray:
    """Entropy of each guess's (word_ids) replies over candidate words (word_ids) with
    probabilities `probs`; patterns are computed on the fly (no stored matrix needed)."""
    cand_t = np.ascontiguousarray(data.encoded[candidates].T)
    counts = letter_counts(cand_t)
    probs = np.ascontiguousarray(probs, dtype=np.float64)
    encoded = data.encoded[guesses]
    out = np.empty(len(guesses), dtype=np.float64)
    dtype = pattern_dtype(data.length)

    def run(part: slice) -> None:
        buffer = np.empty((_FEEDBACK_BLOCK, len(candidates)), dtype=dtype)
        _weighted_entropies(encoded[part], cand_t, counts, probs, data.span, buffer, out[part])

    _run_parts(run, _split_rows(len(guesses), 8 * len(guesses) * len(candidates)))
    return out


def tie_groups(scores: np.ndarray, tolerance: float) -> np.ndarray:
    """Rank of each score's tie group, lowest first: sorted scores closer than
    `tolerance` to their neighbour share a group, so sorting by (group, other keys) lets
    the tie rule, not float noise, order near-equal scores."""
    order = np.argsort(scores, kind="stable")
    ordered = scores[order]
    groups = np.empty(len(scores), dtype=np.int64)
    groups[order] = np.concatenate(([0], np.cumsum(np.diff(ordered) > tolerance)))
    return groups


def pick(rows: np.ndarray, scores: np.ndarray, tolerance: float, preferred: np.ndarray) -> int:
    """The tie rule: lowest score (within `tolerance` of the best are tied), then a
    preferred row (a possible answer), then the lowest word_id. `rows` ascending."""
    tied = scores <= scores.min() + tolerance
    best = tied & preferred
    chosen = np.flatnonzero(best if best.any() else tied)
    return int(rows[chosen[0]])


# --- strategies ----------------------------------------------------------------------------


@dataclass
class Node:
    """What the player knows before a guess: turn number (1-based), the answers still
    consistent with the feedback, the guesses and replies so far, strategy state."""

    turn: int
    answers: np.ndarray  # answer ids (columns), ascending
    guesses: tuple[int, ...] = ()  # word_ids guessed so far
    patterns: tuple[int, ...] = ()  # the replies they got
    sizes: tuple[int, ...] = ()  # number of remaining answers before each earlier guess
    state: Any = None


class Strategy:
    """A deterministic guess rule: choose(node) and, when it keeps state, child_state."""

    def __init__(self, data: SolverData, opener: int | None) -> None:
        self.data = data
        self.opener = opener

    def initial_state(self) -> Any:
        return None

    def first_guess(self, node: Node) -> int:
        return self.choose(node)

    def choose(self, node: Node) -> int:
        raise NotImplementedError

    def guess(self, node: Node) -> int:
        if node.turn == 1:
            return self.opener if self.opener is not None else self.first_guess(node)
        return self.choose(node)

    def child_state(self, node: Node, guess: int, pattern: int) -> Any:
        return None

    def candidate_rows(self, node: Node) -> np.ndarray:
        return self.data.answer_rows[node.answers]

    def preferred(self, node: Node) -> np.ndarray:
        mask = np.zeros(len(self.data.words), dtype=bool)
        mask[self.candidate_rows(node)] = True
        return mask


def best_by_partition(
    data: SolverData, rows: np.ndarray, answers: np.ndarray, criterion: str
) -> int:
    """Best guess among `rows` over the answer columns `answers` by entropy, most parts or
    minimax, with the tie rule. A possible answer that splits the answers into singletons
    is best by every criterion, so those are tried first."""
    cand_rows = data.answer_rows[answers]
    if len(answers) <= 2:
        return int(cand_rows[0])
    _, parts, _ = partition_stats(data, cand_rows, answers, stop_at_perfect=True)
    perfect = np.flatnonzero(parts == len(answers))
    if perfect.size:
        return int(cand_rows[perfect[0]])
    # no possible answer splits perfectly, so the first perfect row (in word order) wins
    s, parts, largest = partition_stats(data, rows, answers, stop_at_perfect=True)
    perfect = np.flatnonzero(parts == len(answers))
    if perfect.size:
        return int(rows[perfect[0]])
    preferred = np.zeros(len(data.words), dtype=bool)
    preferred[cand_rows] = True
    if criterion == "entropy":
        return pick(rows, s, data.tolerance(len(answers)), preferred[rows])
    if criterion == "parts":
        return pick(rows, -parts, 0, preferred[rows])
    return pick(rows, largest, 0, preferred[rows])


class PartitionStrategy(Strategy):
    """greedy_entropy, most_parts, minimax: the best guess over all words for the node's
    answers; memoised on the answer set (shared by every tree that uses the criterion)."""

    def __init__(self, data: SolverData, opener: int | None, criterion: str) -> None:
        super().__init__(data, opener)
        self.criterion = criterion
        self.all_rows = np.arange(len(data.words), dtype=np.int64)
        self.cache: dict[bytes, int] = data.caches.setdefault(criterion, {})

    def choose(self, node: Node) -> int:
        key = node.answers.tobytes()
        guess = self.cache.get(key)
        if guess is None:
            guess = best_by_partition(self.data, self.all_rows, node.answers, self.criterion)
            self.cache[key] = guess
        return guess


class HardEntropyStrategy(Strategy):
    """greedy_entropy in hard mode: state = word_ids consistent with all feedback."""

    def initial_state(self) -> np.ndarray:
        return np.arange(len(self.data.words), dtype=np.int64)

    def choose(self, node: Node) -> int:
        return best_by_partition(self.data, node.state, node.answers, "entropy")

    def child_state(self, node: Node, guess: int, pattern: int) -> np.ndarray:
        allowed = node.state
        replies = feedback_matrix(self.data.encoded[guess : guess + 1], self.data.encoded[allowed])
        return allowed[replies[0] == pattern]


class LetterFrequencyStrategy(Strategy):
    """Positional letter counts among the remaining answers, distinct letters once."""

    def __init__(self, data: SolverData, opener: int | None, pool: str) -> None:
        super().__init__(data, opener)
        if pool not in ("candidates", "allowed"):
            raise PipelineError(f"letter_frequency pool must be candidates or allowed: {pool!r}")
        self.pool = pool
        encoded = data.encoded.astype(np.int64)
        length = encoded.shape[1]
        earlier = np.tri(length, k=-1, dtype=bool)  # [i, k]: k < i
        repeat = ((encoded[:, :, None] == encoded[:, None, :]) & earlier[None]).any(axis=2)
        self.first = ~repeat  # (G, L): the letter's first position in the word
        self.codes = encoded

    def choose(self, node: Node) -> int:
        data = self.data
        cand_rows = data.answer_rows[node.answers]
        length = data.length
        counts = np.zeros((length, 26), dtype=np.int64)
        for i in range(length):
            counts[i] = np.bincount(self.codes[cand_rows, i], minlength=26)
        rows = cand_rows if self.pool == "candidates" else np.arange(len(data.words))
        positional = counts[np.arange(length)[None, :], self.codes[rows]]
        scores = (positional * self.first[rows]).sum(axis=1)
        preferred = np.zeros(len(data.words), dtype=bool)
        preferred[cand_rows] = True
        return pick(rows, -scores, 0, preferred[rows])


class CommonnessStrategy(Strategy):
    """Answer list unknown: candidates are consistent allowed words weighted by p_common;
    minimise the expected number of guesses E(g) (see the module docstring)."""

    def __init__(
        self, data: SolverData, opener: int | None, bits_ref: float, guesses_ref: float
    ) -> None:
        super().__init__(data, opener)
        if not bits_ref > 0 or not guesses_ref >= 0:
            raise PipelineError("commonness needs bits_ref > 0 and guesses_ref >= 0")
        self.bits_ref = bits_ref
        self.guesses_ref = guesses_ref

    def initial_state(self) -> np.ndarray:
        return np.arange(len(self.data.words), dtype=np.int64)

    def candidate_rows(self, node: Node) -> np.ndarray:
        return node.state

    def expected_scores(
        self, guesses: np.ndarray, candidates: np.ndarray, probs: np.ndarray, h0: float
    ) -> np.ndarray:
        """E(g) for each guess word_id, given candidate word_ids and their probabilities."""
        h = weighted_entropies(self.data, guesses, candidates, probs)
        p_now = np.zeros(len(self.data.words))
        p_now[candidates] = probs
        p_now = p_now[guesses]
        left = np.maximum(h0 - h, 0.0)
        future = 2.0 - 2.0**-left + self.guesses_ref * left / self.bits_ref
        return p_now + (1.0 - p_now) * (1.0 + future)

    def choose(self, node: Node) -> int:
        """Candidates are scored first: E of a non-candidate is 1 + f(x) >= 1 + f(0) = 2
        (f grows, and H(g) <= H0), so a candidate with E < 2 - tolerance beats them all
        and the full scan of every allowed word is skipped."""
        candidates = node.state
        if len(candidates) == 1:
            return int(candidates[0])
        weights = self.data.p_common[candidates]
        if not weights.sum() > 0:
            weights = np.ones(len(candidates))
        probs = weights / weights.sum()
        positive = probs[probs > 0]
        h0 = float(-(positive * np.log2(positive)).sum())
        scores = self.expected_scores(candidates, candidates, probs, h0)
        if scores.min() < 2.0 - TIE_TOLERANCE:
            return pick(candidates, scores, TIE_TOLERANCE, np.ones(len(candidates), bool))
        rows = np.arange(len(self.data.words), dtype=np.int64)
        scores = self.expected_scores(rows, candidates, probs, h0)
        return pick(rows, scores, TIE_TOLERANCE, self.preferred(node))

    def child_state(self, node: Node, guess: int, pattern: int) -> np.ndarray:
        candidates = node.state
        replies = feedback_matrix(
            self.data.encoded[guess : guess + 1], self.data.encoded[candidates]
        )
        return candidates[replies[0] == pattern]


def opener_ranking(data: SolverData, pool: int) -> list[int]:
    """word_ids of openers by the two-step ranking, best first.

    From openers.parquet (mode "answers", by rank) when given; otherwise computed: the
    `pool` best openers by H1, ranked by two-step entropy, ties (tie_groups) by word_id:
    the definition the openers stage uses.
    """
    cache = data.caches.setdefault("ranking", {})
    key = ("file", 0) if data.openers_path is not None else ("computed", pool)
    if key in cache:
        return cache[key]
    if data.openers_path is not None:
        ranking = _read_opener_ranking(data)
    else:
        rows = np.arange(len(data.words), dtype=np.int64)
        cols = np.arange(len(data.answer_rows), dtype=np.int64)
        s, _, _ = partition_stats(data, rows, cols)
        n = len(cols)
        top = np.lexsort((rows, tie_groups(s, data.tolerance(n))))[: min(pool, len(rows))]
        totals = two_step_sums(data, [int(g) for g in top], cols)
        order = np.lexsort((top, tie_groups(totals, data.tolerance(n))))
        ranking = [int(g) for g in top[order]]
    cache[key] = ranking
    return ranking


def _read_opener_ranking(data: SolverData) -> list[int]:
    path = data.openers_path
    try:
        table = pq.read_table(path, columns=["mode", "word_id", "word", "rank"])
    except (OSError, pa.ArrowException) as error:
        raise InputError(path, f"cannot be read as an openers table: {error}") from None
    frame = pl.from_arrow(table).filter(pl.col("mode") == "answers").sort("rank", "word_id")
    if frame.height == 0:
        raise InputError(path, 'has no rows of mode "answers"')
    ids = frame["word_id"].to_list()
    if any(
        not 0 <= i < len(data.words) or data.words[i] != w
        for i, w in zip(ids, frame["word"].to_list(), strict=True)
    ):
        raise InputError(path, "word_id/word disagree with the word index; rebuild it")
    return [int(i) for i in ids]


class TwoStepStrategy(Strategy):
    """Two-step opener, tabled second guess, then two-step look-ahead over the top_n."""

    def __init__(self, data: SolverData, opener: int | None, top_n: int, pool: int) -> None:
        super().__init__(data, opener)
        if top_n < 1 or pool < 1:
            raise PipelineError("two_step needs top_n >= 1 and pool >= 1")
        self.top_n = top_n
        self.pool = pool
        self.seconds: dict[int, dict[int, int]] = {}
        self.greedy = PartitionStrategy(data, None, "entropy")

    def first_guess(self, node: Node) -> int:
        return opener_ranking(self.data, self.pool)[0]

    def second_guess(self, opener: int, pattern: int, answers: np.ndarray) -> int:
        if opener not in self.seconds:
            self.seconds[opener] = self._read_seconds(opener)
        table = self.seconds[opener]
        if pattern in table:
            return table[pattern]
        # no table (or the opener is not in it): the same definition, computed
        return self.greedy.choose(Node(2, answers))

    def _read_seconds(self, opener: int) -> dict[int, int]:
        path = self.data.second_guesses_path
        if path is None:
            return {}
        columns = ["mode", "opener_id", "pattern_id", "bucket_size", "second_guess_id"]
        try:
            table = pq.read_table(
                path,
                columns=columns,
                filters=[("mode", "=", "answers"), ("opener_id", "=", opener)],
            )
        except (OSError, pa.ArrowException) as error:
            raise InputError(path, f"cannot be read as a second-guess table: {error}") from None
        if table.num_rows == 0:
            return {}
        patterns = table["pattern_id"].to_numpy().astype(np.int64)
        sizes = table["bucket_size"].to_numpy().astype(np.int64)
        _, starts, values = _buckets(self.data.matrix[opener])
        if not (
            np.array_equal(np.sort(patterns), values)
            and np.array_equal(sizes[np.argsort(patterns)], np.diff(starts))
        ):
            raise InputError(path, f"buckets of opener {self.data.words[opener]!r} differ from "
                             "the pattern matrix; rebuild it")  # fmt: skip
        seconds = table["second_guess_id"].to_numpy().astype(np.int64)
        return {int(p): int(g) for p, g in zip(patterns, seconds, strict=True)}

    def choose(self, node: Node) -> int:
        if node.turn == 2:
            opener, pattern = node.guesses[0], node.patterns[0]
            return self.second_guess(opener, pattern, node.answers)
        data = self.data
        answers = node.answers
        cand_rows = data.answer_rows[answers]
        if len(answers) <= 2:
            return int(cand_rows[0])
        rows = np.arange(len(data.words), dtype=np.int64)
        s, _, _ = partition_stats(data, rows, answers)
        preferred = self.preferred(node)
        groups = tie_groups(s, data.tolerance(len(answers)))
        top = np.lexsort((rows, ~preferred, groups))[: self.top_n]
        top.sort()
        totals = two_step_sums(data, [int(g) for g in top], answers)
        return pick(top, totals, data.tolerance(len(answers)), preferred[top])


def make_strategy(data: SolverData, config: Mapping[str, Any]) -> tuple[str, Strategy]:
    """(label, strategy) for one strategy config; unknown names or parameters fail."""
    name, params = _parameters(config)
    opener = params.get("opener")
    opener_id = data.word_id(opener) if opener else None
    label = str(config.get("label") or name)
    if name in ("greedy_entropy", "most_parts", "minimax"):
        criterion = {"greedy_entropy": "entropy", "most_parts": "parts", "minimax": "minimax"}
        return label, PartitionStrategy(data, opener_id, criterion[name])
    if name == "greedy_entropy_hard":
        return label, HardEntropyStrategy(data, opener_id)
    if name == "two_step":
        return label, TwoStepStrategy(data, opener_id, int(params["top_n"]), int(params["pool"]))
    if name == "commonness":
        return label, CommonnessStrategy(
            data, opener_id, float(params["bits_ref"]), float(params["guesses_ref"])
        )
    if name == "letter_frequency":
        return label, LetterFrequencyStrategy(data, opener_id, str(params["pool"]))
    raise PipelineError(f"strategy {name!r} cannot be built on its own")


def _parameters(config: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    name = config.get("name")
    if name not in STRATEGY_DEFAULTS:
        raise PipelineError(f"unknown strategy {name!r}; known: {sorted(STRATEGY_DEFAULTS)}")
    defaults = STRATEGY_DEFAULTS[name]
    unknown = set(config) - set(defaults) - {"name", "label"}
    if unknown:
        raise PipelineError(f"strategy {name!r} has unknown parameters {sorted(unknown)}")
    return name, {**defaults, **{k: v for k, v in config.items() if k in defaults}}


# --- the game tree ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One game: the answer (answer id), guesses (word_ids), replies, remaining answers
    before each guess, and whether the answer was guessed within max_turns."""

    answer: int
    guesses: tuple[int, ...]
    patterns: tuple[int, ...]
    candidates: tuple[int, ...]
    finished: bool


def play_tree(strategy: Strategy, data: SolverData, max_turns: int) -> list[Game]:
    """Play every answer at once as a decision tree; games in answer order."""
    if max_turns < 1:
        raise PipelineError(f"max_turns must be at least 1, got {max_turns}")
    games: list[Game] = []
    root = Node(1, np.arange(len(data.answer_rows), dtype=np.int64))
    root.state = strategy.initial_state()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.turn > max_turns:
            games.extend(
                Game(int(a), node.guesses, node.patterns, node.sizes, False) for a in node.answers
            )
            continue
        guess = strategy.guess(node)
        guesses = (*node.guesses, guess)
        sizes = (*node.sizes, len(node.answers))
        if len(node.answers) == 1:  # one answer left: no need to sort replies
            answers = [node.answers]
            values = [int(data.matrix[guess, node.answers[0]])]
        else:
            order, starts, values = _buckets(data.matrix[guess, node.answers])
            # a stable sort keeps each bucket's answers ascending
            answers = [node.answers[order[starts[b] : starts[b + 1]]] for b in range(len(values))]
            values = values.tolist()
        for members, pattern in zip(reversed(answers), reversed(values), strict=True):
            patterns = (*node.patterns, pattern)
            if pattern == data.green:
                games.append(Game(int(members[0]), guesses, patterns, sizes, True))
                continue
            state = strategy.child_state(node, guess, pattern)
            stack.append(Node(node.turn + 1, members, guesses, patterns, sizes, state))
    games.sort(key=lambda game: game.answer)
    return games


def play_strategies(
    data: SolverData,
    strategies: Sequence[Mapping[str, Any]],
    max_turns: int = DEFAULT_MAX_TURNS,
    *,
    timings: dict[str, float] | None = None,
) -> list[tuple[str, str, list[Game]]]:
    """(strategy label, opener word, games) for every configured strategy; the opener
    benchmark gives one entry per opener. `timings` receives seconds per label."""
    results: list[tuple[str, str, list[Game]]] = []
    labels: set[str] = set()
    for config in strategies:
        began = time.perf_counter()
        name, params = _parameters(config)
        label = str(config.get("label") or name)
        if label in labels:
            raise PipelineError(f"two strategies are labelled {label!r}; give one a label")
        labels.add(label)
        if name == "opener_benchmark":
            top = int(params["top"])
            if top < 1:
                raise PipelineError("opener_benchmark needs top >= 1")
            for opener in opener_ranking(data, int(params["pool"]))[:top]:
                strategy = PartitionStrategy(data, opener, "entropy")
                results.append((label, data.words[opener], play_tree(strategy, data, max_turns)))
        else:
            _, strategy = make_strategy(data, config)
            games = play_tree(strategy, data, max_turns)
            results.append((label, data.words[games[0].guesses[0]], games))
        seconds = time.perf_counter() - began
        if timings is not None:
            timings[label] = seconds
        log.info("strategy %s: %.2f s", label, seconds)
    return results


# --- tables ----------------------------------------------------------------------------------


def games_table(
    data: SolverData,
    results: Sequence[tuple[str, str, list[Game]]],
    success_turns: int = SUCCESS_TURNS,
) -> pa.Table:
    """benchmark_games rows sorted by (strategy, opener, answer)."""
    if data.green > np.iinfo(np.int32).max:
        raise PipelineError(f"words of {data.length} letters have pattern ids beyond int32")
    rows: list[tuple[str, str, str, Game]] = []
    for label, opener, games in results:
        rows.extend((label, opener, data.words[data.answer_rows[g.answer]], g) for g in games)
    rows.sort(key=lambda row: row[:3])
    words = data.words
    return pa.table(
        {
            "strategy": pa.array([r[0] for r in rows], pa.string()),
            "opener": pa.array([r[1] for r in rows], pa.string()),
            "answer": pa.array([r[2] for r in rows], pa.string()),
            "guesses": [[words[g] for g in r[3].guesses] for r in rows],
            "patterns": [list(r[3].patterns) for r in rows],
            "candidates": [list(r[3].candidates) for r in rows],
            "n_guesses": pa.array([len(r[3].guesses) for r in rows], pa.int32()),
            "finished": pa.array([r[3].finished for r in rows], pa.bool_()),
            "solved": pa.array(
                [r[3].finished and len(r[3].guesses) <= success_turns for r in rows], pa.bool_()
            ),
        },
        schema=GAMES_SCHEMA,
    )


def summary_table(
    games: pa.Table,
    optimum: Mapping[str, Any] | None,
    max_turns: int,
    success_turns: int = SUCCESS_TURNS,
) -> pa.Table:
    """Per (strategy, opener): guess counts, failures and the gap to the optimum.

    A capped (unfinished) game counts as max_turns + 1 guesses in the mean, median, max
    and total: a lower bound on what it would have needed. failures = games not solved
    within success_turns, capped ones included. The gap is null when the optimum is for
    another number of answers (optimum["answers"], when given).
    """
    frame = pl.from_arrow(games).with_columns(
        counted=pl.when(pl.col("finished"))
        .then(pl.col("n_guesses").cast(pl.Int64))
        .otherwise(max_turns + 1)
    )
    counts = [
        (pl.col("finished") & (pl.col("n_guesses") == k)).sum().cast(pl.Int32).alias(f"n_{k}")
        for k in range(1, success_turns + 1)
    ]
    summary = (
        frame.group_by("strategy", "opener", maintain_order=True)
        .agg(
            pl.len().cast(pl.Int32).alias("n_games"),
            pl.col("counted").mean().alias("mean_guesses"),
            pl.col("counted").median().cast(pl.Float64).alias("median_guesses"),
            pl.col("counted").max().cast(pl.Int32).alias("max_guesses"),
            pl.col("counted").sum().cast(pl.Int64).alias("total_guesses"),
            *counts,
            (~pl.col("solved")).sum().cast(pl.Int32).alias("failures"),
            (~pl.col("finished")).sum().cast(pl.Int32).alias("capped"),
        )
        .sort("strategy", "opener")
    )
    usable = optimum is not None and "mean" in optimum and "total" in optimum
    if usable and optimum.get("answers") is not None:
        n_answers = summary["n_games"].to_list()
        usable = all(n == int(optimum["answers"]) for n in n_answers)
        if not usable:
            log.warning("optimum is for %s answers; gaps left empty", optimum["answers"])
    if usable:
        summary = summary.with_columns(
            gap_to_optimum_mean=pl.col("mean_guesses") - float(optimum["mean"]),
            gap_to_optimum_total=pl.col("total_guesses") - int(optimum["total"]),
            optimum_source=pl.lit(str(optimum.get("source", ""))),
        )
    else:
        summary = summary.with_columns(
            gap_to_optimum_mean=pl.lit(None, pl.Float64),
            gap_to_optimum_total=pl.lit(None, pl.Int64),
            optimum_source=pl.lit(None, pl.String),
        )
    return summary.to_arrow().cast(summary_schema(success_turns))


def score_model_table(games: pa.Table, bin_bits: float = DEFAULT_BIN_BITS) -> pa.Table:
    """The uncertainty map: per strategy and bin of log2(remaining answers) before a
    guess, the mean number of guesses still needed (that guess included); finished games
    only. The opener benchmark's openers are pooled under their strategy label."""
    if not bin_bits > 0:
        raise PipelineError(f"score model bins must be wider than 0 bits, got {bin_bits}")
    frame = (
        pl.from_arrow(games)
        .filter(pl.col("finished"))
        .select("strategy", "candidates", "n_guesses")
        .with_columns(turn=pl.int_ranges(0, pl.col("candidates").list.len()))
        .explode("candidates", "turn")
        .with_columns(
            bits=pl.col("candidates").cast(pl.Float64).log(2),
            left=(pl.col("n_guesses") - pl.col("turn")).cast(pl.Float64),
        )
        .with_columns(bin=(pl.col("bits") / bin_bits).floor().cast(pl.Int64))
    )
    table = (
        frame.group_by("strategy", "bin")
        .agg(
            pl.col("bits").mean().alias("mean_bits"),
            pl.col("left").mean().alias("mean_guesses_left"),
            pl.len().cast(pl.Int64).alias("samples"),
        )
        .sort("strategy", "bin")
        .with_columns(
            bits_low=pl.col("bin") * bin_bits,
            bits_high=(pl.col("bin") + 1) * bin_bits,
        )
        .select([f.name for f in SCORE_MODEL_SCHEMA])
    )
    return table.to_arrow().cast(SCORE_MODEL_SCHEMA)


def write_benchmarks(
    words_path: str | Path,
    commonness_path: str | Path,
    patterns_index: str | Path,
    games_output: str | Path,
    summary_output: str | Path,
    score_model_output: str | Path,
    *,
    strategies: Sequence[Mapping[str, Any]],
    optimum: Mapping[str, Any],
    max_turns: int,
    openers_path: str | Path | None = None,
    second_guesses_path: str | Path | None = None,
    bin_bits: float = DEFAULT_BIN_BITS,
    success_turns: int = SUCCESS_TURNS,
) -> None:
    """Play every strategy against every answer; write games, summary and score model."""
    data = load_solver_data(
        words_path,
        commonness_path,
        patterns_index,
        openers_path=openers_path,
        second_guesses_path=second_guesses_path,
    )
    results = play_strategies(data, strategies, max_turns)
    games = games_table(data, results, success_turns)
    summary = summary_table(games, optimum, max_turns, success_turns)
    model = score_model_table(games, bin_bits)
    inputs: dict[str, str | Path] = {
        "words": words_path,
        "commonness": commonness_path,
        "patterns_index": patterns_index,
    }
    if openers_path:
        inputs["openers"] = openers_path
    if second_guesses_path:
        inputs["second_guesses"] = second_guesses_path
    config = {
        "strategies": [dict(s) for s in strategies],
        "optimum": dict(optimum),
        "max_turns": max_turns,
        "success_turns": success_turns,
        "bin_bits": bin_bits,
    }
    write_parquet(games, games_output, inputs=inputs, config=config)
    write_parquet(summary, summary_output, inputs=inputs, config=config)
    write_parquet(model, score_model_output, inputs=inputs, config=config)
    for row in summary.to_pylist():
        if row["strategy"] != "opener_benchmark":
            log.info(
                "%s (opener %s): mean %.4f, total %d, failures %d",
                row["strategy"],
                row["opener"],
                row["mean_guesses"],
                row["total_guesses"],
                row["failures"],
            )


def benchmark_solver(
    words_path: str | Path,
    commonness_path: str | Path,
    patterns_index: str | Path,
    *,
    strategies: Sequence[Mapping[str, Any]] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    openers_path: str | Path | None = None,
    second_guesses_path: str | Path | None = None,
) -> dict[str, float]:
    """Print and return the wall seconds of each strategy over every answer, and the total.

    JIT compilation is warmed up on a tiny problem first so it is not timed.
    """
    _warm_up()
    began = time.perf_counter()
    data = load_solver_data(
        words_path,
        commonness_path,
        patterns_index,
        openers_path=openers_path,
        second_guesses_path=second_guesses_path,
    )
    timings = {"load": time.perf_counter() - began}
    results = play_strategies(data, strategies or ALL_STRATEGIES, max_turns, timings=timings)
    timings["total"] = time.perf_counter() - began
    means: dict[str, list[float]] = {}
    for label, _, games in results:
        means.setdefault(label, []).extend(
            len(g.guesses) if g.finished else max_turns + 1 for g in games
        )
    for label, seconds in timings.items():
        mean = f"mean {np.mean(means[label]):.4f}" if label in means else ""
        print(f"  {label:<24} {seconds:>8.2f} s  {mean}")
    return timings


def _warm_up() -> None:
    """Compile (or load from cache) every kernel on a tiny word list."""
    data = SolverData.from_words(["abcde", "bcdea", "cdeab", "aaaaa"], ["abcde", "bcdea"])
    for config in ALL_STRATEGIES:
        play_strategies(data, [config], 3)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m pipeline.solver --words ... --commonness ... --patterns-index ...`"""
    import argparse

    parser = argparse.ArgumentParser(description=benchmark_solver.__doc__)
    parser.add_argument("--words", required=True, help="words.parquet")
    parser.add_argument("--commonness", required=True, help="commonness.parquet")
    parser.add_argument("--patterns-index", required=True, help="patterns/index.json")
    parser.add_argument("--openers", default=None, help="openers.parquet (optional)")
    parser.add_argument("--second-guesses", default=None, help="second_guesses.parquet")
    parser.add_argument("--strategy", action="append", help="strategy name (repeatable)")
    parser.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    args = parser.parse_args(argv)
    benchmark_solver(
        args.words,
        args.commonness,
        args.patterns_index,
        strategies=[{"name": name} for name in args.strategy] if args.strategy else None,
        max_turns=args.max_turns,
        openers_path=args.openers,
        second_guesses_path=args.second_guesses,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
