"""The optimal search entered at a game state (StateSearch), against brute force.

A state of at most exact_upto answers is solved in full: its value and the value of every
guess there equal the brute-force optimum. A larger state is the policy's: its values are
never below the optimum, and the value of a guess equals the answers it is played to plus
the values of the states its replies leave, each valued on its own as a root: the
property that makes a shown E the mean a player gets who follows the advice.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pipeline.kernels.optimal_search.context import INF, transposed
from pipeline.kernels.optimal_search.state_search import Policy, StateSearch
from tests.support.optimal_reference import CASES, brute, lists

FULL = Policy(exact_upto=1000, top_k=1)


def random_states(case: str, hard: bool, count: int, seed: int = 7):
    """(turns as (guess row, reply), answer columns, the brute-force allowed set) of
    states reached by random guesses against random answers."""
    w = lists(case)
    b = brute(case, hard)
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        answer = rng.randrange(len(w.answer_rows))
        columns = np.arange(len(w.answer_rows))
        allowed, turns = b.everything, []
        for _ in range(rng.randint(1, 2)):
            guess = rng.choice(sorted(allowed))
            reply = int(w.matrix[guess, answer])
            if reply == 3 ** w.encoded.shape[1] - 1:
                break
            columns = columns[w.matrix[guess, columns] == reply]
            allowed = b.child(allowed, guess, reply)
            turns.append((guess, reply))
        if turns and len(columns) < len(w.answer_rows):
            states.append((turns, columns, allowed))
    return states


def brute_value(case, hard, turns, columns, allowed, guess=None):
    b = brute(case, hard)
    left = 6 - len(turns)
    answer_set = frozenset(columns.tolist())
    value = b.node(answer_set, left, allowed) if guess is None else (
        b.play(answer_set, left, allowed, guess)
    )  # fmt: skip
    return INF if value == float("inf") else int(value)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_a_state_solved_in_full_has_the_brute_force_value(case, hard):
    w = lists(case)
    search = StateSearch(w.matrix, w.answer_rows, w.encoded, hard=hard, policy=FULL)
    for turns, columns, allowed in random_states(case, hard, 12):
        value, best = search.best(turns, columns)
        assert value == brute_value(case, hard, turns, columns, allowed)
        if value < INF:
            assert search.value(turns, columns, best) == value
        for guess in sorted(allowed)[::3]:
            expected = brute_value(case, hard, turns, columns, allowed, guess)
            assert min(search.value(turns, columns, guess), INF) == min(expected, INF)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_a_policy_value_is_its_replies_values(case, hard):
    """With exact_upto 2 almost every state is the policy's: each value is at least the
    optimum, and a guess's value is n plus the values of the states its replies leave;
    none of the policy's options (its first top_k guesses) beats the state's value; and it
    finds a sure win exactly where one exists."""
    w = lists(case)
    policy = StateSearch(w.matrix, w.answer_rows, w.encoded, hard=hard, policy=Policy(2, 2))
    green = 3 ** w.encoded.shape[1] - 1
    checked = 0
    for turns, columns, allowed in random_states(case, hard, 10, seed=11):
        value, best = policy.best(turns, columns)
        optimum = brute_value(case, hard, turns, columns, allowed)
        assert value >= optimum and (value >= INF) == (optimum >= INF)
        first = policy.options(turns, columns, 2).tolist()  # the policy's own options
        for guess in [best, *policy.options(turns, columns, 4).tolist()]:
            if guess < 0:
                continue
            total = policy.value(turns, columns, guess)
            replies = w.matrix[guess, columns]
            parts = [
                policy.value([*turns, (guess, int(r))], columns[replies == r])
                for r in np.unique(replies)
                if r != green
            ]
            expected = min(columns.size + sum(parts), INF) if INF not in parts else INF
            assert min(total, INF) == expected
            if guess in first or columns.size <= 2:
                assert min(total, INF) >= value
            checked += 1
    assert checked > 20


def test_options_follow_the_search_order():
    """The first options come best key first; a guess that splits nothing is never one."""
    w = lists("three-families")
    search = StateSearch(w.matrix, w.answer_rows, w.encoded, hard=False, policy=Policy(5, 3))
    columns = np.arange(len(w.answer_rows))
    options = search.options([], columns, 10).tolist()
    keys = []
    for guess in options:
        _, sizes = np.unique(w.matrix[guess, columns], return_counts=True)
        hit = int(guess in set(w.answer_rows.tolist()))
        n = columns.size
        keys.append(2 * int((sizes.astype(np.int64) ** 2).sum()) + n * (3 * n - sizes.size - hit))
        assert sizes.size > 1
    assert keys == sorted(keys) and len(options) == 10


def test_bad_states_are_refused():
    w = lists("fixture")
    search = StateSearch(w.matrix, w.answer_rows, w.encoded, hard=False, policy=FULL)
    with pytest.raises(ValueError, match="ascending"):
        search.value([], np.array([3, 1]))
    with pytest.raises(ValueError, match="no state"):
        search.value([], np.array([], dtype=np.int64))
    with pytest.raises(ValueError, match="column ids below"):
        search.value([], np.array([len(w.answer_rows)]))
    with pytest.raises(ValueError, match="policy needs"):
        Policy(exact_upto=-1, top_k=1)
    with pytest.raises(ValueError, match="one count per guess"):
        StateSearch(w.matrix, w.answer_rows, w.encoded, hard=False, policy=FULL, replies=[1])


@pytest.mark.parametrize("shape", [(1, 1), (3, 700), (513, 257), (256, 512)])
def test_the_blocked_transpose_is_the_transpose(shape):
    matrix = np.random.default_rng(7).integers(0, 243, size=shape, dtype=np.uint8)
    result = transposed(matrix)
    assert result.flags.c_contiguous and result.dtype == matrix.dtype
    assert np.array_equal(result, matrix.T)
