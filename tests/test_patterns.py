"""Tests for the Wordle feedback-pattern kernel against an independent pure-Python reference."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import patterns
from pipeline.patterns import (
    all_green,
    encode_words,
    feedback,
    feedback_matrix,
    feedback_matrix_numpy,
    parse_pattern,
    pattern_dtype,
    pattern_string,
)


def reference_feedback(guess: str, answer: str) -> int:
    """Wordle feedback by the rules as written: mark greens, then consume leftover letters.

    Deliberately a different algorithm from the kernel: an explicit list of the answer's
    unmatched letters, from which each yellow removes one copy.
    """
    assert len(guess) == len(answer)
    colours = ["B"] * len(guess)
    leftover = []
    for i, (g, a) in enumerate(zip(guess, answer, strict=True)):
        if g == a:
            colours[i] = "G"
        else:
            leftover.append(a)
    for i, g in enumerate(guess):
        if colours[i] == "B" and g in leftover:
            colours[i] = "Y"
            leftover.remove(g)
    return sum("BYG".index(c) * 3**i for i, c in enumerate(colours))


def reference_matrix(guesses: list[str], answers: list[str]) -> np.ndarray:
    return np.array(
        [[reference_feedback(g, a) for a in answers] for g in guesses], dtype=np.int64
    ).reshape(len(guesses), len(answers))


REAL_LOOKING = [
    "speed", "abide", "crepe", "lolly", "hello", "trees", "crier", "eerie", "geese",
    "mamma", "nanny", "llama", "added", "error", "sissy", "puppy", "fluff", "kayak",
    "level", "radar", "refer", "eager", "elder", "label", "allay", "alley", "belle",
    "tepee", "queue", "sweet", "green", "melee", "madam", "teeth", "otter", "tatty",
    "abbey", "ebbed", "dodge", "fizzy", "wheel", "arise", "slate", "crane",
]  # fmt: skip


def repeated_letter_words() -> list[str]:
    """Every 5-letter word over a 3-letter alphabet, plus real words full of repeats."""
    generated = ["".join(letters) for letters in itertools.product("abe", repeat=5)]
    return sorted(set(generated) | set(REAL_LOOKING))


@pytest.fixture(scope="module")
def word_list() -> list[str]:
    return repeated_letter_words()


@pytest.fixture(scope="module")
def expected(word_list: list[str]) -> np.ndarray:
    return reference_matrix(word_list, word_list)


# --- exhaustive comparison on words chosen for repeated letters -------------------------


def test_word_list_is_large_and_repetitive(word_list: list[str]) -> None:
    assert len(word_list) > 250
    assert sum(len(set(w)) < len(w) for w in word_list) > 200


def test_kernel_matches_reference_on_every_pair(word_list, expected) -> None:
    encoded = encode_words(word_list)
    result = feedback_matrix(encoded, encoded)
    assert result.shape == (len(word_list), len(word_list))
    assert result.dtype == np.uint8
    np.testing.assert_array_equal(result, expected)


def test_numpy_baseline_matches_reference_on_every_pair(word_list, expected, monkeypatch) -> None:
    # a small chunk budget forces several guess-row blocks, including a ragged last one
    monkeypatch.setattr(patterns, "_NUMPY_CHUNK_ELEMENTS", len(word_list) * 25 * 7)
    encoded = encode_words(word_list)
    result = feedback_matrix_numpy(encoded, encoded)
    assert result.dtype == np.uint8
    np.testing.assert_array_equal(result, expected)


def test_single_pair_feedback_matches_reference(word_list, expected) -> None:
    for i in range(0, len(word_list), 3):
        for j in range(len(word_list)):
            assert feedback(word_list[i], word_list[j]) == expected[i, j]


def test_matrix_covers_many_distinct_patterns(expected) -> None:
    # guards against a degenerate word list that would make the comparisons weak
    assert len(np.unique(expected)) > 100


# --- hand-checked cases ----------------------------------------------------------------

HAND_CHECKED = [
    ("speed", "abide", "BBYBY", 9 + 81),
    ("speed", "crepe", "BYGYB", 3 + 18 + 27),
    ("lolly", "hello", "BYGGB", 3 + 18 + 54),
    ("trees", "crier", "BGBGB", 6 + 54),
    ("abide", "speed", "BBBYY", 27 + 81),
    ("eerie", "geese", "YGBBG", 1 + 6 + 162),
    ("crane", "crane", "GGGGG", 242),
    ("fuzzy", "crane", "BBBBB", 0),
]


@pytest.mark.parametrize(("guess", "answer", "text", "pattern_id"), HAND_CHECKED)
def test_hand_checked_cases(guess: str, answer: str, text: str, pattern_id: int) -> None:
    assert reference_feedback(guess, answer) == pattern_id
    assert feedback(guess, answer) == pattern_id
    assert int(feedback_matrix(encode_words([guess]), encode_words([answer]))[0, 0]) == pattern_id
    assert int(feedback_matrix_numpy(encode_words([guess]), encode_words([answer]))[0, 0]) == (
        pattern_id
    )
    assert pattern_string(pattern_id, 5) == text
    assert parse_pattern(text) == pattern_id


# --- orientation: rows are guesses, columns are answers --------------------------------


def test_matrix_rows_are_guesses_and_columns_answers() -> None:
    guesses = ["speed", "lolly", "trees"]
    answers = ["abide", "crepe", "hello", "crier", "geese"]
    for function in (feedback_matrix, feedback_matrix_numpy):
        result = function(encode_words(guesses), encode_words(answers))
        assert result.shape == (3, 5)
        for i, guess in enumerate(guesses):
            for j, answer in enumerate(answers):
                assert result[i, j] == feedback(guess, answer)
                assert result[i, j] == reference_feedback(guess, answer)
        assert result[0, 0] == parse_pattern("BBYBY")  # speed guessed against abide
        assert result[0, 1] == parse_pattern("BYGYB")  # speed guessed against crepe
        assert result[1, 2] == parse_pattern("BYGGB")  # lolly guessed against hello
        assert result[2, 3] == parse_pattern("BGBGB")  # trees guessed against crier

        swapped = function(encode_words(answers), encode_words(guesses))
        assert swapped.shape == (5, 3)
        assert swapped[0, 0] == parse_pattern("BBBYY")  # abide guessed against speed
        assert swapped[0, 0] != result[0, 0]


def test_empty_matrices_keep_their_shape() -> None:
    words = encode_words(["speed", "abide"])
    for function in (feedback_matrix, feedback_matrix_numpy):
        assert function(words[:0], words).shape == (0, 2)
        assert function(words, words[:0]).shape == (2, 0)


def test_non_contiguous_and_wider_integer_inputs_are_accepted() -> None:
    words = ["speed", "abide", "crepe", "lolly", "hello", "trees"]
    encoded = encode_words(words)
    guesses = encoded[::2].astype(np.int64)
    answers = np.asfortranarray(encoded[1:])
    expected = reference_matrix(words[::2], words[1:])
    np.testing.assert_array_equal(feedback_matrix(guesses, answers), expected)
    np.testing.assert_array_equal(feedback_matrix_numpy(guesses, answers), expected)


# --- word length comes from the data ---------------------------------------------------


@pytest.mark.parametrize(
    ("length", "dtype"),
    [(1, np.uint8), (4, np.uint8), (5, np.uint8), (6, np.uint16), (7, np.uint16),
     (10, np.uint16), (11, np.uint32), (20, np.uint32)],
)  # fmt: skip
def test_pattern_dtype(length: int, dtype: type) -> None:
    assert pattern_dtype(length) == np.dtype(dtype)
    assert all_green(length) <= np.iinfo(dtype).max


@pytest.mark.parametrize("length", [0, 21])
def test_pattern_dtype_rejects_unsupported_lengths(length: int) -> None:
    with pytest.raises(ValueError, match="length"):
        pattern_dtype(length)


@pytest.mark.parametrize(
    ("words", "dtype", "green"),
    [
        (["earl", "lear", "ella", "llll"], np.uint8, 80),
        (["banana", "bandit", "nanana", "settle", "letter"], np.uint16, 728),
        (["letters", "settler", "eeeeeee", "trestle", "banners"], np.uint16, 2186),
        (["abracadabra", "candelabras"], np.uint32, 177146),
    ],
)
def test_other_word_lengths(words: list[str], dtype: type, green: int) -> None:
    encoded = encode_words(words)
    expected = reference_matrix(words, words)
    for function in (feedback_matrix, feedback_matrix_numpy):
        result = function(encoded, encoded)
        assert result.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(result, expected)
        np.testing.assert_array_equal(np.diag(result), green)
    assert all_green(len(words[0])) == green


def test_six_and_seven_letter_values() -> None:
    assert feedback("banana", "banana") == 728
    assert feedback("letters", "letters") == 2186
    # settle vs letter: s grey, e green, t green, t green, l yellow, e yellow
    six = feedback_matrix(encode_words(["settle"]), encode_words(["letter"]))
    assert six.dtype == np.uint16
    assert pattern_string(int(six[0, 0]), 6) == "BGGGYY"
    # letters vs elegant: no greens; the second t finds no t left, the second e does
    seven = feedback_matrix(encode_words(["letters"]), encode_words(["elegant"]))
    assert seven.dtype == np.uint16
    assert pattern_string(int(seven[0, 0]), 7) == "YYYBYBB"
    assert six[0, 0] == reference_feedback("settle", "letter")
    assert seven[0, 0] == reference_feedback("letters", "elegant")


def test_mixed_lengths_between_guesses_and_answers_are_rejected() -> None:
    with pytest.raises(ValueError, match="length"):
        feedback_matrix(encode_words(["speed"]), encode_words(["tree"]))
    with pytest.raises(ValueError, match="length"):
        feedback_matrix_numpy(encode_words(["speed"]), encode_words(["tree"]))
    with pytest.raises(ValueError, match="length"):
        feedback("speed", "tree")


@pytest.mark.parametrize(
    "bad",
    [np.array([[0, 1, 26]]), np.array([[0, -1, 2]]), np.zeros(3, dtype=np.uint8), np.zeros((1, 3))],
)
def test_bad_encoded_arrays_are_rejected(bad: np.ndarray) -> None:
    good = encode_words(["abc"])
    with pytest.raises(ValueError):
        feedback_matrix(bad, good)
    with pytest.raises(ValueError):
        feedback_matrix_numpy(good, bad)


# --- encode_words ----------------------------------------------------------------------


def test_encode_words_values() -> None:
    encoded = encode_words(["abz", "zyx"])
    assert encoded.dtype == np.uint8
    assert encoded.shape == (2, 3)
    assert encoded.tolist() == [[0, 1, 25], [25, 24, 23]]


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ([], "empty"),
        ([""], "empty"),
        (["speed", "tree"], "mixed word lengths"),
        (["speed", "Abide"], "a-z"),
        (["spe d"], "a-z"),
        (["spéed"], "a-z"),
        (["spe3d"], "a-z"),
        ("speed", "sequence"),
    ],
)
def test_encode_words_rejects_bad_input(words: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        encode_words(words)


# --- pattern strings -------------------------------------------------------------------


def test_every_five_letter_pattern_round_trips() -> None:
    texts = [pattern_string(pattern_id, 5) for pattern_id in range(243)]
    assert len(set(texts)) == 243
    assert texts[0] == "BBBBB"
    assert texts[1] == "YBBBB"  # position 0 is least significant
    assert texts[2] == "GBBBB"
    assert texts[3] == "BYBBB"
    assert texts[242] == "GGGGG"
    assert [parse_pattern(text) for text in texts] == list(range(243))


def test_parse_pattern_accepts_lower_case() -> None:
    assert parse_pattern("bbyby") == 90
    assert parse_pattern("bByBy") == 90


@pytest.mark.parametrize("text", ["", "BBXBB", "BB BB", "12345", "BBYBY\n", "ＢBBBB"])
def test_parse_pattern_rejects_other_characters(text: str) -> None:
    with pytest.raises(ValueError):
        parse_pattern(text)


@pytest.mark.parametrize(("pattern_id", "length"), [(-1, 5), (243, 5), (0, 0)])
def test_pattern_string_rejects_out_of_range(pattern_id: int, length: int) -> None:
    with pytest.raises(ValueError):
        pattern_string(pattern_id, length)


# --- property tests --------------------------------------------------------------------

SMALL_ALPHABET = "abcde"


@st.composite
def same_length_words(draw: st.DrawFn, min_words: int = 1, max_words: int = 6) -> list[str]:
    """Lists of words of one random length 1..7 over a small alphabet, so repeats abound."""
    length = draw(st.integers(min_value=1, max_value=7))
    alphabet = draw(st.sampled_from(["ab", "abc", SMALL_ALPHABET]))
    word = st.text(alphabet=alphabet, min_size=length, max_size=length)
    return draw(st.lists(word, min_size=min_words, max_size=max_words))


@st.composite
def word_pair(draw: st.DrawFn) -> tuple[str, str]:
    words = draw(same_length_words(min_words=2, max_words=2))
    return words[0], words[1]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_kernel_matches_reference_on_random_words(data: st.DataObject) -> None:
    guesses = data.draw(same_length_words())
    length = len(guesses[0])
    answer = st.text(alphabet=SMALL_ALPHABET, min_size=length, max_size=length)
    answers = data.draw(st.lists(answer, min_size=1, max_size=6))
    expected = reference_matrix(guesses, answers)
    result = feedback_matrix(encode_words(guesses), encode_words(answers))
    assert result.dtype == pattern_dtype(length)
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(
        feedback_matrix_numpy(encode_words(guesses), encode_words(answers)), expected
    )


@settings(max_examples=200, deadline=None)
@given(word_pair())
def test_single_pair_matches_reference(pair: tuple[str, str]) -> None:
    guess, answer = pair
    assert feedback(guess, answer) == reference_feedback(guess, answer)


@settings(max_examples=100, deadline=None)
@given(same_length_words())
def test_word_against_itself_is_all_green(words: list[str]) -> None:
    length = len(words[0])
    for word in words:
        assert feedback(word, word) == all_green(length)
    encoded = encode_words(words)
    diagonal = np.diag(feedback_matrix(encoded, encoded))
    np.testing.assert_array_equal(diagonal, all_green(length))


@settings(max_examples=200, deadline=None)
@given(word_pair())
def test_greens_are_exactly_the_equal_positions(pair: tuple[str, str]) -> None:
    guess, answer = pair
    pattern_id = int(feedback_matrix(encode_words([guess]), encode_words([answer]))[0, 0])
    text = pattern_string(pattern_id, len(guess))
    assert [c == "G" for c in text] == [g == a for g, a in zip(guess, answer, strict=True)]
    # a letter absent from the answer is never yellow or green
    for colour, letter in zip(text, guess, strict=True):
        if letter not in answer:
            assert colour == "B"


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=12).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(min_value=0, max_value=3**n - 1))
))  # fmt: skip
def test_pattern_string_round_trip(length_and_id: tuple[int, int]) -> None:
    length, pattern_id = length_and_id
    text = pattern_string(pattern_id, length)
    assert len(text) == length
    assert set(text) <= set("BYG")
    assert parse_pattern(text) == pattern_id
    assert parse_pattern(text.lower()) == pattern_id
