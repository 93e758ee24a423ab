"""Wordle feedback patterns: encode words, then compute guess x answer pattern matrices.

A pattern id is sum(c_i * 3**i) with position 0 least significant and c = 0 grey,
1 yellow, 2 green, so all green is 3**L - 1. Repeated letters follow Wordle exactly:
greens first, then left to right a guess letter is yellow only while the answer still
has an unmatched copy of it. The word length L always comes from the data.

Matrices are indexed [guess, answer] (rows are guesses, columns are answers).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ALPHABET_SIZE = 26
_COLOURS = "BYG"  # index = colour code: 0 grey (B), 1 yellow (Y), 2 green (G)
_COLOUR_CODE = {"B": 0, "Y": 1, "G": 2}
_MAX_LENGTH = 20  # 3**20 - 1 is the largest all-green id that fits in uint32
_NUMPY_CHUNK_ELEMENTS = 1 << 22  # bounds the (rows, A) temporaries of the numpy baseline


def encode_words(words: Sequence[str]) -> np.ndarray:
    """Return an (n, L) uint8 array of letter codes 0..25, the input every kernel expects."""
    if isinstance(words, str):
        raise ValueError("encode_words expects a sequence of words, not a single string")
    if len(words) == 0:
        raise ValueError("cannot encode an empty word list")
    length = len(words[0])
    if length == 0:
        raise ValueError("words must not be empty strings")
    if length > _MAX_LENGTH:
        raise ValueError(f"words of length {length} exceed the maximum of {_MAX_LENGTH}")
    for index, word in enumerate(words):
        if len(word) != length:
            raise ValueError(
                f"mixed word lengths: word {index} {word!r} has length {len(word)}, "
                f"word 0 {words[0]!r} has length {length}"
            )
        if not (word.isascii() and word.isalpha() and word.islower()):
            raise ValueError(f"word {index} {word!r} is not made only of lowercase letters a-z")
    flat = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
    return (flat - ord("a")).reshape(len(words), length)


def pattern_dtype(length: int) -> np.dtype:
    """Smallest unsigned dtype holding every pattern id of this length (uint8 for 5 letters)."""
    if length < 1 or length > _MAX_LENGTH:
        raise ValueError(f"word length must be between 1 and {_MAX_LENGTH}, got {length}")
    n_patterns = 3**length
    if n_patterns <= 1 << 8:
        return np.dtype(np.uint8)
    if n_patterns <= 1 << 16:
        return np.dtype(np.uint16)
    return np.dtype(np.uint32)


def all_green(length: int) -> int:
    """Pattern id of a solved guess: every position green."""
    return 3**length - 1


def _check_encoded(guesses: np.ndarray, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Validate two encoded word arrays and return them as C-contiguous uint8."""
    guesses = np.asarray(guesses)
    answers = np.asarray(answers)
    for name, array in (("guesses", guesses), ("answers", answers)):
        if array.ndim != 2:
            raise ValueError(
                f"{name} must be a 2-D (n, L) array of letter codes, not {array.ndim}-D"
            )
        if not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"{name} must hold integer letter codes, not {array.dtype}")
        if array.size and (array.min() < 0 or array.max() >= ALPHABET_SIZE):
            raise ValueError(f"{name} contains letter codes outside 0..{ALPHABET_SIZE - 1}")
    if guesses.shape[1] != answers.shape[1]:
        raise ValueError(
            f"guesses have length {guesses.shape[1]} but answers have length {answers.shape[1]}"
        )
    pattern_dtype(guesses.shape[1])  # rejects unsupported lengths
    return (
        np.ascontiguousarray(guesses, dtype=np.uint8),
        np.ascontiguousarray(answers, dtype=np.uint8),
    )


def feedback_matrix(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """(G, A) pattern ids for encoded guesses (G, L) x answers (A, L), via the numba kernel."""
    guesses, answers = _check_encoded(guesses, answers)
    out = np.empty((guesses.shape[0], answers.shape[0]), dtype=pattern_dtype(guesses.shape[1]))
    if out.size == 0:
        return out
    from pipeline.feedback_kernel import feedback_kernel, letter_counts  # numba: load on use

    answers_t = np.ascontiguousarray(answers.T)
    feedback_kernel(guesses, answers_t, letter_counts(answers_t), out)
    return out


def _group_codes(
    letter: int, positions: Sequence[int], answers_t: np.ndarray, count: np.ndarray
) -> np.ndarray:
    """What the guess positions holding `letter` add to the pattern id, for each answer.

    It depends on nothing else in the guess: greens first, then left to right a position
    is yellow while the answer has copies of the letter left (its count minus the greens).
    A letter held once is therefore yellow iff it is not green and the answer holds it.
    """
    greens = [answers_t[position] == letter for position in positions]
    if len(positions) == 1:
        return np.where(greens[0], 2, count > 0) * 3 ** positions[0]
    available = count.astype(np.int64) - np.sum(greens, axis=0)
    codes = np.zeros(answers_t.shape[1], dtype=np.int64)
    for position, green in zip(positions, greens, strict=True):
        yellow = ~green & (available > 0)
        available -= yellow
        codes += (2 * green + yellow) * 3**position
    return codes


def feedback_matrix_numpy(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """Plain vectorized numpy version of feedback_matrix: the exact baseline for benchmarks.

    A guess splits into letter groups (a letter and the positions holding it), and a
    group's share of the pattern id depends only on the group and the answer. So each
    distinct group of all the guesses gets one row of shares over the answers, and a
    guess's patterns are the sum of its groups' rows: L row gathers per guess, in blocks
    of guess rows that bound the temporaries.
    """
    guesses, answers = _check_encoded(guesses, answers)
    n_guesses, length = guesses.shape
    n_answers = answers.shape[0]
    dtype = pattern_dtype(length)
    out = np.empty((n_guesses, n_answers), dtype=dtype)
    if out.size == 0:
        return out
    answers_t = np.ascontiguousarray(answers.T)
    counts = np.zeros((ALPHABET_SIZE, n_answers), dtype=np.int64)
    columns = np.arange(n_answers)
    for position in range(length):
        counts[answers_t[position], columns] += 1  # one (letter, answer) pair per column
    bits = 1 << np.arange(length, dtype=np.int64)
    masks = ((guesses[:, :, None] == guesses[:, None, :]) * bits).sum(axis=2)  # (G, L)
    first = (masks & -masks) == bits  # the group's leftmost position represents it
    keys = np.where(first, guesses.astype(np.int64) << length | masks, -1)
    distinct, inverse = np.unique(keys, return_inverse=True)
    shares = np.zeros((distinct.size, n_answers), dtype=dtype)
    for row, key in enumerate(distinct.tolist()):
        if key >= 0:  # -1 marks a position already counted in its group: a zero share
            letter, mask = key >> length, key & ((1 << length) - 1)
            positions = [p for p in range(length) if mask >> p & 1]
            shares[row] = _group_codes(letter, positions, answers_t, counts[letter])
    inverse = inverse.reshape(n_guesses, length)
    rows = max(1, _NUMPY_CHUNK_ELEMENTS // n_answers)
    for start in range(0, n_guesses, rows):
        block = inverse[start : start + rows]
        target = out[start : start + rows]
        np.take(shares, block[:, 0], axis=0, out=target)
        for position in range(1, length):
            target += shares[block[:, position]]
    return out


def feedback(guess: str, answer: str) -> int:
    """Pattern id of one guess against one answer (pure Python; no JIT start-up cost)."""
    codes = encode_words([guess, answer])  # validates letters and equal length
    guess_codes = codes[0].tolist()
    answer_codes = codes[1].tolist()
    colours = [0] * len(guess_codes)
    unmatched = [0] * ALPHABET_SIZE
    for i, (g, a) in enumerate(zip(guess_codes, answer_codes, strict=True)):
        if g == a:
            colours[i] = 2
        else:
            unmatched[a] += 1
    for i, g in enumerate(guess_codes):
        if colours[i] == 0 and unmatched[g] > 0:
            colours[i] = 1
            unmatched[g] -= 1
    return sum(colour * 3**i for i, colour in enumerate(colours))


def pattern_string(pattern_id: int, length: int) -> str:
    """Human-readable pattern, position 0 first: B grey, Y yellow, G green (e.g. "BBYBY")."""
    if length < 1:
        raise ValueError(f"pattern length must be at least 1, got {length}")
    if not 0 <= pattern_id <= all_green(length):
        raise ValueError(f"pattern id {pattern_id} is outside 0..{all_green(length)}")
    letters = []
    for _ in range(length):
        pattern_id, colour = divmod(pattern_id, 3)
        letters.append(_COLOURS[colour])
    return "".join(letters)


def parse_pattern(text: str) -> int:
    """Inverse of pattern_string: "BBYBY" (any case) -> pattern id."""
    if not text:
        raise ValueError("empty pattern string")
    pattern_id = 0
    for i, char in enumerate(text):
        colour = _COLOUR_CODE.get(char.upper()) if char in "BYGbyg" else None
        if colour is None:
            raise ValueError(f"invalid colour {char!r} at position {i} in pattern {text!r}")
        pattern_id += colour * 3**i
    return pattern_id
