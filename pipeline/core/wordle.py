"""Wordle's rules as data: letters as codes, replies as pattern ids, and their spellings.

A pattern id is sum(c_i * 3**i) with position 0 least significant and c = 0 grey,
1 yellow, 2 green, so all green is 3**L - 1. Repeated letters follow Wordle exactly:
greens first, then left to right a guess letter is yellow only while the answer still
has an unmatched copy of it. The word length L always comes from the data.

Matrices are indexed [guess, answer] (rows are guesses, columns are answers). The
engines that compute patterns live in pipeline.kernels.feedback.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import numpy as np

ALPHABET_SIZE = 26
# The longest words the whole pipeline supports: every pattern id of 3**L fits the
# kernels' dense reply histograms (3**10 = 59049 bins) and uint16 chunk files.
MAX_WORD_LENGTH = 10
# Wordle's rules: six guesses to find the word (the NYT's "How to play"). The one home of
# the limit: the optimal search, its artifacts, the strategies' success and the assistant.
MAX_GUESSES = 6
_NOT_ASCII_LETTER = re.compile(r"[^A-Za-z]")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_COLOURS = "BYG"  # index = colour code: 0 grey (B), 1 yellow (Y), 2 green (G)
_COLOUR_CODE = {"B": 0, "Y": 1, "G": 2}


def encode_words(words: Sequence[str]) -> np.ndarray:
    """Return an (n, L) uint8 array of letter codes 0..25, the input every kernel expects."""
    if isinstance(words, str):
        raise ValueError("encode_words expects a sequence of words, not a single string")
    if len(words) == 0:
        raise ValueError("cannot encode an empty word list")
    length = len(words[0])
    check_length(length)
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


def describe_character(char: str) -> str:
    """'U+212A KELVIN SIGN': a character named by code point, so no look-alike can hide."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def first_non_letter(word: str) -> str | None:
    """Why `word` is not made of ASCII letters A-Z, a-z only (the first other character,
    its code point and 1-based position), or None when it is.

    Only ASCII is a letter here: str.lower() would turn U+212A KELVIN SIGN into 'k' and
    U+0130 into 'i' plus a combining dot, so every other character is refused, never folded.
    """
    bad = _NOT_ASCII_LETTER.search(word)
    if bad is None:
        return None
    return f"{describe_character(bad.group())} at position {bad.start() + 1}"


def ascii_lower(word: str) -> str:
    """`word` with A-Z lowered and every other character left as it is."""
    return word.translate(_ASCII_LOWER)


def check_length(length: int) -> None:
    """Fail unless words of this length are supported end to end."""
    if not 1 <= length <= MAX_WORD_LENGTH:
        raise ValueError(f"word length must be between 1 and {MAX_WORD_LENGTH}, got {length}")


def pattern_dtype(length: int) -> np.dtype:
    """Smallest unsigned dtype holding every pattern id of this length (uint8 for 5 letters)."""
    check_length(length)
    return np.dtype(np.uint8) if 3**length <= 1 << 8 else np.dtype(np.uint16)


def all_green(length: int) -> int:
    """Pattern id of a solved guess: every position green."""
    return 3**length - 1


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


def spell_patterns(pattern_ids: np.ndarray, length: int) -> tuple[list[str], np.ndarray]:
    """pattern_string of many ids, each distinct id spelled once: (the distinct spellings,
    the position of each id's spelling among them)."""
    distinct, inverse = np.unique(np.asarray(pattern_ids, dtype=np.int64), return_inverse=True)
    return [pattern_string(int(p), length) for p in distinct.tolist()], inverse.ravel()


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
