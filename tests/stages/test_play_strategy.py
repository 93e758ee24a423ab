"""pipeline.stages.benchmark (and the report stage): the written games, summary and score
model agree with the rules and with each other; the real lists' greedy-entropy result."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.analysis.benchmark.game_state import GameData
from pipeline.analysis.benchmark.games import play_strategies
from pipeline.analysis.benchmark.tables import score_model_table
from pipeline.analysis.benchmark.units import needs_optimal, play_units
from pipeline.analysis.optimal.tables import ALL_OPENERS
from pipeline.artifacts import benchmark as store
from pipeline.artifacts import openers as openers_artifact
from pipeline.artifacts import parquet
from pipeline.artifacts.commonness import read_p_common
from pipeline.artifacts.patterns import read_pattern_matrix
from pipeline.artifacts.seal import read_seal
from pipeline.artifacts.words import read_word_index
from pipeline.core.errors import ArtifactError, PipelineError
from pipeline.core.wordle import pattern_string
from pipeline.stages.build_word_index import build_word_index
from pipeline.stages.draw_report_item import draw_report_item
from pipeline.stages.play_strategy import play_strategy, stored_trees
from pipeline.stages.summarize_benchmarks import summarize_benchmarks
from tests.support.artifact_set import (
    PLOTS,
    ArtifactSet,
    Settings,
    build_artifact_set,
    synthetic_words,
    write_raw_inputs,
)
from tests.support.naive import NaivePlayer, consistent, feedback, numpy_greedy
from tests.support.naive_advice import legal
from tests.support.optimal_fixture import brute_force, write_optimal_files

WORDS, ANSWERS, P_COMMON = synthetic_words()
GREEN = 3**5 - 1
MODES = {"greedy_entropy_hard": "hard", "greedy_entropy_ultrahard": "ultrahard",
         "optimal_hard": "hard"}  # fmt: skip


def brute_force_optimum(mode: str) -> tuple[int, str]:
    """(least total over every opener and tree, its first opener) by the naive search."""
    totals = [(brute_force(tuple(WORDS), tuple(ANSWERS), o, mode == "hard")[0], o) for o in WORDS]
    total, opener = min(totals)
    return int(total), opener


STRATEGIES = [
    {"name": name}
    for name in (
        "greedy_entropy",
        "greedy_entropy_hard",
        "greedy_entropy_ultrahard",
        "optimal",
        "optimal_hard",
        "most_parts",
        "minimax",
        "two_step",
        "commonness",
        "letter_frequency",
    )
] + [{"name": "opener_benchmark", "top": 5}]


def solver_set(tmp_path_factory) -> ArtifactSet:
    """The solver tests' artifact set, up to the report (tests/stages/test_optimal_play.py
    too); the optimal search runs for every opener, so the tests can compare them all."""
    rng = random.Random(3)
    return build_artifact_set(
        tmp_path_factory.mktemp("solver"),
        allowed=WORDS,
        answers=ANSWERS,
        counts={w: rng.randint(1, 10**6) for w in WORDS},
        settings=Settings(
            n_common=30, chunk_rows=40, strategies=STRATEGIES, optimal_top=ALL_OPENERS
        ),
        until="report",
    )


def run(solver, folder: Path, **changes) -> dict[str, Path]:
    """Every unit of the benchmark (play_strategy), then the merge (summarize_benchmarks),
    into `folder`, with the set's inputs and settings, less `changes`."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {name: folder / f"{name}.parquet" for name in ("games", "summary", "score_model")}
    strategies = changes.pop("strategies", solver.settings.strategies)
    per_job = changes.pop("openers_per_job", solver.settings.openers_per_job)
    arguments = {
        "words": solver.words,
        "commonness": solver.commonness,
        "patterns": solver.matrix(),
        "openers": solver.openers,
        "second_guesses": solver.second_guesses,
        "max_turns": solver.settings.max_turns,
        "threads": 1,
    } | changes
    optimal = {
        "optimal_openers": solver.optimal_openers,
        "optimal_trees": solver.optimal_trees,
    }
    optimal = {k: v for k, v in optimal.items() if k not in changes} | {
        k: v for k, v in changes.items() if k in optimal
    }
    arguments = {k: v for k, v in arguments.items() if k not in optimal}
    parts = []
    for name, unit in play_units(strategies, per_job).items():
        parts.append(folder / "units" / f"{name}.parquet")
        play_strategy(
            **arguments,
            **(optimal if needs_optimal(unit["strategy"]) else {}),
            games=parts[-1],
            strategy=unit["strategy"],
            opener_slice=unit["opener_slice"],
        )
    summarize_benchmarks(
        parts=parts,
        max_turns=arguments["max_turns"],
        bin_bits=solver.settings.bin_bits,
        strategies=strategies,
        optimal_openers=optimal["optimal_openers"],
        **out,
    )
    return out


def games_of(path: Path) -> pl.DataFrame:
    return pl.from_arrow(store.read_games(path))


def test_every_recorded_game_is_consistent(solver):
    games = games_of(solver.games)
    assert games.columns == [
        "strategy", "opener", "answer", "guesses", "patterns", "candidates",
        "n_guesses", "finished", "solved",
    ]  # fmt: skip
    allowed = set(WORDS)
    strategies = set(games["strategy"])
    assert strategies == {c["name"] for c in STRATEGIES}
    for row in games.iter_rows(named=True):
        answer, guesses, patterns = row["answer"], row["guesses"], row["patterns"]
        assert set(guesses) <= allowed
        assert patterns == [feedback(g, answer) for g in guesses]
        assert row["n_guesses"] == len(guesses) and row["opener"] == guesses[0]
        assert row["finished"] == (guesses[-1] == answer)
        assert GREEN not in patterns[:-1]
        assert row["solved"] == (row["finished"] and len(guesses) <= 6)
        history = list(zip(guesses, patterns, strict=True))
        assert row["candidates"] == [
            len(consistent(ANSWERS, history[:t])) for t in range(len(history))
        ]
        if row["strategy"] == "greedy_entropy_ultrahard":
            for turn, guess in enumerate(guesses):
                assert all(feedback(g, guess) == p for g, p in history[:turn]), answer
        if row["strategy"] in ("greedy_entropy_hard", "optimal_hard"):
            turns = [(g, pattern_string(p, 5)) for g, p in history]
            for turn, guess in enumerate(guesses):
                assert legal(guess, turns[:turn]), (row["strategy"], answer, guess)
    for strategy in strategies - {"opener_benchmark"}:
        part = games.filter(pl.col("strategy") == strategy)
        assert sorted(part["answer"]) == ANSWERS and part["opener"].n_unique() == 1
    keys = games.select("strategy", "opener", "answer").rows()
    assert keys == sorted(keys)
    schema = pq.read_schema(solver.games)
    assert schema.field("patterns").type == pa.list_(pa.field("item", pa.int32(), False))
    assert schema.field("n_guesses").type == pa.int32()


def test_the_games_are_the_analysis_games(solver):
    """The stage plays what play_strategies plays on the same data and stored tables."""
    index = read_word_index(solver.words)
    matrix = read_pattern_matrix(solver.matrix(), index, solver.words, columns="answers").full()
    stored = openers_artifact.read_second_guesses
    data = GameData(
        index.words,
        index.answer_rows,
        matrix,
        read_p_common(solver.commonness, index),
        opener_ranking=openers_artifact.opener_ranking(solver.openers, index, "answers"),
        second_guesses=lambda o: dict(
            zip(
                stored(solver.second_guesses, "answers", o)["pattern_id"].to_pylist(),
                stored(solver.second_guesses, "answers", o)["second_guess_id"].to_pylist(),
                strict=True,
            )
        ),
        optimal_trees=stored_trees(solver.optimal_openers, solver.optimal_trees, index),
    )
    games = games_of(solver.games)
    for label, opener, played in play_strategies(data, STRATEGIES, 12):
        part = games.filter((pl.col("strategy") == label) & (pl.col("opener") == opener))
        assert part["guesses"].to_list() == [[WORDS[g] for g in game.guesses] for game in played]


def test_opener_benchmark_uses_the_stored_two_step_ranking(solver):
    index = read_word_index(solver.words)
    stored = [WORDS[i] for i in openers_artifact.opener_ranking(solver.openers, index, "answers")]
    player = NaivePlayer(WORDS, ANSWERS, read_p_common(solver.commonness, index).tolist())
    assert stored == player.two_step_ranking(pool=len(WORDS))
    games = games_of(solver.games).filter(pl.col("strategy") == "opener_benchmark")
    assert sorted(set(games["opener"])) == sorted(stored[:5])
    two_step = games_of(solver.games).filter(pl.col("strategy") == "two_step")
    assert set(two_step["opener"]) == {stored[0]}
    greedy = player.choosers(stored)["greedy_entropy"]
    for opener in set(games["opener"]):
        part = games.filter(pl.col("opener") == opener).sort("answer")
        play = lambda t, r, h, o=opener: o if t == 1 else greedy(t, r, h)  # noqa: E731
        for row in part.iter_rows(named=True):
            assert row["guesses"] == player.play(row["answer"], play, 12)["guesses"]


def test_summary_agrees_with_the_games(solver):
    games = games_of(solver.games)
    summary = pl.from_arrow(store.read_summary(solver.summary))
    assert summary.select("strategy", "opener").rows() == sorted(
        set(games.select("strategy", "opener").rows())
    )
    for row in summary.iter_rows(named=True):
        part = games.filter(
            (pl.col("strategy") == row["strategy"]) & (pl.col("opener") == row["opener"])
        )
        counted = [n if f else 13 for n, f in zip(part["n_guesses"], part["finished"], strict=True)]
        assert row["n_games"] == part.height == len(ANSWERS)
        assert row["total_guesses"] == sum(counted)
        assert row["mean_guesses"] == pytest.approx(sum(counted) / len(counted), abs=1e-12)
        assert row["median_guesses"] == float(np.median(counted))
        assert row["max_guesses"] == max(counted)
        for k in range(1, 7):
            assert row[f"n_{k}"] == sum(1 for c in counted if c == k)
        assert row["failures"] == sum(1 for c in counted if c > 6)
        assert row["capped"] == part.filter(~pl.col("finished")).height
        mode = MODES.get(row["strategy"], "normal")
        assert row["mode"] == mode
        best, opener = brute_force_optimum("normal" if mode == "normal" else "hard")
        assert row["gap_to_proven_optimum_total"] == row["total_guesses"] - best
        assert row["gap_to_proven_optimum_mean"] == pytest.approx(
            (row["total_guesses"] - best) / len(ANSWERS)
        )
        hard = "normal" if mode == "normal" else "hard"
        assert row["optimum_source"] == f"optimal_openers.parquet: {hard} mode, opener {opener}"


def test_score_model_agrees_with_the_games(solver):
    games = games_of(solver.games).filter(pl.col("finished"))
    model = pl.from_arrow(store.read_score_model(solver.score_model))
    samples: dict[tuple[str, int], list[tuple[float, int]]] = {}
    for row in games.iter_rows(named=True):
        for turn, size in enumerate(row["candidates"]):
            bits = math.log2(size)
            key = (row["strategy"], math.floor(bits / 0.5))
            samples.setdefault(key, []).append((bits, row["n_guesses"] - turn))
    assert model.height == len(samples)
    for row in model.iter_rows(named=True):
        values = samples[(row["strategy"], round(row["bits_low"] / 0.5))]
        assert row["bits_high"] - row["bits_low"] == 0.5
        assert row["samples"] == len(values)
        assert row["mean_guesses_left"] == pytest.approx(np.mean([v for _, v in values]))
        assert row["mean_bits"] == pytest.approx(np.mean([b for b, _ in values]))
    one = model.filter(pl.col("bits_low") == 0)
    assert (one["mean_guesses_left"] >= 1).all()
    with pytest.raises(PipelineError, match="wider than 0 bits"):
        score_model_table(store.read_games(solver.games), bin_bits=0)


@pytest.mark.parametrize(("threads", "per_job"), [(1, None), (2, None), (2, 1), (1, 1000)])
def test_outputs_are_deterministic_whatever_the_threads_and_split(
    solver, tmp_path, threads, per_job
):
    """Threads and units of any size (one opener each, or all in one): the same bytes."""
    split = {"openers_per_job": per_job} if per_job else {}
    again = run(solver, tmp_path / "again", threads=threads, **split)
    for name, path in (
        ("games", solver.games),
        ("summary", solver.summary),
        ("score_model", solver.score_model),
    ):
        assert again[name].read_bytes() == path.read_bytes(), name


def test_optimum_gap_is_left_empty_for_another_answer_list(solver, tmp_path):
    """Without an optimal strategy no optimum is read and the gaps are empty; an
    optimal_openers.parquet for another answer list (one answer fewer) is refused, never
    a gap; the right one gives each strategy its gap to the proven optimum of its mode."""
    out = run(
        solver,
        tmp_path,
        strategies=[{"name": "minimax"}],
        optimal_openers=None,
        max_turns=2,
    )
    summary = pl.from_arrow(store.read_summary(out["summary"]))
    assert summary["gap_to_proven_optimum_mean"].is_null().all()
    assert summary["gap_to_proven_optimum_total"].is_null().all()
    assert summary["optimum_source"].is_null().all()
    assert 0 < summary["capped"][0] == summary["failures"][0] < len(ANSWERS)
    assert summary["max_guesses"][0] == 3  # a capped game counts as the cap + 1
    raw = write_raw_inputs(
        tmp_path / "raw",
        {
            "allowed": solver.raw_file("allowed").read_bytes(),
            "answers": "\n".join(ANSWERS[:-1]).encode(),
        },
    )
    other = tmp_path / "other" / "words.parquet"
    other.parent.mkdir()
    build_word_index(allowed=raw["allowed"], answers=[raw["answers"]], words=other, until="")
    foreign = (other.parent / "optimal_openers.parquet", other.parent / "optimal_trees.parquet")
    write_optimal_files(other, *foreign, openers=WORDS[:3])
    with pytest.raises(ArtifactError, match="optimal_openers.parquet: its normal-mode optimum is "
                       f"for {len(ANSWERS) - 1} answers"):  # fmt: skip
        run(solver, tmp_path / "foreign", strategies=[{"name": "minimax"}],
            optimal_openers=foreign[0])  # fmt: skip
    strategies = [{"name": "minimax"}, {"name": "greedy_entropy_ultrahard"}]
    out = run(solver, tmp_path / "same", strategies=strategies)
    summary = pl.from_arrow(store.read_summary(out["summary"])).sort("strategy")
    normal, _ = brute_force_optimum("normal")
    hard, _ = brute_force_optimum("hard")
    assert summary["mode"].to_list() == ["ultrahard", "normal"]
    assert summary["gap_to_proven_optimum_total"].to_list() == [
        summary["total_guesses"][0] - hard,  # ultrahard guesses are legal hard-mode guesses
        summary["total_guesses"][1] - normal,
    ]


def test_two_step_uses_the_stored_tables(solver, tmp_path):
    """The opener comes from openers.parquet and the second guesses from
    second_guesses.parquet (mode answers); the tables here deliberately differ from the
    computed ones: the third-ranked opener is made first, one reply's second guess is
    replaced and the prior mode says something else again."""
    index = read_word_index(solver.words)
    openers = openers_artifact.read_openers(solver.openers, index)
    ranking = openers_artifact.opener_ranking(solver.openers, index, "answers")
    chosen = ranking[2]
    ranks = openers["rank"].to_numpy().copy()
    modes = np.array(openers["mode"].to_pylist())
    answers_rows = modes == "answers"
    ids = openers["word_id"].to_numpy()
    ranks[answers_rows & (ids == chosen)] = 1
    ranks[answers_rows & (ids == ranking[0])] = 3
    ranks[~answers_rows & (ids == ranking[1])] = 0  # prior mode: never read by the solver
    edited_openers = openers.set_column(
        openers.schema.get_field_index("rank"), "rank", pa.array(ranks)
    )
    second = parquet.read_table(solver.second_guesses, openers_artifact.SECOND_GUESSES_SCHEMA)
    rows = second.to_pylist()
    mine = [r for r in rows if (r["mode"], r["opener_id"]) == ("answers", chosen)]
    big = max(mine, key=lambda r: r["bucket_size"])
    assert big["bucket_size"] > 2 and big["second_guess_id"] != 0
    for row in rows:
        if row is big:
            row["second_guess_id"], row["second_guess"] = 0, WORDS[0]
    edited_second = pa.Table.from_pylist(rows, schema=second.schema)
    folder = tmp_path / "tables"
    folder.mkdir()
    for write, table, name in (
        (openers_artifact.write_openers, edited_openers, "openers.parquet"),
        (openers_artifact.write_second_guesses, edited_second, "second_guesses.parquet"),
    ):
        write(table, folder / name, inputs={"words": solver.words}, settings={})
    out = run(
        solver,
        tmp_path / "out",
        strategies=[{"name": "two_step"}, {"name": "opener_benchmark", "top": 2}],
        openers=folder / "openers.parquet",
        second_guesses=folder / "second_guesses.parquet",
    )
    games = games_of(out["games"])
    two = games.filter(pl.col("strategy") == "two_step")
    assert set(two["opener"]) == {WORDS[chosen]}
    in_big = two.filter(pl.col("patterns").list.first() == big["pattern_id"])
    assert in_big.height == big["bucket_size"]
    assert set(in_big["guesses"].list.get(1)) == {WORDS[0]}
    others = two.filter(pl.col("patterns").list.first() != big["pattern_id"])
    stored = {r["pattern_id"]: r["second_guess"] for r in mine}
    for row in others.filter(pl.col("n_guesses") > 1).iter_rows(named=True):
        assert row["guesses"][1] == stored[row["patterns"][0]]
    bench = games.filter(pl.col("strategy") == "opener_benchmark")
    assert sorted(set(bench["opener"])) == sorted([WORDS[chosen], WORDS[ranking[1]]])


def test_only_the_ranking_strategies_read_the_rankings(solver, tmp_path):
    """The workflow gives openers.parquet to the units of two_step and the opener benchmark
    alone, and second_guesses.parquet to two_step alone (the others start before the
    ranking exists):
    without the files, the other strategies' games are byte for byte the same, and a
    two_step unit is refused, not played from a ranking of its own."""
    common = {
        "words": solver.words,
        "commonness": solver.commonness,
        "patterns": solver.matrix(),
        "opener_slice": None,
        "max_turns": solver.settings.max_turns,
        "threads": 1,
    }
    rankings = {
        "openers": solver.openers,
        "second_guesses": solver.second_guesses,
    }
    for name in ("greedy_entropy", "commonness", "minimax"):
        given, alone = tmp_path / f"{name}-given.parquet", tmp_path / f"{name}-alone.parquet"
        play_strategy(**common, **rankings, games=given, strategy={"name": name})
        play_strategy(**common, games=alone, strategy={"name": name})
        assert pq.read_table(given).num_rows == len(ANSWERS)
        assert given.read_bytes() == alone.read_bytes(), name
    with pytest.raises(PipelineError, match="'two_step' needs the opener ranking files"):
        play_strategy(**common, games=tmp_path / "two.parquet", strategy={"name": "two_step"})
    with pytest.raises(PipelineError, match="'two_step' needs the opener ranking files"):
        play_strategy(
            **common, openers=solver.openers, games=tmp_path / "two.parquet",
            strategy={"name": "two_step"},
        )  # fmt: skip
    assert not (tmp_path / "two.parquet").exists()
    # the opener benchmark reads the ranking alone (its jobs do not wait for the merge of
    # the second guesses): its games are those it plays when given both files
    bench = {"name": "opener_benchmark", "top": 3}
    alone, given = tmp_path / "bench-alone.parquet", tmp_path / "bench-given.parquet"
    common["opener_slice"] = [0, 3, 1]
    play_strategy(**common, openers=solver.openers, games=alone, strategy=bench)
    play_strategy(**common, **rankings, games=given, strategy=bench)
    assert store.read_games(alone).equals(store.read_games(given))
    assert store.read_games(alone).num_rows == 3 * len(ANSWERS)
    assert "second_guesses" not in read_seal(alone).inputs


def test_rankings_of_another_word_index_are_refused(solver, tmp_path):
    """openers.parquet and second_guesses.parquet built for another words.parquet (the
    same guesses, one answer fewer: other buckets, other second guesses) are refused,
    though their own seals check out."""
    raw = write_raw_inputs(
        tmp_path / "raw",
        {
            "allowed": solver.raw_file("allowed").read_bytes(),
            "answers": "\n".join(ANSWERS[:-1]).encode(),
        },
    )
    other = tmp_path / "words.parquet"
    build_word_index(allowed=raw["allowed"], answers=[raw["answers"]], words=other, until="")
    assert read_word_index(other).words == read_word_index(solver.words).words
    openers = parquet.read_table(solver.openers, openers_artifact.OPENERS_SCHEMA)
    second = parquet.read_table(solver.second_guesses, openers_artifact.SECOND_GUESSES_SCHEMA)
    paths = (tmp_path / "openers.parquet", tmp_path / "second_guesses.parquet")
    openers_artifact.write_openers(openers, paths[0], inputs={"words": other}, settings={})
    openers_artifact.write_second_guesses(second, paths[1], inputs={"words": other}, settings={})
    with pytest.raises(ArtifactError, match="openers.parquet: built from another words.parquet"):
        run(solver, tmp_path / "out", openers=paths[0], second_guesses=paths[1])
    assert not (tmp_path / "out" / "games.parquet").exists()


def test_plots_are_pngs_of_their_artifacts(solver, tmp_path):
    for name in PLOTS:
        data = solver.plot(name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, name
    # the same artifacts draw the same bytes
    again = tmp_path / "again.png"
    draw_report_item(artifacts=[solver.summary], item=again, name="guess-distribution")
    assert again.read_bytes() == solver.plot("guess-distribution").read_bytes()
    with pytest.raises(PipelineError, match="not an artifact the report shows"):
        draw_report_item(artifacts=[solver.games], item=tmp_path / "x.png", name="score-model")
    with pytest.raises(PipelineError, match="unknown report item 'pie'"):
        draw_report_item(artifacts=[solver.summary], item=tmp_path / "x.png", name="pie")
    assert not (tmp_path / "x.png").exists()


# --- the real lists -------------------------------------------------------------------------


@pytest.mark.mirror
def test_real_data_greedy_entropy(real_set):
    index = read_word_index(real_set.words)
    matrix = read_pattern_matrix(real_set.matrix(), index, real_set.words, columns="answers").full()
    data = GameData(
        index.words, index.answer_rows, matrix, read_p_common(real_set.commonness, index), threads=2
    )
    [(_, opener, games)] = play_strategies(data, [{"name": "greedy_entropy"}], 12)
    counts = [len(g.guesses) for g in games]
    assert all(g.finished for g in games) and max(counts) <= 6
    assert len(games) == 2309
    assert opener == "tarse"
    assert sum(counts) == 7915
    assert round(float(np.mean(counts)), 4) == 3.4279
    # an independent slower player on a sample of answers gives the same games
    memo: dict[bytes, int] = {}
    for game in games[:: len(games) // 25]:
        remaining = np.arange(len(data.answer_rows))
        for turn, guess in enumerate(game.guesses):
            key = remaining.tobytes()
            if key not in memo:
                memo[key] = numpy_greedy(data.matrix, data.answer_rows, remaining)
            assert memo[key] == guess, (game.answer, turn)
            row = data.matrix[guess]
            remaining = remaining[row[remaining] == row[game.answer]]


@pytest.mark.mirror
def test_real_data_hard_modes(real_set):
    """NYT hard mode and ultrahard on today's lists: every hard-mode guess is legal by the
    rule written out (tests.support.naive_advice.legal), every ultrahard guess consistent with all
    feedback so far."""
    index = read_word_index(real_set.words)
    matrix = read_pattern_matrix(real_set.matrix(), index, real_set.words, columns="answers").full()
    data = GameData(index.words, index.answer_rows, matrix, np.ones(len(index.words)), threads=2)
    strategies = [{"name": "greedy_entropy_hard"}, {"name": "greedy_entropy_ultrahard"}]
    played = {label: games for label, _, games in play_strategies(data, strategies, 12)}
    totals = {
        label: (sum(len(g.guesses) if g.finished else 13 for g in games),
                sum(not g.finished or len(g.guesses) > 6 for g in games))
        for label, games in played.items()
    }  # fmt: skip
    assert totals == {"greedy_entropy_hard": (8167, 6), "greedy_entropy_ultrahard": (8170, 6)}
    for game in played["greedy_entropy_hard"]:
        turns = []
        for guess, reply in zip(game.guesses, game.patterns, strict=True):
            assert legal(index.words[guess], turns)
            turns.append((index.words[guess], pattern_string(reply, 5)))
    for game in played["greedy_entropy_ultrahard"]:
        history = [(index.words[g], p) for g, p in zip(game.guesses, game.patterns, strict=True)]
        for turn, (guess, _) in enumerate(history):
            assert all(feedback(g, guess) == p for g, p in history[:turn])
