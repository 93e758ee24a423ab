"""Wordle's rules as data (pipeline.core.wordle): letter codes, pattern ids and spellings."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.wordle import (
    MAX_WORD_LENGTH,
    all_green,
    check_length,
    encode_words,
    parse_pattern,
    pattern_dtype,
    pattern_string,
    spell_patterns,
)

# --- the largest word length ------------------------------------------------------------


def test_max_word_length_is_ten_and_its_patterns_fit_uint16():
    assert MAX_WORD_LENGTH == 10
    assert all_green(MAX_WORD_LENGTH) == 59048
    assert all_green(MAX_WORD_LENGTH) <= np.iinfo(pattern_dtype(MAX_WORD_LENGTH)).max


@pytest.mark.parametrize("length", [1, 5, 10])
def test_check_length_accepts_supported_lengths(length):
    check_length(length)  # no exception
    encode_words(["a" * length])


@pytest.mark.parametrize("length", [0, 11, 12, 20, -1])
def test_check_length_rejects_others(length):
    with pytest.raises(ValueError, match=f"between 1 and 10, got {length}"):
        check_length(length)


def test_eleven_letter_words_are_refused_by_encode_words():
    with pytest.raises(ValueError, match="between 1 and 10, got 11"):
        encode_words(["abracadabra", "candelabras"])


# --- pattern dtype and all green --------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "dtype", "green"),
    [(1, np.uint8, 2), (4, np.uint8, 80), (5, np.uint8, 242), (6, np.uint16, 728),
     (7, np.uint16, 2186), (10, np.uint16, 59048)],
)  # fmt: skip
def test_pattern_dtype_and_all_green(length, dtype, green):
    assert pattern_dtype(length) == np.dtype(dtype)
    assert all_green(length) == green == 3**length - 1
    assert all_green(length) <= np.iinfo(dtype).max


@pytest.mark.parametrize("length", [0, 11, 21])
def test_pattern_dtype_rejects_unsupported_lengths(length):
    with pytest.raises(ValueError, match="length"):
        pattern_dtype(length)


# --- encode_words -----------------------------------------------------------------------


def test_encode_words_values():
    encoded = encode_words(["abz", "zyx"])
    assert encoded.dtype == np.uint8
    assert encoded.shape == (2, 3)
    assert encoded.tolist() == [[0, 1, 25], [25, 24, 23]]


def test_encode_words_accepts_tuples_and_ten_letters():
    encoded = encode_words(("abcdefghij", "jjjjjjjjjj"))
    assert encoded.shape == (2, 10)
    assert encoded[0].tolist() == list(range(10))
    assert encoded[1].tolist() == [9] * 10


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ([], "empty"),
        ([""], "between 1 and 10, got 0"),
        (["speed", "tree"], "mixed word lengths: word 1 'tree' has length 4"),
        (["speed", "Abide"], "word 1 'Abide' is not made only of lowercase letters a-z"),
        (["spe d"], "a-z"),
        (["spéed"], "a-z"),
        (["spe3d"], "a-z"),
        ("speed", "sequence"),
    ],
)
def test_encode_words_rejects_bad_input(words, message):
    with pytest.raises(ValueError, match=message):
        encode_words(words)


# --- pattern strings --------------------------------------------------------------------


def test_every_five_letter_pattern_round_trips():
    texts = [pattern_string(pattern_id, 5) for pattern_id in range(243)]
    assert len(set(texts)) == 243
    assert texts[0] == "BBBBB"
    assert texts[1] == "YBBBB"  # position 0 is least significant
    assert texts[2] == "GBBBB"
    assert texts[3] == "BYBBB"
    assert texts[242] == "GGGGG"
    assert [parse_pattern(text) for text in texts] == list(range(243))


@pytest.mark.parametrize(
    ("text", "pattern_id"),
    [("BBYBY", 9 + 81), ("BYGYB", 3 + 18 + 27), ("BYGGB", 3 + 18 + 54), ("BGBGB", 6 + 54),
     ("BBBYY", 27 + 81), ("YGBBG", 1 + 6 + 162), ("GGGGG", 242), ("BBBBB", 0),
     ("G" * 10, 59048), ("BGGGYY", 6 + 18 + 54 + 81 + 243)],
)  # fmt: skip
def test_known_spellings(text, pattern_id):
    assert parse_pattern(text) == pattern_id
    assert pattern_string(pattern_id, len(text)) == text


def test_parse_pattern_accepts_lower_case():
    assert parse_pattern("bbyby") == 90
    assert parse_pattern("bByBy") == 90


@pytest.mark.parametrize("text", ["", "BBXBB", "BB BB", "12345", "BBYBY\n", "ＢBBBB"])
def test_parse_pattern_rejects_other_characters(text):
    with pytest.raises(ValueError):
        parse_pattern(text)


def test_parse_pattern_names_the_bad_position():
    with pytest.raises(ValueError, match=r"invalid colour 'X' at position 2 in pattern 'BBXBB'"):
        parse_pattern("BBXBB")


@pytest.mark.parametrize(("pattern_id", "length"), [(-1, 5), (243, 5), (0, 0), (59049, 10)])
def test_pattern_string_rejects_out_of_range(pattern_id, length):
    with pytest.raises(ValueError):
        pattern_string(pattern_id, length)


def test_spell_patterns_spells_each_distinct_id_once():
    ids = np.array([242, 0, 90, 0, 242, 90, 1], dtype=np.uint8)
    spellings, positions = spell_patterns(ids, 5)
    assert spellings == ["BBBBB", "YBBBB", "BBYBY", "GGGGG"]
    assert [spellings[p] for p in positions] == [pattern_string(int(i), 5) for i in ids]
    assert positions.shape == (7,)


def test_spell_patterns_of_a_matrix_flattens():
    ids = np.array([[0, 1], [2, 0]], dtype=np.uint16)
    spellings, positions = spell_patterns(ids, 6)
    assert spellings == ["BBBBBB", "YBBBBB", "GBBBBB"]
    assert positions.tolist() == [0, 1, 2, 0]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=12).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(min_value=0, max_value=3**n - 1))
))  # fmt: skip
def test_pattern_string_round_trip(length_and_id):
    length, pattern_id = length_and_id
    text = pattern_string(pattern_id, length)
    assert len(text) == length
    assert set(text) <= set("BYG")
    assert parse_pattern(text) == pattern_id
    assert parse_pattern(text.lower()) == pattern_id
    assert text == "".join("BYG"[pattern_id // 3**i % 3] for i in range(length))
