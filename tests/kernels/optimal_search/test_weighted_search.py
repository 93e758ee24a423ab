"""The optimal search under answer weights (issue 61) against the weighted brute force.

Weights are positive integers, one per answer; a tree's total is the sum of weight x
guesses. The search must find the brute force's least weighted total at every guess
limit, in both modes, with each pruning alone, and give a tree the independent checker
weighs to the same total. Weights of 1, passed as weights, take the weighted code paths
and must give the uniform search's totals and trees.
"""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.kernels.optimal_search import TREE_FIELDS, solve_openers
from pipeline.kernels.optimal_search.tuning import DEFAULT_OFF, MECHANISMS, UNWEIGHTED
from tests.support.optimal_reference import (
    CASES,
    INF,
    lists,
    openers,
    random_weights,
    solve,
    weighed_brute,
)
from tests.support.tree_check import check_cutoff_result, check_tree


def assert_weighted_optimum(case, hard, opener, max_guesses, result, reference, weights):
    words, answers = CASES[case]
    expected = reference.opener(opener, max_guesses)
    assert result.proven and result.nodes > 0
    if expected == INF:
        assert result.total is None and result.lower_bound is None
        assert result.reason.startswith(f"no tree wins every answer within {max_guesses}")
        return
    assert result.total == expected == result.lower_bound == result.upper_bound
    check = {"hard": hard, "max_guesses": max_guesses, "weights": weights}
    assert check_tree(result, words, answers, **check) == expected
    assert result.answer_weight == sum(weights)
    assert result.mean == pytest.approx(expected / sum(weights))
    assert sum(result.counts) == len(answers) and result.guess[0] == opener


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_weighted_search_equals_brute_force(case, hard):
    for seed in (3, 11):
        reference, weights = weighed_brute(case, hard, seed)
        for max_guesses in (3, 4, 5, 6):
            for opener in openers(case):
                result = solve(case, opener, hard, max_guesses, weights=weights)
                assert_weighted_optimum(case, hard, opener, max_guesses, result, reference, weights)


# Each mechanism that holds under weights alone (every other one off), none, and all.
WEIGHTED = tuple(m for m in MECHANISMS if m not in UNWEIGHTED)
SWITCHES = {
    "all-on": (),
    "all-off": MECHANISMS,
    **{f"{name}-alone": tuple(m for m in MECHANISMS if m != name) for name in WEIGHTED},
}


@pytest.mark.parametrize("switch", sorted(SWITCHES))
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_each_pruning_alone_equals_weighted_brute_force(switch, hard):
    """A pruning switched off changes the work, never the weighted total."""
    off = SWITCHES[switch]
    on = tuple(name for name in DEFAULT_OFF if name not in off)
    for case in ("random", "two-families"):  # as the uniform test: with most prunings
        reference, weights = weighed_brute(case, hard, 3)  # off, larger lists are slow
        for max_guesses in (4, 6):
            for opener in openers(case):
                result = solve(case, opener, hard, max_guesses, off=off, on=on, weights=weights)
                assert_weighted_optimum(case, hard, opener, max_guesses, result, reference, weights)


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_weights_of_one_give_the_uniform_trees(hard):
    """All weights 1 through the weighted paths: the uniform totals and trees (those two
    mechanisms off in both, as a weighted search has them)."""
    for case in ("fixture", "three-families"):
        ones = [1] * len(CASES[case][1])
        for opener in openers(case):
            uniform = solve(case, opener, hard, 6, off=UNWEIGHTED)
            weighed = solve(case, opener, hard, 6, weights=ones)
            assert weighed.total == uniform.total
            for name in TREE_FIELDS:
                assert np.array_equal(getattr(weighed, name), getattr(uniform, name))


def test_heavy_answers_change_the_tree():
    """On the fixture, a weighted optimum is a tree the uniform search does not give."""
    words, answers = CASES["fixture"]
    weights = random_weights(5, len(answers), most=40)
    changed = 0
    for opener in openers("fixture"):
        uniform = solve("fixture", opener, False, 6)
        weighed = solve("fixture", opener, False, 6, weights=weights)
        cost = check_tree(uniform, words, answers, hard=False, max_guesses=6, weights=weights)
        assert weighed.total <= cost
        changed += weighed.total < cost
    assert changed > 0


def test_top_k_under_weights_is_a_real_tree():
    words, answers = CASES["three-families"]
    reference, weights = weighed_brute("three-families", False, 3)
    for opener in openers("three-families"):
        result = solve("three-families", opener, False, 6, top_k=2, weights=weights)
        assert not result.proven
        check = {"hard": False, "max_guesses": 6, "weights": weights}
        assert check_tree(result, words, answers, **check) == result.total
        assert result.total >= reference.opener(opener, 6) >= result.lower_bound


@pytest.mark.parametrize(
    ("weights", "problem"),
    [
        ("short", "weights must be 20 integers, one per answer column"),
        ("zero", "weights must be positive, got 0"),
        ("float", "weights must be 20 integers"),
        ("huge", "a tree's total would overflow"),
    ],
)
def test_bad_weights_are_refused(weights, problem):
    n = len(CASES["random"][1])
    given = {
        "short": [1] * (n - 1),
        "zero": [0] + [1] * (n - 1),
        "float": [1.5] * n,
        "huge": [1 << 30] * n,
    }[weights]
    with pytest.raises(ValueError, match=problem):
        solve("random", 0, False, weights=given)


@pytest.mark.parametrize("case", ["random", "two-families", "three-families"])
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_weighted_cutoff_searches_equal_brute_force(case, hard):
    """As the uniform test of cut-offs: the root's classes start from their weighted
    second-level floors; below the cutoff the weighted optimum and the full search's tree,
    at or above it a bound between the cutoff and the optimum (or no tree, proven)."""
    reference, weights = weighed_brute(case, hard, 11)
    for max_guesses in (4, 5, 6):
        for opener in openers(case):
            expected = reference.opener(opener, max_guesses)
            full = solve(case, opener, hard, max_guesses, weights=weights)
            near = (10, 600) if expected == INF else (expected + 1, expected, expected - 7)
            for cutoff in (c for c in near if c >= 1):
                result = solve(case, opener, hard, max_guesses, cutoff=cutoff, weights=weights)
                check_cutoff_result(result, full, expected, cutoff)


def test_a_running_cutoff_is_refused_under_weights():
    """A running cut-off would compare weighted totals with the uniform opener floor at
    each next opener; search_context refuses it, before any search, for every caller."""
    w = lists("random")
    ones = np.ones(len(w.answer_rows), dtype=np.int64)
    with pytest.raises(ValueError, match="running_cutoff is not available with weights"):
        next(solve_openers(w.matrix, w.answer_rows, w.encoded, [0, 1], hard=False,
                           running_cutoff=True, weights=ones))  # fmt: skip
    uniform = list(solve_openers(w.matrix, w.answer_rows, w.encoded, [0, 1], hard=False,
                                 running_cutoff=True))  # fmt: skip
    assert uniform[0].proven and uniform[0].total is not None
