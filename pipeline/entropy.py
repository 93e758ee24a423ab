"""How much each guess tells you: entropy of its feedback distribution, and the buckets.

For a guess g and answers distributed by weights w, the feedback pattern splits the answers
into buckets; the entropy of the bucket probabilities (bits) is the expected information
of playing g. Three answer distributions are measured per guess:

- `entropy_answers`: uniform over the answer list, from the stored guess x answer matrix;
- `entropy_prior`: over every allowed word, weighted by p_common (normalised);
- `entropy_allowed`: uniform over every allowed word.

The last two need the guess x guess matrix (G^2 patterns). It is never held in memory: a
fused numba kernel computes pattern rows block by block and keeps only per-row histograms,
or, when a stored square matrix is given, reads it chunk by chunk. Rows are guesses and
columns answers everywhere; reading a matrix transposed is the classic mistake (it turns
"what does guessing g tell me" into "how is answer g reached") and the tests pin it.

Each row is processed by exactly one thread in a fixed order, so every value is the same
bits whatever the thread count or chunk size.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
import pyarrow as pa
from numba import njit

from pipeline.commonness import load_p_common
from pipeline.errors import PipelineError

# The pattern kernel's building blocks, fused here with the histogram so the square matrix
# never exists in memory; feedback_matrix() is their public face.
from pipeline.feedback_kernel import feedback_kernel, letter_counts
from pipeline.matrix import PatternMatrix, load_pattern_matrix
from pipeline.parquet import described, write_parquet
from pipeline.patterns import (
    all_green,
    encode_words,
    feedback_matrix_numpy,
    pattern_dtype,
    pattern_string,
)
from pipeline.ties import TIE_TOLERANCE, descending_tie_groups
from pipeline.words import load_word_index

log = logging.getLogger(__name__)

# Up to this many pattern ids (3**13 fits, 3**14 does not: words of up to 13 letters) each
# thread keeps a dense histogram (16 bytes a bin); beyond it rows are sorted instead.
MAX_DENSE_BINS = 1 << 22
# Entropies closer than this count as equal when ranking, so ranks do not depend on the
# order floats were summed in.
RANK_TOLERANCE = TIE_TOLERANCE
# Guess rows per streamed chunk of the square pass (one log line each) ...
SQUARE_CHUNK_ROWS = 1024
# ... and per block inside a thread: BLOCK_ROWS x G patterns, small enough to stay in cache.
BLOCK_ROWS = 16
# Histograms up to this size (or the row's length) are read bin by bin to list a row's
# buckets; larger ones sort the bins the row touched instead.
SCAN_BINS = 4096
# Below this many matrix elements per thread a job is not worth splitting.
_MIN_THREAD_WORK = 1 << 16
# Rows per row group of pattern_distribution.parquet.
DISTRIBUTION_ROW_GROUP = 1 << 20

ENTROPY_SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the guess in words.parquet and every matrix"),
        described("word", pa.string(), "the guess"),
        described("is_answer", pa.bool_(), "whether the guess is a possible answer"),
        described("p_common", pa.float64(), "commonness weight of the guess (commonness.parquet)"),
        described(
            "entropy_answers",
            pa.float64(),
            "bits of information of the reply, answer uniform over the answer list",
        ),
        described(
            "entropy_prior",
            pa.float64(),
            "bits, answer any allowed word weighted by p_common (answer list unknown)",
        ),
        described("entropy_allowed", pa.float64(), "bits, answer uniform over all allowed words"),
        described("buckets", pa.int32(), "distinct replies over the answer list"),
        described("largest_bucket", pa.int32(), "answers left after the worst reply"),
        described(
            "expected_remaining",
            pa.float64(),
            "expected number of answers left after the guess (sum of n_b^2 / N)",
        ),
        described("rank_answers", pa.int32(), "1 = highest entropy_answers; ties by word_id"),
        described("rank_prior", pa.int32(), "1 = highest entropy_prior; ties by word_id"),
        described("rank_allowed", pa.int32(), "1 = highest entropy_allowed; ties by word_id"),
    ]
)

DISTRIBUTION_SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the guess in words.parquet"),
        described("word", pa.string(), "the guess"),
        described("pattern_id", pa.int32(), "reply: sum of c_i * 3^i, 0 grey, 1 yellow, 2 green"),
        described("pattern", pa.string(), "reply as B/Y/G letters, position 0 first"),
        described("count", pa.int32(), "answers that give this reply to the guess"),
        described("probability", pa.float64(), "count / number of answers"),
    ]
)

_INT32_MAX = np.iinfo(np.int32).max


# --- numba kernels ------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _bucket_row(
    values: np.ndarray,
    columns: np.ndarray,
    use_columns: bool,
    weights: np.ndarray,
    use_weights: bool,
    scan: bool,
    counts: np.ndarray,
    sums: np.ndarray,
    touched: np.ndarray,
    ids: np.ndarray,
    bucket_counts: np.ndarray,
    bucket_sums: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """Group one row's columns by pattern id; return k and fill ids/counts/sums[:k] by id.

    `counts`/`sums` are dense scratch histograms (all zero on entry and on exit), listed
    bin by bin when `scan`, else through the sorted bins the row touched; when `counts` is
    empty the row is sorted instead. Weights add up in column order within a bucket on
    every path, so all paths give the same bits.
    """
    n = columns.size if use_columns else values.size
    n_bins = counts.size
    if n_bins > 0:
        # One plain loop per case: loop-invariant branches here cost the kernel 3x.
        if use_columns and use_weights:
            for j in range(n):
                b = values[columns[j]]
                counts[b] += 1
                sums[b] += weights[j]
        elif use_columns:
            for j in range(n):
                counts[values[columns[j]]] += 1
        elif use_weights:
            for j in range(n):
                b = values[j]
                counts[b] += 1
                sums[b] += weights[j]
        else:
            for j in range(n):
                counts[values[j]] += 1
        k = 0
        if scan:
            for b in range(n_bins):
                c = counts[b]
                if c != 0:
                    ids[k] = b
                    bucket_counts[k] = c
                    bucket_sums[k] = sums[b]
                    counts[b] = 0
                    sums[b] = 0.0
                    k += 1
            return k
        for j in range(n):  # collect the touched bins, marking each by a negative count
            b = values[columns[j]] if use_columns else values[j]
            c = counts[b]
            if c > 0:
                touched[k] = b
                counts[b] = -c
                k += 1
        touched[:k].sort()
        for i in range(k):
            b = touched[i]
            ids[i] = b
            bucket_counts[i] = -counts[b]
            bucket_sums[i] = sums[b]
            counts[b] = 0
            sums[b] = 0.0
        return k
    keys = np.empty(n, dtype=np.int64)
    for j in range(n):
        keys[j] = values[columns[j]] if use_columns else values[j]
    order = np.argsort(keys, kind="mergesort")
    k = -1
    previous = -1
    for i in range(n):
        j = order[i]
        b = keys[j]
        if b != previous:
            k += 1
            ids[k] = b
            bucket_counts[k] = 0
            bucket_sums[k] = 0.0
            previous = b
        bucket_counts[k] += 1
        if use_weights:
            bucket_sums[k] += weights[j]
    return k + 1


@njit(cache=True, nogil=True)
def _summarise(
    bucket_counts: np.ndarray, bucket_sums: np.ndarray, k: int, n: int, use_weights: bool
) -> tuple[float, float, int, float]:  # pragma: no cover - compiled
    """(uniform entropy, weighted entropy, largest bucket, expected remaining) of one row.

    Expected remaining is sum_b P(b) * n_b: sum n_b^2 / N when uniform, and the weighted
    probability of each bucket times its size otherwise.
    """
    uniform = 0.0
    weighted = 0.0
    largest = 0
    expected = 0.0
    for i in range(k):
        c = bucket_counts[i]
        p = c / n
        uniform -= p * np.log2(p)
        if c > largest:
            largest = c
        if use_weights:
            s = bucket_sums[i]
            if s > 0.0:
                weighted -= s * np.log2(s)
            expected += s * c
        else:
            expected += p * c
    return uniform, weighted, largest, expected


@njit(cache=True, nogil=True)
def _scratch(n_bins: int, n: int) -> tuple[np.ndarray, ...]:  # pragma: no cover - compiled
    """Per-thread buffers for _bucket_row: n_bins == 0 selects the sorting path."""
    width = min(n, n_bins) if n_bins > 0 else n
    return (
        np.zeros(n_bins, dtype=np.int64),
        np.zeros(n_bins, dtype=np.float64),
        np.empty(width, dtype=np.int64),
        np.empty(width, dtype=np.int64),
        np.empty(width, dtype=np.int64),
        np.empty(width, dtype=np.float64),
    )


@njit(cache=True, nogil=True)
def _matrix_stats_kernel(
    matrix: np.ndarray,
    row_start: int,
    row_stop: int,
    columns: np.ndarray,
    use_columns: bool,
    weights: np.ndarray,
    use_weights: bool,
    n_bins: int,
    scan: bool,
    uniform: np.ndarray,
    weighted: np.ndarray,
    buckets: np.ndarray,
    largest: np.ndarray,
    expected: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Bucket statistics of rows [row_start, row_stop)."""
    n = columns.size if use_columns else matrix.shape[1]
    counts, sums, touched, ids, bucket_counts, bucket_sums = _scratch(n_bins, n)
    for r in range(row_start, row_stop):
        k = _bucket_row(
            matrix[r],
            columns,
            use_columns,
            weights,
            use_weights,
            scan,
            counts,
            sums,
            touched,
            ids,
            bucket_counts,
            bucket_sums,
        )
        h, hw, big, e = _summarise(bucket_counts, bucket_sums, k, n, use_weights)
        uniform[r] = h
        weighted[r] = hw
        buckets[r] = k
        largest[r] = big
        expected[r] = e


@njit(cache=True, nogil=True)
def _matrix_buckets_kernel(
    matrix: np.ndarray,
    row_start: int,
    row_stop: int,
    n_bins: int,
    scan: bool,
    offsets: np.ndarray,
    pattern_ids: np.ndarray,
    pattern_counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Write the (pattern id, count) pairs of rows [row_start, row_stop), by id, at offsets."""
    n = matrix.shape[1]
    columns = np.empty(0, dtype=np.int64)
    weights = np.empty(0, dtype=np.float64)
    counts, sums, touched, ids, bucket_counts, bucket_sums = _scratch(n_bins, n)
    for r in range(row_start, row_stop):
        k = _bucket_row(
            matrix[r],
            columns,
            False,
            weights,
            False,
            scan,
            counts,
            sums,
            touched,
            ids,
            bucket_counts,
            bucket_sums,
        )
        start = offsets[r]
        for i in range(k):
            pattern_ids[start + i] = ids[i]
            pattern_counts[start + i] = bucket_counts[i]


@njit(cache=True, nogil=True)
def _square_kernel(
    guesses: np.ndarray,
    row_start: int,
    row_stop: int,
    answers_t: np.ndarray,
    answer_counts: np.ndarray,
    weights: np.ndarray,
    n_bins: int,
    scan: bool,
    block: np.ndarray,
    uniform: np.ndarray,
    weighted: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """Uniform and weighted entropy of guess rows [row_start, row_stop) against every word.

    Pattern rows are computed `block.shape[0]` at a time into a buffer of the same shape
    and dtype as `block` and histogrammed at once, so no more than one block of the square
    matrix exists per call.
    """
    n = answers_t.shape[1]
    block_rows = block.shape[0]
    columns = np.empty(0, dtype=np.int64)
    buffer = np.empty_like(block)
    counts, sums, touched, ids, bucket_counts, bucket_sums = _scratch(n_bins, n)
    for start in range(row_start, row_stop, block_rows):
        m = min(block_rows, row_stop - start)
        feedback_kernel(guesses[start : start + m], answers_t, answer_counts, buffer[:m])
        for r in range(m):
            k = _bucket_row(
                buffer[r],
                columns,
                False,
                weights,
                True,
                scan,
                counts,
                sums,
                touched,
                ids,
                bucket_counts,
                bucket_sums,
            )
            h, hw, _big, _e = _summarise(bucket_counts, bucket_sums, k, n, True)
            uniform[start + r] = h
            weighted[start + r] = hw


# --- plain functions around the kernels ---------------------------------------------------


@dataclass(frozen=True)
class BucketStatistics:
    """Per guess row: what its feedback does to the answers (one entry per row)."""

    entropy: np.ndarray  # float64 bits; weighted when weights were given
    buckets: np.ndarray  # int32 distinct patterns
    largest_bucket: np.ndarray  # int32 answers in the biggest bucket
    expected_remaining: np.ndarray  # float64 sum_b P(b) * n_b (sum n_b^2 / N if uniform)


def _histogram(n_bins: int, n: int) -> tuple[int, bool]:
    """How the kernels group a row of n ids below n_bins: (dense size or 0 to sort, scan)."""
    if n_bins > MAX_DENSE_BINS:
        return 0, False
    return n_bins, n_bins <= max(n, SCAN_BINS)


def _in_threads(run: Callable[[int, int], None], n_rows: int, work: int) -> None:
    """Call run(start, stop) on contiguous row ranges, one per numba thread, in parallel.

    The kernels release the GIL, so plain threads run them side by side. Every row is
    computed by one call in a fixed order, so results do not depend on the split. Small
    jobs (`work` elements in all) stay on the calling thread.
    """
    parts = max(1, min(numba.get_num_threads(), n_rows, work // _MIN_THREAD_WORK))
    bounds = [(i * n_rows // parts, (i + 1) * n_rows // parts) for i in range(parts)]
    if parts == 1:
        run(0, n_rows)
        return
    with ThreadPoolExecutor(max_workers=parts) as pool:
        for future in [pool.submit(run, start, stop) for start, stop in bounds]:
            future.result()


def _check_pattern_rows(matrix: np.ndarray, n_bins: int | None) -> tuple[np.ndarray, int]:
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
        raise PipelineError(f"pattern id {top} is outside 0..{n_bins - 1}")
    return matrix, n_bins


def _check_columns(
    n_matrix_columns: int, columns: np.ndarray | None, weights: np.ndarray | None
) -> tuple[np.ndarray, bool, np.ndarray, bool, int]:
    """Column selection and normalised weights as the kernels take them."""
    use_columns = columns is not None
    if use_columns:
        columns = np.ascontiguousarray(columns, dtype=np.int64)
        if columns.ndim != 1:
            raise ValueError("columns must be a 1-D array of column indices")
        if columns.size and (columns.min() < 0 or columns.max() >= n_matrix_columns):
            raise ValueError(f"column indices must lie in [0, {n_matrix_columns})")
        n = columns.size
    else:
        columns = np.empty(0, dtype=np.int64)
        n = n_matrix_columns
    if n == 0:
        raise ValueError("cannot measure entropy over zero answers")
    if weights is None:
        return columns, use_columns, np.empty(0, dtype=np.float64), False, n
    return columns, use_columns, _normalised_weights(weights, n), True, n


def _normalised_weights(weights: np.ndarray, n: int) -> np.ndarray:
    """Weights scaled to sum to 1, so the kernels can use bucket sums as probabilities."""
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (n,):
        raise ValueError(f"weights must have one entry per (selected) column: {n}")
    total = weights.sum()
    if not np.all(np.isfinite(weights)) or weights.min() < 0 or not total > 0:
        raise ValueError("weights must be finite, non-negative and not all zero")
    return np.ascontiguousarray(weights / total)


def _matrix_statistics(
    matrix: np.ndarray,
    weights: np.ndarray | None,
    columns: np.ndarray | None,
    n_bins: int | None,
) -> tuple[np.ndarray, np.ndarray, BucketStatistics]:
    """Run the statistics kernel: (uniform entropy, weighted entropy, statistics)."""
    matrix, n_bins = _check_pattern_rows(matrix, n_bins)
    columns, use_columns, weights, use_weights, n = _check_columns(
        matrix.shape[1], columns, weights
    )
    n_rows = matrix.shape[0]
    uniform = np.empty(n_rows, dtype=np.float64)
    weighted = np.empty(n_rows, dtype=np.float64)
    buckets = np.empty(n_rows, dtype=np.int32)
    largest = np.empty(n_rows, dtype=np.int32)
    expected = np.empty(n_rows, dtype=np.float64)
    dense, scan = _histogram(n_bins, n)

    def run(start: int, stop: int) -> None:
        _matrix_stats_kernel(
            matrix,
            start,
            stop,
            columns,
            use_columns,
            weights,
            use_weights,
            dense,
            scan,
            uniform,
            weighted,
            buckets,
            largest,
            expected,
        )

    _in_threads(run, n_rows, n_rows * n)
    entropy = weighted if use_weights else uniform
    return uniform, weighted, BucketStatistics(entropy, buckets, largest, expected)


def bucket_statistics(
    matrix_rows: np.ndarray,
    weights: np.ndarray | None = None,
    columns: np.ndarray | None = None,
    *,
    n_bins: int | None = None,
) -> BucketStatistics:
    """Entropy, bucket count, largest bucket and expected remaining of each guess row.

    `matrix_rows` is (guesses, answers) of pattern ids. `columns` restricts the answers to
    those columns (the solver's remaining candidates) without copying the matrix; `weights`
    (one per selected column, any positive scale) makes the answer distribution
    non-uniform. `n_bins` (3**L) is only a bound on the ids; by default max + 1.
    """
    return _matrix_statistics(matrix_rows, weights, columns, n_bins)[2]


def entropies_from_matrix(
    matrix_rows: np.ndarray,
    weights: np.ndarray | None = None,
    columns: np.ndarray | None = None,
    *,
    n_bins: int | None = None,
) -> np.ndarray:
    """Entropy (bits) of each guess row's feedback over the (selected, weighted) answers."""
    return bucket_statistics(matrix_rows, weights, columns, n_bins=n_bins).entropy


def pattern_buckets(
    matrix_rows: np.ndarray, *, n_bins: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every row's non-empty buckets: (offsets, pattern ids, counts), by row then id.

    Row r's buckets are at offsets[r]:offsets[r + 1]; this is the long-format
    distribution the openers and reports list.
    """
    matrix, n_bins = _check_pattern_rows(matrix_rows, n_bins)
    buckets = _matrix_statistics(matrix, None, None, n_bins)[2].buckets
    return _pattern_buckets(matrix, buckets, n_bins)


def _pattern_buckets(
    matrix: np.ndarray, buckets: np.ndarray, n_bins: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """pattern_buckets for a checked matrix whose per-row bucket counts are known.

    The kernel writes row r's pairs at offsets[r] unchecked: `buckets` must come from
    bucket_statistics on this very matrix.
    """
    offsets = np.zeros(matrix.shape[0] + 1, dtype=np.int64)
    np.cumsum(buckets, out=offsets[1:])
    pattern_ids = np.empty(offsets[-1], dtype=np.int64)
    pattern_counts = np.empty(offsets[-1], dtype=np.int64)
    dense, scan = _histogram(n_bins, matrix.shape[1])

    def run(start: int, stop: int) -> None:
        _matrix_buckets_kernel(
            matrix, start, stop, dense, scan, offsets, pattern_ids, pattern_counts
        )

    if matrix.shape[1]:
        _in_threads(run, matrix.shape[0], matrix.size)
    return offsets, pattern_ids, pattern_counts


def square_entropies(
    encoded: np.ndarray,
    weights: np.ndarray,
    *,
    rows: slice = slice(None),
    chunk_rows: int = SQUARE_CHUNK_ROWS,
) -> tuple[np.ndarray, np.ndarray]:
    """(uniform, weighted) entropy of each guess against every word, patterns on the fly.

    `encoded` is encode_words(all words); columns are all words, rows the `rows` slice of
    them. Memory stays at one BLOCK_ROWS x G buffer per thread plus histograms.
    """
    encoded = np.ascontiguousarray(encoded, dtype=np.uint8)
    n_words, length = encoded.shape
    weights = _normalised_weights(weights, n_words)
    guesses = np.ascontiguousarray(encoded[rows])
    n_rows = guesses.shape[0]
    n_bins = all_green(length) + 1
    answers_t = np.ascontiguousarray(encoded.T)
    counts = letter_counts(answers_t)
    block = np.empty((BLOCK_ROWS, n_words), dtype=pattern_dtype(length))
    uniform = np.empty(n_rows, dtype=np.float64)
    weighted = np.empty(n_rows, dtype=np.float64)
    n_chunks = max(1, -(-n_rows // chunk_rows))
    began = time.perf_counter()
    dense, scan = _histogram(n_bins, n_words)
    for number, start in enumerate(range(0, n_rows, chunk_rows)):
        stop = min(start + chunk_rows, n_rows)

        def run(part_start: int, part_stop: int, offset: int = start) -> None:
            _square_kernel(
                guesses,
                offset + part_start,
                offset + part_stop,
                answers_t,
                counts,
                weights,
                dense,
                scan,
                block,
                uniform,
                weighted,
            )

        _in_threads(run, stop - start, (stop - start) * n_words)
        log.info(
            "square pass: chunk %d/%d, rows %d-%d x %d words, %.1f s so far",
            number + 1,
            n_chunks,
            start,
            stop - 1,
            n_words,
            time.perf_counter() - began,
        )
    return uniform, weighted


def square_entropies_from_matrix(
    matrix: PatternMatrix, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(uniform, weighted) entropy of each row of a stored guess x guess matrix, by chunk."""
    n_rows = matrix.shape[0]
    uniform = np.empty(n_rows, dtype=np.float64)
    weighted = np.empty(n_rows, dtype=np.float64)
    n_bins = all_green(matrix.word_length) + 1
    began = time.perf_counter()
    for number, (start, stop, block) in enumerate(matrix.iter_chunks()):
        uniform[start:stop], weighted[start:stop], _ = _matrix_statistics(
            block, weights, None, n_bins
        )
        log.info(
            "square matrix: chunk %d/%d, rows %d-%d, %.1f s so far",
            number + 1,
            len(matrix.chunks),
            start,
            stop - 1,
            time.perf_counter() - began,
        )
    return uniform, weighted


def rank_descending(values: np.ndarray, tolerance: float = RANK_TOLERANCE) -> np.ndarray:
    """1-based ranks, highest value first, ties (within `tolerance`) broken by position.

    Two entropies that differ only by float summation order always rank by word_id.
    """
    groups = descending_tie_groups(values, tolerance)
    n = groups.size
    final = np.lexsort((np.arange(n), groups))
    ranks = np.empty(n, dtype=np.int32)
    ranks[final] = np.arange(1, n + 1, dtype=np.int32)
    return ranks


# --- plain numpy baselines (benchmarks and tests only) -------------------------------------

_NUMPY_BLOCK_ELEMENTS = 1 << 22


def _entropy_of_counts(counts: np.ndarray, total: float | np.ndarray) -> np.ndarray:
    """-sum p log2 p along the last axis, empty bins contributing nothing."""
    p = counts / total
    safe = np.where(p > 0, p, 1.0)
    return -(p * np.log2(safe)).sum(axis=-1)


def entropy_answers_numpy(matrix: np.ndarray) -> np.ndarray:
    """Uniform entropy of each row by np.bincount: the plain baseline for the kernel."""
    matrix = np.asarray(matrix)
    n_rows, n = matrix.shape
    n_bins = int(matrix.max()) + 1
    out = np.empty(n_rows, dtype=np.float64)
    step = max(1, _NUMPY_BLOCK_ELEMENTS // max(n, n_bins))
    for start in range(0, n_rows, step):
        rows = matrix[start : start + step].astype(np.int64)
        m = rows.shape[0]
        flat = (rows + n_bins * np.arange(m)[:, None]).ravel()
        counts = np.bincount(flat, minlength=m * n_bins).reshape(m, n_bins)
        out[start : start + m] = _entropy_of_counts(counts, n)
    return out


def square_entropies_numpy(
    encoded: np.ndarray, weights: np.ndarray, row_ids: Sequence[int] | np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(uniform, weighted) entropy of some guess rows against every word, in plain numpy.

    Patterns come from feedback_matrix_numpy, histograms from np.bincount, one row at a
    time: the baseline for square_entropies on a sample of rows.
    """
    encoded = np.asarray(encoded)
    weights = np.asarray(weights, dtype=np.float64)
    weights = weights / weights.sum()
    row_ids = np.asarray(row_ids, dtype=np.int64)
    n_bins = all_green(encoded.shape[1]) + 1
    uniform = np.empty(row_ids.size, dtype=np.float64)
    weighted = np.empty(row_ids.size, dtype=np.float64)
    for i, row in enumerate(row_ids):
        patterns = feedback_matrix_numpy(encoded[row : row + 1], encoded)[0]
        counts = np.bincount(patterns, minlength=n_bins)
        uniform[i] = _entropy_of_counts(counts, encoded.shape[0])
        weighted[i] = _entropy_of_counts(np.bincount(patterns, weights, n_bins), 1.0)
    return uniform, weighted


# --- the stage ----------------------------------------------------------------------------


def _pattern_strings(pattern_ids: np.ndarray, length: int) -> pa.Array:
    """B/Y/G strings for many ids: each distinct id is spelled once, then gathered."""
    distinct, inverse = np.unique(pattern_ids, return_inverse=True)
    spelled = pa.array([pattern_string(int(p), length) for p in distinct], pa.string())
    return spelled.take(pa.array(inverse.astype(np.int64)))


def write_entropy(
    words_path: str | Path,
    commonness_path: str | Path,
    patterns_index: str | Path,
    output: str | Path,
    distribution_output: str | Path,
    *,
    square_index: str | Path | None = None,
    chunk_rows: int = SQUARE_CHUNK_ROWS,
) -> None:
    """Write entropy.parquet (one row per guess) and pattern_distribution.parquet.

    The answer-list measures come from the stored guess x answer matrix; the prior and
    allowed measures from `square_index` when given, else from the streamed square pass
    (`chunk_rows` rows per logged chunk; the values do not depend on it).
    """
    index = load_word_index(words_path)
    n_words, length = len(index.words), index.length
    n_answers = len(index.answer_rows)
    if all_green(length) > _INT32_MAX:
        raise PipelineError(f"pattern ids of {length}-letter words do not fit pattern_id int32")
    p_common = load_p_common(commonness_path, index)
    matrix = load_pattern_matrix(patterns_index, words_path, columns="answers")
    n_bins = all_green(length) + 1

    entropy_answers = np.empty(n_words, dtype=np.float64)
    buckets = np.empty(n_words, dtype=np.int32)
    largest = np.empty(n_words, dtype=np.int32)
    expected = np.empty(n_words, dtype=np.float64)
    pieces: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
    began = time.perf_counter()
    for number, (start, stop, block) in enumerate(matrix.iter_chunks()):
        stats = bucket_statistics(block, n_bins=n_bins)  # also checks every id < n_bins
        entropy_answers[start:stop] = stats.entropy
        buckets[start:stop] = stats.buckets
        largest[start:stop] = stats.largest_bucket
        expected[start:stop] = stats.expected_remaining
        pieces.append((start, *_pattern_buckets(block, stats.buckets, n_bins)))
        log.info(
            "answer matrix: chunk %d/%d, rows %d-%d x %d answers, %.1f s so far",
            number + 1,
            len(matrix.chunks),
            start,
            stop - 1,
            n_answers,
            time.perf_counter() - began,
        )

    inputs: dict[str, str | Path] = {
        "words": words_path,
        "commonness": commonness_path,
        "patterns": patterns_index,
    }
    if square_index is not None:
        square = load_pattern_matrix(square_index, words_path, columns="guesses")
        entropy_allowed, entropy_prior = square_entropies_from_matrix(square, p_common)
        inputs["patterns_square"] = square_index
    else:
        entropy_allowed, entropy_prior = square_entropies(
            encode_words(index.words), p_common, chunk_rows=chunk_rows
        )
    config = {"rank_tolerance": RANK_TOLERANCE}

    word_ids = np.arange(n_words, dtype=np.int32)
    words = pa.array(index.words, pa.string())
    table = pa.table(
        {
            "word_id": word_ids,
            "word": words,
            "is_answer": pa.array(index.is_answer, pa.bool_()),
            "p_common": p_common,
            "entropy_answers": entropy_answers,
            "entropy_prior": entropy_prior,
            "entropy_allowed": entropy_allowed,
            "buckets": buckets,
            "largest_bucket": largest,
            "expected_remaining": expected,
            "rank_answers": rank_descending(entropy_answers),
            "rank_prior": rank_descending(entropy_prior),
            "rank_allowed": rank_descending(entropy_allowed),
        },
        schema=ENTROPY_SCHEMA,
    )
    write_parquet(table, output, inputs=inputs, config=config)
    best = int(np.argmin(table["rank_answers"].to_numpy()))
    log.info(
        "entropy: %d guesses; best over answers %s (%.4f bits), over all words %s (%.4f)",
        n_words,
        index.words[best],
        entropy_answers[best],
        index.words[int(np.argmax(entropy_allowed))],
        float(entropy_allowed.max()),
    )

    row_of = np.concatenate(
        [start + np.repeat(np.arange(len(o) - 1), np.diff(o)) for start, o, _, _ in pieces]
    )
    pattern_ids = np.concatenate([ids for _, _, ids, _ in pieces])
    counts = np.concatenate([c for _, _, _, c in pieces])
    distribution = pa.table(
        {
            "word_id": row_of.astype(np.int32),
            "word": words.take(pa.array(row_of)),
            "pattern_id": pattern_ids.astype(np.int32),
            "pattern": _pattern_strings(pattern_ids, length),
            "count": counts.astype(np.int32),
            "probability": counts / n_answers,
        },
        schema=DISTRIBUTION_SCHEMA,
    )
    write_parquet(
        distribution,
        distribution_output,
        inputs={"words": words_path, "patterns": patterns_index},
        config={},
        row_group_size=DISTRIBUTION_ROW_GROUP,
    )
    log.info("pattern distribution: %d (guess, pattern) rows", distribution.num_rows)
