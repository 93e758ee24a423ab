"""Plain numpy baselines the kernels are measured against (never used by the pipeline)."""

from __future__ import annotations

import numpy as np

from pipeline.core.ties import best_position
from pipeline.kernels.feedback import feedback_matrix

_BLOCK = 1 << 22


def entropy_answers_numpy(matrix: np.ndarray) -> np.ndarray:
    """Uniform entropy of each row by np.bincount, a block of rows at a time."""
    n_rows, n = matrix.shape
    n_bins = int(matrix.max()) + 1
    out = np.empty(n_rows)
    step = max(1, _BLOCK // max(n, n_bins))
    for start in range(0, n_rows, step):
        rows = matrix[start : start + step].astype(np.int64)
        m = rows.shape[0]
        counts = np.bincount((rows + n_bins * np.arange(m)[:, None]).ravel(), minlength=m * n_bins)
        p = counts.reshape(m, n_bins) / n
        with np.errstate(divide="ignore", invalid="ignore"):
            out[start : start + m] = -np.where(p > 0, p * np.log2(p), 0.0).sum(axis=1)
    return out


def weighted_entropies_numpy(patterns: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Entropy of every row's replies, columns weighted (one bincount per row block)."""
    n_rows = patterns.shape[0]
    span = int(patterns.max()) + 1
    index = (np.arange(n_rows, dtype=np.int64)[:, None] * span + patterns).ravel()
    mass = np.bincount(index, np.tile(weights / weights.sum(), n_rows), n_rows * span)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(mass > 0, mass * np.log2(mass), 0.0).reshape(n_rows, span)
    return -terms.sum(axis=1)


def square_entropies_numpy(
    encoded: np.ndarray, weights: np.ndarray, rows: np.ndarray
) -> np.ndarray:
    """Weighted entropy of some guess rows against every word: patterns by the numpy
    engine, one row at a time."""
    return np.array(
        [
            weighted_entropies_numpy(
                feedback_matrix(encoded[[r]], encoded, engine="numpy"), weights
            )[0]
            for r in rows
        ]
    )


def second_guesses_numpy(matrix: np.ndarray, answer_rows: np.ndarray, opener: int) -> np.ndarray:
    """Best second guess (word_id) per bucket of `opener`, bucket by bucket in numpy."""
    row = matrix[opener]
    winners = []
    for pattern in np.unique(row):
        members = np.flatnonzero(row == pattern)
        if members.size == 1:
            winners.append(int(answer_rows[members[0]]))
            continue
        scores = weighted_entropies_numpy(matrix[:, members], np.ones(members.size))
        in_bucket = np.zeros(matrix.shape[0], dtype=bool)
        in_bucket[answer_rows[members]] = True
        winners.append(best_position(scores, higher_is_better=True, keys=[~in_bucket]))
    return np.array(winners)
