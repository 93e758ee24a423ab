"""benchmark_history.parquet on the fixture: every strategy of the solver benchmark on a
history whose days include answers outside the list (humph, dwarf: allowed, no answers).

In-list days must be the strategy's games of benchmark_games.parquet; out-of-list days a
naive replay: the strategy's own guesses while its candidates last (replies from the
letters, tests.support.naive), then the brute-force best of the estimate over the allowed words
consistent with every reply, weighted by p_common (legal in hard mode)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pyarrow as pa
import pytest

from pipeline.analysis.advice.estimate import ScoreCurve
from pipeline.analysis.benchmark.game_state import GameData, Node
from pipeline.analysis.benchmark.units import label_of, strategy_mode
from pipeline.analysis.history.replay import player
from pipeline.artifacts import benchmark as benchmark_artifact
from pipeline.artifacts import benchmark_history as store
from pipeline.artifacts import commonness as commonness_artifact
from pipeline.artifacts import history as history_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.core import hard_mode
from pipeline.stages.play_history import fallback_curve, play_history
from pipeline.stages.play_strategy import attach_rankings, stored_trees
from tests.support.artifact_set import shared_artifact_set
from tests.support.naive import feedback

DAYS = ["cigar", "humph", "rebut", "sissy", "dwarf", "cigar"]  # humph, dwarf: not answers
START = dt.date(2021, 6, 19)


@pytest.fixture(scope="module")
def history_set(tmp_path_factory):
    artifacts = shared_artifact_set(tmp_path_factory, "fixture")
    out = tmp_path_factory.mktemp("history")
    history = out / "history.parquet"
    dates = [START + dt.timedelta(days=k) for k in range(len(DAYS))]
    table = pa.table({
        "date": pa.array(dates, pa.date32()),
        "puzzle": pa.array(range(len(DAYS)), pa.int32()),
        "answer": DAYS,
        "repeat": [DAYS.index(w) != k for k, w in enumerate(DAYS)],
        "first_played": pa.array([dates[DAYS.index(w)] for w in DAYS], pa.date32()),
        "in_tiny": [w not in ("humph", "dwarf") for w in DAYS],
    })  # fmt: skip
    history_artifact.write_history(table, history, inputs={}, until="")
    settings = artifacts.settings
    optimal = artifacts.plays_optimal
    play_history(
        history=history, words=artifacts.words, commonness=artifacts.commonness,
        patterns=artifacts.matrix(), games=artifacts.games, score_model=artifacts.score_model,
        benchmark_history=out / store.FILE, summary=out / store.SUMMARY_FILE,
        strategies=settings.strategies, max_turns=settings.max_turns,
        openers=artifacts.openers, second_guesses=artifacts.second_guesses,
        optimal_openers=artifacts.optimal_openers if optimal else None,
        optimal_trees=artifacts.optimal_trees if optimal else None,
    )  # fmt: skip
    return artifacts, out


def test_in_list_days_are_the_benchmark_games(history_set):
    artifacts, out = history_set
    rows = store.read_history_benchmark(out / store.FILE).to_pylist()
    games = benchmark_artifact.read_games(artifacts.games).to_pylist()
    pairs = {(g["strategy"], g["opener"]) for g in games}
    assert {(r["strategy"], r["opener"]) for r in rows} == pairs
    assert len(rows) == len(pairs) * len(DAYS)  # no day dropped
    game = {(g["strategy"], g["opener"], g["answer"]): g for g in games}
    for row in rows:
        if row["answer"] in ("humph", "dwarf"):
            assert row["outside_list"]  # the fallback, unless a guess hit it before
            assert row["fallback_turn"] is None or row["fallback_turn"] >= 2
            continue
        g = game[row["strategy"], row["opener"], row["answer"]]
        assert not row["outside_list"] and row["fallback_turn"] is None
        assert (row["guesses"], row["solved"]) == (g["n_guesses"], g["solved"])
    assert any(r["strategy"].startswith("optimal") for r in rows) == artifacts.plays_optimal
    assert any(r["fallback_turn"] for r in rows)


def game_data(artifacts) -> GameData:
    from pipeline.artifacts import patterns as patterns_artifact

    index = words_artifact.read_word_index(artifacts.words)
    matrix = patterns_artifact.read_pattern_matrix(
        artifacts.matrix(), index, artifacts.words, columns="answers"
    )
    p_common = commonness_artifact.read_p_common(artifacts.commonness, index)
    data = GameData(index.words, index.answer_rows, matrix.full(), p_common)
    attach_rankings(data, index, artifacts.words, artifacts.openers, artifacts.second_guesses)
    if artifacts.plays_optimal:
        data.optimal_trees = stored_trees(artifacts.optimal_openers, artifacts.optimal_trees, index)
    return data


def naive_fallback(data: GameData, turns, curve: ScoreCurve, hard: bool) -> str:
    words = data.words
    left = [w for w in words if all(feedback(g, w) == r for g, r in turns)]
    weights = {w: data.p_common[words.index(w)] for w in left}
    total = sum(weights.values())
    options = list(words)
    if hard:
        colours = hard_mode.pattern_colours([r for _, r in turns], 5)
        rule = hard_mode.requirements(data.encoded[[words.index(g) for g, _ in turns]], colours)
        options = [w for w in words if not hard_mode.violation(data.encoded[words.index(w)], rule)]
    best = None
    for guess in options:
        buckets: dict[int, list[float]] = {}
        for w in left:
            buckets.setdefault(feedback(guess, w), []).append(weights[w] / total)
        expected = 0.0
        for reply, mass in buckets.items():
            p = sum(mass)
            if reply == 3**5 - 1:
                expected += p
                continue
            q = np.array(mass) / p
            expected += p * (1 + float(curve(-(q * np.log2(q)).sum())))
        key = (round(expected, 9), guess not in left, words.index(guess))
        best = min(best or key, key)
    return words[best[2]]


def test_out_of_list_days_are_a_naive_replay(history_set):
    artifacts, out = history_set
    data = game_data(artifacts)
    curve = fallback_curve(artifacts.score_model)
    configs = {label_of(s): dict(s) for s in artifacts.settings.strategies}
    rows = store.read_history_benchmark(out / store.FILE).to_pylist()
    checked = 0
    for row in rows:
        if not row["outside_list"]:
            continue  # humph and dwarf, once each per (strategy, opener)
        answer = row["answer"]
        strategy = player(data, configs[row["strategy"]], row["opener"])
        hard = strategy_mode(configs[row["strategy"]]["name"]) != "normal"
        answers = [data.words[a] for a in data.answer_rows]
        node = Node(1, np.arange(len(answers)))
        node.state = strategy.initial_state()
        turns: list[tuple[str, int]] = []
        while True:
            fell_back = node.answers.size == 0
            if fell_back:
                guess = naive_fallback(data, turns, curve, hard)
            else:
                guess = data.words[strategy.guess(node)]
            reply = feedback(guess, answer)
            turns.append((guess, reply))
            if guess == answer or len(turns) > artifacts.settings.max_turns:
                break
            left = np.array([a for a in node.answers if feedback(guess, answers[a]) == reply])
            state = None if fell_back or not left.size else strategy.child_state(
                node, data.words.index(guess), reply)  # fmt: skip
            node = Node(node.turn + 1, left.astype(np.int64),
                        (*node.guesses, data.words.index(guess)), (*node.patterns, reply),
                        (), state)  # fmt: skip
        assert row["guesses"] == len(turns), (row, turns)
        assert row["solved"] == (turns[-1][0] == answer and len(turns) <= 6)
        checked += 1
    assert checked == 2 * len({(r["strategy"], r["opener"]) for r in rows})


def test_the_yearly_summary(history_set):
    _, out = history_set
    rows = store.read_history_benchmark(out / store.FILE).to_pylist()
    summary = store.read_history_summary(out / store.SUMMARY_FILE).to_pylist()
    for s in summary:
        mine = [r for r in rows if (r["strategy"], r["opener"]) == (s["strategy"], s["opener"])]
        assert s["year"] == 2021 and s["days"] == len(DAYS) and s["outside_list"] == 2
        assert s["mean_guesses"] == pytest.approx(sum(r["guesses"] for r in mine) / len(DAYS))
        assert s["failures"] == sum(not r["solved"] for r in mine)
        most = max(r["guesses"] for r in mine)
        assert s["max_guesses"] == most
        assert s["hardest_days"] == [
            f"{r['date']}:{r['answer']}" for r in mine if r["guesses"] == most
        ]
