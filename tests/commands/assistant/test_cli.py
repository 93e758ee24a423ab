"""wordle-assist on artifacts the stage functions built from a small word list, with and
without optimal trees (found by brute force): every E against brute force and against
play, the opener list against the stored results, ratings, safety and hard mode. Input,
errors, the data folder and the output are in tests/commands/assistant/test_command_line.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline.artifacts import optimal
from pipeline.commands.assistant.advisor import Advisor
from pipeline.commands.assistant.data import load
from pipeline.core.wordle import pattern_string
from pipeline.kernels.optimal_search.state_search import Policy
from tests.support.advice_play import InMemoryData, play_advice
from tests.support.assistant_fixture import (
    ANSWERS,
    TREE_OPENERS,
    WORDS,
    consistent,
    curve_points,
    run,
)
from tests.support.naive import feedback, ranks_with_ties
from tests.support.naive_advice import expected_guesses, legal, state_value
from tests.support.optimal_reference import CASES

# A policy that leaves only states of at most 3 candidates to the full search, so that
# the fixture's states are the policy's, as the real lists' are after an opener.
SMALL = Policy(exact_upto=3, top_k=2)


def played(secret: str, *guesses: str) -> list[tuple[str, str]]:
    return [(g, pattern_string(feedback(g, secret), 5)) for g in guesses]


def p_common(folder: Path) -> dict[str, float]:
    table = pq.read_table(folder / "entropy.parquet", columns=["word", "p_common"])
    return dict(zip(table["word"].to_pylist(), table["p_common"].to_pylist(), strict=True))


STATES = [
    played("slate", "tarse"),
    played("steel", "slate"),
    played("geese", "eerie"),
    played("teeth", "tarse", "geese"),
    played("cigar", "mamma", "otter"),
    played("abbey", "added"),
    played("teeth", "tarse", "trace"),  # legal in hard mode too
]


def hard_game(turns) -> bool:
    return all(legal(g, turns[:k]) for k, (g, _) in enumerate(turns))


# --------------------------------------------------------------------------- every E is kept


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
@pytest.mark.parametrize("policy", [None, SMALL], ids=["default", "small"])
def test_following_the_advice_gives_the_e_shown(folders, hard, policy):
    """From every opener, playing the first suggestion at every state against every
    answer uses exactly the guesses the opener's E promised; no answer is lost where the
    advice claimed a sure win, and an opener has an E exactly when brute force finds a
    sure win after it."""
    for folder in folders:
        advisor = Advisor(load(folder), hard=hard, policy=policy)
        for opener in WORDS:
            result = play_advice(advisor, opener)
            assert not result.broken, (opener, result.broken)
            optimum = state_value(WORDS, ANSWERS, [], hard, opener)
            assert (result.shown_total is None) == (optimum == math.inf), opener
            if result.shown_total is not None:
                assert result.total == result.shown_total and not result.lost, opener
                assert result.shown_total >= optimum


@pytest.mark.parametrize("turns", STATES)
@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
@pytest.mark.parametrize("policy", [None, SMALL], ids=["default", "small"])
def test_every_e_against_brute_force(plain, turns, hard, policy):
    """A proven E is the brute-force optimum after that guess, a policy E is never below
    it, the first suggestion is the state's optimum when the state is solved in full, and
    the share at risk is that of the replies brute force cannot win in time."""
    if hard and not hard_game(turns):
        pytest.skip("not a hard-mode game")
    advisor = Advisor(load(plain), hard=hard, policy=policy, top=len(WORDS))
    state = advisor.states(advisor.turns(turns))[-1]
    candidates = consistent(sorted(ANSWERS), turns)
    assert [WORDS[c] for c in state.candidates] == candidates
    table = advisor.table(state)
    n = len(candidates)
    for word_id in table.order:
        choice = table.choices[word_id]
        guess = WORDS[word_id]
        assert not hard or legal(guess, turns)
        optimum = state_value(WORDS, candidates, turns, hard, guess)
        if optimum == math.inf:
            assert choice.expected is None and not choice.wins_all
            lost = [
                members
                for members in replies(guess, candidates).values()
                if state_value(WORDS, members, [*turns, (guess, colour(guess, members[0]))], hard)
                == math.inf
            ]
            assert choice.at_risk == pytest.approx(sum(map(len, lost)) / n)
            continue
        assert choice.wins_all and choice.at_risk == 0.0
        if choice.evidence == "proven":
            assert choice.expected == pytest.approx(optimum / n, abs=1e-12)
        else:
            assert choice.expected >= optimum / n - 1e-12
        assert choice.lower_bound <= optimum / n + 1e-12
        bits, _, p_win = expected_guesses(guess, candidates, None, [])
        assert (choice.bits, choice.p_win) == (pytest.approx(bits), pytest.approx(p_win))
    best = table.choices[table.order[0]]
    if n <= (policy or Policy(60, 10)).exact_upto or policy is None:
        assert best.expected == pytest.approx(state_value(WORDS, candidates, turns, hard) / n)


def replies(guess: str, pool: list[str]) -> dict[int, list[str]]:
    result: dict[int, list[str]] = {}
    for word in pool:
        if word != guess:
            result.setdefault(feedback(guess, word), []).append(word)
    return result


def colour(guess: str, answer: str) -> str:
    return pattern_string(feedback(guess, answer), 5)


def test_a_guess_that_cannot_win_in_time_ranks_below_every_one_that_can():
    """Hard mode on a list of one-letter families (light, might, ..., fills, hills, ...):
    after a guess that reveals nothing, some guesses leave candidates with no sure win.
    Each is marked with the brute-force share at risk and ranked after every guess that
    wins them all."""
    words, answers = CASES["two-families"]
    advisor = Advisor(InMemoryData.from_lists(words, answers), hard=True, top=len(words))
    turns = [("bbbbg", "BBBBB")]
    state = advisor.states(advisor.turns(turns))[-1]
    table = advisor.table(state)
    safe = [table.choices[w].wins_all for w in table.order]
    assert safe == sorted(safe, reverse=True) and True in safe and False in safe
    pool = [words[c] for c in state.candidates]
    for word_id in table.order:
        choice, guess = table.choices[word_id], words[word_id]
        lost = [
            members
            for members in replies(guess, pool).values()
            if state_value(words, members, [*turns, (guess, colour(guess, members[0]))], True)
            == math.inf
        ]
        assert choice.at_risk == pytest.approx(sum(map(len, lost)) / len(pool))
        assert choice.wins_all == (not lost)


# --------------------------------------------------------------------------- prior mode


@pytest.mark.parametrize("turns", [*STATES, []])
def test_prior_mode_orders_by_the_estimate_and_shows_no_e(plain, turns):
    points = curve_points(plain, "commonness")
    advisor = Advisor(load(plain), prior=True, top=len(WORDS))
    state = advisor.states(advisor.turns(turns))[-1]
    table = advisor.table(state)
    candidates = consistent(WORDS, turns)
    weights = [p_common(plain)[w] for w in candidates]
    listed = [WORDS[w] for w in table.order]
    assert sorted(listed) == WORDS
    if not turns:
        return  # the opener form (mean bits) is in test_assistant_advice
    naive = [expected_guesses(g, candidates, weights, points) for g in listed]
    for word, (bits, _, p_win) in zip(listed, naive, strict=True):
        choice = table.choices[WORDS.index(word)]
        assert choice.expected is None and choice.evidence == "estimate"
        assert (choice.bits, choice.p_win) == (pytest.approx(bits), pytest.approx(p_win))
    order = ranks_with_ties(
        [e for _, e, _ in naive], higher_is_better=False, tolerance=1e-9,
        keys=[[w not in candidates for w in listed]],
    )  # fmt: skip
    assert order == list(range(len(listed)))


# --------------------------------------------------------------------------- the openers


def stored_totals(folder: Path, hard: bool) -> dict[str, int]:
    """Stored proven totals per opener, read plainly."""
    mode = "hard" if hard else "normal"
    rows = pq.read_table(folder / optimal.OPENERS_FILE).to_pylist()
    return {r["opener"]: r["total_guesses"] for r in rows if r["mode"] == mode and r["proven"]}


@pytest.mark.parametrize("hard", [False, True], ids=["normal", "hard"])
def test_the_openers_are_the_stored_proven_ones_in_order(trees, hard):
    totals = {w: t for w, t in stored_totals(trees, hard).items() if t is not None}
    assert set(totals) == set(TREE_OPENERS["hard" if hard else "normal"])
    advisor = Advisor(load(trees), hard=hard, top=len(WORDS))
    table = advisor.table(advisor.states([])[0])
    listed = [WORDS[w] for w in table.order]
    assert listed == sorted(totals, key=lambda w: (totals[w], WORDS.index(w)))
    for word_id in table.order:
        choice = table.choices[word_id]
        assert choice.evidence == "proven" and choice.wins_all
        assert choice.expected == pytest.approx(totals[WORDS[word_id]] / len(ANSWERS))


def test_without_stored_openers_the_openers_are_searched(plain):
    advisor = Advisor(load(plain), top=3)
    table = advisor.table(advisor.states([])[0])
    best = table.choices[table.order[0]]
    assert best.expected == pytest.approx(state_value(WORDS, ANSWERS, [], False) / len(ANSWERS))


def test_on_the_tree_its_guess_comes_first_with_the_proven_value(trees):
    """Following a stored proven tree, the tree's guess is first, E its
    guesses_to_finish / n_answers, and no other E is below it."""
    advisor = Advisor(load(trees), top=len(WORDS))
    nodes = pq.read_table(trees / optimal.TREES_FILE).to_pylist()
    checked = 0
    for opener in TREE_OPENERS["normal"]:
        tree = [n for n in nodes if n["mode"] == "normal" and n["opener"] == opener]
        for node in tree[1:]:
            parent = tree[node["parent_id"]]
            if parent["node_id"] != 0 or node["n_answers"] == 1:
                continue
            turns = [(parent["guess"], pattern_string(node["pattern_id"], 5))]
            table = advisor.table(advisor.states(advisor.turns(turns))[-1])
            best = table.choices[table.order[0]]
            value = node["guesses_to_finish"] / node["n_answers"]
            assert best.expected == pytest.approx(value, abs=1e-12)
            assert best.evidence == "proven"
            assert min(c.expected for c in table.choices.values() if c.wins_all) >= value - 1e-12
            checked += 1
    assert checked >= 10


# --------------------------------------------------------------------------- ratings


@pytest.mark.parametrize("secret", ["teeth", "cigar", "abbey"])
def test_each_guess_is_rated_as_a_coach_would(trees, capsys, secret):
    """Skill is E given up against the best, luck the guesses the reply saved; over a
    solved game they add up: guesses = E at the start + skill given up - luck."""
    turns = played(secret, "slate", "otter", "nanny")
    turns = turns[: next(k for k, (_, c) in enumerate(turns) if c == "GGGGG") + 1] if any(
        c == "GGGGG" for _, c in turns
    ) else [*turns, (secret, "GGGGG")]  # fmt: skip
    argv = [part for turn in turns for part in turn]
    status, out, _ = run(capsys, *argv, "--data", str(trees), "--json")
    assert status == 0
    document = json.loads(out)
    assert document["solved"] and document["suggestions"] == []
    advisor = Advisor(load(trees), top=len(WORDS))
    states = advisor.states(advisor.turns(turns))
    for k, rating in enumerate(document["turns"]):
        played_choice = advisor.choice(states[k], WORDS.index(turns[k][0]))
        best = advisor.table(states[k]).choices[advisor.table(states[k]).order[0]]
        assert rating["played"]["expected_guesses"] == pytest.approx(played_choice.expected)
        assert rating["best"]["expected_guesses"] == pytest.approx(best.expected)
        assert rating["skill"] == pytest.approx(played_choice.expected - best.expected)
        left = states[k + 1].candidates.size
        assert rating["candidates_after"] == left
        sizes = np.array([len(m) for m in replies_all(turns[k][0], states[k], advisor)])
        assert rating["expected_after"] == pytest.approx((sizes**2).sum() / sizes.sum())
    summary = document["summary"]
    assert summary["guesses"] == len(turns)
    assert summary["expected_at_start"] + summary["skill"] - summary["luck"] == pytest.approx(
        len(turns)
    )
    status, out, _ = run(capsys, *argv, "--data", str(trees))
    assert f"game: solved in {len(turns)}" in out and "-0.00" not in out


def replies_all(guess: str, state, advisor) -> list[list[str]]:
    pool = [WORDS[c] for c in state.candidates]
    result: dict[int, list[str]] = {}
    for word in pool:
        result.setdefault(feedback(guess, word), []).append(word)
    return list(result.values())


def test_text_and_json_say_the_same(plain, capsys):
    turns = played("slate", "nanny")
    argv = [part for turn in turns for part in turn] + ["--data", str(plain), "--top", "4"]
    _, text, _ = run(capsys, *argv)
    _, document, _ = run(capsys, *argv, "--json")
    document = json.loads(document)
    lines = text.splitlines()
    start = lines.index(next(x for x in lines if x.startswith("rank"))) + 1
    rows = document["suggestions"]
    table = lines[start : start + len(rows)]
    assert [line.split()[1] for line in table] == [r["guess"] for r in rows]
    assert [float(line.split()[2]) for line in table] == [
        round(r["expected_guesses"], 4) for r in rows
    ]
    assert {r["evidence"] for r in rows} <= {"proven", "policy"}
    assert all(r["wins_all_within_6"] and r["at_risk"] == 0.0 for r in rows)
    assert document["version"] and document["data"] == str(plain)


def test_candidates_are_shown_and_a_useless_guess_is_not(plain, capsys):
    """Up to --list candidates are listed; with two left only the candidates are
    suggested: a non-candidate cannot split them better than guessing one."""
    turns = played("cigar", "tarse", "crate")
    left = consistent(sorted(ANSWERS), turns)
    argv = [part for turn in turns for part in turn]
    _, out, _ = run(capsys, *argv, "--data", str(plain), "--json", "--top", "10")
    document = json.loads(out)
    assert document["count"] == len(left)
    assert [r["word"] for r in document["remaining"]] == left
    if len(left) == 2:
        assert {r["guess"] for r in document["suggestions"]} == set(left)


# --------------------------------------------------------------------------- hard mode


def test_hard_mode_refuses_an_illegal_guess_and_lists_only_legal_ones(plain, capsys):
    turns = played("teeth", "tarse")  # t green, e yellow
    argv = [part for turn in turns for part in turn]
    status, _, err = run(capsys, *argv, "eerie", "BBBBB", "--hard", "--data", str(plain))
    assert status == 2
    assert err == (
        "wordle-assist: error: guess 2 'eerie' is not allowed in hard mode: position 1 "
        "must be 't' (green)\n"
    )
    turns = played("slate", "nanny")  # nothing revealed: several candidates
    argv = [part for turn in turns for part in turn]
    status, out, _ = run(capsys, *argv, "--hard", "--json", "--top", "40", "--data", str(plain))
    assert json.loads(out)["count"] > 1
    listed = [r["guess"] for r in json.loads(out)["suggestions"]]
    assert listed and all(legal(w, turns) for w in listed)
