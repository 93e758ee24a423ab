"""NYT hard-mode bookkeeping for the optimal search: constraint states and allowed guesses.

After a reply every later guess must keep each green letter in place and contain every
revealed (green or yellow) letter at least as often as that reply revealed it; grey letters
may be reused. The constraints accumulate, so the set of allowed guesses at a node is a
function of a small state: the green letter per position (-1 when none) and the minimum
count per letter. The search keys its memo on that state (plus the answer set), which is
exact: two nodes with equal states allow exactly the same guesses.

Every possible answer satisfies all constraints so far, so answers are always allowed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GREEN = 2  # colour code of a green tile (0 grey, 1 yellow)
_PER_WORD = 13  # letter counts per uint64 of packed_words, 4 bits each (a count is <= 7)
_GUARD = sum(8 << (4 * i) for i in range(_PER_WORD))  # the top bit of every 4-bit field


def pattern_digits(length: int) -> np.ndarray:
    """(3**length, length) uint8 table: the colour of each position in each pattern id."""
    ids = np.arange(3**length)
    return np.stack([(ids // 3**i) % 3 for i in range(length)], axis=1).astype(np.uint8)


def packed_words(encoded: np.ndarray) -> np.ndarray:
    """(G, 3) uint64 per word: letter + 1 in 5 bits per position, then the letter counts in
    4-bit fields (letters 0-12 in the second word, 13-25 in the third) for filter_allowed."""
    packed = np.zeros((encoded.shape[0], 3), dtype=np.uint64)
    for position in range(encoded.shape[1]):
        letters = encoded[:, position].astype(np.uint64)
        packed[:, 0] |= (letters + np.uint64(1)) << np.uint64(5 * position)
        np.add.at(
            packed,
            (np.arange(encoded.shape[0]), 1 + letters // _PER_WORD),
            np.uint64(1) << (np.uint64(4) * (letters % _PER_WORD)),
        )
    return packed


@njit(cache=True, nogil=True)
def revealed_counts(letters: np.ndarray, digits: np.ndarray, guess: int, pattern: int, out):
    """Fill out[26] with how many tiles of each letter the reply showed green or yellow."""
    out[:] = 0
    for i in range(letters.shape[1]):
        if digits[pattern, i] != 0:
            out[letters[guess, i]] += 1


@njit(cache=True, nogil=True)
def child_state(green, mins, depth, letters, digits, guess, pattern, revealed) -> bool:
    """Write state[depth + 1] = state[depth] plus (guess, pattern); True when it changed."""
    changed = False
    for i in range(green.shape[1]):
        value = green[depth, i]
        if digits[pattern, i] == GREEN:
            if value != letters[guess, i]:
                changed = True
            value = letters[guess, i]
        green[depth + 1, i] = value
    revealed_counts(letters, digits, guess, pattern, revealed)
    for a in range(mins.shape[1]):
        value = mins[depth, a]
        if revealed[a] > value:
            value = revealed[a]
            changed = True
        mins[depth + 1, a] = value
    return changed


@njit(cache=True, nogil=True)
def filter_allowed(source, packed, letters, digits, guess, pattern, out) -> int:
    """Keep the words of `source` that obey (guess, pattern); write them to out, return count.

    Only the new constraint is checked: `source` already obeys every earlier one. Greens
    compare under a mask of the packed letters; letter counts compare as 4-bit fields in
    one subtraction per word (a field that is too small borrows its guard bit, after
    Selby's okhard).
    """
    mask = np.uint64(0)
    need_low = np.uint64(0)
    need_high = np.uint64(0)
    for i in range(letters.shape[1]):
        if digits[pattern, i] == GREEN:
            mask |= np.uint64(31) << np.uint64(5 * i)
        if digits[pattern, i] != 0:
            a = letters[guess, i]
            field = np.uint64(1) << np.uint64(4 * (a % _PER_WORD))
            if a < _PER_WORD:
                need_low += field
            else:
                need_high += field
    target = packed[guess, 0] & mask
    guard = np.uint64(_GUARD)
    kept = 0
    for index in range(source.shape[0]):
        word = source[index]
        low = ((packed[word, 1] | guard) - need_low) & guard
        high = ((packed[word, 2] | guard) - need_high) & guard
        if (packed[word, 0] & mask) == target and low == guard and high == guard:
            out[kept] = word
            kept += 1
    return kept
