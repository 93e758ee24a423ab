"""Frequency counts: both layouts, input hygiene, and errors naming file and line."""

from __future__ import annotations

import pytest

from pipeline.errors import InputError, PipelineError
from pipeline.frequency import read_frequency_counts
from tests.conftest import write


def test_kaggle_layout(tmp_path):
    path = write(tmp_path / "unigram_freq.csv", "word,count\nthe,23135851162\ncigar,900\n")
    assert read_frequency_counts(path) == {"the": 23135851162, "cigar": 900}


def test_kaggle_layout_with_columns_swapped_and_header_case(tmp_path):
    path = write(tmp_path / "freq.csv", "Count,Word\n23135851162,the\n900,cigar\n")
    assert read_frequency_counts(path) == {"the": 23135851162, "cigar": 900}


def test_norvig_layout_tab_separated_without_header(tmp_path):
    path = write(tmp_path / "count_1w.txt", "the\t23135851162\nof\t13151942776\ncigar\t900")
    assert read_frequency_counts(path) == {"the": 23135851162, "of": 13151942776, "cigar": 900}


def test_crlf_bom_blank_lines_and_surrounding_spaces(tmp_path):
    path = write(
        tmp_path / "freq.csv",
        "\ufeffword,count\r\n\r\n the , 12 \r\n   \r\ncigar,900\r\n\r\n",
    )
    assert read_frequency_counts(path) == {"the": 12, "cigar": 900}


def test_norvig_with_crlf_and_bom(tmp_path):
    path = write(tmp_path / "count_1w.txt", "\ufeffthe\t12\r\n\r\ncigar\t900\r\n")
    assert read_frequency_counts(path) == {"the": 12, "cigar": 900}


def test_case_variants_are_summed(tmp_path):
    path = write(tmp_path / "freq.csv", "word,count\nmodel,120000\nModel,5000\nMODEL,7\nthe,1\n")
    assert read_frequency_counts(path) == {"model": 125007, "the": 1}
    norvig = write(tmp_path / "count_1w.txt", "Model\t5000\nmodel\t120000\n")
    assert read_frequency_counts(norvig) == {"model": 125000}


def test_zero_count_is_kept(tmp_path):
    path = write(tmp_path / "freq.csv", "word,count\nrare,0\n")
    assert read_frequency_counts(path) == {"rare": 0}


def test_fixture_mirror_counts(fixture_mirror):
    counts = read_frequency_counts(fixture_mirror / "unigram_freq.csv")
    assert counts["model"] == 125000
    assert counts["the"] == 23135851162
    assert "feign" not in counts
    assert len(counts) == 21


@pytest.mark.parametrize(
    ("content", "line", "fragment"),
    [
        ("word,count\n", 1, "has a header but no counts"),
        ("\n\nword,count\n\n  \n", 3, "has a header but no counts"),
        ("word,freq\nthe,1\n", 1, "header 'word,freq' lacks column(s) count"),
        ("token,count\nthe,1\n", 1, "header 'token,count' lacks column(s) word"),
        ("the,23135851162\nof,1\n", 1, "lacks column(s) word, count"),
        ("word,count\nthe,1\ncigar\n", 3, "row 'cigar' has 1 field(s), expected 2"),
        ("count,word\n1,the\n5\n", 3, "row '5' has 1 field(s), expected 2"),
        ("the\t1\ncigar 5\n", 2, "row 'cigar 5' has 1 field(s), expected 2"),
        ("word,count\nthe,1\ncigar,many\n", 3, "count 'many' is not a whole number"),
        ("word,count\nthe,1\n\ncigar,\n", 4, "count '' is not a whole number"),
        ("the\t1\ncigar\tlots\n", 2, "count 'lots' is not a whole number"),
        ("word,count\nthe,1\ncigar,-5\n", 3, "count -5 is negative"),
        ("the\t-1\n", 1, "count -1 is negative"),
        ("word,count\nthe,1\ncigar,2.5\n", 3, "count '2.5' is not a whole number"),
        ("word,count\ncigar,900.0\n", 2, "count '900.0' is not a whole number"),
        ("word,count\ncigar,1e3\n", 2, "count '1e3' is not a whole number"),
        ("word,count\nthe,1\n ,5\n", 3, "row has an empty word"),
        ("count,word\n1,the\n5,\n", 3, "row has an empty word"),
        ("word,count\nx," + "9" * 60 + "z\n", 2, "count '" + "9" * 40 + "...' is not"),
    ],
)
def test_malformed_rows_name_file_and_line(tmp_path, content, line, fragment):
    path = write(tmp_path / "freq.csv", content)
    with pytest.raises(InputError) as caught:
        read_frequency_counts(path)
    assert caught.value.path == str(path)
    assert caught.value.line == line
    assert fragment in caught.value.problem
    assert str(caught.value) == f"{path}, line {line}: {caught.value.problem}"


def test_crlf_does_not_shift_line_numbers(tmp_path):
    path = write(tmp_path / "freq.csv", "\ufeffword,count\r\nthe,1\r\n\r\ncigar,x\r\n")
    with pytest.raises(InputError) as caught:
        read_frequency_counts(path)
    assert caught.value.line == 4
    assert caught.value.problem == "count 'x' is not a whole number"


@pytest.mark.parametrize("content", ["", "\n\n  \n\t\n", "\ufeff", "\r\n\r\n"])
def test_empty_or_blank_file_is_an_error(tmp_path, content):
    path = write(tmp_path / "freq.csv", content)
    with pytest.raises(InputError) as caught:
        read_frequency_counts(path)
    assert caught.value.path == str(path)
    assert caught.value.line is None  # nothing to point at
    assert str(caught.value) == (
        f"{path}: is empty: expected `word,count` rows or `word<TAB>count` lines"
    )


def test_utf16_file_is_refused(tmp_path):
    path = write(tmp_path / "freq.csv", "word,count\nthe,1\n".encode("utf-16"))
    with pytest.raises(InputError) as caught:
        read_frequency_counts(path)
    assert caught.value.path == str(path)
    assert caught.value.line == 1
    assert str(caught.value) == (
        f"{path}, line 1: is UTF-16 encoded; save it as UTF-8 (or ASCII) text"
    )


def test_binary_file_is_refused_with_the_line_of_the_nul_byte(tmp_path):
    path = write(tmp_path / "freq.csv", b"word,count\nthe,1\nci\x00gar,5\n")
    with pytest.raises(InputError) as caught:
        read_frequency_counts(path)
    assert caught.value.path == str(path)
    assert caught.value.line == 3
    assert "contains a NUL byte: this is a binary file" in str(caught.value)


def test_non_utf8_file_names_the_line(tmp_path):
    path = write(tmp_path / "freq.csv", "word,count\nthe,1\ncaf\xe9,5\n".encode("latin-1"))
    with pytest.raises(InputError, match=r", line 3: is not UTF-8 text \(byte 0xe9\)"):
        read_frequency_counts(path)


def test_input_error_is_a_pipeline_error(tmp_path):
    path = write(tmp_path / "freq.csv", "word,count\n")
    with pytest.raises(PipelineError):
        read_frequency_counts(path)


def test_real_frequency_file(mirror):
    counts = read_frequency_counts(mirror / "unigram_freq.csv")
    assert counts["the"] == 23135851162
    assert counts["of"] == 13151942776
    assert len(counts) > 300_000
    assert all(word == word.lower() for word in counts)


def test_row_with_too_many_fields_is_an_error(tmp_path):
    path = write(tmp_path / "freq.csv", "word,count\nthe,5\nhello,1,000\n")
    with pytest.raises(InputError) as caught:
        read_frequency_counts(path)
    assert caught.value.line == 3


@pytest.mark.parametrize("count", ["1_000", "+5", "\uff15"])
def test_count_must_be_plain_ascii_digits(tmp_path, count):
    path = write(tmp_path / "freq.csv", f"word,count\nthe,{count}\n")
    with pytest.raises(InputError) as caught:
        read_frequency_counts(path)
    assert caught.value.line == 2


def test_norvig_empty_word_is_reported_as_empty_word(tmp_path):
    path = write(tmp_path / "count_1w.txt", "the\t5\n\t7\n")
    with pytest.raises(InputError) as caught:
        read_frequency_counts(path)
    assert caught.value.line == 2
    assert caught.value.problem == "row has an empty word"
