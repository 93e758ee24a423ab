"""Entropy stage: a hand-worked example, numpy references, both square paths, real values."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numba
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from pipeline import entropy
from pipeline.commonness import COMMONNESS_SCHEMA, write_commonness
from pipeline.entropy import (
    bucket_statistics,
    entropies_from_matrix,
    entropy_answers_numpy,
    rank_descending,
    square_entropies_numpy,
    write_entropy,
)
from pipeline.errors import InputError, PipelineError
from pipeline.matrix import chunk_count, load_pattern_matrix, write_chunk_index, write_pattern_chunk
from pipeline.parquet import read_provenance, write_parquet
from pipeline.patterns import (
    encode_words,
    feedback,
    feedback_matrix,
    feedback_matrix_numpy,
    parse_pattern,
    pattern_string,
)
from pipeline.words import load_word_index, write_word_index


def bits(*weights: float) -> float:
    """Shannon entropy (bits) of bucket weights, normalised here: the hand calculator."""
    total = sum(weights)
    return -sum(w / total * math.log2(w / total) for w in weights if w)


def build_matrix(words: Path, folder: Path, *, chunk_rows: int, columns: str) -> Path:
    """Chunks and index of one stored matrix, the way the Snakemake rules build them."""
    n_words = len(load_word_index(words).words)
    chunks = []
    for chunk in range(chunk_count(n_words, chunk_rows)):
        path = folder / f"chunk-{chunk:04d}.npy.zst"
        write_pattern_chunk(
            words, path, chunk=chunk, chunk_rows=chunk_rows, columns=columns, zstd_level=1
        )
        chunks.append(path)
    write_chunk_index(words, chunks, folder / "index.json", chunk_rows=chunk_rows, columns=columns)
    return folder / "index.json"


def build_words(folder: Path, allowed: list[str], answers: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "allowed.txt").write_text("\n".join(allowed) + "\n")
    (folder / "answers.txt").write_text("\n".join(answers) + "\n")
    write_word_index(folder / "allowed.txt", folder / "answers.txt", folder / "words.parquet")
    return folder / "words.parquet"


def write_p_common(words: Path, p_common: list[float], output: Path) -> Path:
    """commonness.parquet with chosen p_common (other columns are placeholders)."""
    names = load_word_index(words).words
    n = len(names)
    table = pa.table(
        {
            "word_id": pa.array(np.arange(n, dtype=np.int32)),
            "word": pa.array(list(names), pa.string()),
            "count": pa.array(np.zeros(n, dtype=np.int64)),
            "frequency_rank": pa.array(np.arange(1, n + 1, dtype=np.int32)),
            "x": pa.array(np.zeros(n)),
            "p_common": pa.array(np.array(p_common, dtype=np.float64)),
        },
        schema=COMMONNESS_SCHEMA,
    )
    write_parquet(table, output, inputs={"words": words}, config={})
    return output


# --- a hand-worked example ------------------------------------------------------------------

# Three-letter words (the length comes from the data). Answers: bed, bee, dad, ebb.
HAND_WORDS = ["bed", "bee", "boa", "dad", "ebb", "fig"]
HAND_ANSWERS = ["bed", "bee", "dad", "ebb"]
# p_common of each word: binary fractions summing to exactly 1.
HAND_P = [0.25, 0.125, 0.125, 0.25, 0.125, 0.125]
# Feedback of each guess (row) against every word (column), worked out by the rules. Not
# symmetric: boa's row has buckets 2+1+1+1+1, its column 2+1+2+1 (a transposed read shows).
HAND_SQUARE = {
    #       bed    bee    boa    dad    ebb    fig
    "bed": ["GGG", "GGB", "GBB", "BBG", "YYB", "BBB"],
    "bee": ["GGB", "GGG", "GBB", "BBB", "YYB", "BBB"],
    "boa": ["GBB", "GBB", "GGG", "BBY", "YBB", "BBB"],
    "dad": ["BBG", "BBB", "BYB", "GGG", "BBB", "BBB"],
    "ebb": ["YYB", "YYB", "BYB", "BBB", "GGG", "BBB"],
    "fig": ["BBB", "BBB", "BBB", "BBB", "BBB", "GGG"],
}
# Buckets over the answers (columns bed, bee, dad, ebb), by word: sizes of each pattern.
HAND_ANSWER_BUCKETS = {
    "bed": [1, 1, 1, 1],  # GGG GGB BBG YYB
    "bee": [1, 1, 1, 1],  # GGB GGG BBB YYB
    "boa": [2, 1, 1],  # GBB{bed,bee} BBY YBB
    "dad": [1, 2, 1],  # BBG BBB{bee,ebb} GGG
    "ebb": [2, 1, 1],  # YYB{bed,bee} BBB GGG
    "fig": [4],  # BBB
}
# Buckets over all six words, as p_common sums (prior) and counts (allowed).
HAND_PRIOR_BUCKETS = {
    "bed": [0.25, 0.125, 0.125, 0.25, 0.125, 0.125],  # all different
    "bee": [0.25, 0.125, 0.125, 0.375, 0.125],  # GGB GGG GBB BBB{dad,fig} YYB
    "boa": [0.375, 0.125, 0.25, 0.125, 0.125],  # GBB{bed,bee} GGG BBY YBB BBB
    "dad": [0.25, 0.375, 0.125, 0.25],  # BBG BBB{bee,ebb,fig} BYB GGG
    "ebb": [0.375, 0.125, 0.375, 0.125],  # YYB{bed,bee} BYB BBB{dad,fig} GGG
    "fig": [0.875, 0.125],  # BBB GGG
}
HAND_ALLOWED_BUCKETS = {
    "bed": [1, 1, 1, 1, 1, 1],
    "bee": [1, 1, 1, 2, 1],
    "boa": [2, 1, 1, 1, 1],
    "dad": [1, 3, 1, 1],
    "ebb": [2, 1, 2, 1],
    "fig": [5, 1],
}
# pattern_distribution rows: (word_id, word, pattern_id, pattern, count); ids: B0 Y1 G2,
# position 0 least significant: YBB 1, GBB 2, YYB 1 + 3 = 4, GGB 2 + 6 = 8, BBY 9,
# BBG 18, GGG 26.
HAND_DISTRIBUTION = [
    (0, "bed", 4, "YYB", 1),
    (0, "bed", 8, "GGB", 1),
    (0, "bed", 18, "BBG", 1),
    (0, "bed", 26, "GGG", 1),
    (1, "bee", 0, "BBB", 1),
    (1, "bee", 4, "YYB", 1),
    (1, "bee", 8, "GGB", 1),
    (1, "bee", 26, "GGG", 1),
    (2, "boa", 1, "YBB", 1),
    (2, "boa", 2, "GBB", 2),
    (2, "boa", 9, "BBY", 1),
    (3, "dad", 0, "BBB", 2),
    (3, "dad", 18, "BBG", 1),
    (3, "dad", 26, "GGG", 1),
    (4, "ebb", 0, "BBB", 1),
    (4, "ebb", 4, "YYB", 2),
    (4, "ebb", 26, "GGG", 1),
    (5, "fig", 0, "BBB", 4),
]


@pytest.fixture(scope="module")
def hand(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hand")
    words = build_words(folder, HAND_WORDS, HAND_ANSWERS)
    paths = {
        "words": words,
        "commonness": write_p_common(words, HAND_P, folder / "commonness.parquet"),
        "patterns": build_matrix(words, folder / "patterns", chunk_rows=4, columns="answers"),
        "square": build_matrix(words, folder / "square", chunk_rows=4, columns="guesses"),
    }
    write_entropy(
        words,
        paths["commonness"],
        paths["patterns"],
        folder / "entropy.parquet",
        folder / "distribution.parquet",
    )
    paths["entropy"] = folder / "entropy.parquet"
    paths["distribution"] = folder / "distribution.parquet"
    return paths


def test_hand_example_patterns_are_what_the_rules_say():
    for guess, row in HAND_SQUARE.items():
        for answer, expected in zip(HAND_WORDS, row, strict=True):
            assert feedback(guess, answer) == parse_pattern(expected), (guess, answer)


def test_hand_example_entropy_table(hand):
    table = pq.read_table(hand["entropy"])
    assert table.schema.equals(entropy.ENTROPY_SCHEMA)
    rows = table.to_pylist()
    assert [row["word"] for row in rows] == HAND_WORDS
    assert [row["word_id"] for row in rows] == list(range(6))
    assert [row["is_answer"] for row in rows] == [w in HAND_ANSWERS for w in HAND_WORDS]
    assert [row["p_common"] for row in rows] == HAND_P
    for row in rows:
        word = row["word"]
        sizes = HAND_ANSWER_BUCKETS[word]
        assert row["entropy_answers"] == pytest.approx(bits(*sizes), abs=1e-12), word
        assert row["entropy_prior"] == pytest.approx(bits(*HAND_PRIOR_BUCKETS[word]), abs=1e-12)
        assert row["entropy_allowed"] == pytest.approx(bits(*HAND_ALLOWED_BUCKETS[word]), abs=1e-12)
        assert row["buckets"] == len(sizes)
        assert row["largest_bucket"] == max(sizes)
        assert row["expected_remaining"] == pytest.approx(sum(n * n for n in sizes) / 4)
    # Worked by hand: bed/bee 2 bits, boa/dad/ebb 1.5, fig 0; bed's prior 2.5 exactly.
    by_word = {row["word"]: row for row in rows}
    assert by_word["bed"]["entropy_answers"] == pytest.approx(2.0)
    assert by_word["dad"]["entropy_answers"] == pytest.approx(1.5)
    assert by_word["fig"]["entropy_answers"] == 0.0
    assert by_word["fig"]["expected_remaining"] == 4.0
    assert by_word["bed"]["entropy_prior"] == pytest.approx(2.5)
    assert by_word["bed"]["entropy_allowed"] == pytest.approx(math.log2(6))
    # Ties go to the lower word_id: bed before bee, then boa, dad, ebb (all 1.5 bits).
    assert [by_word[w]["rank_answers"] for w in HAND_WORDS] == [1, 2, 3, 4, 5, 6]
    # Prior: bed 2.5 > bee = boa 2.16 > dad 1.91 > ebb 1.81 > fig 0.54.
    assert [by_word[w]["rank_prior"] for w in HAND_WORDS] == [1, 2, 3, 4, 5, 6]
    # Allowed: bed 2.58 > bee = boa 2.25 > ebb 1.92 > dad 1.79 > fig 0.65.
    assert [by_word[w]["rank_allowed"] for w in HAND_WORDS] == [1, 2, 3, 5, 4, 6]
    # Reading boa's column instead of its row would give 2+1+2+1, i.e. ebb's 1.92 bits.
    column = [HAND_SQUARE[guess][HAND_WORDS.index("boa")] for guess in HAND_WORDS]
    assert sorted(Counter(column).values()) == [1, 1, 2, 2]
    assert bits(2, 1, 2, 1) != pytest.approx(by_word["boa"]["entropy_allowed"])


def test_hand_example_distribution(hand):
    table = pq.read_table(hand["distribution"])
    assert table.schema.equals(entropy.DISTRIBUTION_SCHEMA)
    rows = [
        (r["word_id"], r["word"], r["pattern_id"], r["pattern"], r["count"])
        for r in table.to_pylist()
    ]
    assert rows == HAND_DISTRIBUTION
    assert table["probability"].to_pylist() == [count / 4 for *_, count in HAND_DISTRIBUTION]


def test_hand_example_provenance(hand):
    provenance = read_provenance(hand["entropy"])
    assert set(provenance["inputs_sha256"]) == {"words", "commonness", "patterns"}
    assert provenance["config"] == {"rank_tolerance": 1e-9}
    provenance = read_provenance(hand["distribution"])
    assert set(provenance["inputs_sha256"]) == {"words", "patterns"}
    assert provenance["config"] == {}


def test_hand_example_square_index_gives_the_same_table(hand, tmp_path):
    write_entropy(
        hand["words"],
        hand["commonness"],
        hand["patterns"],
        tmp_path / "entropy.parquet",
        tmp_path / "distribution.parquet",
        square_index=hand["square"],
    )
    assert pq.read_table(tmp_path / "entropy.parquet").equals(pq.read_table(hand["entropy"]))
    assert "patterns_square" in read_provenance(tmp_path / "entropy.parquet")["inputs_sha256"]


def test_matrices_in_the_wrong_place_are_refused(hand, tmp_path):
    out = (tmp_path / "e.parquet", tmp_path / "d.parquet")
    common = hand["commonness"]
    with pytest.raises(PipelineError, match="expected 6 x 4 with answers columns"):
        write_entropy(hand["words"], common, hand["square"], *out)
    with pytest.raises(PipelineError, match="expected 6 x 6 with guesses columns"):
        write_entropy(hand["words"], common, hand["patterns"], *out, square_index=hand["patterns"])
    other = write_p_common(hand["words"], HAND_P, tmp_path / "c.parquet")
    table = pq.read_table(other)
    words = table["word"].to_pylist()
    words[0], words[1] = words[1], words[0]
    table = table.set_column(1, "word", pa.array(words, pa.string()))
    pq.write_table(table, other)
    with pytest.raises(InputError, match="does not list the words"):
        write_entropy(hand["words"], other, hand["patterns"], *out)
    assert not out[0].exists() and not out[1].exists()


# --- random word lists against plain numpy ---------------------------------------------------


def random_words(rng: np.random.Generator, n: int, alphabet: str = "abcdeilnorst") -> list[str]:
    """Distinct 5-letter words over a small alphabet: many repeated letters and collisions."""
    words: set[str] = set()
    letters = np.array(list(alphabet))
    while len(words) < n:
        words.add("".join(rng.choice(letters, 5)))
    return sorted(words)


@pytest.fixture(scope="module")
def random_case(tmp_path_factory) -> dict:
    rng = np.random.default_rng(20240607)
    folder = tmp_path_factory.mktemp("random")
    allowed = random_words(rng, 300)
    answers = sorted(rng.choice(allowed, 60, replace=False).tolist())
    words = build_words(folder, allowed, answers)
    counts = rng.integers(0, 10**6, len(allowed))
    (folder / "freq.csv").write_text(
        "word,count\n" + "".join(f"{w},{c}\n" for w, c in zip(allowed, counts, strict=True))
    )
    write_commonness(
        words, folder / "freq.csv", folder / "commonness.parquet", n_common=100, width=10
    )
    case = {
        "folder": folder,
        "words": words,
        "commonness": folder / "commonness.parquet",
        "patterns": build_matrix(words, folder / "patterns", chunk_rows=64, columns="answers"),
        "square": build_matrix(words, folder / "square", chunk_rows=128, columns="guesses"),
        "entropy": folder / "entropy.parquet",
        "distribution": folder / "distribution.parquet",
    }
    write_entropy(
        words, case["commonness"], case["patterns"], case["entropy"], case["distribution"]
    )
    return case


def numpy_reference(case: dict) -> dict[str, np.ndarray]:
    """Everything the stage computes, straightforwardly: whole matrices, np.unique per row."""
    index = load_word_index(case["words"])
    encoded = encode_words(index.words)
    square = feedback_matrix_numpy(encoded, encoded)  # [guess, word]
    answers = square[:, index.answer_rows]
    p = pq.read_table(case["commonness"])["p_common"].to_numpy()
    p = p / p.sum()
    result: dict[str, list] = {key: [] for key in ("answers", "prior", "allowed", "buckets")}
    result.update(largest=[], expected=[], distribution=[])
    for g in range(len(index.words)):
        ids, counts = np.unique(answers[g], return_counts=True)
        q = counts / counts.sum()
        result["answers"].append(-(q * np.log2(q)).sum())
        result["buckets"].append(len(ids))
        result["largest"].append(counts.max())
        result["expected"].append((counts**2).sum() / counts.sum())
        result["distribution"].extend((g, int(i), int(c)) for i, c in zip(ids, counts, strict=True))
        ids, inverse, counts = np.unique(square[g], return_inverse=True, return_counts=True)
        q = counts / counts.sum()
        result["allowed"].append(-(q * np.log2(q)).sum())
        mass = np.bincount(inverse, weights=p)
        mass = mass[mass > 0]
        result["prior"].append(-(mass * np.log2(mass)).sum())
    return {key: np.array(value) for key, value in result.items()}


def reference_ranks(values: np.ndarray, tolerance: float = 1e-9) -> list[int]:
    """Rank by definition: count who beats you (higher by >= tolerance, or tied and earlier)."""
    ranks = []
    for i, value in enumerate(values):
        better = sum(
            1
            for j, other in enumerate(values)
            if other - value >= tolerance or (abs(other - value) < tolerance and j < i)
        )
        ranks.append(better + 1)
    return ranks


def test_random_list_matches_numpy(random_case):
    ref = numpy_reference(random_case)
    table = pq.read_table(random_case["entropy"])
    for column, key in (
        ("entropy_answers", "answers"),
        ("entropy_prior", "prior"),
        ("entropy_allowed", "allowed"),
    ):
        values = table[column].to_numpy()
        np.testing.assert_allclose(values, ref[key], rtol=0, atol=1e-12, err_msg=column)
        assert table[column.replace("entropy", "rank")].to_pylist() == reference_ranks(values)
    assert table["buckets"].to_pylist() == ref["buckets"].tolist()
    assert table["largest_bucket"].to_pylist() == ref["largest"].tolist()
    np.testing.assert_allclose(table["expected_remaining"].to_numpy(), ref["expected"], rtol=1e-14)
    # The list is random enough that the measures disagree on the order.
    assert table["rank_answers"].to_pylist() != table["rank_allowed"].to_pylist()
    assert table["rank_prior"].to_pylist() != table["rank_allowed"].to_pylist()

    distribution = pq.read_table(random_case["distribution"])
    rows = list(
        zip(
            distribution["word_id"].to_pylist(),
            distribution["pattern_id"].to_pylist(),
            distribution["count"].to_pylist(),
            strict=True,
        )
    )
    assert rows == [tuple(row) for row in ref["distribution"].tolist()]
    words = load_word_index(random_case["words"]).words
    assert distribution["word"].to_pylist() == [words[g] for g, _, _ in rows]
    assert distribution["pattern"].to_pylist() == [pattern_string(p, 5) for _, p, _ in rows]
    np.testing.assert_array_equal(
        distribution["probability"].to_numpy(), distribution["count"].to_numpy() / 60
    )


def test_square_index_path_equals_streaming_path(random_case, tmp_path):
    write_entropy(
        random_case["words"],
        random_case["commonness"],
        random_case["patterns"],
        tmp_path / "entropy.parquet",
        tmp_path / "distribution.parquet",
        square_index=random_case["square"],
    )
    assert pq.read_table(tmp_path / "entropy.parquet").equals(pq.read_table(random_case["entropy"]))
    assert (tmp_path / "distribution.parquet").read_bytes() == random_case[
        "distribution"
    ].read_bytes()


def test_same_bytes_whatever_the_chunking_and_threads(random_case, tmp_path):
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        write_entropy(
            random_case["words"],
            random_case["commonness"],
            random_case["patterns"],
            tmp_path / "entropy.parquet",
            tmp_path / "distribution.parquet",
            chunk_rows=7,
        )
    finally:
        numba.set_num_threads(threads)
    for name in ("entropy", "distribution"):
        assert (tmp_path / f"{name}.parquet").read_bytes() == random_case[name].read_bytes()


@pytest.mark.parametrize("setting", ["MAX_DENSE_BINS", "SCAN_BINS"])
def test_other_grouping_paths_give_the_same_bits(random_case, monkeypatch, setting):
    """Long words' pattern counts make rows sort (no dense histogram) or list touched bins."""
    index = load_word_index(random_case["words"])
    encoded = encode_words(index.words)
    matrix = feedback_matrix(encoded, encoded)
    weights = np.random.default_rng(1).random(len(index.words))
    columns = np.random.default_rng(2).permutation(len(index.words))[:150]
    dense = [
        bucket_statistics(matrix, w, c)
        for w, c in ((None, None), (weights, None), (weights[columns], columns))
    ]
    monkeypatch.setattr(entropy, setting, 0)
    for (w, c), expected in zip(
        ((None, None), (weights, None), (weights[columns], columns)), dense, strict=True
    ):
        got = bucket_statistics(matrix, w, c)
        for field in ("entropy", "buckets", "largest_bucket", "expected_remaining"):
            np.testing.assert_array_equal(getattr(got, field), getattr(expected, field))
    uniform, weighted = entropy.square_entropies(encoded, weights, chunk_rows=100)
    np.testing.assert_array_equal(uniform, dense[0].entropy)
    np.testing.assert_array_equal(weighted, dense[1].entropy)


def test_entropies_over_a_subset_of_answers_for_the_solver(random_case):
    index = load_word_index(random_case["words"])
    encoded = encode_words(index.words)
    matrix = feedback_matrix(encoded, encoded[index.answer_rows])
    rng = np.random.default_rng(3)
    candidates = np.sort(rng.choice(matrix.shape[1], 17, replace=False))
    weights = rng.random(17)
    sub = matrix[:, candidates]
    expected = [bits(*np.bincount(row, minlength=243)) for row in sub]
    np.testing.assert_allclose(entropies_from_matrix(matrix, columns=candidates), expected)
    expected_weighted = [bits(*np.bincount(row, weights, 243)) for row in sub]
    got = entropies_from_matrix(matrix, weights, candidates)
    np.testing.assert_allclose(got, expected_weighted, rtol=0, atol=1e-12)
    stats = bucket_statistics(matrix, weights, candidates)
    mass = [np.bincount(row, weights / weights.sum(), 243) for row in sub]
    sizes = [np.bincount(row, minlength=243) for row in sub]
    np.testing.assert_allclose(
        stats.expected_remaining,
        [(m * s).sum() for m, s in zip(mass, sizes, strict=True)],
        rtol=1e-12,
    )
    # Baselines agree with the kernels.
    np.testing.assert_allclose(entropy_answers_numpy(matrix), entropies_from_matrix(matrix))
    uniform, weighted = square_entropies_numpy(encoded, weights=np.ones(300), row_ids=[0, 5])
    full = entropies_from_matrix(feedback_matrix(encoded[[0, 5]], encoded))
    np.testing.assert_allclose(uniform, full)
    np.testing.assert_allclose(weighted, full)


def test_bad_pattern_rows_are_refused():
    matrix = np.array([[0, 1, 2]], dtype=np.uint8)
    with pytest.raises(PipelineError, match="outside 0..1"):
        bucket_statistics(matrix, n_bins=2)
    with pytest.raises(ValueError, match="unsigned"):
        bucket_statistics(matrix.astype(np.int16))
    with pytest.raises(ValueError, match="one entry per"):
        bucket_statistics(matrix, np.ones(2))
    with pytest.raises(ValueError, match="not all zero"):
        bucket_statistics(matrix, np.zeros(3))
    with pytest.raises(ValueError, match="column indices"):
        bucket_statistics(matrix, columns=np.array([3]))


def test_ranks_treat_near_equal_values_as_ties():
    values = np.array([1.0, 2.0, 2.0 + 1e-12, 2.0 - 1e-12, 3.0, 2.0 + 1e-6])
    assert rank_descending(values).tolist() == [6, 3, 4, 5, 1, 2]
    assert rank_descending(values, tolerance=0).tolist() == [6, 4, 3, 5, 1, 2]
    assert rank_descending(values).dtype == np.int32


# --- the real lists -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def real(mirror, tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("real")
    words = folder / "words.parquet"
    write_word_index(mirror / "allowed.txt", mirror / "answers.txt", words)
    write_commonness(
        words,
        mirror / "unigram_freq.csv",
        folder / "commonness.parquet",
        n_common=3000,
        width=10,
    )
    patterns = build_matrix(words, folder / "patterns", chunk_rows=2000, columns="answers")
    write_entropy(
        words,
        folder / "commonness.parquet",
        patterns,
        folder / "entropy.parquet",
        folder / "distribution.parquet",
    )
    return {
        "words": words,
        "patterns": patterns,
        "entropy": pq.read_table(folder / "entropy.parquet"),
        "distribution": pq.read_table(folder / "distribution.parquet"),
    }


KNOWN_ANSWER_ENTROPY = {
    "tarse": 5.9490,
    "tiare": 5.9300,
    "soare": 5.8852,
    "roate": 5.8849,
    "raise": 5.8783,
    "qajaq": 1.8902,
}


def test_real_known_values(real):
    table = real["entropy"]
    words = table["word"].to_pylist()
    row = {word: i for i, word in enumerate(words)}
    answers = table["entropy_answers"].to_numpy()
    for word, value in KNOWN_ANSWER_ENTROPY.items():
        assert round(float(answers[row[word]]), 4) == value, word
    ranks = table["rank_answers"].to_numpy()
    assert [words[i] for i in np.argsort(ranks)[:5]] == [
        "tarse",
        "tiare",
        "soare",
        "roate",
        "raise",
    ]
    assert table["entropy_allowed"][row["tares"]].as_py() == pytest.approx(6.159, abs=5e-4)


def test_real_tares_catches_the_transposed_matrix(real):
    """A published 6.211 for tares comes from reading its column, not its row."""
    index = load_word_index(real["words"])
    encoded = encode_words(index.words)
    tares = index.words.index("tares")
    row = feedback_matrix(encoded[[tares]], encoded)  # tares guessed against every word
    column = feedback_matrix(encoded, encoded[[tares]]).T  # every word guessed against tares
    ours = float(real["entropy"]["entropy_allowed"][tares].as_py())
    assert float(entropies_from_matrix(row)[0]) == ours
    assert float(entropies_from_matrix(column)[0]) == pytest.approx(6.211, abs=5e-4)
    assert ours == pytest.approx(6.159, abs=5e-4)


def test_real_against_baselines(real):
    table = real["entropy"]
    index = load_word_index(real["words"])
    n_answers = len(index.answer_rows)
    matrix = load_pattern_matrix(real["patterns"]).full()
    np.testing.assert_allclose(
        table["entropy_answers"].to_numpy(), entropy_answers_numpy(matrix), rtol=0, atol=1e-12
    )
    sample = np.linspace(0, len(index.words) - 1, 6).astype(int)
    encoded = encode_words(index.words)
    uniform, weighted = square_entropies_numpy(encoded, table["p_common"].to_numpy(), sample)
    np.testing.assert_allclose(table["entropy_allowed"].to_numpy()[sample], uniform, atol=1e-12)
    np.testing.assert_allclose(table["entropy_prior"].to_numpy()[sample], weighted, atol=1e-12)
    for g in sample:
        counts = np.bincount(matrix[g])
        counts = counts[counts > 0]
        assert table["buckets"][g].as_py() == counts.size
        assert table["largest_bucket"][g].as_py() == counts.max()
        assert table["expected_remaining"][g].as_py() == pytest.approx(
            (counts**2).sum() / n_answers, rel=1e-14
        )

    distribution = real["distribution"]
    assert distribution.num_rows == int(table["buckets"].to_numpy().sum())
    word_ids = distribution["word_id"].to_numpy()
    totals = np.bincount(word_ids, weights=distribution["count"].to_numpy())
    assert np.all(totals == n_answers)
    solved = distribution.filter(pc.equal(distribution["pattern"], "GGGGG"))
    assert solved["word_id"].to_numpy().tolist() == index.answer_rows.tolist()
    assert set(solved["count"].to_pylist()) == {1}
    keys = word_ids.astype(np.int64) * 243 + distribution["pattern_id"].to_numpy()
    assert np.all(np.diff(keys) > 0)  # sorted by word_id then pattern_id, no duplicates
