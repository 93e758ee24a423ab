"""Selby's endgame cut-off (optimal_search.endgame) against brute force.

The verdict itself is checked node by node: wherever the criterion (the largest
one-position family cannot be split in the guesses left) says a node is INF, brute force
finds no tree for it. The search with the cut-off, without it, and with each half alone
gives brute force's totals and the same trees, in both modes and at several guess
limits, with and without a cutoff; and the cut-off does fire on these lists.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from pipeline.core.wordle import encode_words
from pipeline.kernels.optimal_search import TREE_FIELDS
from pipeline.kernels.optimal_search.endgame import (
    answer_families,
    family_members,
    largest_family,
    spread,
)
from tests.support.naive import feedback
from tests.support.optimal_reference import (
    CASES,
    INF,
    brute,
    lists,
    openers,
    solve,
)

ENDGAME = ("endgame", "endgame_search")
FAMILY_CASES = ["two-families", "three-families"]


def test_families_are_the_answers_that_differ_at_one_position():
    words = ["bight", "fight", "light", "might", "mills", "fills", "hills", "tolls"]
    families, count = answer_families(encode_words(words))
    assert count == 1  # .ight has 4; .ills 3 (below Selby's 4); tolls none
    assert families[:4, 0].tolist() == [0, 0, 0, 0]
    assert (families[4:, 0] == -1).all() and (families[:, 1:] == -1).all()
    counts = np.zeros(1, dtype=np.int32)
    answers = np.arange(len(words), dtype=np.int32)
    assert largest_family(families, counts, answers) == (0, 4) and counts[0] == 0
    out = np.zeros(len(words), dtype=np.int32)
    assert family_members(families, answers[2:], 0, out) == 2
    assert out[:2].tolist() == [2, 3]
    assert largest_family(families, counts, answers[4:]) == (-1, 0)


def naive_spread(replies, guesses, live, r):
    gains = sorted((len({replies[g][h] for h in live}) - 1 for g in guesses), reverse=True)
    return sum(gains[:r])


@pytest.mark.parametrize("case", FAMILY_CASES)
def test_spread_is_the_sum_of_the_largest_splits(case):
    w = lists(case)
    rng = random.Random(62)
    seen = np.zeros(3**5, dtype=np.int32)
    top = np.zeros(6, dtype=np.int64)
    for _ in range(200):
        live = np.array(sorted(rng.sample(range(w.matrix.shape[1]), rng.randint(2, 9))),
                        dtype=np.int32)  # fmt: skip
        guesses = np.array(rng.sample(range(len(w.words)), rng.randint(1, 12)), dtype=np.int32)
        r = rng.randint(0, 5)
        expected = naive_spread(w.matrix, guesses.tolist(), live.tolist(), r)
        assert spread(w.matrix, guesses, live, r, 10**6, seen, top) == expected
        early = spread(w.matrix, guesses, live, r, 2, seen, top)
        assert early == expected or 2 <= early <= expected
        assert not seen.any()


def criterion_says_inf(case, answer_set, left, allowed):
    """The endgame verdict of a node, written from its definition in plain Python."""
    words, answers = CASES[case]
    keys = Counter(a[:p] + "." + a[p + 1 :] for a in answers for p in range(5))
    inside = Counter(answers[h][:p] + "." + answers[h][p + 1 :]
                     for h in answer_set for p in range(5))  # fmt: skip
    family, mx = max(((k, c) for k, c in inside.items() if keys[k] >= 4),
                     key=lambda item: item[1], default=(None, 0))  # fmt: skip
    if family is None or mx - 1 <= left - 1:
        return False
    p = family.index(".")
    live = [h for h in answer_set if answers[h][:p] + "." + answers[h][p + 1 :] == family]
    gains = sorted((len({feedback(words[g], answers[h]) for h in live}) - 1
                    for g in allowed), reverse=True)  # fmt: skip
    return mx - 1 > sum(gains[: left - 1])


@pytest.mark.parametrize("case", FAMILY_CASES)
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_a_node_the_criterion_cuts_has_no_tree(case, hard):
    """Nodes reached by real replies (after one or two guesses, every hard-mode rule
    applied) and random subsets of them: each one the criterion calls INF is INF."""
    reference = brute(case, hard)
    rng = random.Random(7)
    cut = 0
    for opener in openers(case):
        for left in (2, 3, 4, 5):
            for answer_set, allowed in nodes_after(reference, opener, rng):
                if criterion_says_inf(case, answer_set, left, allowed):
                    cut += 1
                    assert reference.node(answer_set, left, allowed) == INF
    assert cut > 20


def nodes_after(reference, opener, rng):
    """The classes of an opener and of one random second guess in each, and a random
    subset of each class, with the guesses allowed there."""
    n = len(reference.answers)
    everything = reference.everything
    for reply, members in classes(reference, frozenset(range(n)), opener).items():
        allowed = reference.child(everything, opener, reply)
        yield members, allowed
        if len(members) > 3:
            yield frozenset(rng.sample(sorted(members), len(members) - 2)), allowed
        second = rng.choice(sorted(allowed))
        for reply2, deeper in classes(reference, members, second).items():
            yield deeper, reference.child(allowed, second, reply2)


def classes(reference, answer_set, guess):
    found: dict = {}
    for a in answer_set:
        reply = reference.replies[guess][a]
        if reply != reference.all_green:
            found.setdefault(reply, set()).add(a)
    return {reply: frozenset(members) for reply, members in found.items()}


@pytest.mark.parametrize("case", ["random", *FAMILY_CASES])
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_with_and_without_the_cut_off_equals_brute_force(case, hard):
    reference = brute(case, hard)
    for max_guesses in (3, 4, 5, 6):
        for opener in openers(case):
            expected = reference.opener(opener, max_guesses)
            results = [solve(case, opener, hard, max_guesses, off=off, on=ENDGAME)
                       for off in ((), ENDGAME, ENDGAME[:1], ENDGAME[1:])]  # fmt: skip
            results.append(solve(case, opener, hard, max_guesses))  # the default
            for result in results:
                assert result.proven
                assert (INF if result.total is None else result.total) == expected
                for name in TREE_FIELDS:
                    assert np.array_equal(getattr(result, name), getattr(results[0], name))


@pytest.mark.parametrize("case", FAMILY_CASES)
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_cutoff_searches_agree_with_and_without_it(case, hard):
    """The screen's search (a cutoff): the same total with the cut-off as without; a
    refuted opener's bound may differ (a value at or above beta may be any bound), and
    lies between the cutoff and brute force's total either way."""
    reference = brute(case, hard)
    for max_guesses in (4, 6):
        for opener in openers(case):
            expected = reference.opener(opener, max_guesses)
            for cutoff in (10, 60) if expected == INF else (expected + 1, expected - 2):
                on = solve(case, opener, hard, max_guesses, cutoff=cutoff, on=ENDGAME)
                off = solve(case, opener, hard, max_guesses, cutoff=cutoff, off=ENDGAME)
                default = solve(case, opener, hard, max_guesses, cutoff=cutoff)
                assert on.total == off.total == default.total
                for result in (on, off, default):
                    if result.total is not None:
                        assert result.total == expected and result.proven
                    elif result.lower_bound is None:
                        assert expected == INF and result.proven
                    else:
                        assert cutoff <= result.lower_bound <= expected


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_the_cut_off_saves_nodes_on_families(hard):
    def nodes(**switches):
        return sum(solve("two-families", o, hard, 4, **switches).nodes
                   for o in openers("two-families"))  # fmt: skip

    assert nodes() == nodes(off=ENDGAME[1:])  # the default: the static cut-off alone
    assert nodes(on=ENDGAME[:1]) < nodes(off=ENDGAME)  # the static cut-off alone
    assert nodes(on=ENDGAME[1:], off=ENDGAME[:1]) < nodes(off=ENDGAME)
