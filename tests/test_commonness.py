"""Commonness: the sigmoid over frequency ranks, on a hand-checked case and the real data."""

from __future__ import annotations

import hashlib
import logging
import math
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.commonness import (
    COMMONNESS_SCHEMA,
    commonness_table,
    sigmoid_positions,
    write_commonness,
)
from pipeline.errors import InputError
from pipeline.parquet import read_provenance
from pipeline.words import write_word_index

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


@pytest.fixture
def hand_inputs(tmp_path: Path) -> tuple[Path, Path]:
    allowed = tmp_path / "allowed.txt"
    allowed.write_text("fruit\ncider\nbread\neagle\ndrink\n")
    answers = tmp_path / "answers.txt"
    answers.write_text("cider\n")
    words = tmp_path / "words.parquet"
    write_word_index(allowed, answers, words)
    frequency = tmp_path / "unigram_freq.csv"
    frequency.write_text(HAND_FREQUENCY)
    return words, frequency


def test_sigmoid_positions_by_hand():
    assert sigmoid_positions(5, 2, 10) == pytest.approx([-6, -3.5, -1, 1.5, 4], abs=1e-12)
    # n_common = N / 2 centres the range on 0
    assert sigmoid_positions(4, 2, 6) == pytest.approx([-3, -1, 1, 3], abs=1e-12)


def test_hand_checked_case(hand_inputs, tmp_path):
    words, frequency = hand_inputs
    output = tmp_path / "commonness.parquet"
    write_commonness(words, frequency, output, n_common=2, width=10)
    table = pl.read_parquet(output)
    assert table["word_id"].to_list() == [0, 1, 2, 3, 4]
    assert table["word"].to_list() == HAND_WORDS
    assert table["count"].to_list() == HAND_COUNTS
    assert table["frequency_rank"].to_list() == HAND_RANK
    assert table["x"].to_list() == pytest.approx(HAND_X, abs=1e-12)
    assert table["p_common"].to_list() == pytest.approx(HAND_P, abs=1e-12)
    assert table["p_common"].to_list() == pytest.approx([sigmoid(x) for x in HAND_X], abs=1e-12)


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


def test_explicit_arrow_schema(hand_inputs, tmp_path):
    words, frequency = hand_inputs
    output = tmp_path / "commonness.parquet"
    write_commonness(words, frequency, output, n_common=2, width=10)
    schema = pq.read_schema(output)
    assert [field.name for field in schema] == [
        "word_id",
        "word",
        "count",
        "frequency_rank",
        "x",
        "p_common",
    ]
    assert [field.type for field in schema] == [
        pa.int32(),
        pa.string(),
        pa.int64(),
        pa.int32(),
        pa.float64(),
        pa.float64(),
    ]
    assert all(not field.nullable for field in schema)
    assert pq.read_table(output).schema.remove_metadata().equals(COMMONNESS_SCHEMA)


def test_provenance_records_input_hashes_and_config(hand_inputs, tmp_path):
    words, frequency = hand_inputs
    output = tmp_path / "commonness.parquet"
    write_commonness(words, frequency, output, n_common=2, width=10)
    provenance = read_provenance(output)
    assert provenance["inputs_sha256"] == {
        "words": hashlib.sha256(words.read_bytes()).hexdigest(),
        "frequency": hashlib.sha256(frequency.read_bytes()).hexdigest(),
    }
    assert provenance["config"] == {"n_common": 2, "width": 10}
    assert str(tmp_path) not in str(pq.read_schema(output).metadata)


def test_provenance_changes_with_the_frequency_file(hand_inputs, tmp_path):
    words, frequency = hand_inputs
    write_commonness(words, frequency, tmp_path / "a.parquet", n_common=2, width=10)
    frequency.write_text(HAND_FREQUENCY + "cider,1\n")
    write_commonness(words, frequency, tmp_path / "b.parquet", n_common=2, width=10)
    a = read_provenance(tmp_path / "a.parquet")["inputs_sha256"]
    b = read_provenance(tmp_path / "b.parquet")["inputs_sha256"]
    assert a["words"] == b["words"]
    assert a["frequency"] != b["frequency"]
    assert pl.read_parquet(tmp_path / "b.parquet")["count"].to_list() == [50, 1, 300, 50, 1000]


def test_same_inputs_same_bytes(hand_inputs, tmp_path):
    words, frequency = hand_inputs
    write_commonness(words, frequency, tmp_path / "a.parquet", n_common=2, width=10)
    write_commonness(words, frequency, tmp_path / "b.parquet", n_common=2, width=10)
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()
    write_commonness(words, frequency, tmp_path / "c.parquet", n_common=3, width=10)
    assert (tmp_path / "a.parquet").read_bytes() != (tmp_path / "c.parquet").read_bytes()


def test_n_common_above_word_count_warns(caplog):
    with caplog.at_level(logging.WARNING):
        table = commonness_table(["alpha", "bravo"], {"alpha": 1}, n_common=5, width=10)
    assert "n_common (5) exceeds the number of words (2)" in caplog.text
    assert np.all(table["p_common"].to_numpy() > 0.5)


def test_bad_frequency_file_fails_and_writes_nothing(hand_inputs, tmp_path):
    words, frequency = hand_inputs
    frequency.write_text("word,count\nbread,lots\n")
    output = tmp_path / "out" / "commonness.parquet"
    with pytest.raises(InputError) as caught:
        write_commonness(words, frequency, output, n_common=2, width=10)
    assert caught.value.path == str(frequency)
    assert caught.value.line == 2
    assert not output.exists()


def test_fixture_mirror(fixture_mirror, tmp_path):
    words = tmp_path / "words.parquet"
    write_word_index(fixture_mirror / "allowed.txt", fixture_mirror / "answers.txt", words)
    output = tmp_path / "commonness.parquet"
    write_commonness(words, fixture_mirror / "unigram_freq.csv", output, n_common=5, width=10)
    table = pl.read_parquet(output)
    assert table.height == 21
    by_word = {row["word"]: row for row in table.to_dicts()}
    assert by_word["model"]["count"] == 125000  # "model" + "Model"
    assert by_word["model"]["frequency_rank"] == 1
    assert by_word["feign"]["count"] == 0
    assert by_word["mamma"]["count"] == 0
    # two words without counts: ties by word put "feign" below "mamma"
    assert by_word["feign"]["frequency_rank"] == 21
    assert by_word["mamma"]["frequency_rank"] == 20
    assert table["p_common"].arg_max() == by_word["model"]["word_id"]


def test_real_data(mirror, tmp_path):
    words = tmp_path / "words.parquet"
    write_word_index(mirror / "allowed.txt", mirror / "answers.txt", words)
    output = tmp_path / "commonness.parquet"
    write_commonness(words, mirror / "unigram_freq.csv", output, n_common=3000, width=10)
    table = pl.read_parquet(output)
    assert table.height == 14855
    assert table["word_id"].to_list() == list(range(14855))
    assert sorted(table["frequency_rank"].to_list()) == list(range(1, 14856))
    p = dict(zip(table["word"].to_list(), table["p_common"].to_list(), strict=True))
    for word in ("about", "their", "which"):
        assert p[word] > 0.85, word
    # max x = width * n_common / N = 10 * 3000 / 14855 = 2.0195, p = 0.8829
    assert 0.87 < table["p_common"].max() < 0.89
    rank_3000 = table.filter(pl.col("frequency_rank") == 3000)
    assert rank_3000.height == 1
    assert abs(rank_3000["p_common"][0] - 0.5) < 0.01
    assert p["qajaq"] < 0.01
