"""The pair bound of the second-guess search (checked entry points).

See pipeline.kernels.pair_bound_jit: a guess that leaves p pairs of a bucket's n answers
untold scores at least `pair_bound_table(values, ...)[n, p]`, the least fixed-point S of
any partition of n answers with p pairs inside its parts.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels import pair_bound_jit as jit

MOST_ANSWERS = 362  # n(n-1)/2 pairs must fit the uint16 counts: 362 * 361 / 2 < 2**16


def pair_bound_table(values: np.ndarray, n_max: int) -> np.ndarray:
    """table[m, p]: the least sum of values[c] over the partitions of m answers into parts
    of sizes c with sum C(c, 2) = p (a huge value where no partition has p pairs).

    values: the fixed-point c*log2(c) table (pipeline.kernels.partition.fixed_point), for
    counts up to at least n_max. An unbounded knapsack over part sizes: a partition of m
    is a part of size c and a partition of m - c.
    """
    if not 0 <= n_max <= MOST_ANSWERS:
        raise ValueError(f"pair bound for buckets of {n_max} answers (at most {MOST_ANSWERS})")
    if len(values) <= n_max:
        raise ValueError(f"a c*log2(c) table up to {len(values) - 1} for buckets of {n_max}")
    most_pairs = n_max * (n_max - 1) // 2
    table = np.full((n_max + 1, most_pairs + 1), np.iinfo(np.int64).max // 4, dtype=np.int64)
    table[0, 0] = 0
    for m in range(1, n_max + 1):
        for c in range(1, m + 1):
            pairs = c * (c - 1) // 2
            merged = table[m - c, : most_pairs + 1 - pairs] + values[c]
            np.minimum(table[m, pairs:], merged, out=table[m, pairs:])
    return table


def pair_counts(matrix_t: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """For every guess, the pairs of answers `columns` it leaves untold (the same reply).
    matrix_t: (answers, guesses) patterns, rows answers."""
    matrix_t = np.ascontiguousarray(matrix_t)
    columns = np.ascontiguousarray(columns, dtype=np.int64)
    if matrix_t.ndim != 2:
        raise ValueError(f"a transposed matrix of shape {matrix_t.shape}")
    if columns.size > MOST_ANSWERS:
        raise ValueError(f"{columns.size} answers: the counts hold at most {MOST_ANSWERS}")
    if columns.size and (columns.min() < 0 or columns.max() >= matrix_t.shape[0]):
        raise ValueError("answer columns outside the matrix")
    out = np.zeros(matrix_t.shape[1], dtype=np.uint16)
    small = np.zeros(jit.BLOCK, dtype=np.uint8)
    jit.pair_counts(matrix_t, columns, 0, columns.size, small, out)
    return out
