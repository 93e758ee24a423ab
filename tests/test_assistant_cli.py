"""wordle-assist on artifacts the stage functions built from a small word list, with and
without optimal trees (found by brute force): every E against the definition, the
opener order against the stored results, ratings and hard mode. Input, errors, the data
folder and the output are in tests/test_assistant_command_line.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline.artifacts import optimal
from pipeline.commands.assistant_data import BENCHMARKED, load
from pipeline.commands.assistant_game import SOURCES, Advisor
from pipeline.core.wordle import pattern_string
from tests.assistant_fixture import (
    ANSWERS,
    TREE_OPENERS,
    WORDS,
    consistent,
    curve_points,
    run,
)
from tests.naive import feedback, ranks_with_ties
from tests.naive_advice import expected_guesses, legal


def played(secret: str, *guesses: str) -> list[tuple[str, str]]:
    return [(g, pattern_string(feedback(g, secret), 5)) for g in guesses]


def p_common(folder: Path) -> dict[str, float]:
    table = pq.read_table(folder / "entropy.parquet", columns=["word", "p_common"])
    return dict(zip(table["word"].to_pylist(), table["p_common"].to_pylist(), strict=True))


# --------------------------------------------------------------------------- every E


STATES = [
    played("slate", "tarse"),
    played("steel", "slate"),
    played("geese", "eerie"),
    played("teeth", "tarse", "geese"),
    played("cigar", "mamma", "otter"),
    played("abbey", "added"),
    played("teeth", "tarse", "trace"),  # legal in hard mode too
]


@pytest.mark.parametrize("turns", STATES)
@pytest.mark.parametrize(("prior", "hard"), [(False, False), (True, False), (False, True)])
def test_every_guess_scored_by_the_definition(plain, turns, prior, hard):
    """Bits, E and P(win) of every available guess, and their order, from brute force."""
    if hard and not all(legal(g, turns[:k]) for k, (g, _) in enumerate(turns)):
        pytest.skip("not a hard-mode game")
    strategy = "commonness" if prior else ("greedy_entropy_hard" if hard else "opener_benchmark")
    points = curve_points(plain, strategy)
    advisor = Advisor(load(plain), prior=prior, hard=hard, top=len(WORDS))
    assert advisor.curve.strategy == strategy
    state = advisor.states(advisor.turns(turns))[-1]
    table = advisor.table(state)
    pool = WORDS if prior else sorted(ANSWERS)
    candidates = consistent(pool, turns)
    assert [WORDS[c] for c in state.candidates] == candidates
    weights = [p_common(plain)[w] for w in candidates] if prior else None
    available = [w for w in WORDS if not hard or legal(w, turns)]
    assert [WORDS[g] for g in table.guesses] == available
    naive = np.array([expected_guesses(g, candidates, weights, points) for g in available])
    np.testing.assert_allclose(table.scores.bits, naive[:, 0], atol=1e-12)
    np.testing.assert_allclose(table.scores.expected, naive[:, 1], atol=1e-12)
    np.testing.assert_allclose(table.scores.p_win, naive[:, 2], atol=1e-12)
    order = ranks_with_ties(
        list(naive[:, 1]), higher_is_better=False, tolerance=1e-9,
        keys=[[w not in candidates for w in available]],
    )  # fmt: skip
    assert table.order.tolist() == order


def test_prior_openers_use_the_mean_bits_form(plain):
    advisor = Advisor(load(plain), prior=True, top=len(WORDS))
    state = advisor.states([])[0]
    table = advisor.table(state)
    weights = np.array([p_common(plain)[w] for w in WORDS])
    weights /= weights.sum()
    h0 = -(weights * np.log2(weights)).sum()
    entropy = pq.read_table(plain / "entropy.parquet")["entropy_prior"].to_numpy()
    curve = advisor.curve
    expected = weights + (1 - weights) * (1 + curve(np.maximum(h0 - entropy, 0)))
    np.testing.assert_allclose(table.scores.expected, expected, atol=1e-12)


# --------------------------------------------------------------------------- the openers


def stored_means(folder: Path, hard: bool) -> tuple[dict[str, float], dict[str, float]]:
    """(optimal tree means, lowest benchmark means) per opener, read plainly."""
    mode = "hard" if hard else "normal"
    best: dict[str, float] = {}
    for row in pq.read_table(folder / "benchmark_summary.parquet").to_pylist():
        if row["strategy"] in BENCHMARKED[hard] and not row["capped"]:
            best[row["opener"]] = min(row["mean_guesses"], best.get(row["opener"], math.inf))
    trees: dict[str, float] = {}
    if (folder / optimal.OPENERS_FILE).is_file():
        for row in pq.read_table(folder / optimal.OPENERS_FILE).to_pylist():
            if row["mode"] == mode and row["total_guesses"] is not None:
                trees[row["opener"]] = row["total_guesses"] / len(ANSWERS)
    return trees, best


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("with_trees", [False, True])
def test_opener_list_agrees_with_the_stored_results(folders, hard, with_trees):
    """Openers with a stored tree carry its mean, the others benchmarked their measured
    mean; among each kind the list keeps the stored order, and every E is the stored one."""
    folder = folders[with_trees]
    trees_mean, bench_mean = stored_means(folder, hard)
    assert bench_mean and (trees_mean or not with_trees)
    advisor = Advisor(load(folder), hard=hard, top=len(WORDS))
    table = advisor.table(advisor.states([])[0])
    listed = [WORDS[table.guesses[p]] for p in table.order]
    by_word = {WORDS[g]: i for i, g in enumerate(table.guesses)}
    for word in listed:
        source = SOURCES[table.source[by_word[word]]]
        stored = trees_mean.get(word, bench_mean.get(word))
        if word in trees_mean:
            assert source == "optimal"
        elif word in bench_mean:
            assert source == "benchmark"
        else:
            assert source == "model"
        if stored is not None:
            assert table.scores.expected[by_word[word]] == pytest.approx(stored, abs=1e-12)
    for kind in (trees_mean, {w: m for w, m in bench_mean.items() if w not in trees_mean}):
        in_list = [w for w in listed if w in kind]
        ties = ranks_with_ties([kind[w] for w in in_list], higher_is_better=False, tolerance=1e-9)
        assert ties == list(range(len(in_list)))  # lower mean first, as stored


def test_on_the_tree_its_guess_comes_first_with_the_exact_value(trees):
    """Following a stored proven tree, the tree's guess is listed first, E its
    guesses_to_finish / n_answers, and no estimate is below it."""
    advisor = Advisor(load(trees), top=len(WORDS))
    nodes = pq.read_table(trees / optimal.TREES_FILE).to_pylist()
    checked = 0
    for opener in TREE_OPENERS["normal"]:
        tree = [n for n in nodes if n["mode"] == "normal" and n["opener"] == opener]
        for node in tree[1:]:
            parent = tree[node["parent_id"]]
            turns = [(parent["guess"], pattern_string(node["pattern_id"], 5))]
            if parent["node_id"] != 0:
                continue  # one turn deep is enough: the walk is tested in test_advice
            state = advisor.states(advisor.turns(turns))[-1]
            table = advisor.table(state)
            best = table.order[0]
            assert WORDS[table.guesses[best]] == node["guess"]
            value = node["guesses_to_finish"] / node["n_answers"]
            assert table.scores.expected[best] == pytest.approx(value, abs=1e-12)
            assert SOURCES[table.source[best]] == "optimal"
            assert table.scores.expected.min() >= value - 1e-12
            checked += 1
    assert checked >= 10


def test_off_the_tree_every_value_is_an_estimate(trees):
    advisor = Advisor(load(trees), top=len(WORDS))
    assert "otter" not in TREE_OPENERS["normal"]
    turns = played("teeth", "otter")
    table = advisor.table(advisor.states(advisor.turns(turns))[-1])
    assert {SOURCES[s] for s in table.source} == {"model"}


# --------------------------------------------------------------------------- ratings


def test_each_guess_is_rated_beside_the_best_of_its_turn(trees, capsys):
    turns = played("teeth", "slate", "otter", "teeth")
    argv = [part for turn in turns for part in turn]
    status, out, _ = run(capsys, *argv, "--data", str(trees), "--json")
    assert status == 0
    document = json.loads(out)
    assert document["solved"] and document["suggestions"] == []
    advisor = Advisor(load(trees), top=len(WORDS))
    states = advisor.states(advisor.turns(turns))
    for k, rating in enumerate(document["turns"]):
        table = advisor.table(states[k])
        mine = table.position(WORDS.index(turns[k][0]))
        best = table.order[0]
        assert rating["guess"] == turns[k][0] and rating["colours"] == turns[k][1]
        assert rating["played"]["expected_guesses"] == pytest.approx(table.scores.expected[mine])
        assert rating["played"]["bits"] == pytest.approx(table.scores.bits[mine])
        assert rating["best"]["guess"] == WORDS[table.guesses[best]]
        assert rating["candidates_before"] == states[k].candidates.size
        assert rating["candidates_after"] == states[k + 1].candidates.size
    assert document["turns"][0]["played"]["source"] == "optimal"  # slate has a tree
    status, out, _ = run(capsys, *argv, "--data", str(trees))
    assert "solved in 3 guesses" in out and "-0.00" not in out


def test_text_and_json_say_the_same(plain, capsys):
    turns = played("slate", "nanny")
    argv = [part for turn in turns for part in turn] + ["--data", str(plain), "--top", "4"]
    _, text, _ = run(capsys, *argv)
    _, document, _ = run(capsys, *argv, "--json")
    document = json.loads(document)
    lines = text.splitlines()
    table = lines[lines.index(next(x for x in lines if x.startswith("rank"))) + 1 :][:4]
    assert len(document["suggestions"]) == 4
    assert [line.split()[1] for line in table] == [r["guess"] for r in document["suggestions"]]
    assert [float(line.split()[3]) for line in table] == [
        round(r["expected_guesses"], 4) for r in document["suggestions"]
    ]
    assert document["version"] and document["data"] == str(plain)


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
    assert set(listed) == {w for w in WORDS if legal(w, turns)}


def test_hard_mode_reads_the_hard_trees(trees):
    advisor = Advisor(load(trees), hard=True, top=len(WORDS))
    table = advisor.table(advisor.states([])[0])
    sources = {WORDS[g]: SOURCES[s] for g, s in zip(table.guesses, table.source, strict=True)}
    assert {w for w, s in sources.items() if s == "optimal"} == set(TREE_OPENERS["hard"])
