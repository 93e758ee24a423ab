"""The optimal search on words of 1, 6 and 10 letters against the brute force of
test_optimal_search: uint16 pattern ids beyond 5 letters, and hard mode's letter counts
beyond 7 copies of a letter (10-letter words of two letters)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pipeline.core.wordle import ALPHABET_SIZE, encode_words
from pipeline.kernels.optimal_search import prepare_lists, solve_opener
from pipeline.kernels.optimal_search.hard_state import (
    child_state,
    filter_allowed,
    packed_words,
    pattern_digits,
)
from pipeline.kernels.optimal_search.partition import distinct_guesses
from tests.support.naive import feedback
from tests.support.optimal_reference import INF, BruteForce, naive_allowed
from tests.support.tree_check import check_tree


def random_words(seed: int, count: int, length: int, alphabet: str) -> list[str]:
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.choice(alphabet) for _ in range(length)))
    return sorted(words)


def family_lists(left: str, right: str, letters: str, alphabet: str, extra=()):
    """Answers left + c + right for each letter c (one position tells them apart), plus
    `extra` and random helper guesses over `alphabet`: 18 words in all."""
    answers = sorted(left + c + right for c in letters)
    length = len(answers[0])
    helpers = random_words(length, 18 - len(answers) - len(extra), length, alphabet)
    return sorted(set(answers) | set(extra) | set(helpers)), answers


# Ten letters, mostly a: letter counts of 8 to 10 copies, beyond 4-bit count fields.
HEAVY = ("aaaaaaaaaa", "baaaaaaaab", "abaaaaaaaa", "bbbbbbbbba")
CASES = {
    "6-letter": family_lists("", "right", "bfwtlmns", "bfwtlmnsrigh"),
    "10-letter": family_lists("abcd", "abcde", "fghijklm", "abcdefghijklm"),
    "10-letter-heavy": family_lists("aaaaaaaaa", "", "bcdefghi", "abcdefghi", HEAVY),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_long_words_equal_brute_force(case, hard):
    words, answers = CASES[case]
    lists = prepare_lists(words, answers)
    assert lists.matrix.dtype == np.uint16
    reference = BruteForce(words, answers, hard)
    for max_guesses in (2, 3, 4, 6):
        for opener in range(0, len(words), 3):
            expected = reference.opener(opener, max_guesses)
            result = solve_opener(
                lists.matrix, lists.answer_rows, lists.encoded, opener,
                hard=hard, max_guesses=max_guesses,
            )  # fmt: skip
            assert result.proven
            if expected == INF:
                assert result.total is None and len(result.guess) == 0
                continue
            checked = check_tree(result, words, answers, hard=hard, max_guesses=max_guesses)
            assert result.total == expected == checked


def test_the_long_cases_are_not_trivial():
    """Depth limits bite, and hard mode has openers with no tree where normal mode wins."""
    for words, answers in CASES.values():
        normal, hard = BruteForce(words, answers, False), BruteForce(words, answers, True)
        assert normal.opener(0, 2) == INF
        assert any(hard.opener(g, 6) == INF > normal.opener(g, 6) for g in range(len(words)))


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_one_letter_words_play_one_guess_at_a_time(hard):
    """A 1-letter reply says only right or wrong: n answers cost 1 + 2 + ... + n guesses,
    and no tree exists once n exceeds max_guesses."""
    words = list("abcdefghij")
    answers = list("bcdefg")
    lists = prepare_lists(words, answers)
    for max_guesses, expected in ((6, 21), (5, None)):
        result = solve_opener(
            lists.matrix, lists.answer_rows, lists.encoded, 1, hard=hard, max_guesses=max_guesses
        )
        assert result.proven and result.total == expected
    result = solve_opener(lists.matrix, lists.answer_rows, lists.encoded, 0, hard=hard)
    assert result.total is None and result.reason.startswith("no tree wins every answer within 6")


def test_hard_filter_counts_up_to_ten_copies():
    """filter_allowed against the naive rule for every (guess, reply) of 10-letter words."""
    words = sorted(set(random_words(3, 30, 10, "ab")) | set(HEAVY))
    encoded = encode_words(words)
    packed, digits = packed_words(encoded), pattern_digits(10)
    source = np.arange(len(words), dtype=np.int32)
    out = np.empty_like(source)
    green = np.full((2, 10), -1, dtype=np.int32)
    mins = np.zeros((2, ALPHABET_SIZE), dtype=np.int32)
    for guess, word in enumerate(words):
        for pattern in sorted({feedback(word, answer) for answer in words}):
            child_state(green, mins, 0, encoded, digits, guess, pattern)
            kept = filter_allowed(source, packed, green[1], mins[1], out)
            expected = naive_allowed(words, range(len(words)), word, pattern)
            assert set(out[:kept].tolist()) == expected


def test_distinct_guesses_survive_the_stamp_wrapping():
    """10-letter words leave 13 bits of generation stamps: the table is cleared when they
    wrap, so a call right after the wrap still keeps one guess per group, not fewer."""
    words = ["abcdefghij", "abcdefghik", "abcdefghil", "zbcdefghij", "abcdefghij"[::-1]]
    encoded = encode_words(words)
    present = sum(1 << a for a in set(encode_words(["abcdefghij"])[0].tolist()))
    table = np.zeros(1 << 15, dtype=np.int64)
    source = np.arange(len(words), dtype=np.int32)
    out = np.empty_like(source)
    period = (1 << (63 - 50)) - 1
    for generation in (1, period, period + 1, period + 2, 2 * period + 1):
        kept = distinct_guesses(source, encoded, present, table, generation, out)
        # k and l are not in H: "...ik" and "...il" split H alike, and z is absent too
        assert out[:kept].tolist() == [0, 1, 3, 4]
