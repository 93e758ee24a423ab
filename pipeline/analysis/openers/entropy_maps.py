"""How much each guess tells you: entropy of its reply distribution, and the buckets.

For a guess g and answers distributed by weights w, the reply pattern splits the answers
into buckets; the entropy of the bucket probabilities (bits) is the expected information
of playing g. Three answer distributions are measured per guess:

- `entropy_answers`: uniform over the answer list, from the stored guess x answer matrix;
- `entropy_prior`: over every allowed word, weighted by p_common (normalised);
- `entropy_allowed`: uniform over every allowed word.

The last two need the guess x guess matrix (G^2 patterns) and depend on the allowed list
alone, so they are computed once per list. It is never held in memory: the kernel
computes pattern rows block by block and keeps only per-row histograms. Rows are guesses and
columns answers everywhere; reading a matrix transposed is the classic mistake (it turns
"what does guessing g tell me" into "how is answer g reached") and the tests pin it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from pipeline.analysis.openers.pattern_spelling import spelled_patterns
from pipeline.core.ties import ranks
from pipeline.core.word_index import WordIndex
from pipeline.core.wordle import all_green
from pipeline.kernels.partition import float_stats, pattern_entropies, reply_buckets

# Guess rows per logged step of the streamed square pass (the values do not depend on it).
SQUARE_STEP_ROWS = 1024


@dataclass
class AnswerStats:
    """Per guess over the answer list, and its reply distribution in long format."""

    entropy: np.ndarray
    buckets: np.ndarray
    largest: np.ndarray
    expected: np.ndarray
    rows: list[np.ndarray]  # per matrix chunk: the guess row of each (guess, reply) pair
    pattern_ids: list[np.ndarray]
    counts: list[np.ndarray]


def answer_stats(
    chunks: Iterable[tuple[int, int, np.ndarray]], n_words: int, length: int, threads: int
) -> AnswerStats:
    """Statistics of every guess row over the answers, from (start, stop, rows) chunks."""
    n_bins = all_green(length) + 1
    stats = AnswerStats(
        np.empty(n_words), np.empty(n_words, np.int32), np.empty(n_words, np.int32),
        np.empty(n_words), [], [], [],
    )  # fmt: skip
    for start, stop, block in chunks:
        found = float_stats(block, n_bins=n_bins, threads=threads)
        stats.entropy[start:stop] = found.entropy
        stats.buckets[start:stop] = found.buckets
        stats.largest[start:stop] = found.largest
        stats.expected[start:stop] = found.expected
        offsets, ids, counts = reply_buckets(block, found.buckets, n_bins=n_bins, threads=threads)
        stats.rows.append(start + np.repeat(np.arange(stop - start), np.diff(offsets)))
        stats.pattern_ids.append(ids)
        stats.counts.append(counts)
    return stats


def square_stats_streamed(
    encoded: np.ndarray, weights: np.ndarray, threads: int, step_done=None
) -> tuple[np.ndarray, np.ndarray]:
    """(uniform, weighted) entropy of every guess against every word, patterns computed
    on the fly; `step_done(rows)` is called after each step of SQUARE_STEP_ROWS rows."""
    n_words = len(encoded)
    uniform = np.empty(n_words)
    weighted = np.empty(n_words)
    for start in range(0, n_words, SQUARE_STEP_ROWS):
        stop = min(start + SQUARE_STEP_ROWS, n_words)
        uniform[start:stop], weighted[start:stop] = pattern_entropies(
            encoded[start:stop], encoded, weights, threads=threads
        )
        if step_done is not None:
            step_done(stop - start)
    return uniform, weighted


def entropy_table(
    index: WordIndex,
    p_common: np.ndarray,
    answers: AnswerStats,
    entropy_prior: np.ndarray,
    entropy_allowed: np.ndarray,
) -> pa.Table:
    """One row per guess, in word_id order, with the three ranks by the tie rule."""

    def rank(values: np.ndarray) -> np.ndarray:
        return ranks(values, higher_is_better=True)

    return pa.table(
        {
            "word_id": np.arange(len(index.words), dtype=np.int32),
            "word": pa.array(index.words, pa.string()),
            "is_answer": pa.array(index.is_answer, pa.bool_()),
            "p_common": p_common,
            "entropy_answers": answers.entropy,
            "entropy_prior": entropy_prior,
            "entropy_allowed": entropy_allowed,
            "buckets": answers.buckets,
            "largest_bucket": answers.largest,
            "expected_remaining": answers.expected,
            "rank_answers": rank(answers.entropy),
            "rank_prior": rank(entropy_prior),
            "rank_allowed": rank(entropy_allowed),
        }
    )


def distribution_table(words: Sequence[str], answers: AnswerStats, n_answers: int) -> pa.Table:
    """Long format: one row per (guess, reply that occurs), by word_id then reply id."""
    rows = np.concatenate(answers.rows)
    pattern_ids = np.concatenate(answers.pattern_ids)
    counts = np.concatenate(answers.counts)
    return pa.table(
        {
            "word_id": rows.astype(np.int32),
            "word": pa.array(words, pa.string()).take(pa.array(rows)),
            "pattern_id": pattern_ids.astype(np.int32),
            "pattern": spelled_patterns(pattern_ids, len(words[0])),
            "count": counts.astype(np.int32),
            "probability": counts / n_answers,
        }
    )
