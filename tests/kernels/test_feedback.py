"""Both feedback engines (numba "jit" and "numpy") against the naive rules and each other."""

from __future__ import annotations

import hashlib
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.wordle import all_green, encode_words, parse_pattern, pattern_dtype
from pipeline.core.wordle import pattern_string as spell
from pipeline.kernels import feedback as feedback_module
from pipeline.kernels.feedback import feedback_matrix
from tests.support import naive

ENGINES = ("jit", "numpy")

REAL_LOOKING = [
    "speed", "abide", "crepe", "lolly", "hello", "trees", "crier", "eerie", "geese",
    "mamma", "nanny", "llama", "added", "error", "sissy", "puppy", "fluff", "kayak",
    "level", "radar", "refer", "eager", "elder", "label", "allay", "alley", "belle",
    "tepee", "queue", "sweet", "green", "melee", "madam", "teeth", "otter", "tatty",
    "abbey", "ebbed", "dodge", "fizzy", "wheel", "arise", "slate", "crane",
]  # fmt: skip


def one(guess: str, answer: str, engine: str) -> int:
    """The pattern id of one pair from an engine."""
    return int(feedback_matrix(encode_words([guess]), encode_words([answer]), engine=engine)[0, 0])


def repeated_letter_words() -> list[str]:
    """Every 5-letter word over a 3-letter alphabet, plus real words full of repeats."""
    generated = ["".join(letters) for letters in itertools.product("abe", repeat=5)]
    return sorted(set(generated) | set(REAL_LOOKING))


@pytest.fixture(scope="module")
def word_list() -> list[str]:
    return repeated_letter_words()


@pytest.fixture(scope="module")
def expected(word_list) -> np.ndarray:
    return naive.feedback_matrix(word_list, word_list)


# --- exhaustive comparison on words chosen for repeated letters -------------------------


def test_word_list_is_large_and_repetitive(word_list, expected):
    assert len(word_list) == 3**5 + len(REAL_LOOKING) == 287
    assert sum(len(set(w)) < len(w) for w in word_list) > 200
    # guards against a degenerate list that would make the comparisons weak
    assert len(np.unique(expected)) > 100


@pytest.mark.parametrize("engine", ENGINES)
def test_engine_matches_reference_on_every_pair(word_list, expected, engine):
    encoded = encode_words(word_list)
    result = feedback_matrix(encoded, encoded, engine=engine)
    assert result.shape == (len(word_list), len(word_list))
    assert result.dtype == np.uint8
    np.testing.assert_array_equal(result, expected)


def test_numpy_engine_in_several_row_blocks(word_list, expected, monkeypatch):
    # a small chunk budget forces several guess-row blocks, including a ragged last one
    monkeypatch.setattr(feedback_module, "_NUMPY_CHUNK_ELEMENTS", len(word_list) * 25 * 7)
    encoded = encode_words(word_list)
    result = feedback_matrix(encoded, encoded, engine="numpy")
    np.testing.assert_array_equal(result, expected)


def test_auto_engine_picks_numpy_for_small_jobs_and_jit_for_large(word_list, monkeypatch):
    encoded = encode_words(word_list[:20])
    calls = []
    real = feedback_module._numpy_patterns

    def spy(guesses, answers):
        calls.append(guesses.shape[0] * answers.shape[0])
        return real(guesses, answers)

    monkeypatch.setattr(feedback_module, "_numpy_patterns", spy)
    small = feedback_matrix(encoded, encoded)
    assert calls == [400]
    monkeypatch.setattr(feedback_module, "NUMPY_MAX_PAIRS", 399)
    large = feedback_matrix(encoded, encoded)
    assert calls == [400]  # the kernel ran this time
    np.testing.assert_array_equal(small, large)
    np.testing.assert_array_equal(small, naive.feedback_matrix(word_list[:20], word_list[:20]))


def test_unknown_engine_is_refused():
    words = encode_words(["speed"])
    with pytest.raises(ValueError, match="engine must be 'auto', 'jit' or 'numpy', not 'gpu'"):
        feedback_matrix(words, words, engine="gpu")


# --- random and adversarial words: the engines agree exhaustively -----------------------


def random_words(rng: np.random.Generator, count: int, length: int, alphabet: str) -> list[str]:
    letters = np.array(list(alphabet))
    return ["".join(rng.choice(letters, size=length)) for _ in range(count)]


@pytest.mark.parametrize(
    ("length", "alphabet"),
    [(1, "ab"), (2, "abc"), (3, "ab"), (5, "abcde"), (5, "aeiorst"), (6, "abc"), (8, "abcd"),
     (10, "ab"), (10, "abcdefghijklmnopqrstuvwxyz")],
)  # fmt: skip
def test_engines_agree_on_random_words(length, alphabet):
    rng = np.random.default_rng(length * 31 + len(alphabet))
    guesses = random_words(rng, 300, length, alphabet)
    answers = random_words(rng, 200, length, alphabet)
    encoded_g, encoded_a = encode_words(guesses), encode_words(answers)
    jit = feedback_matrix(encoded_g, encoded_a, engine="jit")
    numpy = feedback_matrix(encoded_g, encoded_a, engine="numpy")
    assert jit.dtype == numpy.dtype == pattern_dtype(length)
    np.testing.assert_array_equal(jit, numpy)
    # and both follow the rules (a sample of rows, the reference is slow)
    np.testing.assert_array_equal(jit[:40], naive.feedback_matrix(guesses[:40], answers))


def test_engines_agree_on_adversarial_repeats():
    """Words built to stress letter counting: every 6-letter word over "exy", so a guess
    holds each letter 0..6 times in every placement, against answers holding it 0..6
    times, with and without greens. The engines agree on all 729 x 729 pairs."""
    words = ["".join(letters) for letters in itertools.product("exy", repeat=6)]
    encoded = encode_words(words)
    jit = feedback_matrix(encoded, encoded, engine="jit")
    np.testing.assert_array_equal(feedback_matrix(encoded, encoded, engine="numpy"), jit)
    assert len(np.unique(jit)) > 400
    # and follow the rules: every guess against a sample of answers
    sample = list(range(0, len(words), 17))
    np.testing.assert_array_equal(
        jit[:, sample], naive.feedback_matrix(words, [words[i] for i in sample])
    )


def test_ten_letter_words_with_repeats():
    words = ["aaaaaaaaaa", "abababab" + "ab", "aaaaabbbbb", "bbbbbaaaaa", "abcabcabca",
             "cbacbacbac", "aabbccaabb", "abcdefghij", "jihgfedcba", "eeeeeeeeee"]  # fmt: skip
    encoded = encode_words(words)
    expected = naive.feedback_matrix(words, words)
    for engine in ENGINES:
        result = feedback_matrix(encoded, encoded, engine=engine)
        assert result.dtype == np.uint16
        np.testing.assert_array_equal(result, expected)
        np.testing.assert_array_equal(np.diag(result), 59048)
    # aaaaabbbbb guessed against bbbbbaaaaa: no greens, every letter finds a copy
    assert expected[2, 3] == parse_pattern("Y" * 10)
    # aaaaaaaaaa against abababab ab: five greens, the other a's find no copy left
    assert spell(int(expected[0, 1]), 10) == "GBGBGBGBGB"


# --- hand-checked cases -----------------------------------------------------------------

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
def test_hand_checked_cases(guess, answer, text, pattern_id):
    assert naive.feedback(guess, answer) == pattern_id
    for engine in ENGINES:
        assert one(guess, answer, engine) == pattern_id
    assert spell(pattern_id, 5) == text
    assert parse_pattern(text) == pattern_id


def test_six_and_seven_letter_values():
    for engine in ENGINES:
        assert one("banana", "banana", engine) == 728
        assert one("letters", "letters", engine) == 2186
        # settle vs letter: s grey, e green, t green, t green, l yellow, e yellow
        assert spell(one("settle", "letter", engine), 6) == "BGGGYY"
        # letters vs elegant: no greens; the second t finds no t left, the second e does
        assert spell(one("letters", "elegant", engine), 7) == "YYYBYBB"
    assert naive.feedback("settle", "letter") == parse_pattern("BGGGYY")
    assert naive.feedback("letters", "elegant") == parse_pattern("YYYBYBB")


# --- orientation: rows are guesses, columns are answers ---------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_matrix_rows_are_guesses_and_columns_answers(engine):
    guesses = ["speed", "lolly", "trees"]
    answers = ["abide", "crepe", "hello", "crier", "geese"]
    result = feedback_matrix(encode_words(guesses), encode_words(answers), engine=engine)
    assert result.shape == (3, 5)
    np.testing.assert_array_equal(result, naive.feedback_matrix(guesses, answers))
    assert result[0, 0] == parse_pattern("BBYBY")  # speed guessed against abide
    assert result[0, 1] == parse_pattern("BYGYB")  # speed guessed against crepe
    assert result[1, 2] == parse_pattern("BYGGB")  # lolly guessed against hello
    assert result[2, 3] == parse_pattern("BGBGB")  # trees guessed against crier

    swapped = feedback_matrix(encode_words(answers), encode_words(guesses), engine=engine)
    assert swapped.shape == (5, 3)
    assert swapped[0, 0] == parse_pattern("BBBYY")  # abide guessed against speed
    assert swapped[0, 0] != result[0, 0]


@pytest.mark.parametrize("engine", ENGINES)
def test_empty_matrices_keep_their_shape_and_dtype(engine):
    words = encode_words(["speed", "abide"])
    assert feedback_matrix(words[:0], words, engine=engine).shape == (0, 2)
    assert feedback_matrix(words, words[:0], engine=engine).shape == (2, 0)
    assert feedback_matrix(words, words[:0], engine=engine).dtype == np.uint8


@pytest.mark.parametrize("engine", ENGINES)
def test_non_contiguous_and_wider_integer_inputs_are_accepted(engine):
    words = ["speed", "abide", "crepe", "lolly", "hello", "trees"]
    encoded = encode_words(words)
    guesses = encoded[::2].astype(np.int64)
    answers = np.asfortranarray(encoded[1:])
    expected = naive.feedback_matrix(words[::2], words[1:])
    np.testing.assert_array_equal(feedback_matrix(guesses, answers, engine=engine), expected)


@pytest.mark.parametrize("engine", ENGINES)
def test_mixed_lengths_between_guesses_and_answers_are_rejected(engine):
    with pytest.raises(ValueError, match="guesses have length 5 but answers have length 4"):
        feedback_matrix(encode_words(["speed"]), encode_words(["tree"]), engine=engine)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (np.array([[0, 1, 26]]), "outside 0..25"),
        (np.array([[0, -1, 2]]), "outside 0..25"),
        (np.zeros(3, dtype=np.uint8), "2-D"),
        (np.zeros((1, 3)), "integer letter codes"),
        (np.zeros((1, 11), dtype=np.uint8), "between 1 and 10, got 11"),
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_bad_encoded_arrays_are_rejected(bad, message, engine):
    good = np.zeros((1, bad.shape[-1]), dtype=np.uint8)
    with pytest.raises(ValueError, match=message):
        feedback_matrix(bad, good, engine=engine)
    with pytest.raises(ValueError, match=message):
        feedback_matrix(good, bad, engine=engine)


# --- property tests ---------------------------------------------------------------------

SMALL_ALPHABET = "abcde"


@st.composite
def same_length_words(draw, min_words: int = 1, max_words: int = 6) -> list[str]:
    """Lists of words of one random length 1..10 over a small alphabet, so repeats abound."""
    length = draw(st.integers(min_value=1, max_value=10))
    alphabet = draw(st.sampled_from(["ab", "abc", SMALL_ALPHABET]))
    word = st.text(alphabet=alphabet, min_size=length, max_size=length)
    return draw(st.lists(word, min_size=min_words, max_size=max_words))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_engines_match_reference_on_random_words(data):
    guesses = data.draw(same_length_words())
    length = len(guesses[0])
    answer = st.text(alphabet=SMALL_ALPHABET, min_size=length, max_size=length)
    answers = data.draw(st.lists(answer, min_size=1, max_size=6))
    expected = naive.feedback_matrix(guesses, answers)
    for engine in ENGINES:
        result = feedback_matrix(encode_words(guesses), encode_words(answers), engine=engine)
        assert result.dtype == pattern_dtype(length)
        np.testing.assert_array_equal(result, expected)


@settings(max_examples=100, deadline=None)
@given(same_length_words())
def test_word_against_itself_is_all_green(words):
    encoded = encode_words(words)
    for engine in ENGINES:
        diagonal = np.diag(feedback_matrix(encoded, encoded, engine=engine))
        np.testing.assert_array_equal(diagonal, all_green(len(words[0])))


@settings(max_examples=200, deadline=None)
@given(same_length_words(min_words=2, max_words=2))
def test_greens_are_exactly_the_equal_positions(pair):
    guess, answer = pair
    for engine in ENGINES:
        text = spell(one(guess, answer, engine), len(guess))
        assert [c == "G" for c in text] == [g == a for g, a in zip(guess, answer, strict=True)]
        # a letter absent from the answer is never yellow or green
        for colour, letter in zip(text, guess, strict=True):
            if letter not in answer:
                assert colour == "B"
        # greens and yellows of a letter never exceed its copies in the answer
        for letter in set(guess):
            marked = sum(c != "B" for c, g in zip(text, guess, strict=True) if g == letter)
            assert marked == min(guess.count(letter), answer.count(letter))


# --- the real lists ---------------------------------------------------------------------

# sha256 of the real 14855 x 2309 uint8 matrix (rows: allowed guesses in word order,
# columns: answers in word order), C order.
REAL_MATRIX_SHA256 = "996b01322359213f0cd2436ba16e62a09e99640cd5425792130b569920c636ed"


def test_real_matrix_both_engines_and_checksum(mirror):
    allowed = set((mirror / "allowed.txt").read_text().split())
    answers = sorted(set((mirror / "answers.txt").read_text().split()))
    words = sorted(allowed | set(answers))
    assert (len(words), len(answers)) == (14855, 2309)
    guesses, targets = encode_words(words), encode_words(answers)
    jit = feedback_matrix(guesses, targets, engine="jit")
    np.testing.assert_array_equal(feedback_matrix(guesses, targets, engine="numpy"), jit)
    assert hashlib.sha256(jit.tobytes()).hexdigest() == REAL_MATRIX_SHA256
    counts = np.bincount(jit.ravel(), minlength=243)
    assert counts[0] == 7728444  # all grey
    assert counts[242] == 2309  # each answer guessed against itself
    assert counts[parse_pattern("BBYBY")] == 443096
    # rows spread over the list, by the rules
    sample = list(range(0, len(words), 743))
    np.testing.assert_array_equal(
        jit[sample], naive.feedback_matrix([words[i] for i in sample], answers)
    )
    col = {word: i for i, word in enumerate(answers)}
    assert jit[words.index("speed"), col["abide"]] == parse_pattern("BBYBY")
    assert jit[words.index("lolly"), col["hello"]] == parse_pattern("BYGGB")
