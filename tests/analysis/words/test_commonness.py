"""Commonness: the sigmoid over frequency ranks (pipeline.analysis.words.commonness) and its
sealed artifact (pipeline.artifacts.commonness), on a hand-checked case and the real data."""

from __future__ import annotations

import hashlib
import logging
import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.analysis.words.commonness import commonness_table, sigmoid_positions
from pipeline.analysis.words.frequency import parse_frequency_counts
from pipeline.analysis.words.word_lists import parse_word_list, word_index_table
from pipeline.artifacts import parquet
from pipeline.artifacts.commonness import SCHEMA, read_p_common, write_commonness
from pipeline.artifacts.parquet import read_provenance
from pipeline.artifacts.words import read_word_index, write_word_index
from pipeline.core.errors import ArtifactError, InputError

# Hand-checked case. Word index (sorted, so word_id order): bread, cider, drink, eagle, fruit.
# Counts after summing case variants: bread 30 + 20 = 50, cider absent -> 0, drink 300,
# eagle 50 (ties with bread), fruit 1000.
# N = 5, n_common = 2, width = 10: c = 10 * (-0.5 + 2/5) = -1, x evenly over
# [c - 5, c + 5] = [-6, 4] with step 2.5: -6, -3.5, -1, 1.5, 4, given in ascending
# (count, word) order: cider(0), bread(50), eagle(50; "bread" < "eagle"), drink(300), fruit(1000).
# So frequency_rank (1 = most common): fruit 1, drink 2, eagle 3, bread 4, cider 5.
# p = 1 / (1 + e^-x): p(4) = 0.98201379..., p(1.5) = 0.81757448..., p(-1) = 0.26894142...,
# p(-3.5) = 0.02931223..., p(-6) = 0.00247262...
HAND_WORDS = ["bread", "cider", "drink", "eagle", "fruit"]
HAND_FREQUENCY = (
    "word,count\nthe,23135851162\nfruit,1000\ndrink,300\nBread,30\neagle,50\nbread,20\n"
)
HAND_COUNTS = [50, 0, 300, 50, 1000]
HAND_X = [-3.5, -6.0, 1.5, -1.0, 4.0]
HAND_RANK = [4, 5, 2, 3, 1]
HAND_P = [0.02931223075135632, 0.0024726231566347743, 0.8175744761936437,
          0.2689414213699951, 0.9820137900379085]  # fmt: skip


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def word_index_file(folder: Path, allowed: bytes, answers: bytes) -> Path:
    """A sealed words.parquet built from two lists (written beside it)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"allowed": folder / "allowed.txt", "answers": folder / "answers.txt"}
    paths["allowed"].write_bytes(allowed)
    paths["answers"].write_bytes(answers)
    allowed_list = parse_word_list(allowed, str(paths["allowed"]))
    answer_list = parse_word_list(answers, str(paths["answers"]), length=allowed_list.length)
    words = folder / "words.parquet"
    write_word_index(word_index_table(allowed_list, answer_list), words, inputs=paths)
    return words


def build(words: Path, frequency: Path, output: Path, *, n_common: int, width: float) -> None:
    """Through the analysis and artifact layers, the way the stage composes them."""
    index = read_word_index(words)
    counts = parse_frequency_counts(frequency.read_bytes(), str(frequency))
    table = commonness_table(index.words, counts, n_common, width)
    write_commonness(
        table,
        output,
        inputs={"words": words, "frequency": frequency},
        settings={"n_common": n_common, "width": width},
    )


@pytest.fixture
def hand(tmp_path: Path) -> tuple[Path, Path]:
    words = word_index_file(tmp_path / "lists", b"fruit\ncider\nbread\neagle\ndrink\n", b"cider\n")
    frequency = tmp_path / "unigram_freq.csv"
    frequency.write_text(HAND_FREQUENCY)
    return words, frequency


def test_sigmoid_positions_by_hand():
    assert sigmoid_positions(5, 2, 10) == pytest.approx([-6, -3.5, -1, 1.5, 4], abs=1e-12)
    # n_common = N / 2 centres the range on 0
    assert sigmoid_positions(4, 2, 6) == pytest.approx([-3, -1, 1, 3], abs=1e-12)


def test_hand_checked_table():
    counts = parse_frequency_counts(HAND_FREQUENCY.encode(), "freq.csv")
    table = commonness_table(HAND_WORDS, counts, n_common=2, width=10)
    assert table["word_id"].to_pylist() == [0, 1, 2, 3, 4]
    assert table["word"].to_pylist() == HAND_WORDS
    assert table["count"].to_pylist() == HAND_COUNTS
    assert table["frequency_rank"].to_pylist() == HAND_RANK
    assert table["x"].to_pylist() == pytest.approx(HAND_X, abs=1e-12)
    assert table["p_common"].to_pylist() == pytest.approx(HAND_P, abs=1e-12)
    assert table["p_common"].to_pylist() == pytest.approx([sigmoid(x) for x in HAND_X], abs=1e-12)


def test_hand_checked_artifact(hand, tmp_path):
    words, frequency = hand
    output = tmp_path / "commonness.parquet"
    build(words, frequency, output, n_common=2, width=10)
    table = pq.read_table(output)
    assert table["word"].to_pylist() == HAND_WORDS
    assert table["count"].to_pylist() == HAND_COUNTS
    assert table["frequency_rank"].to_pylist() == HAND_RANK
    assert table["p_common"].to_pylist() == pytest.approx(HAND_P, abs=1e-12)
    index = read_word_index(words)
    p_common = read_p_common(output, index)
    assert p_common.dtype == np.float64
    assert p_common.tolist() == pytest.approx(HAND_P, abs=1e-12)


def test_most_common_word_sits_at_width_times_n_common_over_n():
    words = [f"w{i:04d}" for i in range(1000)]
    counts = {word: i for i, word in enumerate(words)}
    table = commonness_table(words, counts, n_common=300, width=10)
    x = table["x"].to_numpy()
    assert x[-1] == pytest.approx(10 * 300 / 1000, abs=1e-12)
    assert x[0] == pytest.approx(10 * 300 / 1000 - 10, abs=1e-12)
    ranks = table["frequency_rank"].to_numpy()
    assert ranks.tolist() == list(range(1000, 0, -1))
    # the n_common-th most common word lands next to x = 0
    assert abs(x[ranks == 300][0]) < 10 / 999


def test_ties_broken_by_word_and_absent_words_count_zero():
    # index order deliberately not alphabetical: ties are broken by word, not by position
    words = ["delta", "alpha", "charl", "bravo"]
    table = commonness_table(words, {"delta": 7, "alpha": 7, "bravo": 7}, n_common=1, width=3)
    rows = table.to_pylist()
    assert [row["count"] for row in rows] == [7, 7, 0, 7]
    # ascending (count, word): charl(0), alpha, bravo, delta -> ranks 4, 3, 2, 1
    assert [row["frequency_rank"] for row in rows] == [1, 3, 4, 2]
    # c = 3 * (-0.5 + 1/4) = -0.75, x over [-2.25, 0.75] step 1
    assert [row["x"] for row in rows] == pytest.approx([0.75, -1.25, -2.25, -0.25], abs=1e-12)
    assert [row["word_id"] for row in rows] == [0, 1, 2, 3]
    assert [row["word"] for row in rows] == words


def test_explicit_arrow_schema(hand, tmp_path):
    words, frequency = hand
    output = tmp_path / "commonness.parquet"
    build(words, frequency, output, n_common=2, width=10)
    schema = pq.read_schema(output)
    assert schema.names == ["word_id", "word", "count", "frequency_rank", "x", "p_common"]
    assert [field.type for field in schema] == [
        pa.int32(),
        pa.string(),
        pa.int64(),
        pa.int32(),
        pa.float64(),
        pa.float64(),
    ]
    assert all(not field.nullable for field in schema)
    assert pq.read_table(output).schema.remove_metadata().equals(SCHEMA.remove_metadata())


def test_provenance_records_input_hashes_and_settings(hand, tmp_path):
    words, frequency = hand
    output = tmp_path / "commonness.parquet"
    build(words, frequency, output, n_common=2, width=10)
    provenance = read_provenance(output)
    assert provenance["inputs_sha256"] == {
        "words": hashlib.sha256(words.read_bytes()).hexdigest(),
        "frequency": hashlib.sha256(frequency.read_bytes()).hexdigest(),
    }
    assert provenance["config"] == {"n_common": 2, "width": 10}
    assert str(tmp_path) not in str(pq.read_schema(output).metadata)


def test_provenance_changes_with_the_frequency_file(hand, tmp_path):
    words, frequency = hand
    build(words, frequency, tmp_path / "a.parquet", n_common=2, width=10)
    frequency.write_text(HAND_FREQUENCY + "cider,1\n")
    build(words, frequency, tmp_path / "b.parquet", n_common=2, width=10)
    a = read_provenance(tmp_path / "a.parquet")["inputs_sha256"]
    b = read_provenance(tmp_path / "b.parquet")["inputs_sha256"]
    assert a["words"] == b["words"]
    assert a["frequency"] != b["frequency"]
    assert pq.read_table(tmp_path / "b.parquet")["count"].to_pylist() == [50, 1, 300, 50, 1000]
    # the first file was built from the old frequency file: stale now
    with pytest.raises(ArtifactError, match="stale"):
        read_p_common(tmp_path / "a.parquet", read_word_index(words))


def test_same_inputs_same_bytes(hand, tmp_path):
    words, frequency = hand
    build(words, frequency, tmp_path / "a.parquet", n_common=2, width=10)
    build(words, frequency, tmp_path / "b.parquet", n_common=2, width=10)
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    build(words, frequency, tmp_path / "c.parquet", n_common=3, width=10)
    assert (tmp_path / "a.parquet").read_bytes() != (tmp_path / "c.parquet").read_bytes()


def test_n_common_above_word_count_warns(caplog):
    with caplog.at_level(logging.WARNING):
        table = commonness_table(["alpha", "bravo"], {"alpha": 1}, n_common=5, width=10)
    assert "n_common (5) exceeds the number of words (2)" in caplog.text
    assert np.all(table["p_common"].to_numpy() > 0.5)


# --- read_p_common checks the file against the word index -------------------------------


def test_read_p_common_refuses_another_word_list(hand, tmp_path):
    words, frequency = hand
    output = tmp_path / "commonness.parquet"
    build(words, frequency, output, n_common=2, width=10)
    other = read_word_index(word_index_file(tmp_path / "other", b"bread\ncider\n", b"cider\n"))
    with pytest.raises(ArtifactError) as caught:
        read_p_common(output, other)
    assert str(caught.value).startswith(f"{output}: does not list the word index's words")


@pytest.mark.parametrize(
    ("p_common", "fragment"), [([0.0] * 5, "not all zero"), ([0.5, -0.1, 0, 0, 0], ">= 0")]
)
def test_read_p_common_refuses_bad_values(hand, tmp_path, p_common, fragment):
    words, _ = hand
    table = pa.table(
        {
            "word_id": pa.array(range(5), pa.int32()),
            "word": HAND_WORDS,
            "count": pa.array([0] * 5, pa.int64()),
            "frequency_rank": pa.array(range(1, 6), pa.int32()),
            "x": [0.0] * 5,
            "p_common": p_common,
        }
    )
    output = tmp_path / "commonness.parquet"
    parquet.write_table(table, output, schema=SCHEMA, inputs={"words": words}, settings={})
    with pytest.raises(ArtifactError, match=fragment):
        read_p_common(output, read_word_index(words))


def test_bad_frequency_file_fails_and_writes_nothing(hand, tmp_path):
    words, frequency = hand
    frequency.write_text("word,count\nbread,lots\n")
    output = tmp_path / "out" / "commonness.parquet"
    with pytest.raises(InputError) as caught:
        build(words, frequency, output, n_common=2, width=10)
    assert caught.value.path == str(frequency)
    assert caught.value.line == 2
    assert not output.exists()


def test_fixture_mirror(fixture_mirror, tmp_path):
    words = word_index_file(
        tmp_path / "lists",
        (fixture_mirror / "allowed.txt").read_bytes(),
        (fixture_mirror / "answers.txt").read_bytes(),
    )
    output = tmp_path / "commonness.parquet"
    build(words, fixture_mirror / "unigram_freq.csv", output, n_common=5, width=10)
    table = pq.read_table(output)
    assert table.num_rows == 21
    by_word = {row["word"]: row for row in table.to_pylist()}
    assert by_word["model"]["count"] == 125000  # "model" + "Model"
    assert by_word["model"]["frequency_rank"] == 1
    assert by_word["feign"]["count"] == 0
    assert by_word["mamma"]["count"] == 0
    # two words without counts: ties by word put "feign" below "mamma"
    assert by_word["feign"]["frequency_rank"] == 21
    assert by_word["mamma"]["frequency_rank"] == 20
    p_common = read_p_common(output, read_word_index(words))
    assert int(np.argmax(p_common)) == by_word["model"]["word_id"]


def test_real_data(mirror, tmp_path):
    words = word_index_file(
        tmp_path / "lists",
        (mirror / "allowed.txt").read_bytes(),
        (mirror / "answers.txt").read_bytes(),
    )
    output = tmp_path / "commonness.parquet"
    build(words, mirror / "unigram_freq.csv", output, n_common=3000, width=10)
    table = pq.read_table(output)
    assert table.num_rows == 14855
    assert table["word_id"].to_pylist() == list(range(14855))
    ranks = table["frequency_rank"].to_numpy()
    assert sorted(ranks.tolist()) == list(range(1, 14856))
    p = dict(zip(table["word"].to_pylist(), table["p_common"].to_pylist(), strict=True))
    for word in ("about", "their", "which"):
        assert p[word] > 0.85, word
    # max x = width * n_common / N = 10 * 3000 / 14855 = 2.0195, p = 0.8829
    assert 0.87 < max(p.values()) < 0.89
    assert max(p.values()) == pytest.approx(sigmoid(10 * 3000 / 14855), abs=1e-12)
    rank_3000 = np.flatnonzero(ranks == 3000)
    assert rank_3000.size == 1
    assert abs(table["p_common"][int(rank_3000[0])].as_py() - 0.5) < 0.01
    assert p["qajaq"] < 0.01
    assert read_p_common(output, read_word_index(words)).shape == (14855,)
