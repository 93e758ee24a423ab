"""words.parquet (pipeline.artifacts.words): the sealed word index, written and checked."""

from __future__ import annotations

import hashlib

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.analysis.words.word_lists import parse_word_list, word_index_table
from pipeline.artifacts import parquet, seal
from pipeline.artifacts.parquet import read_provenance
from pipeline.artifacts.words import SCHEMA, read_word_index, write_word_index
from pipeline.core.errors import ArtifactError


def lists(tmp_path, allowed: str, answers: str):
    """The two list files and the index table built from them."""
    paths = {"allowed": tmp_path / "allowed.txt", "answers": tmp_path / "answers.txt"}
    paths["allowed"].write_text(allowed)
    paths["answers"].write_text(answers)
    allowed_list = parse_word_list(paths["allowed"].read_bytes(), str(paths["allowed"]))
    answer_list = parse_word_list(
        paths["answers"].read_bytes(), str(paths["answers"]), length=allowed_list.length
    )
    return word_index_table(allowed_list, answer_list), paths


def write_unchecked(path, words: list[str], is_answer: list[bool], word_ids=None):
    """A sealed words.parquet holding whatever it is given, bypassing the index builder."""
    answer_ids = np.cumsum(is_answer) - 1
    table = pa.table(
        {
            "word_id": pa.array(range(len(words)) if word_ids is None else word_ids, pa.int32()),
            "word": pa.array(words, pa.string()),
            "is_answer": pa.array(is_answer, pa.bool_()),
            "answer_id": pa.array(
                [int(a) if ok else None for a, ok in zip(answer_ids, is_answer, strict=True)],
                pa.int32(),
            ),
        }
    )
    parquet.write_table(table, path, schema=SCHEMA, inputs={}, settings={})
    return path


def test_write_and_read(tmp_path):
    table, inputs = lists(tmp_path, "rebut\ncigar\nmamma\nsissy\nhumph", "sissy\ncigar\nmamma\n")
    path = tmp_path / "words.parquet"
    write_word_index(table, path, inputs=inputs)
    assert pq.read_table(path).to_pylist() == [
        {"word_id": 0, "word": "cigar", "is_answer": True, "answer_id": 0},
        {"word_id": 1, "word": "humph", "is_answer": False, "answer_id": None},
        {"word_id": 2, "word": "mamma", "is_answer": True, "answer_id": 1},
        {"word_id": 3, "word": "rebut", "is_answer": False, "answer_id": None},
        {"word_id": 4, "word": "sissy", "is_answer": True, "answer_id": 2},
    ]
    schema = pq.read_schema(path)
    assert [str(field.type) for field in schema] == ["int32", "string", "bool", "int32"]
    assert pq.ParquetFile(path).metadata.row_group(0).column(1).compression == "ZSTD"
    provenance = read_provenance(path)
    assert provenance["inputs_sha256"] == {
        role: hashlib.sha256(p.read_bytes()).hexdigest() for role, p in inputs.items()
    }
    assert provenance["config"] == {"word_length": 5}
    index = read_word_index(path)
    assert index.words == ("cigar", "humph", "mamma", "rebut", "sissy")
    assert index.answers == ("cigar", "mamma", "sissy")
    assert index.answer_rows.tolist() == [0, 2, 4]
    assert index.is_answer.tolist() == [True, False, True, False, True]
    assert index.length == 5
    assert index.word_id("mamma") == 2
    assert index.word_id("zzzzz") is None
    assert index.encoded[0].tolist() == [2, 8, 6, 0, 17]  # cigar
    assert index.column_rows("guesses").tolist() == [0, 1, 2, 3, 4]
    assert index.column_rows("answers").tolist() == [0, 2, 4]
    with pytest.raises(ValueError, match="'answers' or 'guesses'"):
        index.column_rows("rows")


def test_same_inputs_same_bytes(tmp_path):
    table, inputs = lists(tmp_path, "rebut\ncigar\nsissy\n", "sissy\n")
    write_word_index(table, tmp_path / "a.parquet", inputs=inputs)
    write_word_index(table, tmp_path / "b.parquet", inputs=inputs)
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()


def test_six_letter_index(tmp_path):
    table, inputs = lists(tmp_path, "planet\nrocket\ngalaxy\n", "rocket\n")
    write_word_index(table, tmp_path / "words.parquet", inputs=inputs)
    index = read_word_index(tmp_path / "words.parquet")
    assert index.length == 6
    assert read_provenance(tmp_path / "words.parquet")["config"] == {"word_length": 6}


def test_stale_when_a_list_changes(tmp_path):
    table, inputs = lists(tmp_path, "rebut\ncigar\n", "cigar\n")
    path = tmp_path / "words.parquet"
    write_word_index(table, path, inputs=inputs)
    inputs["answers"].write_text("rebut\n")
    with pytest.raises(ArtifactError, match="stale"):
        read_word_index(path)


def test_unsealed_index_is_refused(tmp_path):
    table, inputs = lists(tmp_path, "rebut\ncigar\n", "cigar\n")
    path = tmp_path / "words.parquet"
    pq.write_table(table, path)
    with pytest.raises(ArtifactError, match="has no seal"):
        read_word_index(path)


@pytest.mark.parametrize(
    ("words", "is_answer", "word_ids", "fragment"),
    [
        (["abcde", "abcdef", "bcdef"], [True, False, True], None, "not all of one length"),
        (["abcde", "bcdef", "cdefg"], [False] * 3, None, "has no answers"),
        (["bcdef", "abcde"], [True, True], None, "not sorted and unique"),
        (["abcde", "abcde"], [True, True], None, "not sorted and unique"),
        (["ABCDE", "abcde"], [True, True], None, "outside a-z"),
        (["ab1de", "abcde"], [True, True], None, "outside a-z"),
        (["abcdefghijk"], [True], None, "between 1 and 10"),
        (["abcde", "bcdef"], [True, True], [0, 2], "word_id is not 0, 1, 2"),
        ([], [], None, "holds no words"),
    ],
)
def test_bad_index_is_refused_naming_the_file(tmp_path, words, is_answer, word_ids, fragment):
    path = write_unchecked(tmp_path / "words.parquet", words, is_answer, word_ids)
    with pytest.raises(ArtifactError) as caught:
        read_word_index(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert fragment in str(caught.value)
    assert str(caught.value).endswith(seal.REBUILD_HINT)


def test_answer_ids_out_of_order_are_refused(tmp_path):
    table = pa.table(
        {
            "word_id": pa.array([0, 1], pa.int32()),
            "word": ["abcde", "bcdef"],
            "is_answer": [True, True],
            "answer_id": pa.array([1, 0], pa.int32()),
        }
    )
    path = tmp_path / "words.parquet"
    parquet.write_table(table, path, schema=SCHEMA, inputs={}, settings={})
    with pytest.raises(ArtifactError, match="answer_id is not 0, 1, 2"):
        read_word_index(path)


def test_real_lists(mirror, tmp_path):
    allowed = parse_word_list((mirror / "allowed.txt").read_bytes(), "allowed.txt")
    answers = parse_word_list((mirror / "answers.txt").read_bytes(), "answers.txt", length=5)
    path = tmp_path / "words.parquet"
    inputs = {"allowed": mirror / "allowed.txt", "answers": mirror / "answers.txt"}
    write_word_index(word_index_table(allowed, answers), path, inputs=inputs)
    assert pq.ParquetFile(path).metadata.num_rows == 14855
    index = read_word_index(path)
    assert len(index.words) == 14855
    assert len(index.answers) == 2309
    assert set(index.answers) <= set(index.words)
    assert set(index.answers) == set((mirror / "answers.txt").read_text().split())
    assert index.encoded.shape == (14855, 5)
    assert index.word_id("cigar") == index.words.index("cigar")
