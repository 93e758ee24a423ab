"""Opener lower bounds under answer weights (issue 61), against the weighted brute force.

Each bound of an opener must be at most its least weighted total (and INF exactly when
no tree fits), exact below a cap, and never above the uniform bounds where every weight
is 1 (the weighted bounds leave out the refinements that count answers).
"""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.kernels.optimal_search.bounds import opener_bounds
from pipeline.kernels.optimal_search.context import INF
from tests.support.optimal_reference import CASES, lists, weighed_brute

MODES = [False, True]


def weighted_bounds(case, hard, max_guesses, weights, cap=None):
    w = lists(case)
    openers = np.arange(len(w.words))
    return opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, hard=hard,
                         max_guesses=max_guesses, cap=cap, weights=weights)  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
@pytest.mark.parametrize("max_guesses", [3, 4, 6])
def test_weighted_bounds_never_exceed_the_weighted_optimum(case, hard, max_guesses):
    reference, weights = weighed_brute(case, hard, 3)
    first, second = weighted_bounds(case, hard, max_guesses, weights)
    for opener, word in enumerate(CASES[case][0]):
        total = reference.opener(opener, max_guesses)
        assert first[opener] <= second[opener], word
        if second[opener] >= INF:  # a bound of INF is a proof that no tree fits
            assert total == float("inf"), word
        else:
            assert second[opener] <= total, (word, second[opener], total)


def test_weighted_bounds_are_not_trivial():
    """Somewhere the second-level bound is above the partition bound, somewhere it is the
    weighted optimum itself, and somewhere it proves that no tree fits."""
    rows = []
    for case in CASES:
        for hard in MODES:
            reference, weights = weighed_brute(case, hard, 3)
            for most in (3, 6):
                first, second = weighted_bounds(case, hard, most, weights)
                totals = [reference.opener(g, most) for g in range(len(first))]
                rows += zip(first, second, totals, strict=True)
    assert any(INF > s > f for f, s, _ in rows)
    assert any(s == t for _, s, t in rows)
    assert any(s >= INF for _, s, _ in rows)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
def test_capped_weighted_bounds_are_exact_below_the_cap(case, hard):
    _, weights = weighed_brute(case, hard, 11)
    _, exact = weighted_bounds(case, hard, 6, weights)
    cap = int(np.median(exact[exact < INF]))
    _, capped = weighted_bounds(case, hard, 6, weights, cap=cap)
    below = exact < cap
    assert np.array_equal(capped[below], exact[below])
    assert np.all(capped[~below] >= cap)
    assert np.all(capped[~below] <= exact[~below])


@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
def test_weights_of_one_bound_no_higher_than_uniform(hard):
    """Weights of 1 through the weighted paths: the same partition bounds, and second-level
    bounds between them and the uniform ones (which add the refinements that count)."""
    for case in CASES:
        w = lists(case)
        openers = np.arange(len(w.words))
        ones = np.ones(len(w.answer_rows), dtype=np.int64)
        options = {"hard": hard, "max_guesses": 6}
        first, second = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, **options)
        first_one, second_one = opener_bounds(
            w.matrix, w.answer_rows, w.encoded, openers, weights=ones, **options
        )
        assert np.array_equal(first_one, first)
        assert np.all((first_one <= second_one) & (second_one <= second))


def test_deeper_bounds_with_weights_are_refused_for_now():
    w = lists("random")
    ones = np.ones(len(w.answer_rows), dtype=np.int64)
    with pytest.raises(ValueError, match="deeper is not available with weights"):
        opener_bounds(w.matrix, w.answer_rows, w.encoded, np.arange(3), hard=False, cap=100,
                      deeper=2, weights=ones)  # fmt: skip
