"""Opener lower bounds and the certified top openers, against brute force.

Every bound must be at most the brute-force optimum of its opener (and INF exactly when
brute force finds no tree); the screen must find the true top K of every opener.
"""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.analysis.optimal.certified_top import contenders, deal, stop_total
from pipeline.kernels.optimal_search import solve_openers
from pipeline.kernels.optimal_search.bounds import opener_bounds
from pipeline.kernels.optimal_search.context import INF
from tests.support.optimal_reference import CASES, brute, lists

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


def certified_top(case, hard, top, parts=2, max_guesses=6):
    """The optimal stage's steps (analysis.optimal.certified_top): the first `top` words proven
    (standing in for the two-step ranking's best), every word bounded below T0 + 1, the
    `top` lowest-bounded others proven, then the rest bounded at most T1 searched below
    T1 + 1, dealt over `parts` batches. Returns (opener -> proven total, the searches
    below the cap, the bounds, T)."""
    w = lists(case)
    options = {"hard": hard, "max_guesses": max_guesses}

    def prove(openers, limit=None):
        cutoff = None if limit is None else limit + 1
        return list(solve_openers(w.matrix, w.answer_rows, w.encoded, openers, cutoff=cutoff,
                                  independent=True, **options))  # fmt: skip

    known = {r.opener: r.total for r in prove(range(min(top, len(w.words))))}
    limit = stop_total(known.values(), top)
    cap = None if limit is None else limit + 1
    _, second = opener_bounds(w.matrix, w.answer_rows, w.encoded, np.arange(len(w.words)),
                              cap=cap, **options)  # fmt: skip
    bounds = {g: (None if b >= INF else int(b)) for g, b in enumerate(second)}
    known |= {r.opener: r.total for r in prove(contenders(bounds, known, limit)[:top])}
    limit = stop_total(known.values(), top)
    searched = []
    for part in range(parts):
        searched += prove(deal(contenders(bounds, known, limit), part, parts), limit)
    known |= {r.opener: r.total for r in searched if r.total is not None}
    final = stop_total(known.values(), top)
    return known, searched, bounds, final


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
@pytest.mark.parametrize("top", [1, 3])
def test_certified_top_is_the_true_top(case, hard, top):
    totals = brute_totals(case, hard, 6)
    known, searched, bounds, limit = certified_top(case, hard, top)
    chosen = {g for g, t in known.items() if t is not None and t <= (limit or 0)}
    feasible = sorted(t for t in totals if t != float("inf"))
    if not feasible:
        assert not chosen and limit is None
        return
    true_limit = feasible[min(top, len(feasible)) - 1]
    assert limit == true_limit
    assert chosen == {g for g, t in enumerate(totals) if t <= true_limit}
    for result in searched:  # a search cut off at the cap proves a bound above the list
        if result.total is None and result.lower_bound is not None:
            assert limit < result.lower_bound <= totals[result.opener]
    searched_ids = {r.opener for r in searched}
    for opener, bound in bounds.items():  # every opener left alone is bounded above it
        if opener not in known and opener not in searched_ids and bound is not None:
            assert bound > limit


@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
def test_the_split_changes_no_result(hard):
    one = certified_top("three-families", hard, 3, parts=1)
    three = certified_top("three-families", hard, 3, parts=3)
    assert one[0] == three[0] and one[3] == three[3]
    by_opener = [
        {r.opener: (r.total, r.lower_bound, r.nodes) for r in run[1]} for run in (one, three)
    ]
    assert by_opener[0] == by_opener[1]


def test_stop_total():
    assert stop_total([5, None, 3, 9], 2) == 5
    assert stop_total([5, None], 3) == 5
    assert stop_total([None], 1) is None


def _row(opener, total, proven=True, lower=None):
    return {"mode": "normal", "opener": opener, "total_guesses": total, "proven": proven,
            "lower_bound": total if total is not None else lower, "in_top": False,
            "top_rank": None}  # fmt: skip


def test_certify_top_marks_ties_and_refuses_an_unbounded_row():
    import pyarrow as pa

    from pipeline.analysis.optimal.certified_top import certify_top
    from pipeline.artifacts.optimal import OPENERS_SCHEMA

    names = ("mode", "opener", "total_guesses", "proven", "lower_bound", "in_top", "top_rank")
    schema = pa.schema([OPENERS_SCHEMA.field(name) for name in names])

    rows = [_row("a", 10), _row("b", 12), _row("c", 12), _row("d", 15), _row("e", None),
            _row("f", None, proven=False, lower=13)]  # fmt: skip
    marked = certify_top(pa.Table.from_pylist(rows, schema=schema), 2).to_pylist()
    assert [(r["opener"], r["in_top"], r["top_rank"]) for r in marked] == [
        ("a", True, 1),
        ("b", True, 2),
        ("c", True, 2),
        ("d", False, None),
        ("e", False, None),
        ("f", False, None),
    ]
    loose = rows[:-1] + [_row("f", None, proven=False, lower=12)]
    with pytest.raises(ValueError, match="f is neither proven nor bounded above 12"):
        certify_top(pa.Table.from_pylist(loose, schema=schema), 2)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
@pytest.mark.parametrize("max_guesses", [3, 4, 6])
@pytest.mark.parametrize("deeper", [1, 8])
def test_deeper_bounds_never_exceed_the_optimum(case, hard, max_guesses, deeper):
    """The third level (deeper) raises bounds below the cap, never above the optimum; the
    same value whether an opener is bounded alone or within its batch. deeper = 1 leaves
    most second guesses unsplit (their bounds cap a bucket's), 8 splits most of them."""
    w = lists(case)
    openers = np.arange(len(w.words))
    options = {"hard": hard, "max_guesses": max_guesses}
    _, exact = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, **options)
    totals = np.array([min(t, INF) for t in brute_totals(case, hard, max_guesses)])
    cap = int(totals[totals < INF].max(initial=1)) + 1  # refined wherever it can be
    _, deep = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, cap=cap,
                            deeper=deeper, **options)  # fmt: skip
    assert np.all(deep <= totals) and np.all(deep >= np.minimum(exact, cap))
    for opener in openers[:: max(1, len(openers) // 5)]:
        _, alone = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers[[opener]],
                                 cap=cap, deeper=deeper, **options)  # fmt: skip
        assert alone[0] == deep[opener]


@pytest.mark.parametrize("hard", MODES, ids=["normal", "hard"])
@pytest.mark.parametrize("threads", [2, 3])
def test_bounds_are_the_same_for_any_thread_count(hard, threads):
    """Threads take the next opener as they finish one, each in a context of its own: the
    capped, deepened bounds equal one thread's, and each opener is reported done once."""
    for case in sorted(CASES):
        w = lists(case)
        openers = np.arange(len(w.words))[::-1]  # any order of rows, not just 0..n-1
        totals = np.array([min(t, INF) for t in brute_totals(case, hard, 6)])
        finite = totals[totals < INF]
        cap = int(np.median(finite)) + 1 if finite.size else INF - 1  # some stop at the cap
        options = {"hard": hard, "cap": cap, "deeper": 8}
        one = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, **options)
        done = []
        many = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, threads=threads,
                             on_done=done.append, **options)  # fmt: skip
        assert all(np.array_equal(a, b) for a, b in zip(one, many, strict=True)), case
        assert done == [1] * len(openers)


def test_threads_beyond_the_openers_and_none():
    """More threads than openers start one per opener; none is an error."""
    w = lists(sorted(CASES)[0])
    openers = np.array([len(w.words) - 1, 0])
    alone = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, hard=True)
    many = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, hard=True, threads=8)
    assert all(np.array_equal(a, b) for a, b in zip(alone, many, strict=True))
    with pytest.raises(ValueError, match="threads must be at least 1, got 0"):
        opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, hard=False, threads=0)


def test_deeper_bounds_are_tighter_somewhere():
    rows = []
    for case in CASES:
        w = lists(case)
        for hard in MODES:
            openers = np.arange(len(w.words))
            _, exact = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, hard=hard)
            _, deep = opener_bounds(w.matrix, w.answer_rows, w.encoded, openers, hard=hard,
                                    cap=INF - 1, deeper=8)  # fmt: skip
            rows += zip(exact, deep, brute_totals(case, hard, 6), strict=True)
    assert any(e < d <= t for e, d, t in rows)
