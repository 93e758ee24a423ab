"""Numba kernels of partition statistics: what a guess's replies do to a set of answers.

A guess row (its pattern id against each answer) partitions the answers into buckets by
reply. Every statistic the pipeline publishes or decides by is computed here, once:

- float statistics (`settle_float`): the entropy -sum_b p_b log2 p_b summed in
  ascending reply id, uniform (p_b = c_b / n) and weighted (p_b = the bucket's share of
  the normalised weights, added in column order), the largest bucket and the expected
  number of answers left, sum_b P(b) * c_b;
- fixed-point statistics (`lanes4`): S = sum_b F(c_b) with F(c) = round(c log2 c *
  scale), exact integers for decisions, so equal partitions score equal whatever the
  summation order; with the number of buckets and the largest one (`lanes4_s`: S alone,
  for the second-guess search). Entropy over n
  uniform answers is log2 n - S / (n * scale).

Histograms are cleared as they are read (float) or never need clearing (fixed point:
each call counts above a fresh base), so a kernel pays for the answers it reads, not for
every possible reply.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.feedback_jit import fill_patterns
from pipeline.kernels.jit import njit


@njit(cache=True, nogil=True)
def tally(
    values, columns, use_columns, weights, use_weights, counts, mass, touched
):  # pragma: no cover
    """Histogram values[columns] (or every value): counts, weight mass (weights[j] goes
    with the j-th column read), and the touched bins in first-appearance order.

    Returns how many bins were touched. One plain loop per case: loop-invariant branches
    here cost the kernel 3x.
    """
    n = columns.size if use_columns else values.size
    k = 0
    if use_columns and use_weights:
        for j in range(n):
            b = values[columns[j]]
            touched[k] = b
            k += counts[b] == 0
            counts[b] += 1
            mass[b] += weights[j]
    elif use_columns:
        for j in range(n):
            b = values[columns[j]]
            touched[k] = b
            k += counts[b] == 0
            counts[b] += 1
    elif use_weights:
        for j in range(n):
            b = values[j]
            touched[k] = b
            k += counts[b] == 0
            counts[b] += 1
            mass[b] += weights[j]
    else:
        for j in range(n):
            b = values[j]
            touched[k] = b
            k += counts[b] == 0
            counts[b] += 1
    return k


@njit(cache=True, nogil=True)
def settle_float(counts, mass, touched, k, n, use_weights, scan):  # pragma: no cover
    """(uniform entropy, weighted entropy, largest, expected left) of a tallied row, summed
    in ascending reply id; clears the histogram. `scan` walks every bin (few bins), else
    the touched bins are sorted first: the same order, so the same bits."""
    if not scan:
        touched[:k].sort()
    uniform = 0.0
    weighted = 0.0
    largest = 0
    expected = 0.0
    limit = counts.size if scan else k
    for i in range(limit):
        b = i if scan else touched[i]
        c = counts[b]
        if c == 0:
            continue
        p = c / n
        uniform -= p * np.log2(p)
        if c > largest:
            largest = c
        if use_weights:
            s = mass[b]
            if s > 0.0:
                weighted -= s * np.log2(s)
            expected += s * c
            mass[b] = 0.0
        else:
            expected += p * c
        counts[b] = 0
    return uniform, weighted, largest, expected


@njit(cache=True, nogil=True)
def settle_buckets(counts, touched, k, scan, ids, sizes):  # pragma: no cover - compiled
    """Write a tallied row's (reply id, count) pairs in ascending id; clears the histogram."""
    if not scan:
        touched[:k].sort()
    i = 0
    limit = counts.size if scan else k
    for t in range(limit):
        b = t if scan else touched[t]
        c = counts[b]
        if c != 0:
            ids[i] = b
            sizes[i] = c
            counts[b] = 0
            i += 1


@njit(cache=True, nogil=True)
def matrix_float_stats(
    matrix,
    row_start,
    row_stop,
    columns,
    use_columns,
    weights,
    use_weights,
    scan,
    counts,
    mass,
    touched,
    uniform,
    weighted,
    buckets,
    largest,
    expected,
):  # pragma: no cover - compiled
    """Float statistics of rows [row_start, row_stop) of a pattern matrix (per row)."""
    n = columns.size if use_columns else matrix.shape[1]
    for r in range(row_start, row_stop):
        k = tally(matrix[r], columns, use_columns, weights, use_weights, counts, mass, touched)
        h, hw, big, e = settle_float(counts, mass, touched, k, n, use_weights, scan)
        uniform[r] = h
        weighted[r] = hw
        buckets[r] = k
        largest[r] = big
        expected[r] = e


@njit(cache=True, nogil=True)
def matrix_buckets(
    matrix, row_start, row_stop, scan, counts, touched, offsets, ids, sizes
):  # pragma: no cover
    """Write every row's (reply id, count) pairs, by id, at offsets[row]."""
    no_columns = np.empty(0, dtype=np.int64)
    no_weights = np.empty(0, dtype=np.float64)
    mass = np.empty(0, dtype=np.float64)
    for r in range(row_start, row_stop):
        k = tally(matrix[r], no_columns, False, no_weights, False, counts, mass, touched)
        start = offsets[r]
        settle_buckets(counts, touched, k, scan, ids[start : start + k], sizes[start : start + k])


@njit(cache=True, nogil=True)
def patterns_float_stats(
    guesses,
    row_start,
    row_stop,
    cand_t,
    cand_counts,
    weights,
    scan,
    block,
    counts,
    mass,
    touched,
    uniform,
    weighted,
):  # pragma: no cover - compiled
    """Uniform and weighted entropy of guess rows [row_start, row_stop) against candidate
    words, patterns computed `block.shape[0]` rows at a time: the guess x candidate
    matrix never exists in memory."""
    n = cand_t.shape[1]
    block_rows = block.shape[0]
    no_columns = np.empty(0, dtype=np.int64)
    for start in range(row_start, row_stop, block_rows):
        m = min(block_rows, row_stop - start)
        fill_patterns(guesses[start : start + m], cand_t, cand_counts, block[:m])
        for r in range(m):
            k = tally(block[r], no_columns, False, weights, True, counts, mass, touched)
            h, hw, _big, _e = settle_float(counts, mass, touched, k, n, True, scan)
            uniform[start + r] = h
            weighted[start + r] = hw


@njit(cache=True, nogil=True, inline="always")
def lanes4(r0, r1, r2, r3, columns, lo, hi, hist, base, delta, limit, out):  # pragma: no cover
    """Fixed-point S, buckets and largest bucket of four guess rows over columns[lo:hi],
    written to out[0] (S), out[1] (buckets) and out[2] (largest), one column per row.

    Four rows at once, each with its own histogram row: four independent dependency
    chains keep the core busy where one would stall on the store-to-load round trip of
    a repeated reply. hist holds base + count; every call gets a base above all entries
    written before, so nothing is cleared. S only grows, so the scan stops once all four
    exceed `limit` (their S is then > limit; buckets and largest are then partial).
    """
    h0, h1, h2, h3 = hist[0], hist[1], hist[2], hist[3]
    s0 = s1 = s2 = s3 = 0
    n0 = n1 = n2 = n3 = 0
    m0 = m1 = m2 = m3 = 0
    for k in range(lo, hi):
        a = columns[k]
        p0, p1, p2, p3 = r0[a], r1[a], r2[a], r3[a]
        c0 = max(h0[p0] - base, 0)
        c1 = max(h1[p1] - base, 0)
        c2 = max(h2[p2] - base, 0)
        c3 = max(h3[p3] - base, 0)
        s0 += delta[c0]
        s1 += delta[c1]
        s2 += delta[c2]
        s3 += delta[c3]
        n0 += c0 == 0
        n1 += c1 == 0
        n2 += c2 == 0
        n3 += c3 == 0
        m0 = max(m0, c0)
        m1 = max(m1, c1)
        m2 = max(m2, c2)
        m3 = max(m3, c3)
        h0[p0] = base + c0 + 1
        h1[p1] = base + c1 + 1
        h2[p2] = base + c2 + 1
        h3[p3] = base + c3 + 1
        if s0 > limit and s1 > limit and s2 > limit and s3 > limit:
            break
    out[0, 0], out[0, 1], out[0, 2], out[0, 3] = s0, s1, s2, s3
    out[1, 0], out[1, 1], out[1, 2], out[1, 3] = n0, n1, n2, n3
    out[2, 0], out[2, 1], out[2, 2], out[2, 3] = m0 + 1, m1 + 1, m2 + 1, m3 + 1


@njit(cache=True, nogil=True, inline="always")
def lanes4_s(r0, r1, r2, r3, columns, lo, hi, hist, base, delta, limit, out):  # pragma: no cover
    """lanes4's S alone (out[0]): the second-guess search needs no bucket count or
    largest bucket, and their upkeep is a sixth of the loop."""
    h0, h1, h2, h3 = hist[0], hist[1], hist[2], hist[3]
    s0 = s1 = s2 = s3 = 0
    for k in range(lo, hi):
        a = columns[k]
        p0, p1, p2, p3 = r0[a], r1[a], r2[a], r3[a]
        c0 = max(h0[p0] - base, 0)
        c1 = max(h1[p1] - base, 0)
        c2 = max(h2[p2] - base, 0)
        c3 = max(h3[p3] - base, 0)
        s0 += delta[c0]
        s1 += delta[c1]
        s2 += delta[c2]
        s3 += delta[c3]
        h0[p0] = base + c0 + 1
        h1[p1] = base + c1 + 1
        h2[p2] = base + c2 + 1
        h3[p3] = base + c3 + 1
        if s0 > limit and s1 > limit and s2 > limit and s3 > limit:
            break
    out[0, 0], out[0, 1], out[0, 2], out[0, 3] = s0, s1, s2, s3


@njit(cache=True, nogil=True, inline="always")
def lanes4_transposed(
    matrix_t, g0, g1, g2, g3, columns, lo, hi, hist, base, delta, limit, out
):  # pragma: no cover - compiled
    """lanes4's S (out[0] only) of guesses g0..g3 read from the transposed matrix
    (rows answers): a bucket of few answers is then a few rows, which stay in cache
    while every guess left is scored on them, where a guess row would cost a cache
    line per answer."""
    h0, h1, h2, h3 = hist[0], hist[1], hist[2], hist[3]
    s0 = s1 = s2 = s3 = 0
    for k in range(lo, hi):
        row = matrix_t[columns[k]]
        p0, p1, p2, p3 = row[g0], row[g1], row[g2], row[g3]
        c0 = max(h0[p0] - base, 0)
        c1 = max(h1[p1] - base, 0)
        c2 = max(h2[p2] - base, 0)
        c3 = max(h3[p3] - base, 0)
        s0 += delta[c0]
        s1 += delta[c1]
        s2 += delta[c2]
        s3 += delta[c3]
        h0[p0] = base + c0 + 1
        h1[p1] = base + c1 + 1
        h2[p2] = base + c2 + 1
        h3[p3] = base + c3 + 1
        if s0 > limit and s1 > limit and s2 > limit and s3 > limit:
            break
    out[0, 0], out[0, 1], out[0, 2], out[0, 3] = s0, s1, s2, s3


@njit(cache=True, nogil=True)
def gather(matrix_f, rows, cols, out):  # pragma: no cover - compiled
    """out[k, j] = matrix[rows[k], cols[j]] from a column-major copy of the matrix, so each
    answer column is one streaming read instead of a cache miss per guess row."""
    for j in range(cols.shape[0]):
        column = matrix_f[:, cols[j]]
        for k in range(rows.shape[0]):
            out[k, j] = column[rows[k]]


@njit(cache=True, nogil=True)
def rows_fixed_stats(
    block, rows, columns, delta, span, base0, out_s, out_parts, out_largest
):  # pragma: no cover
    """lanes4 over block[rows[i]] for every i, four at a time (the last lanes repeat the
    final row, which changes nothing). Returns the next free histogram base."""
    n_rows = rows.shape[0]
    n = columns.shape[0]
    hist = np.zeros((4, span), dtype=np.int64)
    lanes = np.empty((3, 4), dtype=np.int64)
    base = base0
    big = np.iinfo(np.int64).max
    for i in range(0, n_rows, 4):
        last = n_rows - 1
        r0 = block[rows[i]]
        r1 = block[rows[min(i + 1, last)]]
        r2 = block[rows[min(i + 2, last)]]
        r3 = block[rows[min(i + 3, last)]]
        lanes4(r0, r1, r2, r3, columns, 0, n, hist, base, delta, big, lanes)
        base += n + 1
        for q in range(min(4, n_rows - i)):
            out_s[i + q] = lanes[0, q]
            out_parts[i + q] = lanes[1, q]
            out_largest[i + q] = lanes[2, q]
    return base


@njit(cache=True, nogil=True)
def bucket_float_stats(
    matrix,
    bucket_rows,
    columns,
    starts,
    weights,
    use_weights,
    scan,
    counts,
    mass,
    touched,
    entropy,
    expected,
):  # pragma: no cover - compiled
    """Float statistics of row bucket_rows[b] over the columns of each bucket b,
    columns[starts[b]:starts[b + 1]] (weights aligned with columns, each bucket's summing
    to 1): its entropy over the bucket and the expected answers left."""
    for b in range(starts.size - 1):
        lo = starts[b]
        hi = starts[b + 1]
        part = weights[lo:hi] if use_weights else weights
        k = tally(
            matrix[bucket_rows[b]], columns[lo:hi], True, part, use_weights, counts, mass, touched
        )
        h, hw, _big, e = settle_float(counts, mass, touched, k, hi - lo, use_weights, scan)
        entropy[b] = hw if use_weights else h
        expected[b] = e
