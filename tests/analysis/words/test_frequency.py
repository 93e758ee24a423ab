"""Frequency counts (pipeline.analysis.words.frequency): both layouts, hygiene, errors naming
the file and line."""

from __future__ import annotations

import itertools
import logging

import pytest

from pipeline.analysis.words import line_blocks
from pipeline.analysis.words.frequency import parse_frequency_counts
from pipeline.analysis.words.line_blocks import MAX_LINE_BYTES
from pipeline.core.errors import InputError, PipelineError

NAME = "sources/unigram_freq.csv"  # the name errors show


def counts_of(data: str | bytes, name: str = NAME) -> dict[str, int]:
    return parse_frequency_counts(data.encode() if isinstance(data, str) else data, name)


def test_kaggle_layout():
    data = "word,count\nthe,23135851162\ncigar,900\n"
    assert counts_of(data) == {"the": 23135851162, "cigar": 900}


def test_kaggle_layout_with_columns_swapped_and_header_case():
    data = "Count,Word\n23135851162,the\n900,cigar\n"
    assert counts_of(data) == {"the": 23135851162, "cigar": 900}


def test_norvig_layout_tab_separated_without_header():
    data = "the\t23135851162\nof\t13151942776\ncigar\t900"
    assert counts_of(data) == {"the": 23135851162, "of": 13151942776, "cigar": 900}


def test_crlf_bom_blank_lines_and_surrounding_spaces():
    data = "\ufeffword,count\r\n\r\n the , 12 \r\n   \r\ncigar,900\r\n\r\n"
    assert counts_of(data) == {"the": 12, "cigar": 900}


def test_norvig_with_crlf_and_bom():
    data = "\ufeffthe\t12\r\n\r\ncigar\t900\r\n"
    assert counts_of(data) == {"the": 12, "cigar": 900}


def test_case_variants_are_summed():
    data = "word,count\nmodel,120000\nModel,5000\nMODEL,7\nthe,1\n"
    assert counts_of(data) == {"model": 125007, "the": 1}
    norvig = "Model\t5000\nmodel\t120000\n"
    assert counts_of(norvig) == {"model": 125000}


def test_zero_count_is_kept():
    data = "word,count\nrare,0\n"
    assert counts_of(data) == {"rare": 0}


def test_fixture_mirror_counts(fixture_mirror):
    counts = counts_of((fixture_mirror / "unigram_freq.csv").read_bytes())
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
def test_malformed_rows_name_file_and_line(content, line, fragment):
    with pytest.raises(InputError) as caught:
        counts_of(content)
    assert caught.value.path == NAME
    assert caught.value.line == line
    assert fragment in caught.value.problem
    assert str(caught.value) == f"{NAME}, line {line}: {caught.value.problem}"


def test_crlf_does_not_shift_line_numbers():
    data = "\ufeffword,count\r\nthe,1\r\n\r\ncigar,x\r\n"
    with pytest.raises(InputError) as caught:
        counts_of(data)
    assert caught.value.line == 4
    assert caught.value.problem == "count 'x' is not a whole number"


@pytest.mark.parametrize("content", ["", "\n\n  \n\t\n", "\ufeff", "\r\n\r\n"])
def test_empty_or_blank_file_is_an_error(content):
    with pytest.raises(InputError) as caught:
        counts_of(content)
    assert caught.value.path == NAME
    assert caught.value.line is None  # nothing to point at
    assert str(caught.value) == (
        f"{NAME}: is empty: expected `word,count` rows or `word<TAB>count` lines"
    )


def test_utf16_file_is_refused():
    data = "word,count\nthe,1\n".encode("utf-16")
    with pytest.raises(InputError) as caught:
        counts_of(data)
    assert caught.value.path == NAME
    assert caught.value.line == 1
    assert str(caught.value) == (
        f"{NAME}, line 1: is UTF-16 encoded; save it as UTF-8 (or ASCII) text"
    )


def test_binary_file_is_refused_with_the_line_of_the_nul_byte():
    data = b"word,count\nthe,1\nci\x00gar,5\n"
    with pytest.raises(InputError) as caught:
        counts_of(data)
    assert caught.value.path == NAME
    assert caught.value.line == 3
    assert "contains a NUL byte: this is a binary file" in str(caught.value)


def test_non_utf8_file_names_the_line():
    data = "word,count\nthe,1\ncaf\xe9,5\n".encode("latin-1")
    with pytest.raises(InputError, match=r", line 3: is not UTF-8 text \(byte 0xe9\)"):
        counts_of(data)


def test_input_error_is_a_pipeline_error():
    data = "word,count\n"
    with pytest.raises(PipelineError):
        counts_of(data)


def test_real_frequency_file(mirror):
    counts = counts_of((mirror / "unigram_freq.csv").read_bytes())
    assert counts["the"] == 23135851162
    assert counts["of"] == 13151942776
    assert counts["cigar"] == 3993843
    assert len(counts) == 333213  # one row per word after the header
    assert sum(counts.values()) == 588117981387
    assert "qajaq" not in counts
    assert all(word == word.lower() for word in counts)


def test_row_with_too_many_fields_is_an_error():
    data = "word,count\nthe,5\nhello,1,000\n"
    with pytest.raises(InputError) as caught:
        counts_of(data)
    assert caught.value.line == 3


@pytest.mark.parametrize("count", ["1_000", "+5", "\uff15"])
def test_count_must_be_plain_ascii_digits(count):
    data = f"word,count\nthe,{count}\n"
    with pytest.raises(InputError) as caught:
        counts_of(data)
    assert caught.value.line == 2


def test_norvig_empty_word_is_reported_as_empty_word():
    data = "the\t5\n\t7\n"
    with pytest.raises(InputError) as caught:
        counts_of(data)
    assert caught.value.line == 2
    assert caught.value.problem == "row has an empty word"


# --- counts that do not fit int64, summing, and reading in blocks ------------------------


@pytest.mark.parametrize(
    ("count", "problem"),
    [
        (
            "99999999999999999999",
            "count 99999999999999999999 is too large: counts must fit int64 "
            "(at most 9223372036854775807)",
        ),
        (
            "9223372036854775808",
            "count 9223372036854775808 is too large: counts must fit int64 "
            "(at most 9223372036854775807)",
        ),
        (
            "9" * 5000,
            "count " + "9" * 40 + "...(5000 digits) is too large: counts must fit int64 "
            "(at most 9223372036854775807)",
        ),
        ("-" + "9" * 5000, "count -" + "9" * 40 + "...(5000 digits) is negative"),
    ],
)
def test_counts_beyond_int64_are_located_errors(count, problem):
    with pytest.raises(InputError) as caught:
        counts_of(f"word,count\nthe,5\ncigar,{count}\n")
    assert str(caught.value) == f"{NAME}, line 3: {problem}"


def test_largest_int64_count_and_leading_zeros_are_fine():
    data = f"word,count\nthe,9223372036854775807\nof,{'0' * 5000}7\n"
    assert counts_of(data) == {"the": 2**63 - 1, "of": 7}


def test_sum_of_case_variants_beyond_int64_names_the_line_that_overflows():
    data = "word,count\nModel,6000000000000000000\nthe,1\nmodel,6000000000000000000\n"
    with pytest.raises(InputError) as caught:
        counts_of(data)
    assert str(caught.value) == (
        f"{NAME}, line 4: the counts of 'model' (first on line 2, case variants included) "
        "sum to 12000000000000000000, more than int64 holds (9223372036854775807)"
    )


def test_repeated_words_are_summed_with_one_warning_counting_them(caplog):
    data = "word,count\nmodel,10\nthe,1\nModel,5\ncigar,2\nMODEL,1\nthe,4\nof,3\n"
    with caplog.at_level(logging.WARNING, logger="pipeline.analysis.words.frequency"):
        counts = counts_of(data)
    assert counts == {"model": 16, "the": 5, "cigar": 2, "of": 3}
    assert [record.getMessage() for record in caplog.records] == [
        f"{NAME}: 2 words appear on more than one line (case variants included); their "
        "counts were summed: model (3 lines, first on line 2), the (2 lines, first on line 3)"
    ]


def test_only_the_words_asked_for_are_kept_and_warned_about(caplog):
    data = b"word,count\nthe,1\nThe,1\nModel,5\nmodel,7\nabc,2\n"
    with caplog.at_level(logging.WARNING, logger="pipeline.analysis.words.frequency"):
        counts = parse_frequency_counts(data, NAME, ["model", "cigar"])
    assert counts == {"model": 12}
    assert [record.getMessage() for record in caplog.records] == [
        f"{NAME}: 1 of the words looked up appears on more than one line (case variants "
        "included); their counts were summed: model (2 lines, first on line 4)"
    ]


def test_a_bad_row_of_a_word_not_asked_for_is_still_an_error():
    with pytest.raises(InputError, match=r"line 3: count '1.5' is not a whole number"):
        parse_frequency_counts(b"word,count\nmodel,5\nzzz,1.5\n", NAME, ["model"])


def test_checking_keeps_nothing_but_checks_every_row():
    assert parse_frequency_counts(b"word,count\nmodel,5\n", NAME, ()) == {}
    with pytest.raises(InputError, match=r"line 2: row has an empty word"):
        parse_frequency_counts(b"word,count\n,5\n", NAME, ())


def test_only_ascii_is_lowered_so_no_look_alike_joins_a_word():
    data = "word,count\nkebab,5\n\u212aebab,7\nKEBAB,1\n".encode()
    assert parse_frequency_counts(data, NAME, ["kebab"]) == {"kebab": 6}
    assert counts_of(data)["\u212aebab"] == 7


def test_a_line_without_end_is_refused_before_it_fills_memory():
    endless = (b"1" * 1000 for _ in range(MAX_LINE_BYTES // 1000 + 2))
    with pytest.raises(InputError) as caught:
        parse_frequency_counts(itertools.chain([b"word,count\nthe,"], endless), "big.csv")
    assert str(caught.value) == (
        "big.csv, line 2: line is longer than 1048576 bytes: not a `word,count` row"
    )


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64])
def test_blocks_split_anywhere_give_the_same_counts_and_lines(size):
    data = "\ufeffword,count\r\nThe,1\r\n\r\ncafé,2\r\nthe,4\r\nnaïve,3\r\n".encode()
    chunks = [data[i : i + size] for i in range(0, len(data), size)]
    assert parse_frequency_counts(chunks, "f.csv") == {"the": 5, "café": 2, "naïve": 3}
    bad = data + b"cigar,x\r\n"
    with pytest.raises(InputError, match=r"^f\.csv, line 7: count 'x' is not a whole number$"):
        parse_frequency_counts([bad[i : i + size] for i in range(0, len(bad), size)], "f.csv")


def test_errors_in_later_blocks_name_their_line(monkeypatch):
    monkeypatch.setattr(line_blocks, "BLOCK_BYTES", 64)
    rows = "".join(f"w{'abcdefghij'[i % 10]},{i}\n" for i in range(100))
    data = ("word,count\n" + rows + "cigar,-1\n").encode()
    with pytest.raises(InputError) as caught:
        parse_frequency_counts(data, "f.csv")
    assert (caught.value.line, caught.value.problem) == (102, "count -1 is negative")


def test_the_first_problem_in_the_file_is_reported():
    data = b"word,count\nModel,6000000000000000000\nmodel,6000000000000000000\nx,y\n"
    with pytest.raises(InputError) as caught:
        parse_frequency_counts(data, "f.csv", ["model"])
    assert caught.value.line == 3
