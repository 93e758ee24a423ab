"""The optimal decision-tree search against a naive brute force over all trees, on small
lists (the reference and the lists: tests/support/optimal_reference.py)."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.kernels.optimal_search import TREE_FIELDS, solve_opener, solve_openers
from pipeline.kernels.optimal_search.tuning import DEFAULT_OFF, MECHANISMS
from tests.support.naive import feedback
from tests.support.optimal_reference import (
    CASES,
    INF,
    brute,
    lists,
    openers,
    real_lists,
    solve,
)
from tests.support.tree_check import check_cutoff_result, check_tree


def valid_total(result, case, hard, max_guesses):
    words, answers = CASES[case]
    return check_tree(result, words, answers, hard=hard, max_guesses=max_guesses)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_search_equals_brute_force(case, hard):
    reference = brute(case, hard)
    for max_guesses in (3, 4, 5, 6):
        for opener in openers(case):
            expected = reference.opener(opener, max_guesses)
            result = solve(case, opener, hard, max_guesses)
            assert result.proven and result.nodes > 0
            if expected == INF:
                assert result.total is None and result.upper_bound is None
                assert result.lower_bound is None and len(result.guess) == 0
                assert result.reason.startswith(f"no tree wins every answer within {max_guesses}")
                continue
            assert result.total == expected == result.lower_bound == result.upper_bound
            assert valid_total(result, case, hard, max_guesses) == expected
            assert result.n_answers.sum() == expected and result.reason is None
            assert sum(result.counts) == len(CASES[case][1])
            assert sum((i + 1) * c for i, c in enumerate(result.counts)) == expected
            assert result.deepest == max(result.depth) <= max_guesses
            assert result.guess[0] == opener and result.depth[0] == 1


# Each pruning mechanism alone (every other one off), none, and all of them.
SWITCHES = {
    "all-on": (),
    "all-off": MECHANISMS,
    **{f"{name}-alone": tuple(m for m in MECHANISMS if m != name) for name in MECHANISMS},
}


_SOLVED: dict = {}


def solved_under(off, hard):
    """(case, max_guesses, opener, result) over the small cases, with `off` switched off
    and every other mechanism on (those off by default included)."""
    on = tuple(name for name in DEFAULT_OFF if name not in off)
    if (off, hard) not in _SOLVED:
        _SOLVED[off, hard] = [
            (case, max_guesses, opener, solve(case, opener, hard, max_guesses, off=off, on=on))
            for case in ("random", "two-families")
            for max_guesses in (4, 6)
            for opener in openers(case)
        ]
    return _SOLVED[off, hard]


@pytest.mark.parametrize("switch", sorted(SWITCHES))
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_each_pruning_alone_equals_brute_force(switch, hard):
    """Switched off, a pruning changes the work (search nodes), never the result: the
    proven total is brute force's and the tree is the one every pruning on gives."""
    solved = solved_under(SWITCHES[switch], hard)
    everything = solved_under((), hard)
    for (case, max_guesses, opener, result), (*_, default) in zip(solved, everything, strict=True):
        expected = brute(case, hard).opener(opener, max_guesses)
        assert result.proven and result.nodes > 0
        if expected == INF:
            assert result.total is None and result.lower_bound is None
            continue
        assert result.total == expected == default.total
        assert valid_total(result, case, hard, max_guesses) == expected
        for name in TREE_FIELDS:
            assert np.array_equal(getattr(result, name), getattr(default, name))
    if switch != "all-off":
        nothing = solved_under(MECHANISMS, hard)
        assert [r.nodes for *_, r in solved] != [r.nodes for *_, r in nothing]


def test_unknown_pruning_is_refused():
    with pytest.raises(ValueError, match="unknown pruning"):
        solve("fixture", 0, False, off=("memo", "bounds"))


def test_cases_are_not_trivial():
    """The lists exercise depth limits, infeasible openers and hard mode."""
    normal, hard = brute("three-families", False), brute("three-families", True)
    assert normal.opener(0, 3) == INF and normal.opener(0, 4) == 78
    assert normal.opener(5, 4) == 82 and normal.opener(5, 5) == 81
    assert hard.opener(0, 6) == 79 and hard.opener(1, 6) == INF and normal.opener(1, 6) == 76
    two = brute("two-families", False)
    assert two.opener(0, 5) == INF and two.opener(0, 6) == 64
    assert brute("two-families", True).opener(15, 6) == INF


def node_answers(result, case):
    """The answer columns reaching each node, by following the true replies."""
    words, answers = CASES[case]
    reaching = [[] for _ in result.guess]
    children = {
        (p, r): n for n, (p, r) in enumerate(zip(result.parent_id, result.pattern, strict=True))
    }
    for a, answer in enumerate(answers):
        node = 0
        while True:
            reaching[node].append(a)
            r = feedback(words[result.guess[node]], answer)
            if r == 3**5 - 1:
                break
            node = children[(node, r)]
    return reaching


@pytest.mark.parametrize(
    ("case", "hard", "opener"),
    [("two-families", False, 15), ("three-families", False, 0), ("three-families", True, 0),
     ("three-families", True, 37)],
)  # fmt: skip
def test_each_guess_is_the_lowest_optimal_word(case, hard, opener):
    reference = brute(case, hard)
    result = solve(case, opener, hard)
    allowed = {0: reference.everything}
    for node, members in enumerate(node_answers(result, case)):
        if node > 0:
            up = result.parent_id[node]
            allowed[node] = reference.child(allowed[up], result.guess[up], result.pattern[node])
            left = 6 - result.depth[node] + 1
            values = {
                g: reference.play(frozenset(members), left, allowed[node], g)
                for g in sorted(allowed[node])
            }
            best = min(values.values())
            assert values[result.guess[node]] == best
            assert result.guess[node] == min(g for g, v in values.items() if v == best)


@pytest.mark.parametrize("case", ["two-families", "three-families", "random"])
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_top_k_gives_upper_bounds(case, hard):
    for opener in openers(case):
        proven = solve(case, opener, hard)
        for top_k in (1, 2, 4):
            bounded = solve(case, opener, hard, top_k=top_k)
            assert not bounded.proven and bounded.top_k == top_k
            if bounded.total is None:
                assert "not a proof" in bounded.reason
                continue
            assert proven.total is not None and bounded.total >= proven.total
            assert bounded.lower_bound <= proven.total <= bounded.upper_bound == bounded.total
            assert valid_total(bounded, case, hard, 6) == bounded.total


def test_same_inputs_same_tree():
    first = solve("three-families", 7, False)
    second = solve("three-families", 7, False)
    for name in TREE_FIELDS:
        assert np.array_equal(getattr(first, name), getattr(second, name))
    assert first.nodes == second.nodes


def test_checker_rejects_broken_trees():
    case, hard = "three-families", True
    result = solve(case, 37, hard)
    words, answers = CASES[case]
    good = {name: getattr(result, name).copy() for name in TREE_FIELDS}
    assert check_tree(good, words, answers, hard=True, max_guesses=6) == result.total
    with pytest.raises(ValueError, match="exceeds"):
        check_tree(good, words, answers, hard=True, max_guesses=result.deepest - 1)
    wrong_size = {**good, "n_answers": good["n_answers"] + 1}
    with pytest.raises(ValueError, match="n_answers"):
        check_tree(wrong_size, words, answers, hard=True, max_guesses=6)
    inner = int(np.flatnonzero(good["n_answers"] > 2)[1])
    swapped = {**good, "guess": good["guess"].copy()}
    swapped["guess"][inner] = (swapped["guess"][inner] + 1) % len(words)
    with pytest.raises(ValueError, match="no child|n_answers|hard-mode"):
        check_tree(swapped, words, answers, hard=True, max_guesses=6)


def test_hard_rule_is_checked():
    """A guess that drops a green letter is rejected in hard mode, accepted in normal mode."""
    words = ["fight", "light", "might", "mills", "sight", "zzzzz"]
    answers = ["fight", "light", "might", "sight"]
    tree = {
        "node_id": [0, 1, 2],
        "parent_id": [-1, 0, 1],
        "pattern": [-1, 2 * 3 + 2 * 9 + 2 * 27 + 2 * 81, 0],
        "guess": [1, 3, 0],
        "n_answers": [4, 3, 2],
        "depth": [1, 2, 3],
    }
    with pytest.raises(ValueError, match="answer"):
        check_tree(tree, words, answers, hard=False, max_guesses=6)
    with pytest.raises(ValueError, match="hard-mode rule"):
        check_tree(tree, words, answers, hard=True, max_guesses=6)


def test_bad_arguments_are_refused():
    w = lists("fixture")
    with pytest.raises(ValueError, match="opener"):
        solve_opener(w.matrix, w.answer_rows, w.encoded, len(w.words), hard=False)
    with pytest.raises(ValueError, match="max_guesses"):
        solve_opener(w.matrix, w.answer_rows, w.encoded, 0, hard=False, max_guesses=0)
    with pytest.raises(ValueError, match="top_k"):
        solve_opener(w.matrix, w.answer_rows, w.encoded, 0, hard=False, top_k=0)
    with pytest.raises(ValueError, match="cutoff"):
        solve_opener(w.matrix, w.answer_rows, w.encoded, 0, hard=False, cutoff=0)
    with pytest.raises(ValueError, match="uint8"):
        solve_opener(w.matrix.astype(np.int64), w.answer_rows, w.encoded, 0, hard=False)
    with pytest.raises(ValueError, match="answer_rows"):
        solve_opener(w.matrix, w.answer_rows[::-1], w.encoded, 0, hard=False)


@pytest.mark.mirror
def test_tarse_normal_mode_is_7883(mirror):
    w, answers = real_lists(mirror)
    result = solve_opener(w.matrix, w.answer_rows, w.encoded, w.words.index("tarse"), hard=False)
    assert result.proven and result.total == 7883 and round(result.mean, 4) == 3.4140
    assert check_tree(result, w.words, sorted(answers), hard=False, max_guesses=6) == 7883


@pytest.mark.mirror
@pytest.mark.slow
def test_salet_hard_mode_is_8097(mirror):
    w, answers = real_lists(mirror)
    result = solve_opener(w.matrix, w.answer_rows, w.encoded, w.words.index("salet"), hard=True)
    assert result.proven and result.total == 8097 and round(result.mean, 4) == 3.5067
    assert check_tree(result, w.words, sorted(answers), hard=True, max_guesses=6) == 8097


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_cutoff_stops_at_the_bound(hard):
    for opener in (0, 5, 25):
        proven = solve("three-families", opener, hard)
        if proven.total is None:
            continue
        above = solve("three-families", opener, hard, cutoff=proven.total + 1)
        assert above.total == proven.total and above.proven
        assert np.array_equal(above.guess, proven.guess)
        cut = solve("three-families", opener, hard, cutoff=proven.total)
        assert cut.total is None and not cut.proven and len(cut.guess) == 0
        assert proven.total <= cut.lower_bound <= proven.total
        assert "not below the cutoff" in cut.reason
        far = solve("three-families", opener, hard, cutoff=proven.total - 10)
        assert proven.total - 10 <= far.lower_bound <= proven.total


@pytest.mark.parametrize("case", ["random", "two-families", "three-families"])
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_cutoff_searches_equal_brute_force(case, hard):
    """Under a cutoff the root's buckets start from their second-level bounds and are
    searched in a mode's own order (recursion): below the cutoff the total and tree are
    the full search's, at or above it the bound lies between the cutoff and the optimum
    (or no tree fits, proven)."""
    reference = brute(case, hard)
    for max_guesses in (4, 5, 6):
        for opener in openers(case):
            expected = reference.opener(opener, max_guesses)
            full = solve(case, opener, hard, max_guesses)
            near = (10, 60) if expected == INF else (expected + 1, expected, expected - 3)
            for cutoff in (c for c in near if c >= 1):
                result = solve(case, opener, hard, max_guesses, cutoff=cutoff)
                check_cutoff_result(result, full, expected, cutoff)


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_a_batch_shares_its_memo_and_gives_the_same_trees(hard):
    w = lists("three-families")
    openers = list(range(0, 45, 3))
    alone = [solve("three-families", opener, hard) for opener in openers]
    batch = list(solve_openers(w.matrix, w.answer_rows, w.encoded, openers, hard=hard))
    assert sum(b.nodes for b in batch) < sum(a.nodes for a in alone)
    for a, b in zip(alone, batch, strict=True):
        assert (a.opener, a.total, a.proven, a.reason) == (b.opener, b.total, b.proven, b.reason)
        for name in TREE_FIELDS:
            assert np.array_equal(getattr(a, name), getattr(b, name))
    ranked = list(
        solve_openers(w.matrix, w.answer_rows, w.encoded, openers, hard=hard, running_cutoff=True)
    )
    best = min(a.total for a in alone if a.total is not None)
    assert min(r.total for r in ranked if r.total is not None) == best
    for a, r in zip(alone, ranked, strict=True):
        if r.total is not None:
            assert r.total == a.total
        elif r.lower_bound is not None:
            assert a.total is None or r.lower_bound <= a.total
            assert r.lower_bound > min(x.total for x in ranked[: openers.index(r.opener)]
                                       if x.total is not None)  # fmt: skip
