"""pipeline.kernels.partition: partition statistics against counting by hand.

Every statistic is compared with tests/support/naive.py (Counter over each row); the kernel's
other paths (numpy engine, sorted touched bins, gathered columns, threads) must give the
very same numbers.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipeline.core.wordle import encode_words
from pipeline.kernels import partition
from pipeline.kernels import threads as threads_module
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.partition import (
    bucket_layout,
    bucket_stats,
    fixed_point,
    fixed_stats,
    float_stats,
    pattern_entropies,
    reply_buckets,
)
from tests.support.fixtures import distinct_random_words
from tests.support.naive import entropy_bits, partition_stats
from tests.support.naive import feedback_matrix as rules_matrix


@pytest.fixture(scope="module")
def case() -> dict:
    rng = np.random.default_rng(20240607)
    words = distinct_random_words(rng, 300)
    encoded = encode_words(words)
    square = feedback_matrix(encoded, encoded)  # [guess, word]
    # weights: every fifth word weighs nothing, so some buckets have no mass
    return {
        "words": words,
        "encoded": encoded,
        "square": square,
        "weights": np.where(np.arange(len(words)) % 5 == 1, 0.0, rng.random(len(words))),
        "columns": np.sort(rng.permutation(len(words))[:150]),
    }


def test_the_matrix_is_what_the_rules_say(case):
    sample = case["words"][::17]
    assert np.array_equal(case["square"][::17, ::17], rules_matrix(sample, sample))


@pytest.mark.parametrize("engine", ["jit", "numpy"])
@pytest.mark.parametrize("selection", ["all", "weighted", "columns", "weighted columns"])
def test_float_stats_equal_counting_by_hand(case, engine, selection):
    matrix = case["square"][:40]
    columns = case["columns"] if "columns" in selection else None
    weights = None
    if "weighted" in selection:
        weights = case["weights"] if columns is None else case["weights"][columns]
    found = float_stats(matrix, weights=weights, columns=columns, engine=engine)
    for g in range(matrix.shape[0]):
        row = matrix[g] if columns is None else matrix[g, columns]
        expected = partition_stats(row.tolist(), None if weights is None else weights.tolist())
        assert found.entropy[g] == pytest.approx(expected["entropy"], abs=1e-12), g
        assert found.uniform[g] == pytest.approx(expected["uniform"], abs=1e-12), g
        assert found.buckets[g] == expected["buckets"]
        assert found.largest[g] == expected["largest"]
        assert found.expected[g] == pytest.approx(expected["expected"], rel=1e-12)
    assert found.buckets.dtype == found.largest.dtype == np.int32


def test_weighted_entropy_of_a_hand_worked_row():
    # replies 0, 0, 1, 2 with weights 1, 1, 2, 4: masses 2/8, 2/8, 4/8 -> 1.5 bits;
    # uniform counts 2, 1, 1 -> 1.5 bits too; expected answers left 2/8*2 + 2/8 + 4/8.
    row = np.array([[0, 0, 1, 2]], dtype=np.uint8)
    found = float_stats(row, weights=np.array([1.0, 1.0, 2.0, 4.0]))
    assert found.entropy[0] == pytest.approx(1.5, abs=1e-15)
    assert found.uniform[0] == pytest.approx(1.5, abs=1e-15)
    assert found.expected[0] == pytest.approx(0.5 + 0.25 + 0.5, abs=1e-15)
    assert (found.buckets[0], found.largest[0]) == (3, 2)


def test_numpy_engine_agrees_with_the_kernel(case):
    matrix = case["square"]
    for weights in (None, case["weights"]):
        jit = float_stats(matrix, weights=weights)
        numpy = float_stats(matrix, weights=weights, engine="numpy")
        np.testing.assert_allclose(numpy.entropy, jit.entropy, rtol=0, atol=1e-12)
        np.testing.assert_allclose(numpy.expected, jit.expected, rtol=1e-12)
        assert np.array_equal(numpy.buckets, jit.buckets)
        assert np.array_equal(numpy.largest, jit.largest)


def test_sorted_touched_bins_give_the_same_bits(case, monkeypatch):
    """Long words' pattern counts make rows sort the bins they touched instead of scanning
    every bin: SCAN_BINS = 0 forces that path; the sums are in the same order."""
    matrix, weights, columns = case["square"], case["weights"], case["columns"]
    calls = [
        lambda: float_stats(matrix),
        lambda: float_stats(matrix, weights=weights),
        lambda: float_stats(matrix[:, :100], n_bins=243),
        lambda: float_stats(matrix, weights=weights[columns], columns=columns),
        lambda: reply_buckets(matrix, float_stats(matrix).buckets, n_bins=243),
        lambda: pattern_entropies(case["encoded"][:50], case["encoded"], weights),
    ]
    scanned = [call() for call in calls]
    monkeypatch.setattr(partition, "SCAN_BINS", 0)
    for call, expected in zip(calls, scanned, strict=True):
        got = call()
        for a, b in zip(
            got if isinstance(got, tuple) else got.__dict__.values(),
            expected if isinstance(expected, tuple) else expected.__dict__.values(),
            strict=True,
        ):
            assert np.array_equal(a, b)


def test_reply_buckets_list_every_rows_buckets_by_id(case):
    matrix = case["square"][:60]
    found = float_stats(matrix, n_bins=243)
    offsets, ids, sizes = reply_buckets(matrix, found.buckets, n_bins=243)
    assert offsets[0] == 0 and offsets[-1] == ids.size == sizes.size
    for g in range(matrix.shape[0]):
        expected_ids, expected_sizes = np.unique(matrix[g], return_counts=True)
        assert ids[offsets[g] : offsets[g + 1]].tolist() == expected_ids.tolist()
        assert sizes[offsets[g] : offsets[g + 1]].tolist() == expected_sizes.tolist()
    with pytest.raises(ValueError, match="one count per matrix row"):
        reply_buckets(matrix, found.buckets[:-1], n_bins=243)


def test_streamed_patterns_give_the_stored_matrix_bits(case):
    """pattern_entropies computes patterns on the fly; the bits are the stored matrix's,
    summed in the same order (equal, not just close)."""
    encoded, weights = case["encoded"], case["weights"]
    uniform, weighted = pattern_entropies(encoded, encoded, weights)
    assert np.array_equal(uniform, float_stats(case["square"]).entropy)
    assert np.array_equal(weighted, float_stats(case["square"], weights=weights).entropy)
    some = encoded[case["columns"]]
    uniform, _ = pattern_entropies(encoded[:30], some, np.ones(len(some)))
    assert np.array_equal(uniform, float_stats(case["square"][:30, case["columns"]]).entropy)


def test_thread_count_never_changes_a_result(case, monkeypatch):
    """Rows are split into contiguous ranges, each scored in a fixed order: the same
    numbers for 1 and 2 threads (the minimum work per thread is dropped here, so that
    these small jobs do split)."""
    count = threads_module.thread_count
    monkeypatch.setattr(
        threads_module, "thread_count", lambda threads, n, work, least: count(threads, n, work, 1)
    )
    split = []
    ranges = threads_module.split_ranges
    monkeypatch.setattr(
        threads_module, "split_ranges", lambda n, parts: split.append(parts) or ranges(n, parts)
    )
    matrix, encoded, weights = case["square"], case["encoded"], case["weights"]
    table = fixed_point(matrix.shape[1])
    rows, cols = np.arange(matrix.shape[0]), np.arange(0, matrix.shape[1], 2)

    def everything(threads: int) -> list[np.ndarray]:
        stats = float_stats(matrix, weights=weights, threads=threads)
        buckets = reply_buckets(matrix, stats.buckets, n_bins=243, threads=threads)
        streamed = pattern_entropies(encoded, encoded, weights, threads=threads)
        fixed = fixed_stats(matrix, np.asfortranarray(matrix), rows, cols, table, threads=threads)
        return [*stats.__dict__.values(), *buckets, *streamed, *fixed]

    one = everything(1)
    assert split == []
    two = everything(2)
    assert split == [2, 2, 2, 2]  # each of the four kernels split its rows in two
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a, b)


def test_bad_pattern_rows_are_refused():
    matrix = np.array([[0, 1, 2]], dtype=np.uint8)
    with pytest.raises(ValueError, match="outside 0..1"):
        float_stats(matrix, n_bins=2)
    with pytest.raises(ValueError, match="unsigned"):
        float_stats(matrix.astype(np.int16))
    with pytest.raises(ValueError, match="2-D"):
        float_stats(matrix[0])
    with pytest.raises(ValueError, match="one entry per"):
        float_stats(matrix, weights=np.ones(2))
    with pytest.raises(ValueError, match="not all zero"):
        float_stats(matrix, weights=np.zeros(3))
    with pytest.raises(ValueError, match="non-negative"):
        float_stats(matrix, weights=np.array([1.0, -1.0, 1.0]))
    with pytest.raises(ValueError, match="column indices"):
        float_stats(matrix, columns=np.array([3]))
    with pytest.raises(ValueError, match="non-empty"):
        float_stats(matrix, columns=np.array([], dtype=np.int64))
    with pytest.raises(ValueError, match="zero answers"):
        float_stats(np.zeros((2, 0), dtype=np.uint8))
    with pytest.raises(ValueError, match="engine"):
        float_stats(matrix, engine="gpu")
    with pytest.raises(ValueError, match="outside 0..242"):
        reply_buckets(np.array([[243]], dtype=np.uint16), np.array([1]), n_bins=243)
    with pytest.raises(ValueError, match="letter codes outside"):
        pattern_entropies(np.array([[26]]), np.array([[0]]), np.ones(1))


# --- the fixed-point statistics the solver decides by ----------------------------------------


def test_fixed_point_table_is_c_log2_c_at_a_power_of_two_scale():
    for n_max in (1, 2, 36, 2309, 14855):
        table = fixed_point(n_max)
        assert table.scale == 2.0 ** round(math.log2(table.scale)) and table.scale <= 2.0**40
        assert table.values.size == n_max + 2
        for c, value in enumerate(table.values.tolist()):
            exact = c * math.log2(c) * table.scale if c > 1 else 0.0
            # round(c log2 c * scale), to the precision of float64 (whole above 2**53)
            assert abs(value - exact) <= max(0.5, exact * 2.0**-52), (n_max, c)
        assert np.array_equal(table.delta, np.diff(table.values))
        # a whole partition's S fits int64: n_max log2 n_max at this scale < 2**62
        assert table.values[n_max] < 2**62
    table = fixed_point(100)
    assert table.tolerance(100, 1e-9) == math.floor(1e-9 * 100 * table.scale)


@pytest.mark.parametrize("gather", [True, False])
def test_fixed_stats_equal_counting_by_hand(case, monkeypatch, gather):
    """S = sum_b F(c_b), buckets and largest bucket of each row over the chosen columns;
    log2 n - S / (n scale) is the entropy. Few columns are gathered first, many read in
    place: the same integers."""
    if not gather:
        monkeypatch.setattr(partition, "GATHER_COLUMNS", 0)
    matrix = case["square"]
    table = fixed_point(matrix.shape[1])
    rows = np.arange(0, matrix.shape[0], 3)
    cols = case["columns"][::2]
    s, parts, largest = fixed_stats(matrix, np.asfortranarray(matrix), rows, cols, table)
    n = cols.size
    for i, g in enumerate(rows):
        counts = np.unique(matrix[g, cols], return_counts=True)[1]
        assert s[i] == int(table.values[counts].sum())
        assert parts[i] == counts.size and largest[i] == counts.max()
        entropy = math.log2(n) - s[i] / (n * table.scale)
        assert entropy == pytest.approx(entropy_bits(counts.tolist()), abs=1e-9)
    with pytest.raises(ValueError, match="columns must number"):
        fixed_stats(matrix, matrix, rows, np.arange(0), table)


def test_fixed_stats_stop_at_the_first_block_with_a_perfect_split(case):
    matrix = case["square"]
    table = fixed_point(matrix.shape[1])
    cols = np.array([0, 1, 2, 40, 80, 120, 200], dtype=np.int64)
    rows = np.arange(matrix.shape[0], dtype=np.int64)
    full = fixed_stats(matrix, np.asfortranarray(matrix), rows, cols, table)
    perfect = np.flatnonzero(full[1] == cols.size)
    assert perfect.size  # seven scattered words: some guess tells them all apart
    cut = fixed_stats(matrix, np.asfortranarray(matrix), rows, cols, table, stop_at_perfect=True)
    block = partition.GATHER_BLOCK
    stop = min((perfect[0] // block + 1) * block, rows.size)
    for a, b in zip(cut, full, strict=True):
        assert np.array_equal(a, b[:stop])


def test_bucket_layout_groups_positions_by_reply():
    replies = np.array([5, 0, 5, 2, 0, 5], dtype=np.uint8)
    order, starts, ids = bucket_layout(replies)
    assert order.tolist() == [1, 4, 3, 0, 2, 5]  # by reply, then position
    assert starts.tolist() == [0, 2, 3, 6]
    assert ids.tolist() == [0, 2, 5]


def test_bucket_stats_measure_each_bucket_with_its_own_row(case):
    matrix = case["square"]
    weights = case["weights"] + 0.5  # a bucket of weightless words has no distribution
    order, starts, _ = bucket_layout(matrix[7])  # word 7's buckets over every word
    rows = np.arange(starts.size - 1) * 5 % matrix.shape[0]  # some row per bucket
    for w in (None, weights[order]):
        entropy, expected = bucket_stats(matrix, rows, order, starts, weights=w)
        for b in range(starts.size - 1):
            members = order[starts[b] : starts[b + 1]]
            own = None if w is None else w[starts[b] : starts[b + 1]].tolist()
            reference = partition_stats(matrix[rows[b], members].tolist(), own)
            assert entropy[b] == pytest.approx(reference["entropy"], abs=1e-12)
            assert expected[b] == pytest.approx(reference["expected"], rel=1e-12)


def test_scratch_arrays_are_never_written_past_their_end(monkeypatch):
    """The kernels index their scratch without bounds checks. Each thread's list of
    touched bins gets guard cells after its end here: a row that touches every bin and
    has more columns than bins (a single reply, or replies 0..m all present) must leave
    them alone, or the kernel writes over memory it does not own."""
    guards = []
    original = partition._scratch

    def guarded(n_bins: int, n: int):
        counts, mass, touched, scan = original(n_bins, n)
        room = np.full(touched.size + 8, -7, dtype=np.int64)
        guards.append((room, touched.size))
        return counts, mass, room[: touched.size], scan

    monkeypatch.setattr(partition, "_scratch", guarded)
    rows = np.array([[0, 0, 0, 0], [0, 1, 2, 1]], dtype=np.uint8)
    weights = np.array([1.0, 2.0, 3.0, 4.0])
    for scan_bins in (4096, 0):  # scanned bins and sorted touched bins
        monkeypatch.setattr(partition, "SCAN_BINS", scan_bins)
        float_stats(rows[:1])  # one reply: n_bins is 1
        float_stats(rows[1:])  # replies 0, 1, 2: n_bins is 3
        found = float_stats(rows, weights=weights)
        assert found.entropy.tolist() == pytest.approx([0.0, entropy_bits([1.0, 6.0, 3.0])])
        reply_buckets(rows, found.buckets, n_bins=3)
        order, starts, _ = bucket_layout(np.zeros(4, dtype=np.uint8))
        bucket_stats(rows, np.array([0]), order, starts)
    assert guards
    for room, size in guards:
        assert (room[size:] == -7).all(), (size, room)
