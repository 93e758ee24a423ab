"""Partition statistics of guesses over a set of answers: the checked public functions.

See pipeline.kernels.partition_jit for the definitions. Every function takes the number
of threads to use; rows are split into contiguous ranges, each scored by one thread in
a fixed order, so results never depend on the thread count.

`float_stats` also has a numpy engine for small interactive jobs (the assistant), which
cannot afford numba's start-up; it agrees with the kernel to within rounding (its log2
and sums may differ in the last bit), so pipeline stages always use the kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pipeline.kernels.feedback import check_encoded
from pipeline.kernels.threads import run_in_threads

# Histograms of up to this many bins (or the row's length) are walked bin by bin to list
# a row's buckets in id order; larger ones sort the bins the row touched instead.
SCAN_BINS = 4096
# Below this many matrix elements per thread a job is not worth splitting.
MIN_THREAD_WORK = 1 << 16
# Guess rows whose patterns are computed at a time by the on-the-fly kernel.
PATTERN_BLOCK_ROWS = 16
# Up to this many answer columns a node's columns are gathered first (fixed_stats).
GATHER_COLUMNS = 512
GATHER_BLOCK = 256


@dataclass(frozen=True)
class FloatStats:
    """Per guess row: entropy (bits; weighted when weights were given), buckets, largest
    bucket, and expected answers left (sum_b P(b) * c_b)."""

    entropy: np.ndarray
    uniform: np.ndarray
    buckets: np.ndarray
    largest: np.ndarray
    expected: np.ndarray


def _check_rows(matrix: np.ndarray, n_bins: int | None) -> tuple[np.ndarray, int]:
    """A 2-D unsigned C-contiguous matrix and a histogram size that holds every value.

    The kernels index histograms by pattern id without bounds checks, so this check is
    what keeps a bad value from writing outside them.
    """
    matrix = np.ascontiguousarray(matrix)
    if matrix.ndim != 2:
        raise ValueError(
            f"pattern rows must be a 2-D (guesses, answers) array, not {matrix.ndim}-D"
        )
    if not np.issubdtype(matrix.dtype, np.unsignedinteger):
        raise ValueError(f"pattern ids must be unsigned integers, not {matrix.dtype}")
    top = int(matrix.max()) if matrix.size else 0
    if n_bins is None:
        n_bins = top + 1
    elif top >= n_bins:
        raise ValueError(f"pattern id {top} is outside 0..{n_bins - 1}")
    return matrix, n_bins


def normalised_weights(weights: np.ndarray, n: int) -> np.ndarray:
    """Weights scaled to sum to 1, so bucket sums are probabilities."""
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (n,):
        raise ValueError(f"weights must have one entry per (selected) column: {n}")
    total = weights.sum()
    if not np.all(np.isfinite(weights)) or weights.min() < 0 or not total > 0:
        raise ValueError("weights must be finite, non-negative and not all zero")
    return np.ascontiguousarray(weights / total)


def _columns(n_columns: int, columns: np.ndarray | None) -> tuple[np.ndarray, bool, int]:
    if columns is None:
        if n_columns == 0:
            raise ValueError("cannot measure a partition of zero answers")
        return np.empty(0, dtype=np.int64), False, n_columns
    columns = np.ascontiguousarray(columns, dtype=np.int64)
    if columns.ndim != 1 or columns.size == 0:
        raise ValueError("columns must be a non-empty 1-D array of column indices")
    if columns.min() < 0 or columns.max() >= n_columns:
        raise ValueError(f"column indices must lie in [0, {n_columns})")
    return columns, True, columns.size


def _scratch(n_bins: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """A thread's histogram, weight mass and touched list, and whether to scan bins.

    `tally` writes the next slot of the touched list before it knows whether the bin is
    new: a row of n > n_bins values touching every bin writes slot n_bins, so the list
    holds min(n, n_bins + 1) slots.
    """
    return (
        np.zeros(n_bins, dtype=np.int64),
        np.zeros(n_bins, dtype=np.float64),
        np.empty(max(min(n, n_bins + 1), 1), dtype=np.int64),
        n_bins <= max(n, SCAN_BINS),
    )


def float_stats(
    matrix_rows: np.ndarray,
    *,
    weights: np.ndarray | None = None,
    columns: np.ndarray | None = None,
    n_bins: int | None = None,
    threads: int = 1,
    engine: str = "jit",
) -> FloatStats:
    """Entropy, buckets, largest bucket and expected answers left of each guess row.

    `columns` restricts the answers to those columns without copying the matrix;
    `weights` (one per selected column, any positive scale) makes the answer
    distribution non-uniform. `n_bins` (3**L) bounds the ids; by default max + 1.
    engine: "jit" (the kernel) or "numpy" (small interactive jobs, see the docstring).
    """
    matrix, n_bins = _check_rows(matrix_rows, n_bins)
    columns, use_columns, n = _columns(matrix.shape[1], columns)
    use_weights = weights is not None
    weights = normalised_weights(weights, n) if use_weights else np.empty(0, dtype=np.float64)
    if engine == "numpy":
        return _numpy_float_stats(matrix[:, columns] if use_columns else matrix, weights, n_bins)
    if engine != "jit":
        raise ValueError(f"engine must be 'jit' or 'numpy', not {engine!r}")
    from pipeline.kernels import partition_jit as jit

    n_rows = matrix.shape[0]
    uniform, weighted, expected = (np.empty(n_rows) for _ in range(3))
    buckets, largest = (np.empty(n_rows, dtype=np.int32) for _ in range(2))

    def run(start: int, stop: int) -> None:
        counts, mass, touched, scan = _scratch(n_bins, n)
        jit.matrix_float_stats(
            matrix, start, stop, columns, use_columns, weights, use_weights, scan,
            counts, mass, touched, uniform, weighted, buckets, largest, expected,
        )  # fmt: skip

    run_in_threads(run, n_rows, threads, work=n_rows * n, min_work=MIN_THREAD_WORK)
    entropy = weighted if use_weights else uniform
    return FloatStats(entropy, uniform, buckets, largest, expected)


def _numpy_float_stats(matrix: np.ndarray, weights: np.ndarray, n_bins: int) -> FloatStats:
    """float_stats in numpy: per block of rows, one bincount of (row, reply) bins."""
    n_rows, n = matrix.shape
    out = [np.empty(n_rows) for _ in range(3)] + [np.empty(n_rows, np.int32) for _ in range(2)]
    uniform, weighted, expected, buckets, largest = out
    step = max(1, (1 << 22) // max(n, n_bins))
    for start in range(0, n_rows, step):
        block = matrix[start : start + step].astype(np.int64)
        m = block.shape[0]
        keys = (block + n_bins * np.arange(m)[:, None]).ravel()
        counts = np.bincount(keys, minlength=m * n_bins).reshape(m, n_bins)
        p = counts / n
        with np.errstate(divide="ignore", invalid="ignore"):
            uniform[start : start + m] = -np.where(counts > 0, p * np.log2(p), 0.0).sum(axis=1)
            if weights.size:
                mass = np.bincount(keys, np.tile(weights, m), m * n_bins).reshape(m, n_bins)
                terms = np.where(mass > 0, mass * np.log2(mass), 0.0)
                weighted[start : start + m] = -terms.sum(axis=1)
                expected[start : start + m] = (mass * counts).sum(axis=1)
            else:
                expected[start : start + m] = (p * counts).sum(axis=1)
        buckets[start : start + m] = np.count_nonzero(counts, axis=1)
        largest[start : start + m] = counts.max(axis=1)
    return FloatStats(weighted if weights.size else uniform, uniform, buckets, largest, expected)


def reply_buckets(
    matrix_rows: np.ndarray, buckets: np.ndarray, *, n_bins: int, threads: int = 1
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every row's non-empty buckets: (offsets, reply ids, counts), by row then id.

    Row r's buckets are at offsets[r]:offsets[r + 1]; `buckets` must be float_stats'
    bucket counts of this very matrix (the kernel writes at those offsets unchecked).
    """
    matrix, n_bins = _check_rows(matrix_rows, n_bins)
    buckets = np.asarray(buckets, dtype=np.int64)
    if buckets.shape != (matrix.shape[0],):
        raise ValueError("buckets must hold one count per matrix row")
    offsets = np.zeros(matrix.shape[0] + 1, dtype=np.int64)
    np.cumsum(buckets, out=offsets[1:])
    ids = np.empty(offsets[-1], dtype=np.int64)
    sizes = np.empty(offsets[-1], dtype=np.int64)

    def run(start: int, stop: int) -> None:
        counts, _, touched, scan = _scratch(n_bins, matrix.shape[1])
        jit.matrix_buckets(matrix, start, stop, scan, counts, touched, offsets, ids, sizes)

    from pipeline.kernels import partition_jit as jit

    if matrix.shape[1]:
        run_in_threads(run, matrix.shape[0], threads, work=matrix.size, min_work=MIN_THREAD_WORK)
    return offsets, ids, sizes


def pattern_entropies(
    guesses: np.ndarray, candidates: np.ndarray, weights: np.ndarray, *, threads: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """(uniform, weighted) entropy of each encoded guess against encoded candidates, the
    patterns computed on the fly a block at a time (one block per thread in memory)."""
    from pipeline.kernels import partition_jit as jit
    from pipeline.kernels.feedback_jit import letter_counts

    guesses, candidates = check_encoded(guesses, candidates)
    n = candidates.shape[0]
    weights = normalised_weights(weights, n)
    n_bins = 3 ** guesses.shape[1]
    cand_t = np.ascontiguousarray(candidates.T)
    cand_counts = letter_counts(cand_t)
    n_rows = guesses.shape[0]
    uniform = np.empty(n_rows, dtype=np.float64)
    weighted = np.empty(n_rows, dtype=np.float64)
    dtype = np.uint8 if n_bins <= 256 else np.uint16

    def run(start: int, stop: int) -> None:
        counts, mass, touched, scan = _scratch(n_bins, n)
        block = np.empty((PATTERN_BLOCK_ROWS, n), dtype=dtype)
        jit.patterns_float_stats(
            guesses, start, stop, cand_t, cand_counts, weights, scan, block,
            counts, mass, touched, uniform, weighted,
        )  # fmt: skip

    run_in_threads(run, n_rows, threads, work=n_rows * n, min_work=MIN_THREAD_WORK)
    return uniform, weighted


@dataclass(frozen=True)
class FixedPoint:
    """The one fixed-point c*log2(c) table: values[c] = round(c log2 c * scale), and
    delta[c] = values[c + 1] - values[c], for counts up to n_max."""

    values: np.ndarray
    delta: np.ndarray
    scale: float

    def tolerance(self, n: int, bits: float) -> int:
        """`bits` of entropy over n uniform answers as an S difference (rounded down)."""
        return int(math.floor(bits * n * self.scale))


def fixed_point(n_max: int) -> FixedPoint:
    """The table for counts up to n_max, at the largest power-of-two scale (at most 2**40)
    that keeps sum_b c log2 c * scale within int64."""
    top = max(n_max, 2) * math.log2(max(n_max, 2))
    scale = float(2 ** min(40, int(math.floor(math.log2(2.0**62 / top)))))
    c = np.arange(n_max + 2, dtype=np.float64)
    f = np.zeros_like(c)
    f[2:] = c[2:] * np.log2(c[2:])
    values = np.rint(f * scale).astype(np.int64)
    return FixedPoint(values, np.diff(values), scale)


def fixed_stats(
    matrix: np.ndarray,
    matrix_f: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    table: FixedPoint,
    *,
    threads: int = 1,
    stop_at_perfect: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(S, buckets, largest bucket) of each guess row over the answer columns `cols`.

    `matrix_f` is the same matrix in column-major order: a node with few columns
    gathers them from it first (one streaming read per column). With stop_at_perfect
    the arrays end at a block holding a row that splits the columns into singletons,
    when there is one (rows are then scored in blocks on one thread).
    """
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    cols = np.ascontiguousarray(cols, dtype=np.int64)
    if cols.size == 0 or cols.size >= table.values.size - 1:
        raise ValueError(f"columns must number 1..{table.values.size - 2}")
    from pipeline.kernels import partition_jit as jit

    span = int(np.iinfo(matrix.dtype).max) + 1
    out = tuple(np.empty(rows.size, dtype=np.int64) for _ in range(3))
    gathered = cols.size <= GATHER_COLUMNS

    def run(start: int, stop: int) -> None:
        if gathered:
            block = np.empty((stop - start, cols.size), dtype=matrix.dtype)
            jit.gather(matrix_f, rows[start:stop], cols, block)
            here, columns = np.arange(stop - start), np.arange(cols.size)
        else:
            block, here, columns = matrix, rows[start:stop], cols
        jit.rows_fixed_stats(
            block, here, columns, table.delta, span, 0, *(o[start:stop] for o in out)
        )

    if not stop_at_perfect:
        run_in_threads(run, rows.size, threads, work=rows.size * cols.size, min_work=1 << 22)
        return out
    for start in range(0, rows.size, GATHER_BLOCK):
        stop = min(start + GATHER_BLOCK, rows.size)
        run(start, stop)
        if np.any(out[1][start:stop] == cols.size):
            return tuple(o[:stop] for o in out)
    return out


def bucket_layout(replies: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions grouped by reply: (positions sorted by reply then position, bucket start
    offsets including the end, reply id of each bucket)."""
    replies = np.asarray(replies)
    order = np.argsort(replies, kind="stable").astype(np.int64)
    ordered = replies[order].astype(np.int64)
    edges = np.flatnonzero(np.diff(ordered)) + 1
    starts = np.concatenate(([0], edges, [len(replies)])).astype(np.int64)
    return order, starts, ordered[starts[:-1]]


def bucket_stats(
    matrix: np.ndarray,
    bucket_rows: np.ndarray,
    columns: np.ndarray,
    starts: np.ndarray,
    *,
    weights: np.ndarray | None = None,
    n_bins: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(entropy, expected answers left) of row bucket_rows[b] of `matrix` over each bucket
    b, the columns columns[starts[b]:starts[b + 1]]; weights (aligned with columns) are
    normalised within each bucket."""
    matrix, n_bins = _check_rows(matrix, n_bins)
    columns = np.ascontiguousarray(columns, dtype=np.int64)
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    bucket_rows = np.ascontiguousarray(bucket_rows, dtype=np.int64)
    use_weights = weights is not None
    if use_weights:
        weights = np.asarray(weights, dtype=np.float64)
        sums = np.add.reduceat(weights, starts[:-1])
        weights = np.ascontiguousarray(weights / np.repeat(sums, np.diff(starts)))
    else:
        weights = np.empty(0, dtype=np.float64)
    from pipeline.kernels import partition_jit as jit

    n_buckets = starts.size - 1
    entropy = np.empty(n_buckets)
    expected = np.empty(n_buckets)
    counts, mass, touched, scan = _scratch(n_bins, int(np.diff(starts).max(initial=1)))
    jit.bucket_float_stats(
        matrix, bucket_rows, columns, starts, weights, use_weights, scan, counts, mass,
        touched, entropy, expected,
    )  # fmt: skip
    return entropy, expected
