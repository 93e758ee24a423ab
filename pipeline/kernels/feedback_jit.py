"""The numba feedback kernel: pattern ids of guesses x answers, one output row per guess.

Kept apart from pipeline.kernels.feedback (the checked public function) so that small
interactive jobs never pay numba's import. Kernels that compute patterns on the fly
(the square entropy pass, weighted scores, the prior second-guess search) call
`fill_patterns` directly.
"""

from __future__ import annotations

import numpy as np

from pipeline.core.wordle import ALPHABET_SIZE
from pipeline.kernels.jit import njit


@njit(cache=True, nogil=True)
def letter_counts(answers_t: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """(26, A) table: how often each letter occurs in each answer."""
    length, n_answers = answers_t.shape
    counts = np.zeros((ALPHABET_SIZE, n_answers), dtype=np.uint8)
    for i in range(length):
        for j in range(n_answers):
            counts[answers_t[i, j], j] += 1
    return counts


@njit(cache=True, nogil=True)
def fill_patterns(
    guesses: np.ndarray, answers_t: np.ndarray, counts: np.ndarray, out: np.ndarray
) -> None:  # pragma: no cover - compiled
    """Fill out[g, a] with the pattern id of guess g against answer a. (Longer than 60
    lines: the two letter-group cases are tight loops written out, as the hot path.)

    Answers come transposed (L, A) so that for one guess position the inner loop over
    answers reads contiguous memory and vectorizes; it also writes one output row.
    A guess letter that occurs once is yellow iff the answer contains it and the
    position is not green. A repeated guess letter goes through exact Wordle counting:
    available = count in answer - greens of that letter, then left to right each
    non-green occurrence is yellow while available > 0.
    """
    n_guesses, length = guesses.shape
    n_answers = answers_t.shape[1]
    one = out.dtype.type(1)
    two = out.dtype.type(2)
    powers = np.empty(length, dtype=out.dtype)
    power = 1
    for i in range(length):
        powers[i] = power
        power *= 3
    available = np.empty(n_answers, dtype=np.uint8)
    group = np.empty(length, dtype=np.intp)
    for g in range(n_guesses):
        word = guesses[g]
        row = out[g]
        row[:] = 0
        for i in range(length):
            letter = word[i]
            seen_before = False
            for k in range(i):
                if word[k] == letter:
                    seen_before = True
                    break
            if seen_before:
                continue  # handled with the first occurrence of this letter
            size = 0
            for k in range(i, length):
                if word[k] == letter:
                    group[size] = k
                    size += 1
            present = counts[letter]
            if size == 1:
                column = answers_t[i]
                weight = powers[i]
                for j in range(n_answers):
                    code = (one if present[j] != 0 else 0) + (one if column[j] == letter else 0)
                    row[j] += weight * code
                continue
            for j in range(n_answers):
                available[j] = present[j]
            for s in range(size):
                column = answers_t[group[s]]
                for j in range(n_answers):
                    available[j] -= 1 if column[j] == letter else 0
            for s in range(size):
                column = answers_t[group[s]]
                weight = powers[group[s]]
                for j in range(n_answers):
                    if column[j] == letter:
                        row[j] += weight * two
                    elif available[j] > 0:
                        row[j] += weight
                        available[j] -= 1
