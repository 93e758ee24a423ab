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

from pipeline.core import hard_mode
from pipeline.kernels.jit import njit

_PER_WORD = 13  # letter counts per uint64 of packed_words, 4 bits each (a count is <= 7)
_GUARD = sum(8 << (4 * i) for i in range(_PER_WORD))  # the top bit of every 4-bit field
# Words of more than 7 letters may hold a letter 8 to 10 times: their counts take 8-bit
# fields, 7 per uint64 (packed_words then has 5 columns, and _filter_long reads them).
_SHORT = 7
_LONG_PER_WORD = 7
_LONG_GUARD = sum(128 << (8 * i) for i in range(_LONG_PER_WORD))
_add_turn = njit(cache=True, nogil=True)(hard_mode.add_turn)


def pattern_digits(length: int) -> np.ndarray:
    """(3**length, length) uint8 table: the colour of each position in each pattern id."""
    return hard_mode.pattern_colours(np.arange(3**length), length).astype(np.uint8)


def packed_words(encoded: np.ndarray) -> np.ndarray:
    """(G, 3) uint64 per word: letter + 1 in 5 bits per position, then the letter counts in
    4-bit fields (letters 0-12 in the second word, 13-25 in the third) for filter_allowed;
    beyond 7 letters (G, 5), the counts in 8-bit fields (letters 0-6, 7-13, 14-20, 21-25)."""
    short = encoded.shape[1] <= _SHORT
    per_word, bits = (_PER_WORD, 4) if short else (_LONG_PER_WORD, 8)
    packed = np.zeros((encoded.shape[0], 3 if short else 5), dtype=np.uint64)
    for position in range(encoded.shape[1]):
        letters = encoded[:, position].astype(np.uint64)
        packed[:, 0] |= (letters + np.uint64(1)) << np.uint64(5 * position)
        np.add.at(
            packed,
            (np.arange(encoded.shape[0]), 1 + letters // np.uint64(per_word)),
            np.uint64(1) << (np.uint64(bits) * (letters % np.uint64(per_word))),
        )
    return packed


@njit(cache=True, nogil=True)
def child_state(green, mins, depth, letters, digits, guess, pattern) -> None:
    """Write state[depth + 1] = state[depth] plus the turn (guess, pattern)."""
    green[depth + 1] = green[depth]
    mins[depth + 1] = mins[depth]
    _add_turn(green[depth + 1], mins[depth + 1], letters[guess], digits[pattern])


@njit(cache=True, nogil=True)
def _green_mask(green):
    """(mask, target) over the packed letters: the 5-bit fields the greens fix, and the
    letter + 1 each must hold."""
    mask = np.uint64(0)
    target = np.uint64(0)
    for i in range(green.shape[0]):
        if green[i] >= 0:
            mask |= np.uint64(31) << np.uint64(5 * i)
            target |= np.uint64(green[i] + 1) << np.uint64(5 * i)
    return mask, target


@njit(cache=True, nogil=True)
def filter_allowed(source, packed, green, mins, out) -> int:
    """Keep the words of `source` that meet the state (green, mins); write them to out and
    return how many. Greens compare under a mask of the packed letters; letter counts
    compare as 4-bit fields in one subtraction per word (a field that is too small borrows
    its guard bit, after Selby's okhard); words of more than 7 letters: _filter_long."""
    if packed.shape[1] > 3:
        return _filter_long(source, packed, green, mins, out)
    mask, target = _green_mask(green)
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


@njit(cache=True, nogil=True)
def _filter_long(source, packed, green, mins, out) -> int:
    """filter_allowed for words of more than _SHORT letters (8-bit count fields)."""
    mask, target = _green_mask(green)
    need = np.zeros(packed.shape[1], dtype=np.uint64)  # need[0] unused
    for a in range(mins.shape[0]):
        need[1 + a // _LONG_PER_WORD] += np.uint64(mins[a]) << np.uint64(8 * (a % _LONG_PER_WORD))
    guard = np.uint64(_LONG_GUARD)
    kept = 0
    for index in range(source.shape[0]):
        word = source[index]
        ok = (packed[word, 0] & mask) == target
        for w in range(1, packed.shape[1]):
            ok = ok and ((packed[word, w] | guard) - need[w]) & guard == guard
        if ok:
            out[kept] = word
            kept += 1
    return kept
