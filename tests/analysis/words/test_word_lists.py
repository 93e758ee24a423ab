"""Word lists (pipeline.analysis.words.word_lists): input hygiene, clear errors, the merged
index."""

from __future__ import annotations

import hashlib
import logging

import pytest

from pipeline.analysis.words.word_lists import parse_word_list, word_index_table
from pipeline.core.errors import InputError, PipelineError

NAME = "lists/allowed.txt"  # the name errors show: the user's file, not where bytes came from


def parse(data: str | bytes, name: str = NAME, **kwargs):
    return parse_word_list(data.encode() if isinstance(data, str) else data, name, **kwargs)


def test_hygiene_bom_crlf_case_blank_lines_and_no_final_newline():
    words = parse("\ufeffCigar\r\n  rebut \r\n\r\n\nSISSY")
    assert words.words == ("cigar", "rebut", "sissy")
    assert words.lines == (1, 2, 5)
    assert words.length == 5
    assert words.path == NAME


def test_tabs_and_trailing_blank_lines():
    assert parse("\tcigar\t\nrebut\n\n\n").words == ("cigar", "rebut")


def test_duplicates_are_dropped_with_a_warning_naming_both_lines(caplog):
    with caplog.at_level(logging.WARNING):
        words = parse("cigar\nrebut\nCIGAR\n")
    assert words.words == ("cigar", "rebut")
    assert words.lines == (1, 2)
    assert f"{NAME}, line 3: duplicate word 'cigar' (first on line 1) dropped" in caplog.text


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
def test_bad_words_name_file_line_and_word(content, line, fragment):
    with pytest.raises(InputError) as caught:
        parse(content)
    assert caught.value.path == NAME
    assert caught.value.line == line
    assert fragment in str(caught.value)
    assert str(caught.value).startswith(f"{NAME}, line {line}: ")


def test_expected_length_is_enforced_from_the_first_word():
    with pytest.raises(InputError) as caught:
        parse("cigars\n", length=5)
    assert caught.value.line == 1
    assert caught.value.problem == "word 'cigars' has 6 letters; the word list's words have 5"
    assert parse("cigar\n", length=5).length == 5


@pytest.mark.parametrize("content", ["", "\n\n  \n", "\ufeff", "\r\n"])
def test_empty_list_is_an_error(content):
    with pytest.raises(InputError) as caught:
        parse(content)
    assert str(caught.value) == f"{NAME}: contains no words"
    assert isinstance(caught.value, PipelineError)


def test_utf16_binary_and_latin1_are_refused_with_their_line():
    with pytest.raises(InputError, match=f"^{NAME}, line 1: is UTF-16 encoded"):
        parse("cigar\nrebut\n".encode("utf-16"))
    with pytest.raises(InputError, match="line 2: contains a NUL byte"):
        parse(b"cigar\nreb\x00t\n")
    with pytest.raises(InputError, match=r"line 3: is not UTF-8 text \(byte 0xe9\)"):
        parse("cigar\nrebut\ncaf\xe9s\n".encode("latin-1"))


@pytest.mark.parametrize(
    ("word", "fragment"),
    [
        ("\u212aebab", "U+212A KELVIN SIGN at position 1"),  # str.lower() gives 'kebab'
        ("\u0130ssue", "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE at position 1"),
        ("\ufb01ner", "U+FB01 LATIN SMALL LIGATURE FI at position 1"),  # NFKC gives 'finer'
        ("ci\uff47ar", "U+FF47 FULLWIDTH LATIN SMALL LETTER G at position 3"),
        ("cig\u0430r", "U+0430 CYRILLIC SMALL LETTER A at position 4"),
        ("\u00a0rebut", "U+00A0 NO-BREAK SPACE at position 1"),  # not stripped: not ASCII
        ("rebut\u200b", "U+200B ZERO WIDTH SPACE at position 6"),
        ("\ufeffrebut", "U+FEFF ZERO WIDTH NO-BREAK SPACE at position 1"),  # a BOM on line 2
        ("reb\x1bt", "U+001B at position 4"),  # no name: only the code point
        ("re\x0cut", "U+000C at position 3"),  # form feed: only spaces and tabs are stripped
    ],
)
def test_characters_are_what_they_are_named_by_code_point(word, fragment):
    with pytest.raises(InputError) as caught:
        parse(f"cigar\n{word}\n")
    assert caught.value.line == 2
    assert caught.value.problem == f"word {word!r} has characters outside a-z: {fragment}"


def test_only_ascii_upper_case_is_lowered():
    assert parse("CIGAR\nReBuT\n").words == ("cigar", "rebut")


def test_words_have_at_most_the_supported_length():
    ten = "abcdefghij"
    assert parse(f"{ten}\n{ten.upper()[::-1]}\n").length == 10
    with pytest.raises(InputError) as caught:
        parse("\n" + "a" * 21 + "\n")
    assert str(caught.value) == (
        f"{NAME}, line 2: word 'aaaaaaaaaaaaaaaaaaaaa' has 21 letters; "
        "words of at most 10 letters are supported"
    )


# --- the merged word index --------------------------------------------------------------


def test_answers_must_share_the_allowed_length():
    allowed = parse("cigar\nrebut\n")
    answers = parse("\ncigars\n", "lists/answers.txt")
    with pytest.raises(InputError) as caught:
        word_index_table(allowed, answers)
    assert caught.value.path == "lists/answers.txt"
    assert caught.value.line == 2
    assert caught.value.problem == f"has 6-letter words; {NAME} has 5"


def test_index_is_the_allowed_list_with_the_answers_marked():
    allowed = parse("rebut\ncigar\nmamma\nsissy\nhumph")
    answers = parse("sissy\ncigar\nmamma\n", "lists/answers.txt")
    table = word_index_table(allowed, answers)
    assert table.to_pylist() == [
        {"word_id": 0, "word": "cigar", "is_answer": True, "answer_id": 0},
        {"word_id": 1, "word": "humph", "is_answer": False, "answer_id": None},
        {"word_id": 2, "word": "mamma", "is_answer": True, "answer_id": 1},
        {"word_id": 3, "word": "rebut", "is_answer": False, "answer_id": None},
        {"word_id": 4, "word": "sissy", "is_answer": True, "answer_id": 2},
    ]


def test_an_answer_missing_from_the_allowed_list_is_an_error_naming_its_line():
    allowed = parse("rebut\ncigar\nsissy\nhumph")
    answers = parse("sissy\ncigar\nmamma\n", "lists/answers.txt")
    with pytest.raises(InputError) as caught:
        word_index_table(allowed, answers)
    assert str(caught.value) == (
        "lists/answers.txt, line 3: 'mamma' is not in the allowed list lists/allowed.txt; "
        "every answer must be an allowed guess"
    )


def test_many_missing_answers_are_counted():
    allowed = parse("zzzzz\n")
    answers = parse("".join(f"{c}aaaa\n" for c in "abcdefghijkl"), "answers.txt")
    with pytest.raises(InputError, match=r"line 1: 'aaaaa' is not .* \(12 answers are not\)"):
        word_index_table(allowed, answers)


def test_word_length_comes_from_the_data():
    allowed = parse("planet\nrocket\ngalaxy\n")
    answers = parse("rocket\n", "answers.txt", length=allowed.length)
    table = word_index_table(allowed, answers)
    assert table["word"].to_pylist() == ["galaxy", "planet", "rocket"]
    assert table["answer_id"].to_pylist() == [None, None, 0]


def test_fixture_mirror_lists(fixture_mirror):
    allowed = parse((fixture_mirror / "allowed.txt").read_bytes())
    answers = parse((fixture_mirror / "answers.txt").read_bytes(), "answers.txt")
    table = word_index_table(allowed, answers)
    assert table.num_rows == 21  # 20 guesses + mamma
    assert sum(table["is_answer"].to_pylist()) == 8


def test_real_lists(mirror):
    allowed_bytes = (mirror / "allowed.txt").read_bytes()
    answers_bytes = (mirror / "answers.txt").read_bytes()
    assert hashlib.sha256(allowed_bytes).hexdigest() == (
        "9df5dad1b44cf1b9e0fa7c3ebff94d69ff7efb59f8691ac88e74e1c7b3da121e"
    )
    assert hashlib.sha256(answers_bytes).hexdigest() == (
        "c495f6cbc36475358a89e30ac16bd5c0c05073c8c7647bb6c35dd01f7bae6e32"
    )
    allowed = parse(allowed_bytes, "allowed.txt")
    answers = parse(answers_bytes, "answers.txt", length=allowed.length)
    assert len(allowed.words) == 14855
    assert len(answers.words) == 2309
    table = word_index_table(allowed, answers)
    assert table.num_rows == 14855
    assert sum(table["is_answer"].to_pylist()) == 2309
    assert [a for a in table["answer_id"].to_pylist() if a is not None] == list(range(2309))
    words = table["word"].to_pylist()
    assert words == sorted(words)
    is_answer = table["is_answer"].to_pylist()
    assert {w for w, a in zip(words, is_answer, strict=True) if a} == set(answers.words)
