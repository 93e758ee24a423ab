"""The word index: input hygiene, clear errors, ids, and the real lists."""

from __future__ import annotations

import logging

import polars as pl
import pyarrow.parquet as pq
import pytest

from pipeline.errors import InputError
from pipeline.parquet import read_provenance
from pipeline.words import (
    build_word_index,
    load_word_index,
    read_word_list,
    write_word_index,
)
from tests.conftest import write


def test_hygiene_bom_crlf_case_blank_lines_and_no_final_newline(tmp_path):
    path = write(tmp_path / "list.txt", "\ufeffCigar\r\n  rebut \r\n\r\n\nSISSY")
    words = read_word_list(path)
    assert words.words == ("cigar", "rebut", "sissy")
    assert words.lines == (1, 2, 5)
    assert words.length == 5


def test_duplicates_are_dropped_with_a_warning_naming_both_lines(tmp_path, caplog):
    path = write(tmp_path / "list.txt", "cigar\nrebut\nCIGAR\n")
    with caplog.at_level(logging.WARNING):
        words = read_word_list(path)
    assert words.words == ("cigar", "rebut")
    assert "line 3: duplicate word 'cigar' (first on line 1)" in caplog.text


@pytest.mark.parametrize(
    ("content", "line", "fragment"),
    [
        ("cigar\nrebut\nabc\n", 3, "word 'abc' has 3 letters; the word list's words have 5"),
        ("cigar\nreb1t\n", 2, "word 'reb1t' has characters outside a-z"),
        ("cigar\nre-bt\n", 2, "characters outside a-z"),
        ("cigar\ntwo w\n", 2, "characters outside a-z"),
        ("cigar\ncafé!\n", 2, "characters outside a-z"),
        ("cigar\nnaïve\n", 2, "characters outside a-z"),
        ("cigar\n" + "x" * 5000 + "\n", 2, "'xxxxxxxxxxxxxxxxxxxxxxxx...' has 5000 letters"),
    ],
)
def test_bad_words_name_file_line_and_word(tmp_path, content, line, fragment):
    path = write(tmp_path / "bad.txt", content)
    with pytest.raises(InputError) as caught:
        read_word_list(path)
    assert caught.value.path == str(path)
    assert caught.value.line == line
    assert fragment in str(caught.value)
    assert str(caught.value).startswith(f"{path}, line {line}: ")


@pytest.mark.parametrize("content", ["", "\n\n  \n", "\ufeff"])
def test_empty_list_is_an_error(tmp_path, content):
    path = write(tmp_path / "empty.txt", content)
    with pytest.raises(InputError, match="contains no words"):
        read_word_list(path)


def test_utf16_binary_and_latin1_files_are_refused_with_their_line(tmp_path):
    utf16 = write(tmp_path / "u16.txt", "cigar\nrebut\n".encode("utf-16"))
    with pytest.raises(InputError, match="UTF-16"):
        read_word_list(utf16)
    binary = write(tmp_path / "bin.txt", b"cigar\nreb\x00t\n")
    with pytest.raises(InputError, match="line 2: contains a NUL byte"):
        read_word_list(binary)
    latin1 = write(tmp_path / "latin1.txt", "cigar\nrebut\ncaf\xe9s\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"line 3: is not UTF-8 text \(byte 0xe9\)"):
        read_word_list(latin1)


def test_answers_must_share_the_allowed_length(tmp_path):
    allowed = write(tmp_path / "allowed.txt", "cigar\nrebut\n")
    answers = write(tmp_path / "answers.txt", "cigars\n")
    with pytest.raises(InputError) as caught:
        build_word_index(allowed, answers)
    assert caught.value.path == str(answers)
    assert caught.value.line == 1


def test_index_ids_and_missing_answers_added(tmp_path, caplog):
    allowed = write(tmp_path / "allowed.txt", "rebut\ncigar\nsissy\nhumph")
    answers = write(tmp_path / "answers.txt", "sissy\ncigar\nmamma\n")
    with caplog.at_level(logging.WARNING):
        write_word_index(allowed, answers, tmp_path / "words.parquet")
    assert "1 answers are not in" in caplog.text and "mamma" in caplog.text
    table = pl.read_parquet(tmp_path / "words.parquet")
    assert table.to_dicts() == [
        {"word_id": 0, "word": "cigar", "is_answer": True, "answer_id": 0},
        {"word_id": 1, "word": "humph", "is_answer": False, "answer_id": None},
        {"word_id": 2, "word": "mamma", "is_answer": True, "answer_id": 1},
        {"word_id": 3, "word": "rebut", "is_answer": False, "answer_id": None},
        {"word_id": 4, "word": "sissy", "is_answer": True, "answer_id": 2},
    ]
    schema = pq.read_schema(tmp_path / "words.parquet")
    assert [str(field.type) for field in schema] == ["int32", "string", "bool", "int32"]
    assert (
        pq.ParquetFile(tmp_path / "words.parquet").metadata.row_group(0).column(1).compression
        == "ZSTD"
    )
    provenance = read_provenance(tmp_path / "words.parquet")
    assert set(provenance["inputs_sha256"]) == {"allowed", "answers"}
    assert provenance["config"] == {"word_length": 5}
    index = load_word_index(tmp_path / "words.parquet")
    assert index.answers == ("cigar", "mamma", "sissy")
    assert index.length == 5


def test_same_inputs_same_bytes(tmp_path):
    allowed = write(tmp_path / "allowed.txt", "rebut\ncigar\nsissy\n")
    answers = write(tmp_path / "answers.txt", "sissy\n")
    write_word_index(allowed, answers, tmp_path / "a.parquet")
    write_word_index(allowed, answers, tmp_path / "b.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()


def test_word_length_comes_from_the_data(tmp_path):
    allowed = write(tmp_path / "allowed.txt", "planet\nrocket\ngalaxy\n")
    answers = write(tmp_path / "answers.txt", "rocket\n")
    index_path = tmp_path / "words.parquet"
    write_word_index(allowed, answers, index_path)
    assert load_word_index(index_path).length == 6


def test_failed_build_leaves_nothing_behind(tmp_path):
    allowed = write(tmp_path / "allowed.txt", "cigar\n")
    answers = write(tmp_path / "answers.txt", "ci9ar\n")
    with pytest.raises(InputError):
        write_word_index(allowed, answers, tmp_path / "out" / "words.parquet")
    assert not (tmp_path / "out" / "words.parquet").exists()
    assert list((tmp_path / "out").glob("*")) == [] if (tmp_path / "out").exists() else True


def test_real_lists(mirror, tmp_path):
    output = tmp_path / "words.parquet"
    write_word_index(mirror / "allowed.txt", mirror / "answers.txt", output)
    table = pl.read_parquet(output)
    assert table.height == 14855
    assert table["is_answer"].sum() == 2309
    assert table["answer_id"].drop_nulls().to_list() == list(range(2309))
    assert table["word"].is_sorted()
    index = load_word_index(output)
    assert set(index.answers) <= set(index.words)
    assert set(index.answers) == set((mirror / "answers.txt").read_text().split())
