"""The hard-mode rule has one definition, pipeline.core.hard_mode.add_turn: checked here
against the NYT rule written out naively (tests.support.naive_advice.legal), both as the assistant
applies it (requirements, a vectorised mask) and as the optimal search does (constraint
states built turn by turn, the packed filter of each node's allowed guesses)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pipeline.core import hard_mode
from pipeline.core.wordle import encode_words, pattern_string
from pipeline.kernels.optimal_search.hard_state import (
    child_state,
    filter_allowed,
    packed_words,
    pattern_digits,
)
from tests.support.naive import feedback
from tests.support.naive_advice import legal

TURNS = 4


def random_words(rng: random.Random, n: int, alphabet: str) -> list[str]:
    """n distinct five-letter words over a few letters, so most repeat a letter."""
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choice(alphabet) for _ in range(5)))
    return sorted(words)


@pytest.mark.parametrize("alphabet", ["abest", "eeaorst", "abcdefghijklmnopqrstuvwxyz"])
@pytest.mark.parametrize("seed", range(3))
def test_search_states_and_mask_follow_the_rule_written_out(seed, alphabet):
    rng = random.Random(seed)
    words = random_words(rng, 60, alphabet)
    encoded = encode_words(words)
    packed, digits = packed_words(encoded), pattern_digits(5)
    for _ in range(25):
        answer = rng.choice(words)
        green = np.full((TURNS + 1, 5), -1, dtype=np.int32)
        mins = np.zeros((TURNS + 1, 26), dtype=np.int32)
        allowed = np.arange(len(words), dtype=np.int32)
        turns: list[tuple[str, str]] = []
        for depth, guess in enumerate(rng.sample(words, TURNS)):
            pattern = feedback(guess, answer)
            turns.append((guess, pattern_string(pattern, 5)))
            expected = [legal(word, turns) for word in words]
            assert expected[words.index(answer)]
            colours = hard_mode.pattern_colours([feedback(g, answer) for g, _ in turns], 5)
            rule = hard_mode.requirements(encode_words([g for g, _ in turns]), colours)
            assert hard_mode.legal_mask(encoded, rule).tolist() == expected
            child_state(green, mins, depth, encoded, digits, words.index(guess), pattern)
            assert green[depth + 1].tolist() == rule.green.tolist()
            assert mins[depth + 1].tolist() == rule.minimum.tolist()
            out = np.empty_like(allowed)
            allowed = out[: filter_allowed(allowed, packed, green[depth + 1], mins[depth + 1], out)]
            assert allowed.tolist() == [row for row, ok in enumerate(expected) if ok]


def test_add_turn_counts_repeated_letters():
    """speed against geese (YBGYB): the green e stays, and e is needed twice, s once."""
    green, minimum = np.full(5, -1), np.zeros(26, dtype=np.int64)
    guess = encode_words(["speed"])[0]
    colours = hard_mode.pattern_colours([feedback("speed", "geese")], 5)[0]
    hard_mode.add_turn(green, minimum, guess, colours)
    e, s = ord("e") - ord("a"), ord("s") - ord("a")
    assert green.tolist() == [-1, -1, e, -1, -1]
    assert {int(c): int(minimum[c]) for c in np.flatnonzero(minimum)} == {e: 2, s: 1}
