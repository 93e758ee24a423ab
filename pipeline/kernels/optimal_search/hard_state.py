"""NYT hard mode for the optimal search: constraint states and the guesses they allow.

The rule itself is pipeline.core.hard_mode's: `add_turn` derives what a (guess, reply)
requires, and is compiled here as it is written there. A state is those requirements
accumulated along a path of the tree: the green letter per position (-1 when none) and
the minimum count per letter. The allowed guesses at a node are a function of its state,
so the search keys its memo on the state (plus the answer set), which is exact.

Every possible answer satisfies all requirements so far, so answers are always allowed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.core import hard_mode

_PER_WORD = 13  # letter counts per uint64 of packed_words, 4 bits each (a count is <= 7)
_GUARD = sum(8 << (4 * i) for i in range(_PER_WORD))  # the top bit of every 4-bit field
_add_turn = njit(cache=True, nogil=True)(hard_mode.add_turn)


def pattern_digits(length: int) -> np.ndarray:
    """(3**length, length) uint8 table: the colour of each position in each pattern id."""
    return hard_mode.pattern_colours(np.arange(3**length), length).astype(np.uint8)


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
def child_state(green, mins, depth, letters, digits, guess, pattern) -> None:
    """Write state[depth + 1] = state[depth] plus the turn (guess, pattern)."""
    green[depth + 1] = green[depth]
    mins[depth + 1] = mins[depth]
    _add_turn(green[depth + 1], mins[depth + 1], letters[guess], digits[pattern])


@njit(cache=True, nogil=True)
def filter_allowed(source, packed, green, mins, out) -> int:
    """Keep the words of `source` that meet the state (green, mins); write them to out and
    return how many. Greens compare under a mask of the packed letters; letter counts
    compare as 4-bit fields in one subtraction per word (a field that is too small borrows
    its guard bit, after Selby's okhard)."""
    mask = np.uint64(0)
    target = np.uint64(0)
    for i in range(green.shape[0]):
        if green[i] >= 0:
            mask |= np.uint64(31) << np.uint64(5 * i)
            target |= np.uint64(green[i] + 1) << np.uint64(5 * i)
    need_low = np.uint64(0)
    need_high = np.uint64(0)
    for a in range(mins.shape[0]):
        field = np.uint64(mins[a]) << np.uint64(4 * (a % _PER_WORD))
        if a < _PER_WORD:
            need_low += field
        else:
            need_high += field
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
