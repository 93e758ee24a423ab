"""Feedback patterns of guesses x answers: the checked public function and its two engines.

The numba kernel (feedback_jit) is the engine for pipeline jobs. Small interactive jobs
(the assistant) use the numpy engine below, because importing numba costs more than
their whole answer. Both give the same pattern ids; the tests compare them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pipeline.core.arrays import distinct
from pipeline.core.wordle import ALPHABET_SIZE, check_length, pattern_dtype

# Up to this many (guess, answer) pairs the numpy engine runs; beyond, the kernel.
NUMPY_MAX_PAIRS = 20_000_000
_NUMPY_CHUNK_ELEMENTS = 1 << 22  # bounds the (rows, A) temporaries of the numpy engine


def check_encoded(guesses: np.ndarray, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
    check_length(guesses.shape[1])
    return (
        np.ascontiguousarray(guesses, dtype=np.uint8),
        np.ascontiguousarray(answers, dtype=np.uint8),
    )


def feedback_matrix(
    guesses: np.ndarray, answers: np.ndarray, *, engine: str = "auto"
) -> np.ndarray:
    """(G, A) pattern ids of encoded guesses (G, L) x answers (A, L).

    engine: "jit" (numba), "numpy", or "auto" (numpy up to NUMPY_MAX_PAIRS pairs).
    """
    guesses, answers = check_encoded(guesses, answers)
    if engine == "auto":
        engine = "numpy" if guesses.shape[0] * answers.shape[0] <= NUMPY_MAX_PAIRS else "jit"
    if engine == "numpy":
        return _numpy_patterns(guesses, answers)
    if engine != "jit":
        raise ValueError(f"engine must be 'auto', 'jit' or 'numpy', not {engine!r}")
    out = np.empty((guesses.shape[0], answers.shape[0]), dtype=pattern_dtype(guesses.shape[1]))
    if out.size:
        from pipeline.kernels.feedback_jit import fill_patterns, letter_counts

        answers_t = np.ascontiguousarray(answers.T)
        fill_patterns(guesses, answers_t, letter_counts(answers_t), out)
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


def _numpy_patterns(guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """The numpy engine: a guess splits into letter groups (a letter and the positions
    holding it), and a group's share of the pattern id depends only on the group and the
    answer. So each distinct group of all the guesses gets one row of shares over the
    answers, and a guess's patterns are the sum of its groups' rows."""
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
    groups, _, inverse = distinct(keys)  # np.unique without its numpy.ma import
    shares = np.zeros((groups.size, n_answers), dtype=dtype)
    for row, key in enumerate(groups.tolist()):
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
