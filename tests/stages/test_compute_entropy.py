"""pipeline.stages.entropy.compute_entropy and its artifacts (pipeline.artifacts.entropy):
the hand-worked example, a random list against counting by hand, and the real lists."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from pipeline.artifacts import entropy as store
from pipeline.artifacts import parquet
from pipeline.artifacts.commonness import write_commonness
from pipeline.artifacts.patterns import read_pattern_matrix
from pipeline.artifacts.seal import read_seal
from pipeline.artifacts.words import read_word_index
from pipeline.core.errors import ArtifactError
from pipeline.core.wordle import encode_words, pattern_string
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.partition import float_stats
from pipeline.stages.compute_entropy import compute_entropy
from pipeline.stages.compute_square_entropy import compute_square_entropy
from tests.analysis.openers.test_entropy import HAND_ANSWERS, HAND_P, HAND_WORDS, hand_analysis
from tests.support.artifact_set import (
    EDITION,
    Settings,
    build_artifact_set,
    build_matrix,
    write_p_common,
)
from tests.support.fixtures import KNOWN_ANSWER_ENTROPY, distinct_random_words
from tests.support.naive import bincount_entropies, partition_stats, tie_rule_ranks
from tests.support.naive import feedback_matrix as rules_matrix


def run_stage(artifacts, folder: Path, *, threads: int = 1) -> dict:
    """compute_square_entropy and compute_entropy into `folder`; the output paths."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {"entropy": folder / "entropy.parquet", "distribution": folder / "distribution.parquet"}
    square_entropy = folder / "square_entropy.parquet"
    compute_square_entropy(
        allowed=artifacts.raw_file("allowed"),
        commonness=artifacts.commonness,
        square_entropy=square_entropy,
        threads=threads,
    )
    compute_entropy(
        words=artifacts.words,
        commonness=artifacts.commonness,
        patterns=artifacts.matrix("patterns"),
        square_entropy=square_entropy,
        threads=threads,
        **out,
    )
    return out


@pytest.fixture(scope="module")
def hand(tmp_path_factory):
    """The hand-worked example as artifacts: chosen p_common, chunks of 4 rows, both
    matrices stored."""
    artifacts = build_artifact_set(
        tmp_path_factory.mktemp("hand"),
        allowed=HAND_WORDS,
        answers=HAND_ANSWERS,
        counts={"bed": 1},  # p_common is chosen below
        settings=Settings(chunk_rows=4, square=True),
        until="patterns",
    )
    write_p_common(artifacts.words, artifacts.commonness, HAND_P)
    compute_square_entropy(
        allowed=artifacts.raw_file("allowed"),
        commonness=artifacts.commonness,
        square_entropy=artifacts.square_entropy,
        threads=1,
    )
    compute_entropy(
        words=artifacts.words,
        commonness=artifacts.commonness,
        patterns=artifacts.matrix("patterns"),
        square_entropy=artifacts.square_entropy,
        entropy=artifacts.entropy,
        distribution=artifacts.distribution,
        threads=1,
    )
    return artifacts


def test_the_stage_writes_what_the_analysis_computes(hand):
    expected = hand_analysis()
    index = read_word_index(hand.words)
    assert index.words == tuple(HAND_WORDS)
    assert np.array_equal(index.answer_rows, expected["index"].answer_rows)
    table = store.read_entropy(hand.entropy, index)
    assert table.equals(expected["table"].cast(store.ENTROPY_SCHEMA))
    distribution = store.read_distribution(hand.distribution)
    assert distribution.equals(expected["distribution"].cast(store.DISTRIBUTION_SCHEMA))


def test_hand_example_schemas_and_provenance(hand):
    table = pq.read_table(hand.entropy)
    assert table.schema.remove_metadata().equals(store.ENTROPY_SCHEMA.remove_metadata())
    provenance = parquet.read_provenance(hand.entropy)
    inputs = {"words", "commonness", "patterns", "square_entropy"}
    assert set(provenance["inputs_sha256"]) == inputs
    assert provenance["config"] == {"tie_tolerance": 1e-9}
    seal = read_seal(hand.entropy)
    assert set(seal.inputs) == inputs
    assert seal.inputs["patterns"]["path"] == "patterns/index.json"
    table = pq.read_table(hand.distribution)
    assert table.schema.remove_metadata().equals(store.DISTRIBUTION_SCHEMA.remove_metadata())
    provenance = parquet.read_provenance(hand.distribution)
    assert set(provenance["inputs_sha256"]) == {"words", "patterns"}
    assert provenance["config"] == {}
    # every column is described in the file, as docs/data-dictionary.md promises
    schema = pq.read_schema(hand.entropy)
    assert all(schema.field(name).metadata[b"description"] for name in schema.names)


def test_the_square_entropy_of_another_list_is_refused(hand, tmp_path):
    """The prior and allowed columns come from the square pass of the edition's own allowed
    list: one of another list is never joined, and nothing is written."""
    other = build_artifact_set(
        tmp_path / "other", allowed=HAND_WORDS[:-1], answers=HAND_ANSWERS, until="entropy"
    )
    out = {"entropy": tmp_path / "e.parquet", "distribution": tmp_path / "d.parquet"}
    with pytest.raises(ArtifactError, match="does not list the word index's words in order"):
        compute_entropy(
            words=hand.words,
            commonness=hand.commonness,
            patterns=hand.matrix("patterns"),
            square_entropy=other.square_entropy,
            threads=1,
            **out,
        )
    assert not out["entropy"].exists() and not out["distribution"].exists()


def test_a_matrix_in_the_wrong_place_is_refused(hand, tmp_path):
    out = {"entropy": tmp_path / "e.parquet", "distribution": tmp_path / "d.parquet"}
    common = {"words": hand.words, "commonness": hand.commonness, "threads": 1}
    with pytest.raises(ArtifactError, match="expected 6 x 4 with answers columns"):
        compute_entropy(
            patterns=hand.matrix("patterns_square"),
            square_entropy=hand.square_entropy,
            **common,
            **out,
        )
    assert not out["entropy"].exists() and not out["distribution"].exists()


def test_commonness_of_other_words_is_refused(hand, tmp_path):
    """A commonness table that lists the words in another order is never joined."""
    table = pq.read_table(hand.commonness)
    words = table["word"].to_pylist()
    words[0], words[1] = words[1], words[0]
    other = tmp_path / "commonness.parquet"
    write_commonness(
        table.set_column(1, "word", pa.array(words, pa.string())),
        other,
        inputs={"words": hand.words},
        settings={},
    )
    out = {"entropy": tmp_path / "e.parquet", "distribution": tmp_path / "d.parquet"}
    with pytest.raises(ArtifactError, match="does not list the word index's words in order"):
        compute_entropy(
            words=hand.words,
            commonness=other,
            patterns=hand.matrix("patterns"),
            square_entropy=hand.square_entropy,
            threads=1,
            **out,
        )
    assert not out["entropy"].exists()


def test_a_damaged_chunk_is_named(hand, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(hand.root, folder)
    chunk = folder / "data" / "derived" / EDITION / "patterns" / "chunk-0001.npy.zst"
    data = bytearray(chunk.read_bytes())
    data[len(data) // 2] ^= 1
    chunk.write_bytes(bytes(data))
    out = {"entropy": tmp_path / "e.parquet", "distribution": tmp_path / "d.parquet"}
    derived = folder / "data" / "derived" / EDITION
    with pytest.raises(ArtifactError, match="chunk-0001.npy.zst: chunk 1 is altered"):
        compute_entropy(
            words=derived / "words.parquet",
            commonness=folder / hand.commonness.relative_to(hand.root),
            patterns=[derived / "patterns" / "index.json"],
            square_entropy=folder / hand.square_entropy.relative_to(hand.root),
            threads=1,
            **out,
        )


# --- a random list against counting by hand ------------------------------------------------


@pytest.fixture(scope="module")
def random_case(tmp_path_factory):
    rng = np.random.default_rng(20240607)
    allowed = distinct_random_words(rng, 300)
    answers = sorted(rng.choice(allowed, 60, replace=False).tolist())
    counts = dict(zip(allowed, rng.integers(0, 10**6, len(allowed)).tolist(), strict=True))
    return build_artifact_set(
        tmp_path_factory.mktemp("random"),
        allowed=allowed,
        answers=answers,
        counts=counts,
        settings=Settings(n_common=100, chunk_rows=64, square=True),
        until="entropy",
    )


def test_random_list_matches_counting_by_hand(random_case):
    index = read_word_index(random_case.words)
    words = list(index.words)
    square = rules_matrix(words, words)  # [guess, word] by the rules as written
    answers = square[:, index.answer_rows]
    table = pq.read_table(random_case.entropy)
    p = table["p_common"].to_numpy()
    reference: dict[str, list] = {k: [] for k in ("answers", "prior", "allowed", "buckets")}
    reference.update(largest=[], expected=[], distribution=[])
    for g in range(len(words)):
        stats = partition_stats(answers[g].tolist())
        reference["answers"].append(stats["entropy"])
        reference["buckets"].append(stats["buckets"])
        reference["largest"].append(stats["largest"])
        reference["expected"].append(stats["expected"])
        ids, counts = np.unique(answers[g], return_counts=True)
        reference["distribution"] += [
            (g, i, c) for i, c in zip(ids.tolist(), counts.tolist(), strict=True)
        ]
        weighted = partition_stats(square[g].tolist(), p.tolist())
        reference["prior"].append(weighted["entropy"])
        reference["allowed"].append(weighted["uniform"])
    for column, key in (
        ("entropy_answers", "answers"),
        ("entropy_prior", "prior"),
        ("entropy_allowed", "allowed"),
    ):
        values = table[column].to_numpy()
        np.testing.assert_allclose(values, reference[key], rtol=0, atol=1e-12, err_msg=column)
        assert table[column.replace("entropy", "rank")].to_pylist() == tie_rule_ranks(
            values.tolist()
        )
    assert table["buckets"].to_pylist() == reference["buckets"]
    assert table["largest_bucket"].to_pylist() == reference["largest"]
    np.testing.assert_allclose(table["expected_remaining"].to_numpy(), reference["expected"], 1e-14)
    # The list is random enough that the measures disagree on the order.
    assert table["rank_answers"].to_pylist() != table["rank_allowed"].to_pylist()
    assert table["rank_prior"].to_pylist() != table["rank_allowed"].to_pylist()

    distribution = pq.read_table(random_case.distribution)
    rows = list(
        zip(
            distribution["word_id"].to_pylist(),
            distribution["pattern_id"].to_pylist(),
            distribution["count"].to_pylist(),
            strict=True,
        )
    )
    assert rows == reference["distribution"]
    assert distribution["word"].to_pylist() == [words[g] for g, _, _ in rows]
    assert distribution["pattern"].to_pylist() == [pattern_string(p, 5) for _, p, _ in rows]
    np.testing.assert_array_equal(
        distribution["probability"].to_numpy(), distribution["count"].to_numpy() / 60
    )


def test_square_matrix_threads_and_chunking_change_nothing(random_case, tmp_path):
    """1 or 2 threads, 64 or 7 rows per chunk: the same tables; with the same inputs, the
    same bytes."""
    index = read_word_index(random_case.words)
    reference = store.read_entropy(random_case.entropy, index)
    one = run_stage(random_case, tmp_path / "one", threads=1)
    two = run_stage(random_case, tmp_path / "two", threads=2)
    for name in ("entropy", "distribution"):
        assert one[name].read_bytes() == two[name].read_bytes()
    assert store.read_entropy(one["entropy"], index).equals(reference)
    assert one["distribution"].read_bytes() == random_case.distribution.read_bytes()
    # another chunking of the answer matrix: other chunk files, the same numbers
    derived = tmp_path / "rechunked"
    shutil.copytree(random_case.derived, derived, ignore=shutil.ignore_patterns("patterns*"))
    build_matrix(derived / "words.parquet", derived, "patterns", chunk_rows=7)
    out = {"entropy": derived / "e.parquet", "distribution": derived / "d.parquet"}
    compute_entropy(
        words=derived / "words.parquet",
        commonness=random_case.commonness,
        patterns=[derived / "patterns" / "index.json"],
        square_entropy=random_case.square_entropy,
        threads=2,
        **out,
    )
    assert store.read_entropy(out["entropy"], index).equals(reference)
    assert store.read_distribution(out["distribution"]).equals(
        store.read_distribution(random_case.distribution)
    )


# --- the real lists -------------------------------------------------------------------------


@pytest.mark.mirror
def test_real_known_values(real_set):
    table = pq.read_table(real_set.entropy)
    words = table["word"].to_pylist()
    assert len(words) == 14855
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


@pytest.mark.mirror
def test_real_tares_catches_the_transposed_matrix(real_set):
    """A published 6.211 for tares comes from reading its column, not its row."""
    index = read_word_index(real_set.words)
    encoded = encode_words(index.words)
    tares = index.words.index("tares")
    row = feedback_matrix(encoded[[tares]], encoded)  # tares guessed against every word
    column = feedback_matrix(encoded, encoded[[tares]]).T  # every word guessed against tares
    ours = pq.read_table(real_set.entropy)["entropy_allowed"][tares].as_py()
    assert float(float_stats(row).entropy[0]) == ours
    assert float(float_stats(column).entropy[0]) == pytest.approx(6.211, abs=5e-4)
    assert ours == pytest.approx(6.159, abs=5e-4)


@pytest.mark.mirror
def test_real_against_counting(real_set):
    table = pq.read_table(real_set.entropy)
    index = read_word_index(real_set.words)
    n_answers = len(index.answer_rows)
    matrix = read_pattern_matrix(real_set.matrix(), index, real_set.words, columns="answers").full()
    np.testing.assert_allclose(
        table["entropy_answers"].to_numpy(), bincount_entropies(matrix), rtol=0, atol=1e-12
    )
    p = table["p_common"].to_numpy()
    words = list(index.words)
    for g in np.linspace(0, len(words) - 1, 4).astype(int):
        replies = rules_matrix([words[g]], words)[0].tolist()  # by the rules, every word
        stats = partition_stats(replies, p.tolist())
        assert table["entropy_allowed"][g].as_py() == pytest.approx(stats["uniform"], abs=1e-12)
        assert table["entropy_prior"][g].as_py() == pytest.approx(stats["entropy"], abs=1e-12)
        counts = np.bincount(matrix[g])
        counts = counts[counts > 0]
        assert table["buckets"][g].as_py() == counts.size
        assert table["largest_bucket"][g].as_py() == counts.max()
        assert table["expected_remaining"][g].as_py() == pytest.approx(
            (counts**2).sum() / n_answers, rel=1e-14
        )
    assert table["rank_prior"].to_numpy().min() == 1

    distribution = pq.read_table(real_set.distribution)
    assert distribution.num_rows == int(table["buckets"].to_numpy().sum())
    word_ids = distribution["word_id"].to_numpy()
    totals = np.bincount(word_ids, weights=distribution["count"].to_numpy())
    assert np.all(totals == n_answers)
    solved = distribution.filter(pc.equal(distribution["pattern"], "GGGGG"))
    assert solved["word_id"].to_numpy().tolist() == index.answer_rows.tolist()
    assert set(solved["count"].to_pylist()) == {1}
    keys = word_ids.astype(np.int64) * 243 + distribution["pattern_id"].to_numpy()
    assert np.all(np.diff(keys) > 0)  # sorted by word_id then pattern_id, no duplicates
