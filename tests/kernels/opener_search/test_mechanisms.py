"""Each pruning mechanism of the opener search alone against brute force.

pipeline.kernels.opener_search.settings names the mechanisms; every one can be switched
off, and none may change a winner. Here each runs alone (every other one off), then none
and all, on small random word lists (few letters: many repeats, ties and perfect splits),
bucket by bucket against tests/support/naive.py, for the count search and the weighted search.
The sizes are scaled down so that every mechanism's buckets occur on lists this small.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.opener_search.count_search import CountSearch
from pipeline.kernels.opener_search.letter_groups import build_letter_groups
from pipeline.kernels.opener_search.settings import MECHANISMS, SearchSettings
from pipeline.kernels.opener_search.weighted import weighted_winner
from pipeline.kernels.partition import bucket_layout
from tests.support.naive import best_second_guess, reply_groups

SEEDS = (0, 1, 2)
CHOICES = [*[(name,) for name in MECHANISMS], (), MECHANISMS]  # each alone, none, all


def choice_id(mechanisms: tuple[str, ...]) -> str:
    return "all" if mechanisms == MECHANISMS else "+".join(mechanisms) or "none"


# Small lists: pair paths on 3-7 answers, survivor pairs from 5, transposed reads up to 3
# answers, bounds 7 guesses at a time.
SMALL = {"pair_sizes": (3, 7), "survivors_from": 5, "small_bucket": 3, "block": 7}
# the bucket sizes each path takes: transposed, pairs, survivor pairs, letter groups
SPANS = [(2, 3), (3, 4), (5, 7), (8, 40)]


def settings_of(mechanisms: tuple[str, ...]) -> SearchSettings:
    return replace(SearchSettings.only(*mechanisms), **SMALL)


@functools.cache
def word_list(seed: int) -> tuple[list[str], list[str]]:
    """(guesses, answers): 70 random words of five letters from five, 40 of them answers."""
    rng = np.random.default_rng(seed)
    words: set[str] = set()
    while len(words) < 70:
        words.add("".join(rng.choice(list("abcde"), 5)))
    guesses = sorted(words)
    answers = sorted(rng.choice(guesses, 40, replace=False).tolist())
    return guesses, answers


@functools.cache
def brute_force(seed: int) -> dict[tuple[int, int], str]:
    """(opener, pattern) -> the best second guess by the rules, over the answers."""
    guesses, answers = word_list(seed)
    weight = {a: 1.0 for a in answers}
    best = {}
    for opener, word in enumerate(guesses):
        for pattern, members in reply_groups(word, answers).items():
            best[opener, pattern] = best_second_guess(guesses, members, weight)[0]
    return best


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("mechanisms", CHOICES, ids=choice_id)
def test_count_search_with_each_mechanism_alone_equals_brute_force(mechanisms, seed):
    guesses, answers = word_list(seed)
    encoded = encode_words(guesses)
    answer_rows = np.array([guesses.index(a) for a in answers], dtype=np.int64)
    matrix = feedback_matrix(encoded, encoded[answer_rows])
    search = CountSearch(matrix, answer_rows, encoded, settings=settings_of(mechanisms))
    values = search.table.values
    expected = brute_force(seed)
    sizes: Counter[int] = Counter()
    for opener in range(len(guesses)):
        columns, starts, patterns = bucket_layout(matrix[opener])
        found = search.winners(columns, starts)
        for b, pattern in enumerate(patterns.tolist()):
            members = [answers[c] for c in columns[starts[b] : starts[b + 1]]]
            second = expected[opener, pattern]
            assert guesses[found.winners[b]] == second, (guesses[opener], members)
            assert bool(found.in_bucket[b]) == (second in members)
            counts = [len(g) for g in reply_groups(second, members).values()]
            assert found.best_s[b] == int(values[counts].sum())
            sizes[len(members)] += 1
    assert all(any(sizes[n] for n in range(lo, hi + 1)) for lo, hi in SPANS), sizes


def test_the_lists_exercise_both_tie_rules():
    """Candidates that beat an earlier word, and earlier words among non-candidates."""
    ties: Counter[str] = Counter()
    for seed in SEEDS:
        guesses, answers = word_list(seed)
        weight = {a: 1.0 for a in answers}
        for word in guesses:
            for members in reply_groups(word, answers).values():
                ties.update(best_second_guess(guesses, members, weight)[2])
    assert ties["candidate_beats_earlier_word"] > 0
    assert ties["earlier_word_among_non_candidates"] > 0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("mechanisms", CHOICES, ids=choice_id)
def test_weighted_search_with_each_mechanism_alone_equals_brute_force(mechanisms, seed):
    """Every word a candidate, weighted; near-zero weights make some perfect splits no
    better than others within the tolerance."""
    guesses, _ = word_list(seed)
    encoded = encode_words(guesses)
    rng = np.random.default_rng(seed)
    weights = np.where(rng.random(len(guesses)) < 0.2, 1e-12, rng.random(len(guesses)) + 0.5)
    weight = dict(zip(guesses, weights.tolist(), strict=True))
    groups = build_letter_groups(encoded, encoded)
    settings = settings_of(mechanisms)
    checked = 0
    for opener in range(0, len(guesses), 7):
        row = feedback_matrix(encoded[[opener]], encoded)[0]
        ids_sorted, starts, _ = bucket_layout(row)
        for b in range(starts.size - 1):
            ids = ids_sorted[starts[b] : starts[b + 1]]
            if ids.size < 2:
                continue
            winner, in_bucket = weighted_winner(
                encoded, groups, ids, weights[ids], settings=settings
            )
            members = [guesses[i] for i in ids]
            second = best_second_guess(guesses, members, weight)[0]
            assert (guesses[winner], in_bucket) == (second, second in members), members
            checked += 1
    assert checked > 20
