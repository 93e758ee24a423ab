"""The one tie rule (pipeline.core.ties): groups anchored at their best, keys, then position."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.ties import (
    TIE_TOLERANCE,
    best_position,
    leading_positions,
    rank_order,
    ranks,
    tie_groups,
)
from tests.support import naive

BOTH = pytest.mark.parametrize("higher_is_better", [True, False])


def groups(scores: np.ndarray, higher_is_better: bool, **kwargs) -> list[int]:
    return tie_groups(scores, higher_is_better=higher_is_better, **kwargs).tolist()


def oriented(values: list[float], higher_is_better: bool) -> np.ndarray:
    """`values` are written best first for higher_is_better; mirror them for lower."""
    array = np.array(values, dtype=np.float64)
    return array if higher_is_better else -array


def test_tolerance_is_one_nanobit():
    assert TIE_TOLERANCE == 1e-9


# --- chains of near-ties ----------------------------------------------------------------


@BOTH
def test_a_chain_of_near_ties_splits_at_the_anchor(higher_is_better):
    # 1.0 opens a group; 1 - 0.6e-9 is within 1e-9 of it; 1 - 1.2e-9 is not (though it is
    # within 1e-9 of 1 - 0.6e-9): a chain never links scores further apart than the tolerance
    scores = oriented([1.0, 1 - 0.6e-9, 1 - 1.2e-9], higher_is_better)
    assert tie_groups(scores, higher_is_better=higher_is_better).tolist() == [0, 0, 1]
    # the second group is anchored at its own best, 1 - 1.2e-9
    longer = oriented([1.0, 1 - 0.6e-9, 1 - 1.2e-9, 1 - 2.1e-9, 1 - 2.3e-9], higher_is_better)
    assert tie_groups(longer, higher_is_better=higher_is_better).tolist() == [0, 0, 1, 1, 2]


@BOTH
def test_a_chain_in_scrambled_positions(higher_is_better):
    scores = oriented([1 - 1.2e-9, 0.5, 1.0, 1 - 0.6e-9], higher_is_better)
    assert tie_groups(scores, higher_is_better=higher_is_better).tolist() == [1, 2, 0, 0]
    # within group 0 (positions 2 and 3) position breaks the tie: 2 first
    assert rank_order(scores, higher_is_better=higher_is_better).tolist() == [2, 3, 0, 1]
    assert ranks(scores, higher_is_better=higher_is_better).tolist() == [3, 4, 1, 2]


@BOTH
def test_a_gap_of_exactly_the_tolerance_is_tied(higher_is_better):
    for best in (1.0, 5.0, 0.3, 11.2345):
        sign = 1 if higher_is_better else -1
        edge = best - sign * 1e-9  # the float nearest best -/+ 1e-9, as the rule computes it
        beyond = np.nextafter(edge, -sign * np.inf)  # one float further away
        scores = np.array([best, edge, beyond])
        assert tie_groups(scores, higher_is_better=higher_is_better).tolist() == [0, 0, 1], best


@BOTH
def test_zero_tolerance_ties_only_equal_scores(higher_is_better):
    scores = oriented([2.0, 2.0 - 1e-12, 2.0, 3.0], higher_is_better)
    assert groups(scores, higher_is_better, tolerance=0) == [1, 2, 1, 0]
    assert groups(scores, higher_is_better) == [1, 1, 1, 0]


def test_direction_matters():
    scores = np.array([3.0, 1.0, 2.0])
    assert rank_order(scores, higher_is_better=True).tolist() == [0, 2, 1]
    assert rank_order(scores, higher_is_better=False).tolist() == [1, 2, 0]
    assert ranks(scores, higher_is_better=True).tolist() == [1, 3, 2]
    assert ranks(scores, higher_is_better=False).tolist() == [3, 1, 2]


def test_ranks_treat_near_equal_values_as_ties():
    # the old entropy ranking case: 2.0 +- 1e-12 are one group, ordered by position
    values = np.array([1.0, 2.0, 2.0 + 1e-12, 2.0 - 1e-12, 3.0, 2.0 + 1e-6])
    assert ranks(values, higher_is_better=True).tolist() == [6, 3, 4, 5, 1, 2]
    assert ranks(values, higher_is_better=True, tolerance=0).tolist() == [6, 4, 3, 5, 1, 2]
    assert ranks(values, higher_is_better=True).dtype == np.int32


# --- integer fixed-point scores ---------------------------------------------------------


@BOTH
def test_integer_scores_above_2_53_are_compared_exactly(higher_is_better):
    big = 2**60
    # float64 cannot tell these apart: all of them round to 2**60
    values = [big + 3, big + 1, big + 2, big + 1, big]
    assert len({float(v) for v in values}) == 1
    scores = np.array(values if higher_is_better else [-v for v in values], dtype=np.int64)
    assert groups(scores, higher_is_better, tolerance=0) == [0, 2, 1, 2, 3]
    # an integer tolerance of 1 anchors at big + 3: big + 2 joins it, big + 1 opens group 1
    assert groups(scores, higher_is_better, tolerance=1) == [0, 1, 0, 1, 1]
    # the default (float) tolerance ties only equal integers, exactly
    assert groups(scores, higher_is_better) == [0, 2, 1, 2, 3]
    assert rank_order(scores, higher_is_better=higher_is_better).tolist() == [0, 2, 1, 3, 4]
    assert best_position(scores, higher_is_better=higher_is_better) == 0


@BOTH
def test_equal_big_integers_tie_and_keys_decide(higher_is_better):
    big = 2**53 + 1  # not a float64: adding a float tolerance would round it to 2**53
    scores = np.array([big, big, big - 1 if higher_is_better else big + 1], dtype=np.int64)
    keys = [np.array([1, 0, 0])]
    for tolerance in (TIE_TOLERANCE, 0, 0.5):
        rule = {"higher_is_better": higher_is_better, "keys": keys, "tolerance": tolerance}
        assert rank_order(scores, **rule).tolist() == [1, 0, 2], tolerance
        assert best_position(scores, **rule) == 1, tolerance
    # scores one apart are not tied by a fractional tolerance, however big
    apart = np.array([big + 1, big], dtype=np.int64)
    assert tie_groups(apart, higher_is_better=False).tolist() == [1, 0]
    assert best_position(apart, higher_is_better=False, keys=[np.array([0, 1])]) == 1
    assert rank_order(apart, higher_is_better=False, keys=[np.array([0, 1])]).tolist() == [1, 0]


def test_unsigned_and_narrow_integer_scores():
    scores = np.array([5, 7, 7, 3], dtype=np.uint8)
    assert rank_order(scores, higher_is_better=True).tolist() == [1, 2, 0, 3]
    assert rank_order(scores, higher_is_better=False).tolist() == [3, 0, 1, 2]
    assert tie_groups(scores, higher_is_better=True, tolerance=2).tolist() == [0, 0, 0, 1]


# --- keys break ties before position ----------------------------------------------------


@BOTH
def test_keys_break_ties_before_position(higher_is_better):
    scores = oriented([4.0, 4.0 - 0.5e-9, 4.0, 1.0], higher_is_better)
    is_candidate = np.array([False, True, False, True])
    keys = [~is_candidate]  # candidates first
    order = rank_order(scores, higher_is_better=higher_is_better, keys=keys)
    assert order.tolist() == [1, 0, 2, 3]
    assert best_position(scores, higher_is_better=higher_is_better, keys=keys) == 1
    # a key never lifts a score out of its group: position 3 is a candidate but worse
    assert order[-1] == 3
    # without keys, position decides
    assert rank_order(scores, higher_is_better=higher_is_better).tolist() == [0, 1, 2, 3]


@BOTH
def test_several_keys_in_order(higher_is_better):
    scores = oriented([1.0] * 5, higher_is_better)
    first = np.array([1, 0, 0, 1, 0])
    second = np.array([0, 2, 1, 0, 1])
    rule = {"higher_is_better": higher_is_better, "keys": [first, second]}
    assert rank_order(scores, **rule).tolist() == [2, 4, 1, 0, 3]
    assert best_position(scores, **rule) == 2
    assert ranks(scores, **rule).tolist() == [4, 3, 1, 5, 2]


def test_best_position_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="no scores"):
        best_position(np.array([]), higher_is_better=True)


# --- best_position is rank_order[0]; ranks invert rank_order; the naive rule agrees -------

scores_strategy = st.lists(
    st.sampled_from([0.0, 1.0, 1 - 0.4e-9, 1 - 0.8e-9, 1 - 1.2e-9, 1 + 0.7e-9, 2.0, -3.5]),
    min_size=1,
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(scores_strategy, st.booleans(), st.data())
def test_rank_order_matches_the_rule_written_out(values, higher_is_better, data):
    n = len(values)
    keys = [np.array(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))]
    scores = np.array(values)
    order = rank_order(scores, higher_is_better=higher_is_better, keys=keys)
    expected = naive.ranks_with_ties(
        values, higher_is_better=higher_is_better, tolerance=TIE_TOLERANCE, keys=keys
    )
    assert order.tolist() == expected
    assert best_position(scores, higher_is_better=higher_is_better, keys=keys) == order[0]
    positions = ranks(scores, higher_is_better=higher_is_better, keys=keys)
    assert sorted(positions.tolist()) == list(range(1, n + 1))
    assert np.argsort(positions).tolist() == order.tolist()


big_ints = st.integers(min_value=2**62 - 40, max_value=2**62)


@settings(max_examples=300, deadline=None)
@given(st.lists(big_ints, min_size=1, max_size=10), st.booleans(), st.integers(0, 3), st.data())
def test_integer_scores_match_the_rule_written_out(values, higher_is_better, tolerance, data):
    n = len(values)
    keys = [np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))]
    scores = np.array(values, dtype=np.int64)
    for tol in (tolerance, tolerance + 0.5, TIE_TOLERANCE):
        rule = {"higher_is_better": higher_is_better, "keys": keys}
        order = rank_order(scores, **rule, tolerance=tol)
        # for integers, a tolerance ties exactly the integers its floor ties
        assert order.tolist() == naive.ranks_with_ties(values, **rule, tolerance=int(tol))
        assert best_position(scores, **rule, tolerance=tol) == order[0]


@settings(max_examples=300, deadline=None)
@given(scores_strategy, st.booleans(), st.integers(0, 14), st.data())
def test_the_leading_positions_are_the_head_of_the_rule_written_out(
    values, higher_is_better, count, data
):
    """leading_positions ranks only the scores near the count-th best: the same head as
    the whole ranking, chains of near-ties across its edge included."""
    n = len(values)
    keys = [np.array(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))]
    rule = {"higher_is_better": higher_is_better, "keys": keys, "tolerance": TIE_TOLERANCE}
    expected = naive.ranks_with_ties(values, **rule)[:count]
    assert leading_positions(np.array(values), count, **rule).tolist() == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(big_ints, min_size=1, max_size=10), st.booleans(), st.integers(0, 3), st.data())
def test_leading_integer_positions_are_exact_near_the_int64_end(
    values, higher_is_better, tolerance, data
):
    n = len(values)
    count = data.draw(st.integers(0, n + 1))
    rule = {"higher_is_better": higher_is_better, "tolerance": tolerance}
    scores = np.array(values, dtype=np.int64) + (2**63 - 1 - 2**62)  # up to the largest int64
    expected = rank_order(scores, **rule)[:count]
    assert leading_positions(scores, count, **rule).tolist() == expected.tolist()
    assert expected.tolist() == naive.ranks_with_ties(values, **rule)[:count]
