"""Selby's two bounds (pipeline/kernels/optimal_search/selby.py), each called directly at
real nodes and checked against the brute force's exact value there, weighted and not.

The nodes: the root (every answer) and every class one guess leads to, with the guesses
the mode allows there. At each, for every guess: the guess bound is at most the exact
total of playing that guess; each class it leaves, bounded with the most replies any
guess allowed next gives it, is at most the class's exact cost (this guess and the rest).
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from pipeline.kernels.optimal_search.context import INF as NO_LIMIT
from pipeline.kernels.optimal_search.selby import (
    class_bound,
    guess_bound,
    weighted_class_bound,
    weighted_guess_bound,
)
from tests.support.naive import feedback
from tests.support.optimal_reference import (
    CASES,
    INF,
    BruteForce,
    brute,
    random_weights,
)

BOUNDED_CASES = ["fixture", "random", "two-families"]  # three-families: minutes of brute force


def classes_of(reference: BruteForce, answers, guess: int) -> dict[int, list[int]]:
    """Reply -> the answers of `answers` that give it to `guess`."""
    classes: dict[int, list[int]] = defaultdict(list)
    for answer in sorted(answers):
        classes[reference.replies[guess][answer]].append(answer)
    return dict(classes)


def most_replies(reference: BruteForce, members: list[int], allowed) -> int:
    """The most classes any guess of `allowed` splits `members` into."""
    words, answers = reference.words, reference.answers
    return max(len({feedback(words[g], answers[a]) for a in members}) for g in allowed)


def nodes(reference: BruteForce, left: int):
    """(answers, guesses left, allowed guesses) of the root and of every class that one
    of the root's guesses (every fifth word) leads to."""
    root = frozenset(range(len(reference.answers)))
    yield root, left, reference.everything
    for opener in range(0, len(reference.words), 5):
        for reply, members in classes_of(reference, root, opener).items():
            if reply != reference.all_green and len(members) > 1:
                yield (
                    frozenset(members),
                    left - 1,
                    reference.child(reference.everything, opener, reply),
                )


def check_node(reference: BruteForce, answers, left: int, allowed) -> int:
    """Check both bounds of every guess allowed at the node; the number of checks that
    had a finite exact value to meet."""
    weight = reference.weights
    checked = 0
    for guess in sorted(allowed):
        classes = classes_of(reference, answers, guess)
        n = sum(weight[a] for a in answers)
        heaviest = sum(max(weight[a] for a in members) for members in classes.values())
        green = classes.get(reference.all_green, [])
        hit = weight[green[0]] if green else 0
        exact = reference.play(answers, left, allowed, guess)
        if exact != INF:
            assert weighted_guess_bound(n, heaviest, hit) <= exact, (sorted(answers), guess)
            checked += 1
        for reply, members in classes.items():
            total, top = sum(weight[a] for a in members), max(weight[a] for a in members)
            if reply == reference.all_green:
                assert weighted_class_bound(1, total, top, True, NO_LIMIT) == total
                continue
            after = reference.child(allowed, guess, reply)
            cost = total + reference.node(frozenset(members), left - 1, after)
            if cost == INF:
                continue
            replies = most_replies(reference, members, after)
            bound = weighted_class_bound(len(members), total, top, False, replies)
            assert bound <= cost, (members, guess, bound, cost)
            if set(weight) == {1}:
                assert class_bound(len(members), False, replies) == bound
            checked += 1
    return checked


@pytest.mark.parametrize("case", BOUNDED_CASES)
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
@pytest.mark.parametrize("weighted", [False, True], ids=["uniform", "weighted"])
def test_each_bound_is_at_most_the_exact_value(case, hard, weighted):
    words, answers = CASES[case]
    reference = (
        BruteForce(words, answers, hard, weights=random_weights(5, len(answers)))
        if weighted
        else brute(case, hard)
    )
    checked = 0
    for left in (3, 6):
        for node in nodes(reference, left):
            checked += check_node(reference, *node)
    assert checked > 100  # the nodes had values to meet, not only INF


def test_the_bounds_are_met_exactly_where_selby_says():
    """By hand: a class of two answers weighing 2 and 5 costs this guess (7) and then 5 x 1
    + 2 x 2 = 9 with the heavier guessed first: 16 = 3 x 7 - 5. A node of three answers
    that the guess tells apart, the guess one of them: 3 x 3 - 3 - 1 = 5 (1 + 2 + 2); the
    same three weighing 4, 1 and 2, the guess the one of 4: 4 + 2 x 1 + 2 x 2 = 10 =
    3 x 7 - 7 - 4."""
    assert weighted_class_bound(2, 7, 5, False, NO_LIMIT) == 16
    assert guess_bound(3, 3, 1) == 5
    assert weighted_guess_bound(7, 4 + 1 + 2, 4) == 10
    assert [class_bound(c, False, NO_LIMIT) for c in (1, 2, 3)] == [2, 5, 8]
    assert class_bound(5, False, 3) == 3 * 5 - 1 + 2  # at most 3 replies: c - 3 more
