"""pipeline.core.hard_mode against the NYT rule written out naively (tests.support.naive_advice)."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.core import hard_mode
from pipeline.core.wordle import encode_words, pattern_string
from tests.support.naive import feedback
from tests.support.naive_advice import legal

WORDS = sorted(
    {
        "abbey", "abide", "added", "adieu", "eerie", "geese", "greet", "lever", "llama",
        "mamma", "nanny", "speed", "steel", "tarse", "teeth", "tiare", "trace", "crate",
        "sissy", "sassy", "asses", "esses", "radar", "tweet", "ewers", "emcee", "otter",
        "eater", "erase", "serve", "raise", "arise", "aroma", "array", "atoll", "offer",
    }
)  # fmt: skip


def turns_for(answer: str, guesses: list[str]) -> list[tuple[str, str]]:
    return [(g, pattern_string(feedback(g, answer), 5)) for g in guesses]


def mask_of(turns: list[tuple[str, str]]) -> np.ndarray:
    if not turns:
        rule = hard_mode.Requirements.none(5)
    else:
        guesses = encode_words([g for g, _ in turns])
        colours = np.array([["BYG".index(c) for c in text] for _, text in turns])
        rule = hard_mode.requirements(guesses, colours)
    return hard_mode.legal_mask(encode_words(WORDS), rule)


GAMES = [
    ("geese", ["eerie", "speed"]),
    ("teeth", ["tarse", "tweet"]),
    ("mamma", ["llama", "array"]),
    ("esses", ["sassy", "asses"]),
    ("radar", ["array", "tarse"]),
    ("abbey", ["added"]),
    ("emcee", ["eerie", "geese", "speed"]),
]


@pytest.mark.parametrize(("answer", "guesses"), GAMES)
def test_mask_equals_the_rule_written_out(answer, guesses):
    for k in range(len(guesses) + 1):
        turns = turns_for(answer, guesses[:k])
        expected = [legal(word, turns) for word in WORDS]
        assert mask_of(turns).tolist() == expected
        assert legal(answer, turns)  # the answer itself is always a legal guess


def test_every_word_against_every_answer_one_turn():
    """One (guess, reply) for every pair of words: the vectorised mask, the naive rule."""
    encoded = encode_words(WORDS)
    counts = hard_mode.letter_counts(encoded)
    for guess in WORDS:
        for answer in WORDS:
            turns = turns_for(answer, [guess])
            colours = hard_mode.pattern_colours([feedback(guess, answer)], 5)
            rule = hard_mode.requirements(encode_words([guess]), colours)
            mask = hard_mode.legal_mask(encoded, rule, counts)
            assert mask.tolist() == [legal(word, turns) for word in WORDS], (guess, answer)


def test_grey_letters_may_be_reused_and_yellows_may_stay():
    # tarse against teeth: t green, e yellow; a, r, s grey
    rule = hard_mode.requirements(
        encode_words(["tarse"]), hard_mode.pattern_colours([feedback("tarse", "teeth")], 5)
    )
    verdicts = {
        w: hard_mode.violation(encode_words([w])[0], rule) for w in ["tarse", "teeth", "trace"]
    }
    assert verdicts == {"tarse": None, "teeth": None, "trace": None}
    assert hard_mode.violation(encode_words(["eerie"])[0], rule) == "position 1 must be 't' (green)"
    assert hard_mode.violation(encode_words(["tiara"])[0], rule) == "it must contain 'e'"


def test_counts_of_repeated_letters():
    # speed against geese is YBGYB: the green e stays, and a second e must be somewhere
    assert pattern_string(feedback("speed", "geese"), 5) == "YBGYB"
    rule = hard_mode.requirements(
        encode_words(["speed"]), hard_mode.pattern_colours([feedback("speed", "geese")], 5)
    )
    assert rule.minimum[ord("e") - ord("a")] == 2
    assert rule.minimum[ord("s") - ord("a")] == 1
    assert hard_mode.violation(encode_words(["stale"])[0], rule) == (
        "position 3 must be 'e' (green)"
    )
    assert hard_mode.violation(encode_words(["sheds"])[0], rule) == (
        "it must contain 'e' at least 2 times"
    )
    assert hard_mode.violation(encode_words(["steel"])[0], rule) is None


def test_pattern_colours_round_trip():
    ids = [feedback(g, a) for g in WORDS[:6] for a in WORDS[-6:]]
    colours = hard_mode.pattern_colours(ids, 5)
    assert ["".join("BYG"[c] for c in row) for row in colours] == [
        pattern_string(i, 5) for i in ids
    ]
