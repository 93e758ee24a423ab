"""How likely each guess word is to be a common word, from its frequency rank.

Method (3Blue1Brown's): sort the N words by count ascending (ties by word, so the
order is deterministic), lay x evenly over [c - w/2, c + w/2] with
c = w * (-0.5 + n_common / N), and take p_common = 1 / (1 + e^-x). The n_common-th most
common word lands near x = 0 (p = 0.5), the most common at x = w * n_common / N.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import numpy as np
import pyarrow as pa

log = logging.getLogger(__name__)


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
    log.info(
        "commonness: %d words, %d with a frequency count, n_common=%d, width=%s",
        n_words,
        int(np.count_nonzero(word_counts)),
        n_common,
        width,
    )
    return pa.table(
        {
            "word_id": pa.array(np.arange(n_words, dtype=np.int32)),
            "word": pa.array(list(words), pa.string()),
            "count": pa.array(word_counts),
            "frequency_rank": pa.array(rank),
            "x": pa.array(x),
            "p_common": pa.array(1.0 / (1.0 + np.exp(-x))),
        }
    )
