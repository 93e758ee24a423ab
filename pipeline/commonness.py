"""How likely each guess word is to be a common word, from its frequency rank.

Method (3Blue1Brown's): sort the N words by count ascending (ties by word, so the
order is deterministic), lay x evenly over [c - w/2, c + w/2] with
c = w * (-0.5 + n_common / N), and take p_common = 1 / (1 + e^-x). The n_common-th most
common word lands near x = 0 (p = 0.5), the most common at x = w * n_common / N.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import InputError
from pipeline.frequency import read_frequency_counts
from pipeline.parquet import described, write_parquet
from pipeline.words import WordIndex, load_word_index

log = logging.getLogger(__name__)

COMMONNESS_SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the word in words.parquet and every matrix"),
        described("word", pa.string(), "the word"),
        described(
            "count", pa.int64(), "corpus occurrences, summed over case variants; 0 if absent"
        ),
        described("frequency_rank", pa.int32(), "1 = most frequent; equal counts ordered by word"),
        described("x", pa.float64(), "sigmoid input, evenly spaced by frequency rank"),
        described("p_common", pa.float64(), "1 / (1 + e^-x): how likely the word is a common word"),
    ]
)


def sigmoid_positions(n_words: int, n_common: int, width: float) -> np.ndarray:
    """x for the words in ascending-count order: evenly spaced over [c - w/2, c + w/2]."""
    centre = width * (-0.5 + n_common / n_words)
    return np.linspace(centre - width / 2, centre + width / 2, n_words)


def commonness_table(
    words: Sequence[str], counts: Mapping[str, int], n_common: int, width: float
) -> pa.Table:
    """One row per word, in the given (word index) order."""
    n_words = len(words)
    if n_common > n_words:
        log.warning(
            "n_common (%d) exceeds the number of words (%d): every word sits above p = 0.5",
            n_common,
            n_words,
        )
    word_counts = np.array([counts.get(word, 0) for word in words], dtype=np.int64)
    ascending = sorted(range(n_words), key=lambda i: (word_counts[i], words[i]))
    x = np.empty(n_words, dtype=np.float64)
    x[ascending] = sigmoid_positions(n_words, n_common, width)
    rank = np.empty(n_words, dtype=np.int32)
    rank[ascending] = np.arange(n_words, 0, -1, dtype=np.int32)
    return pa.table(
        {
            "word_id": pa.array(np.arange(n_words, dtype=np.int32)),
            "word": pa.array(list(words), pa.string()),
            "count": pa.array(word_counts),
            "frequency_rank": pa.array(rank),
            "x": pa.array(x),
            "p_common": pa.array(1.0 / (1.0 + np.exp(-x))),
        },
        schema=COMMONNESS_SCHEMA,
    )


def load_p_common(commonness_path: str | Path, index: WordIndex) -> np.ndarray:
    """p_common in word_id order, after checking the file lists the index's words in order."""
    try:
        table = pq.ParquetFile(commonness_path).read(columns=["word_id", "word", "p_common"])
    except (OSError, pa.ArrowException) as error:
        raise InputError(commonness_path, f"cannot be read as commonness: {error}") from None
    if (
        table.num_rows != len(index.words)
        or table["word_id"].to_pylist() != list(range(len(index.words)))
        or tuple(table["word"].to_pylist()) != index.words
    ):
        raise InputError(commonness_path, f"does not list the words of {index.path} in order")
    p_common = table["p_common"].to_numpy(zero_copy_only=False).astype(np.float64)
    if not np.all(np.isfinite(p_common)) or p_common.min() < 0 or not p_common.sum() > 0:
        raise InputError(commonness_path, "p_common must be finite, >= 0 and not all zero")
    return p_common


def write_commonness(
    words_path: str | Path,
    frequency_path: str | Path,
    output: str | Path,
    *,
    n_common: int,
    width: float,
) -> None:
    """Build `commonness.parquet` from the word index and a frequency file."""
    index = load_word_index(words_path)
    counts = read_frequency_counts(frequency_path)
    table = commonness_table(index.words, counts, n_common, width)
    found = int(np.count_nonzero(table["count"].to_numpy()))
    log.info(
        "commonness: %d words, %d with a frequency count, n_common=%d, width=%s",
        len(index.words),
        found,
        n_common,
        width,
    )
    write_parquet(
        table,
        output,
        inputs={"words": words_path, "frequency": frequency_path},
        config={"n_common": n_common, "width": width},
    )
