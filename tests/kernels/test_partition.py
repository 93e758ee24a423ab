"""Partition statistics (pipeline.kernels.partition) against the naive definitions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipeline.core.wordle import encode_words
from pipeline.kernels import partition
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.partition import (
    GATHER_BLOCK,
    GATHER_COLUMNS,
    bucket_layout,
    bucket_stats,
    fixed_point,
    fixed_stats,
    float_stats,
    pattern_entropies,
    reply_buckets,
)
from tests.support import naive
from tests.support.fixtures import KNOWN_ANSWER_ENTROPY

FIELDS = ("entropy", "uniform", "buckets", "largest", "expected")


def random_words(seed: int, count: int, length: int, alphabet: str = "abcdeilnorst") -> list[str]:
    rng = np.random.default_rng(seed)
    letters = np.array(list(alphabet))
    return ["".join(rng.choice(letters, size=length)) for _ in range(count)]


@pytest.fixture(scope="module")
def case() -> dict:
    """A real-looking pattern matrix: 300 guesses x 500 answers of 5 letters, and weights."""
    guesses = random_words(1, 300, 5)
    answers = random_words(2, 500, 5)
    encoded_g, encoded_a = encode_words(guesses), encode_words(answers)
    rng = np.random.default_rng(3)
    return {
        "guesses": encoded_g,
        "answers": encoded_a,
        "matrix": feedback_matrix(encoded_g, encoded_a),
        "weights": rng.random(500) + 0.01,
        "columns": np.sort(rng.choice(500, 137, replace=False)),
    }


def naive_rows(matrix, weights=None, columns=None) -> dict[str, list]:
    """partition_stats of every row, fields gathered."""
    rows = [
        naive.partition_stats(list(row[columns] if columns is not None else row), weights)
        for row in matrix
    ]
    return {field: [row[field] for row in rows] for field in FIELDS}


def assert_stats_close(got, expected: dict, tolerance: float = 1e-12) -> None:
    for field in ("entropy", "uniform", "expected"):
        np.testing.assert_allclose(getattr(got, field), expected[field], rtol=0, atol=tolerance)
    np.testing.assert_array_equal(got.buckets, expected["buckets"])
    np.testing.assert_array_equal(got.largest, expected["largest"])


def assert_stats_equal(a, b) -> None:
    for field in FIELDS:
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field), err_msg=field)


# --- float_stats ------------------------------------------------------------------------


def test_hand_worked_rows():
    # row 0: buckets {0: 2, 1: 1, 5: 1}; row 1: one bucket; row 2: all different
    matrix = np.array([[0, 1, 0, 5], [3, 3, 3, 3], [0, 1, 2, 3]], dtype=np.uint8)
    stats = float_stats(matrix)
    assert stats.entropy.tolist() == pytest.approx([1.5, 0.0, 2.0], abs=1e-15)
    assert stats.buckets.tolist() == [3, 1, 4]
    assert stats.largest.tolist() == [2, 4, 1]
    # expected answers left: sum_b (c_b / n) * c_b
    assert stats.expected.tolist() == pytest.approx([6 / 4, 4.0, 1.0], abs=1e-15)
    assert stats.buckets.dtype == np.int32 and stats.largest.dtype == np.int32
    weighted = float_stats(matrix, weights=np.array([1.0, 1.0, 2.0, 4.0]))
    # row 0 masses: reply 0 -> 3/8, 1 -> 1/8, 5 -> 4/8
    assert weighted.entropy[0] == pytest.approx(naive.entropy_bits([3, 1, 4]), abs=1e-15)
    assert weighted.uniform[0] == pytest.approx(1.5, abs=1e-15)
    assert weighted.expected[0] == pytest.approx(3 / 8 * 2 + 1 / 8 + 4 / 8, abs=1e-15)


def test_float_stats_against_the_definitions(case):
    stats = float_stats(case["matrix"])
    assert_stats_close(stats, naive_rows(case["matrix"]))
    np.testing.assert_array_equal(stats.entropy, stats.uniform)


def test_weighted_float_stats_against_the_definitions(case):
    weights = case["weights"]
    stats = float_stats(case["matrix"], weights=weights * 1000)  # any positive scale
    assert_stats_close(stats, naive_rows(case["matrix"], weights))
    assert not np.allclose(stats.entropy, stats.uniform)


def test_column_subset_against_the_definitions(case):
    columns = case["columns"]
    weights = case["weights"][columns]
    plain = float_stats(case["matrix"], columns=columns)
    assert_stats_close(plain, naive_rows(case["matrix"], columns=columns))
    weighted = float_stats(case["matrix"], weights=weights, columns=columns)
    assert_stats_close(weighted, naive_rows(case["matrix"], weights, columns))
    # the same bits as the copied sub-matrix
    assert_stats_equal(plain, float_stats(case["matrix"][:, columns]))
    assert_stats_equal(weighted, float_stats(case["matrix"][:, columns], weights=weights))


def test_columns_in_any_order_with_repeats(case):
    columns = np.array([5, 3, 3, 499, 0, 5, 42])
    stats = float_stats(case["matrix"], columns=columns)
    assert_stats_close(stats, naive_rows(case["matrix"], columns=columns))


@pytest.mark.parametrize("n_bins", [None, 243, 3**8])
def test_histogram_size_does_not_change_a_bit(case, n_bins):
    stats = float_stats(case["matrix"], weights=case["weights"], n_bins=n_bins)
    assert_stats_equal(stats, float_stats(case["matrix"], weights=case["weights"]))


def test_scanning_and_sorting_buckets_give_the_same_bits(case, monkeypatch):
    """Few bins are walked in id order; many are listed by sorting the touched bins."""
    scanned = float_stats(case["matrix"], weights=case["weights"], n_bins=3**8)
    monkeypatch.setattr(partition, "SCAN_BINS", 0)  # 6561 bins > 500 answers: sort
    assert_stats_equal(float_stats(case["matrix"], weights=case["weights"], n_bins=3**8), scanned)


@pytest.fixture
def guarded_scratch(monkeypatch):
    """Each kernel's touched list, followed in memory by sentinels that an out-of-bounds
    write would overwrite (the compiled kernels do not check bounds)."""
    real = partition._scratch
    buffers = []

    def scratch(n_bins, n):
        counts, mass, touched, scan = real(n_bins, n)
        buffer = np.full(touched.size + 16, -7, dtype=np.int64)
        buffers.append((buffer, touched.size))
        return counts, mass, buffer[: touched.size], scan

    monkeypatch.setattr(partition, "_scratch", scratch)

    def untouched() -> bool:
        return bool(buffers) and all(np.all(b[size:] == -7) for b, size in buffers)

    return untouched


def test_more_answers_than_bins_touching_every_bin(guarded_scratch):
    """A row of n > n_bins answers that touches every bin: the touched list must hold
    n_bins + 1 entries (the kernel wrote one past its end before)."""
    rng = np.random.default_rng(4)
    matrix = np.tile(np.array([0, 1, 2], dtype=np.uint8), (50, 7))
    matrix = np.ascontiguousarray(rng.permuted(matrix, axis=1))
    weights = rng.random(21) + 0.1
    stats = float_stats(matrix, weights=weights)
    assert guarded_scratch()
    assert stats.buckets.tolist() == [3] * 50
    assert stats.largest.tolist() == [7] * 50
    assert stats.uniform == pytest.approx(math.log2(3), abs=1e-15)
    assert_stats_close(stats, naive_rows(matrix, weights))
    offsets, ids, sizes = reply_buckets(matrix, stats.buckets, n_bins=3)
    assert guarded_scratch()
    assert ids.tolist() == [0, 1, 2] * 50
    assert sizes.tolist() == [7] * 150
    assert offsets.tolist() == list(range(0, 151, 3))
    entropy, _ = bucket_stats(matrix, np.arange(2), np.arange(42) % 21, np.array([0, 21, 42]))
    assert guarded_scratch()
    assert entropy == pytest.approx([math.log2(3)] * 2, abs=1e-15)


def test_longer_words_uint16():
    guesses = encode_words(random_words(5, 40, 7, "abcde"))
    answers = encode_words(random_words(6, 90, 7, "abcde"))
    matrix = feedback_matrix(guesses, answers)
    assert matrix.dtype == np.uint16
    weights = np.random.default_rng(7).random(90)
    stats = float_stats(matrix, weights=weights, n_bins=3**7)
    assert_stats_close(stats, naive_rows(matrix, weights))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("subset", [False, True])
def test_numpy_engine_within_1e_12_of_the_kernel(case, weighted, subset):
    columns = case["columns"] if subset else None
    n = columns.size if subset else 500
    weights = case["weights"][:n] if weighted else None
    jit = float_stats(case["matrix"], weights=weights, columns=columns)
    numpy = float_stats(case["matrix"], weights=weights, columns=columns, engine="numpy")
    for field in ("entropy", "uniform", "expected"):
        np.testing.assert_allclose(
            getattr(numpy, field), getattr(jit, field), rtol=0, atol=1e-12, err_msg=field
        )
    np.testing.assert_array_equal(numpy.buckets, jit.buckets)
    np.testing.assert_array_equal(numpy.largest, jit.largest)


def test_numpy_engine_in_several_blocks(case):
    # a matrix taller than one block: 2**22 // 500 = 8388 rows per block
    tall = np.ascontiguousarray(np.tile(case["matrix"], (30, 1)))
    numpy = float_stats(tall, engine="numpy")
    np.testing.assert_allclose(numpy.entropy, float_stats(tall).entropy, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(numpy.entropy[:300], numpy.entropy[-300:])


@pytest.mark.parametrize("weighted", [False, True])
def test_float_stats_same_bits_for_any_thread_count(case, weighted):
    weights = case["weights"] if weighted else None
    one = float_stats(case["matrix"], weights=weights, threads=1)
    assert case["matrix"].size >= 2 * partition.MIN_THREAD_WORK  # two threads really run
    assert_stats_equal(float_stats(case["matrix"], weights=weights, threads=2), one)
    assert_stats_equal(float_stats(case["matrix"], weights=weights, threads=7), one)


@pytest.mark.parametrize(
    ("kwargs", "matrix", "message"),
    [
        ({}, np.zeros(3, np.uint8), "2-D"),
        ({}, np.zeros((2, 3), np.int16), "unsigned"),
        ({"n_bins": 2}, np.array([[0, 1, 2]], np.uint8), r"pattern id 2 is outside 0..1"),
        ({"weights": np.ones(2)}, np.zeros((1, 3), np.uint8), "one entry per"),
        ({"weights": np.zeros(3)}, np.zeros((1, 3), np.uint8), "not all zero"),
        ({"weights": np.array([1, -1, 1.0])}, np.zeros((1, 3), np.uint8), "non-negative"),
        ({"weights": np.array([1, np.nan, 1])}, np.zeros((1, 3), np.uint8), "finite"),
        ({"columns": np.array([3])}, np.zeros((1, 3), np.uint8), r"column indices"),
        ({"columns": np.array([-1])}, np.zeros((1, 3), np.uint8), r"column indices"),
        ({"columns": np.array([], int)}, np.zeros((1, 3), np.uint8), "non-empty"),
        ({}, np.zeros((1, 0), np.uint8), "zero answers"),
        ({"engine": "gpu"}, np.zeros((1, 3), np.uint8), "engine must be 'jit' or 'numpy'"),
    ],
)
def test_bad_arguments_are_refused(kwargs, matrix, message):
    with pytest.raises(ValueError, match=message):
        float_stats(matrix, **kwargs)


# --- reply_buckets ----------------------------------------------------------------------


def test_reply_buckets_against_the_definitions(case):
    matrix = case["matrix"]
    stats = float_stats(matrix)
    offsets, ids, sizes = reply_buckets(matrix, stats.buckets, n_bins=243)
    assert offsets[0] == 0 and offsets[-1] == ids.size == sizes.size == stats.buckets.sum()
    for r in (0, 1, 150, 299):
        expected = sorted(naive.buckets(list(matrix[r])).items())
        span = slice(offsets[r], offsets[r + 1])
        got = list(zip(ids[span].tolist(), sizes[span].tolist(), strict=True))
        assert got == [(k, v[0]) for k, v in expected]
    # every row's counts add up to the answers
    assert np.all(np.add.reduceat(sizes, offsets[:-1]) == 500)


def test_reply_buckets_same_for_any_thread_count_and_histogram(case, monkeypatch):
    matrix = case["matrix"]
    buckets = float_stats(matrix).buckets
    one = reply_buckets(matrix, buckets, n_bins=243, threads=1)
    for got in (
        reply_buckets(matrix, buckets, n_bins=243, threads=2),
        reply_buckets(matrix, buckets, n_bins=3**9, threads=2),
    ):
        for a, b in zip(got, one, strict=True):
            np.testing.assert_array_equal(a, b)
    monkeypatch.setattr(partition, "SCAN_BINS", 0)
    for a, b in zip(reply_buckets(matrix, buckets, n_bins=3**9), one, strict=True):
        np.testing.assert_array_equal(a, b)


def test_reply_buckets_refuses_mismatched_counts(case):
    with pytest.raises(ValueError, match="one count per matrix row"):
        reply_buckets(case["matrix"], np.ones(3), n_bins=243)
    with pytest.raises(ValueError, match="outside 0..9"):
        reply_buckets(case["matrix"], np.ones(300), n_bins=10)


# --- pattern_entropies: patterns computed on the fly ------------------------------------


@pytest.mark.parametrize(("length", "n_guesses"), [(5, 300), (5, 17), (7, 50), (3, 1)])
def test_pattern_entropies_equal_float_stats_bit_for_bit(length, n_guesses):
    alphabet = "abcdeilnorst"[: 4 + length]
    guesses = encode_words(random_words(length, n_guesses, length, alphabet))
    candidates = encode_words(random_words(length + 100, 500, length, alphabet))
    weights = np.random.default_rng(length).random(500) + 0.01
    uniform, weighted = pattern_entropies(guesses, candidates, weights)
    matrix = feedback_matrix(guesses, candidates)
    np.testing.assert_array_equal(uniform, float_stats(matrix).entropy)
    np.testing.assert_array_equal(weighted, float_stats(matrix, weights=weights).entropy)
    # weights at another power-of-two scale normalise to the very same numbers
    np.testing.assert_array_equal(weighted, float_stats(matrix, weights=weights * 4).entropy)
    two = pattern_entropies(guesses, candidates, weights, threads=2)
    np.testing.assert_array_equal(two[0], uniform)
    np.testing.assert_array_equal(two[1], weighted)


def test_pattern_entropies_against_the_definitions(case):
    uniform, weighted = pattern_entropies(case["guesses"][:20], case["answers"], case["weights"])
    expected = naive_rows(case["matrix"][:20], case["weights"])
    np.testing.assert_allclose(uniform, expected["uniform"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(weighted, expected["entropy"], rtol=0, atol=1e-12)


def test_pattern_entropies_checks_its_input(case):
    with pytest.raises(ValueError, match="one entry per"):
        pattern_entropies(case["guesses"], case["answers"], np.ones(3))
    with pytest.raises(ValueError, match="length"):
        pattern_entropies(case["guesses"], case["answers"][:, :4], case["weights"])


# --- the fixed-point table --------------------------------------------------------------


@pytest.mark.parametrize("n_max", [1, 2, 3, 100, 2309, 14855, 10**6])
def test_fixed_point_table_is_round_c_log2_c_times_scale(n_max):
    table = fixed_point(n_max)
    assert table.values.shape == (n_max + 2,)
    assert table.values.dtype == np.int64
    assert table.values[0] == table.values[1] == 0
    # the largest power-of-two scale, at most 2**40, keeping n log2 n * scale within 2**62
    exponent = math.log2(table.scale)
    assert exponent == int(exponent) and exponent <= 40
    top = max(n_max, 2) * math.log2(max(n_max, 2))
    assert top * table.scale <= 2.0**62
    assert exponent == 40 or top * table.scale * 2 > 2.0**62
    np.testing.assert_array_equal(table.delta, np.diff(table.values))
    sample = sorted({2, 3, 4, 5, 7, 100, n_max // 2, n_max, n_max + 1} - {0, 1})
    sample = [c for c in sample if 2 <= c <= n_max + 1]
    assert [int(table.values[c]) for c in sample] == [naive.fixed_f(c, table.scale) for c in sample]


def test_fixed_point_values_for_the_real_answer_count():
    table = fixed_point(2309)
    assert table.scale == 2.0**40
    assert table.values[2] == 2**41  # 2 log2 2 = 2 exactly
    assert table.values[4] == 8 * 2**40
    assert table.tolerance(2309, 1e-9) == math.floor(1e-9 * 2309 * 2**40) == 2538772
    assert table.tolerance(1, 0.0) == 0


# --- fixed_stats ------------------------------------------------------------------------


def fixed_case(n_rows: int, n_cols: int, dtype=np.uint8, seed: int = 8, top: int = 243):
    rng = np.random.default_rng(seed)
    # skewed replies, like real ones: a few big buckets and many small ones
    matrix = np.minimum(rng.geometric(0.08, size=(n_rows, n_cols)) - 1, top - 1).astype(dtype)
    return matrix, np.asfortranarray(matrix)


def naive_fixed(matrix, rows, cols, values):
    s, parts, largest = [], [], []
    for r in rows:
        row = matrix[r, cols].tolist()
        s.append(naive.fixed_s(row, values))
        counts = naive.buckets(row)
        parts.append(len(counts))
        largest.append(max(c for c, _ in counts.values()))
    return s, parts, largest


@pytest.mark.parametrize(
    ("n_cols", "path"), [(37, "gathered"), (GATHER_COLUMNS, "gathered"), (700, "direct")]
)
def test_fixed_stats_against_the_definitions(n_cols, path):
    assert (n_cols <= GATHER_COLUMNS) == (path == "gathered")
    matrix, matrix_f = fixed_case(300, 900)
    rng = np.random.default_rng(n_cols)
    rows = rng.choice(300, 123, replace=False)  # any order
    cols = np.sort(rng.choice(900, n_cols, replace=False))
    table = fixed_point(900)
    s, parts, largest = fixed_stats(matrix, matrix_f, rows, cols, table)
    expected = naive_fixed(matrix, rows, cols, table.values)
    assert s.tolist() == expected[0]
    assert parts.tolist() == expected[1]
    assert largest.tolist() == expected[2]
    assert s.dtype == parts.dtype == largest.dtype == np.int64


def test_fixed_stats_agrees_with_float_entropy(case):
    matrix = case["matrix"]
    cols = case["columns"]
    table = fixed_point(500)
    rows = np.arange(300)
    s, parts, largest = fixed_stats(matrix, np.asfortranarray(matrix), rows, cols, table)
    stats = float_stats(matrix, columns=cols)
    n = cols.size
    # entropy over n uniform answers is log2 n - S / (n * scale)
    np.testing.assert_allclose(math.log2(n) - s / (n * table.scale), stats.entropy, atol=1e-9)
    np.testing.assert_array_equal(parts, stats.buckets)
    np.testing.assert_array_equal(largest, stats.largest)


def test_fixed_stats_uint16_and_rows_in_any_order():
    matrix, matrix_f = fixed_case(60, 800, np.uint16, seed=9, top=3**7)
    rows = np.array([59, 0, 0, 31, 7, 59])
    table = fixed_point(800)
    for cols in (np.arange(100), np.arange(800)):
        got = fixed_stats(matrix, matrix_f, rows, cols, table)
        expected = naive_fixed(matrix, rows, cols, table.values)
        assert [g.tolist() for g in got] == [list(e) for e in expected]


@pytest.mark.parametrize("n_cols", [400, 1024])  # gathered, direct
def test_fixed_stats_same_for_any_thread_count(n_cols):
    # enough work (rows x columns >= 2 * 2**22) that two threads really run
    n_rows = 2 * (1 << 22) // n_cols + 5
    matrix, matrix_f = fixed_case(n_rows, n_cols, seed=10)
    rows = np.arange(n_rows)
    cols = np.arange(n_cols)
    table = fixed_point(n_cols)
    one = fixed_stats(matrix, matrix_f, rows, cols, table, threads=1)
    two = fixed_stats(matrix, matrix_f, rows, cols, table, threads=2)
    for a, b in zip(one, two, strict=True):
        np.testing.assert_array_equal(a, b)
    sample = rows[:: n_rows // 7]
    assert one[0][sample].tolist() == naive_fixed(matrix, sample, cols, table.values)[0]


def test_fixed_stats_refuses_columns_beyond_its_table():
    matrix, matrix_f = fixed_case(4, 20)
    table = fixed_point(10)
    with pytest.raises(ValueError, match=r"columns must number 1..10"):
        fixed_stats(matrix, matrix_f, np.arange(4), np.arange(11), table)
    with pytest.raises(ValueError, match=r"columns must number 1..10"):
        fixed_stats(matrix, matrix_f, np.arange(4), np.arange(0), table)
    assert fixed_stats(matrix, matrix_f, np.arange(4), np.arange(10), table)[0].shape == (4,)


# --- stop_at_perfect --------------------------------------------------------------------


def perfect_case(perfect_rows: list[int], n_rows: int = 3 * GATHER_BLOCK + 40, n_cols: int = 60):
    """Rows that never split the columns perfectly, except `perfect_rows`."""
    matrix, _ = fixed_case(n_rows, n_cols, seed=11, top=20)  # 20 replies < 60 columns
    for r in perfect_rows:
        matrix[r] = np.random.default_rng(r).permutation(243)[:n_cols]
    return matrix, np.asfortranarray(matrix)


@pytest.mark.parametrize(
    ("perfect_rows", "length"),
    [
        ([], 3 * GATHER_BLOCK + 40),  # none: every row is scored
        ([5], GATHER_BLOCK),  # in the first block: it ends there
        ([GATHER_BLOCK + 3, 2 * GATHER_BLOCK + 9], 2 * GATHER_BLOCK),
        ([3 * GATHER_BLOCK + 39], 3 * GATHER_BLOCK + 40),  # in the last, ragged block
    ],
)
def test_stop_at_perfect_ends_at_the_block_holding_a_perfect_row(perfect_rows, length):
    matrix, matrix_f = perfect_case(perfect_rows)
    rows = np.arange(matrix.shape[0])
    cols = np.arange(60)
    table = fixed_point(60)
    full = fixed_stats(matrix, matrix_f, rows, cols, table)
    stopped = fixed_stats(matrix, matrix_f, rows, cols, table, stop_at_perfect=True)
    assert [len(a) for a in stopped] == [length] * 3
    for a, b in zip(stopped, full, strict=True):
        np.testing.assert_array_equal(a, b[:length])
    assert np.flatnonzero(full[1] == 60).tolist() == perfect_rows
    for r in perfect_rows:
        assert full[0][r] == 0 and full[2][r] == 1  # S of singletons is 0, largest 1


def test_stop_at_perfect_on_the_direct_path():
    n_cols = GATHER_COLUMNS + 100
    matrix, _ = fixed_case(2 * GATHER_BLOCK, n_cols, np.uint16, seed=12, top=300)
    matrix[GATHER_BLOCK + 1] = np.random.default_rng(0).permutation(3**7)[:n_cols]
    matrix_f = np.asfortranarray(matrix)
    table = fixed_point(n_cols)
    rows, cols = np.arange(2 * GATHER_BLOCK), np.arange(n_cols)
    stopped = fixed_stats(matrix, matrix_f, rows, cols, table, stop_at_perfect=True)
    assert stopped[1][GATHER_BLOCK + 1] == n_cols
    assert len(stopped[0]) == 2 * GATHER_BLOCK
    np.testing.assert_array_equal(stopped[0], fixed_stats(matrix, matrix_f, rows, cols, table)[0])


# --- bucket_layout and bucket_stats -----------------------------------------------------


def test_bucket_layout_against_the_definition():
    replies = np.array([5, 0, 5, 2, 0, 0, 9, 5], dtype=np.uint8)
    order, starts, ids = bucket_layout(replies)
    assert ids.tolist() == [0, 2, 5, 9]
    assert starts.tolist() == [0, 3, 4, 7, 8]
    assert order.tolist() == [1, 4, 5, 3, 0, 2, 7, 6]  # by reply, then position
    rng = np.random.default_rng(13)
    replies = rng.integers(0, 40, 1000).astype(np.uint16)
    order, starts, ids = bucket_layout(replies)
    for b, reply in enumerate(ids.tolist()):
        members = order[starts[b] : starts[b + 1]].tolist()
        assert members == np.flatnonzero(replies == reply).tolist()
    assert sorted(set(replies.tolist())) == ids.tolist()


def test_bucket_stats_against_the_definitions(case):
    """The second-guess question: for each reply bucket of a first guess, how a second
    guess splits it."""
    matrix = case["matrix"]
    order, starts, _ = bucket_layout(matrix[0])
    n_buckets = starts.size - 1
    second = (np.arange(n_buckets) * 7) % 300  # a different second guess per bucket
    weights = case["weights"][order]
    plain_entropy, plain_expected = bucket_stats(matrix, second, order, starts)
    weighted_entropy, weighted_expected = bucket_stats(
        matrix, second, order, starts, weights=weights * 5
    )
    for b in range(n_buckets):
        cols = order[starts[b] : starts[b + 1]]
        row = list(matrix[second[b], cols])
        plain = naive.partition_stats(row)
        weighted = naive.partition_stats(row, weights[starts[b] : starts[b + 1]])
        assert plain_entropy[b] == pytest.approx(plain["entropy"], abs=1e-12)
        assert plain_expected[b] == pytest.approx(plain["expected"], abs=1e-12)
        assert weighted_entropy[b] == pytest.approx(weighted["entropy"], abs=1e-12)
        assert weighted_expected[b] == pytest.approx(weighted["expected"], abs=1e-12)
        # unweighted, the same bits as float_stats over the bucket's columns
        stats = float_stats(matrix[second[b] : second[b] + 1], columns=cols)
        assert plain_entropy[b] == stats.entropy[0]
        assert plain_expected[b] == stats.expected[0]


# --- the real lists ---------------------------------------------------------------------


def test_real_entropies(mirror):
    allowed = set((mirror / "allowed.txt").read_text().split())
    answers = sorted(set((mirror / "answers.txt").read_text().split()))
    words = sorted(allowed | set(answers))
    matrix = feedback_matrix(encode_words(words), encode_words(answers), engine="jit")
    stats = float_stats(matrix, n_bins=243, threads=2)
    for word, value in KNOWN_ANSWER_ENTROPY.items():
        assert round(float(stats.entropy[words.index(word)]), 4) == value, word
    top5 = np.argsort(-stats.entropy, kind="stable")[:5]
    assert [words[i] for i in top5] == ["tarse", "tiare", "soare", "roate", "raise"]
    numpy = float_stats(matrix, engine="numpy")
    np.testing.assert_allclose(numpy.entropy, stats.entropy, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(numpy.buckets, stats.buckets)
    # fixed point: the same partitions, exact integers, entropy within 1e-9
    table = fixed_point(len(answers))
    s, parts, largest = fixed_stats(
        matrix,
        np.asfortranarray(matrix),
        np.arange(len(words)),
        np.arange(len(answers)),
        table,
        threads=2,
    )
    n = len(answers)
    np.testing.assert_allclose(math.log2(n) - s / (n * table.scale), stats.entropy, atol=1e-9)
    np.testing.assert_array_equal(parts, stats.buckets)
    np.testing.assert_array_equal(largest, stats.largest)
    tarse = words.index("tarse")
    assert int(s.argmin()) == tarse  # the best opener has the smallest S
    assert stats.expected[tarse] == pytest.approx(
        (np.bincount(matrix[tarse]) ** 2).sum() / n, rel=1e-14
    )
