"""What the user types: guesses and their colours, checked and spelled one way.

Colours may be written as letters (B grey, Y yellow, G green, any case), digits (0 grey,
1 yellow, 2 green) or the squares Wordle's share button copies: ⬛ or ⬜ grey, 🟨 yellow,
🟩 green, and in high-contrast mode 🟦 yellow, 🟧 green. An emoji's variation selector
(U+FE0F), which some keyboards add, is ignored. A guess must be letters a-z: any other
character is refused by its code point, never folded (U+212A KELVIN SIGN lowers to 'k'
in Python, and must not become one).
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.core.errors import PipelineError, UsageError
from pipeline.core.wordle import ascii_lower, describe_character, first_non_letter

GREY, YELLOW, GREEN = 0, 1, 2
COLOUR_LETTERS = "BYG"
_SPELLINGS = {
    "B": GREY, "b": GREY, "0": GREY, "\u2b1b": GREY, "\u2b1c": GREY,
    "Y": YELLOW, "y": YELLOW, "1": YELLOW, "\U0001f7e8": YELLOW, "\U0001f7e6": YELLOW,
    "G": GREEN, "g": GREEN, "2": GREEN, "\U0001f7e9": GREEN, "\U0001f7e7": GREEN,
}  # fmt: skip
_IGNORED = "\ufe0f"  # VARIATION SELECTOR-16 after an emoji square
COLOUR_HELP = "B/Y/G, 0/1/2 or the squares \u2b1b \u2b1c \U0001f7e8 \U0001f7e9"


class TurnError(UsageError):
    """A guess or its colours that cannot be played (exit 2): told apart from a bad option
    so that `--json` can say which the caller must fix ("input", not "usage")."""


class NoCandidateError(PipelineError):
    """Replies that no candidate fits (exit 1): well-formed turns whose colours are wrong."""


def check_word(number: int, text: str) -> str:
    """Guess `number` in lower case; a TurnError unless it is only ASCII letters (the
    first other character named by code point and position, never folded)."""
    if not text:
        raise TurnError(f"guess {number} is empty")
    problem = first_non_letter(text)
    if problem is not None:
        raise TurnError(f"guess {number} {text!r} has characters outside a-z: {problem}")
    return ascii_lower(text)


def parse_colours(number: int, word: str, text: str, length: int) -> str:
    """The colours of guess `number` as B/Y/G letters; a TurnError naming the character."""
    colours = []
    for position, char in enumerate(c for c in text if c not in _IGNORED):
        code = _SPELLINGS.get(char)
        if code is None:
            shown = repr(char) if char.isascii() else f"{char!r} ({describe_character(char)})"
            raise TurnError(
                f"colours {text!r} of guess {number} ({word!r}): {shown} at position "
                f"{position + 1} is not a colour; use {COLOUR_HELP}"
            )
        colours.append(COLOUR_LETTERS[code])
    if len(colours) != length:
        raise TurnError(
            f"colours {text!r} of guess {number} ({word!r}) must have {length} letters, "
            f"not {len(colours)}"
        )
    return "".join(colours)


def pattern_id(colours: str) -> int:
    """B/Y/G letters -> pattern id (sum of c_i * 3**i, position 0 first)."""
    return sum(COLOUR_LETTERS.index(c) * 3**i for i, c in enumerate(colours))


def split_turns(arguments: Sequence[str]) -> list[tuple[str, str]]:
    """(word in lower case, raw colours) pairs from WORD COLOURS ... arguments; the
    words checked in form only (letters a-z), the colours later, against the word."""
    if len(arguments) % 2:
        raise TurnError(
            "give each guess followed by its colours (e.g. tarse BYBBG): "
            f"{arguments[-1]!r} has no colours"
        )
    return [
        (check_word(number, word), colours)
        for number, (word, colours) in enumerate(
            zip(arguments[::2], arguments[1::2], strict=True), 1
        )
    ]
