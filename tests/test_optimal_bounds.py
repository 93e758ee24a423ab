"""Opener lower bounds and the certified top openers, against brute force.

Every bound must be at most the brute-force optimum of its opener (and INF exactly when
brute force finds no tree); the screen must find the true top K of every opener.
"""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.kernels.optimal_search.bounds import opener_bounds
from pipeline.kernels.optimal_search.context import INF
from pipeline.kernels.optimal_search.screen import screen_openers, stop_total
from tests.test_optimal_search import CASES, brute, lists

MODES = [False, True]


def brute_totals(case, hard, max_guesses):
    words = CASES[case][0]
    return [brute(case, hard).opener(g, max_guesses) for g in range(len(words))]


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
@pytest.mark.parametrize("max_guesses", [3, 4, 6])
def test_bounds_never_exceed_the_optimum(case, hard, max_guesses):
    w = lists(case)
    openers = np.arange(len(w.words))
    first, second = opener_bounds(
        w.matrix, w.answer_rows, w.encoded, openers, hard=hard, max_guesses=max_guesses
    )
    totals = brute_totals(case, hard, max_guesses)
    for opener, total in enumerate(totals):
        assert first[opener] <= second[opener], w.words[opener]
        if second[opener] >= INF:  # a bound of INF is a proof that no tree fits
            assert total == float("inf"), w.words[opener]
        else:
            assert second[opener] <= total, (w.words[opener], second[opener], total)


def test_bounds_are_not_trivial():
    """Over the cases above, the second-level bound is above the partition bound somewhere
    (buckets of three or more answers), exact somewhere, and proves infeasibility."""
    rows = []
    for case in CASES:
        w = lists(case)
        for hard in MODES:
            for most in (3, 6):
                first, second = opener_bounds(
                    w.matrix, w.answer_rows, w.encoded, np.arange(len(w.words)), hard=hard,
                    max_guesses=most,
                )  # fmt: skip
                rows += zip(first, second, brute_totals(case, hard, most), strict=True)
    assert any(INF > s > f for f, s, _ in rows)
    assert any(s == t for _, s, t in rows)
    assert any(s >= INF for _, s, _ in rows)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
def test_capped_bounds_are_exact_below_the_cap(case, hard):
    w = lists(case)
    openers = np.arange(len(w.words))
    _, exact = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, hard=hard)
    cap = int(np.median(exact[exact < INF]))
    _, capped = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, hard=hard, cap=cap)
    below = exact < cap
    assert np.array_equal(capped[below], exact[below])
    assert np.all(capped[~below] >= cap)
    assert np.all(capped[~below] <= exact[~below])


def certified_top(case, hard, top, max_guesses=6):
    """The screen as the pipeline runs it: the first `top` openers proven outright, T from
    them, then every opener screened below T + 1."""
    w = lists(case)
    seeds = list(range(min(top, len(w.words))))
    known = {
        r.opener: r.result.total
        for r in screen_openers(
            w.matrix, w.answer_rows, w.encoded, seeds, hard=hard, max_guesses=max_guesses, cap=None
        )
    }
    limit = stop_total(list(known.values()), top)
    cap = None if limit is None else limit + 1
    rest = [g for g in range(len(w.words)) if g not in known]
    screened = list(
        screen_openers(
            w.matrix, w.answer_rows, w.encoded, rest, hard=hard, max_guesses=max_guesses, cap=cap
        )
    )
    for row in screened:
        if row.result is not None and row.result.total is not None:
            known[row.opener] = row.result.total
    limit = stop_total(list(known.values()), top)
    chosen = {g for g, t in known.items() if t is not None and t <= limit}
    return chosen, screened, limit  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
@pytest.mark.parametrize("top", [1, 3])
def test_certified_top_is_the_true_top(case, hard, top):
    totals = brute_totals(case, hard, 6)
    chosen, screened, limit = certified_top(case, hard, top)
    feasible = sorted(t for t in totals if t != float("inf"))
    if not feasible:
        assert not chosen
        return
    true_limit = feasible[min(top, len(feasible)) - 1]
    expected = {g for g, t in enumerate(totals) if t <= true_limit}
    assert chosen == expected
    assert limit == true_limit
    for row in screened:  # every opener left unproven is bounded above the top
        if row.result is None:
            assert row.second_level_bound is None or row.second_level_bound > limit
        elif row.result.total is None and row.result.lower_bound is not None:
            assert limit < row.result.lower_bound <= totals[row.opener]


def test_stop_total():
    assert stop_total([5, None, 3, 9], 2) == 5
    assert stop_total([5, None], 3) == 5
    assert stop_total([None], 1) is None
