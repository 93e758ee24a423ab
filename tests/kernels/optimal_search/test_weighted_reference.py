"""The weighted references of issue 61, before any kernel takes weights: the brute force
(tests/support/optimal_reference.py) and the independent tree checker, with a positive
integer weight per answer (a prior's numerators), so that a tree's total is the sum of
weight x guesses.

The weighted search will be checked against these; here they are checked by hand, by
scaling, and against the uniform search's trees (which any weighted optimum must match
or beat under the same weights).
"""

from __future__ import annotations

import pytest

from tests.support.optimal_reference import (
    CASES,
    INF,
    BruteForce,
    brute,
    openers,
    random_weights,
    solve,
)
from tests.support.tree_check import check_tree

WEIGHED_CASES = ("random", "two-families", "three-families")
# two-families has no hard-mode tree at all (every opener is INF there)
WITH_TREES = ("random", "three-families")


def test_a_heavy_answer_is_guessed_first():
    """Two answers that every guess tells apart: the opener that is the heavier answer
    wins it in one guess and the other in two (by hand: 5 x 1 + 1 x 2 = 7, against
    1 x 1 + 5 x 2 = 11 the other way round; 3 either way when both weigh 1)."""
    words = answers = ["abcde", "fghij"]
    uniform = BruteForce(words, answers, False)
    weighed = BruteForce(words, answers, False, weights=[1, 5])
    assert [uniform.opener(g, 6) for g in (0, 1)] == [3, 3]
    assert [weighed.opener(g, 6) for g in (0, 1)] == [11, 7]
    assert weighed.opener(0, 1) == INF  # one guess cannot win both


@pytest.mark.parametrize("case", WEIGHED_CASES)
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_equal_weights_scale_every_total(case, hard):
    """Weight 3 on every answer triples every total, feasible or not, at every limit."""
    words, answers = CASES[case]
    tripled = BruteForce(words, answers, hard, weights=[3] * len(answers))
    for max_guesses in (3, 4, 6):
        for opener in openers(case):
            assert tripled.opener(opener, max_guesses) == 3 * brute(case, hard).opener(
                opener, max_guesses
            )


@pytest.mark.parametrize("case", WITH_TREES)
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_no_uniform_tree_beats_the_weighted_optimum(case, hard):
    """Each uniform-optimal tree of the search, weighed by the checker, costs at least the
    weighted brute-force optimum of its opener, and for some opener strictly more: the
    weights change which tree is best, so a weighted search has something to find."""
    words, answers = CASES[case]
    weights = random_weights(7, len(answers))
    weighed = BruteForce(words, answers, hard, weights=weights)
    gaps = []
    for max_guesses in (4, 6):
        for opener in openers(case):
            result = solve(case, opener, hard, max_guesses)
            optimum = weighed.opener(opener, max_guesses)
            if result.total is None:
                assert optimum == INF  # no tree at all, whatever the weights
                continue
            check = dict(hard=hard, max_guesses=max_guesses)
            assert check_tree(result, words, answers, **check) == result.total
            cost = check_tree(result, words, answers, weights=weights, **check)
            assert optimum <= cost
            gaps.append(cost - optimum)
    assert gaps and max(gaps) > 0


@pytest.mark.parametrize("edit", ["zero", "one-short", "negative"])
def test_the_checker_refuses_weights_that_are_not_one_positive_per_answer(edit):
    words, answers = CASES["random"]
    weights = {
        "zero": [1] * (len(answers) - 1) + [0],
        "one-short": [1] * (len(answers) - 1),
        "negative": [-2] + [1] * (len(answers) - 1),
    }[edit]
    result = solve("random", 0, False)
    with pytest.raises(ValueError, match="weights must be positive integers, one per answer"):
        check_tree(result, words, answers, hard=False, max_guesses=6, weights=weights)
