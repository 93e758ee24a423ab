"""NYT hard mode as data: which guesses are still legal after the turns so far.

The rule (the New York Times' "Hard Mode"): after each (guess, reply), every later guess
must keep each green letter in its position and contain every revealed letter (green or
yellow) at least as many times as that reply revealed it. Grey letters may be reused,
and a yellow letter may stay where it was.

Several turns combine position by position (every green stays) and letter by letter
(the largest count any one reply revealed), so the whole history reduces to one
`Requirements`, and legality is a test of every word against it. This module is the one
place the rule lives: `add_turn` is the rule, written in plain loops over small arrays so
that numba compiles this very function for the optimal search's constraint states
(kernels.optimal_search.hard_state), which only apply the requirements it derives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pipeline.core.wordle import ALPHABET_SIZE

GREY, YELLOW, GREEN = 0, 1, 2


def pattern_colours(pattern_ids: Sequence[int] | np.ndarray, length: int) -> np.ndarray:
    """(T, L) colour codes (0 grey, 1 yellow, 2 green) of pattern ids, position 0 first."""
    ids = np.asarray(pattern_ids, dtype=np.int64).reshape(-1)
    return (ids[:, None] // 3 ** np.arange(length, dtype=np.int64)) % 3


@dataclass(frozen=True)
class Requirements:
    """What every later guess must satisfy: `green[p]` is the letter code position p must
    hold (-1: free), `minimum[c]` how many times letter c must appear at least."""

    green: np.ndarray  # (L,) int64
    minimum: np.ndarray  # (ALPHABET_SIZE,) int64

    @classmethod
    def none(cls, length: int) -> Requirements:
        return cls(np.full(length, -1, dtype=np.int64), np.zeros(ALPHABET_SIZE, dtype=np.int64))


def add_turn(green: np.ndarray, minimum: np.ndarray, guess: np.ndarray, colours: np.ndarray):
    """The rule: tighten `green` (L,) and `minimum` (26,) in place by one turn, an encoded
    guess (L,) and its colours (L,). Each green letter stays in its position; a letter
    shown k times green or yellow must appear at least k times (the largest k any turn
    showed); grey tiles require nothing."""
    length = guess.shape[0]
    for i in range(length):
        if colours[i] == GREEN:
            green[i] = guess[i]
    for i in range(length):
        if colours[i] != GREY:
            times = 0
            for j in range(length):
                if colours[j] != GREY and guess[j] == guess[i]:
                    times += 1
            if times > minimum[guess[i]]:
                minimum[guess[i]] = times


def requirements(guesses: np.ndarray, colours: np.ndarray) -> Requirements:
    """The combined requirements of turns: encoded guesses (T, L) and their colours (T, L)."""
    guesses = np.asarray(guesses, dtype=np.int64).reshape(-1, np.shape(guesses)[-1])
    colours = np.asarray(colours, dtype=np.int64).reshape(guesses.shape)
    result = Requirements.none(guesses.shape[1])
    for guess, colour in zip(guesses, colours, strict=True):
        add_turn(result.green, result.minimum, guess, colour)
    return result


def letter_counts(words: np.ndarray) -> np.ndarray:
    """(G, 26) how often each letter occurs in each encoded word (G, L)."""
    words = np.asarray(words)
    return (words[:, :, None] == np.arange(ALPHABET_SIZE)).sum(axis=1, dtype=np.int64)


def legal_mask(
    words: np.ndarray, rule: Requirements, counts: np.ndarray | None = None
) -> np.ndarray:
    """Bool (G,): which encoded words (G, L) are legal guesses under `rule`.

    `counts` (letter_counts(words)) may be passed in when the same words are tested often.
    """
    words = np.asarray(words)
    mask = np.ones(words.shape[0], dtype=bool)
    for position in np.flatnonzero(rule.green >= 0).tolist():
        mask &= words[:, position] == rule.green[position]
    needed = np.flatnonzero(rule.minimum > 0)
    if needed.size:
        counts = letter_counts(words) if counts is None else counts
        mask &= np.all(counts[:, needed] >= rule.minimum[needed], axis=1)
    return mask


def violation(word: np.ndarray, rule: Requirements) -> str | None:
    """Why one encoded word (L,) breaks `rule`, in words (the first problem), or None."""
    word = np.asarray(word, dtype=np.int64)
    for position in np.flatnonzero(rule.green >= 0).tolist():
        if word[position] != rule.green[position]:
            letter = chr(ord("a") + int(rule.green[position]))
            return f"position {position + 1} must be {letter!r} (green)"
    counts = np.bincount(word, minlength=ALPHABET_SIZE)
    for code in np.flatnonzero(rule.minimum > counts).tolist():
        times = int(rule.minimum[code])
        letter = chr(ord("a") + code)
        return f"it must contain {letter!r}" + ("" if times == 1 else f" at least {times} times")
    return None
