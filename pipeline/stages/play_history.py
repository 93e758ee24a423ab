"""Stage of rule play_history: the solver benchmark's strategies on the played days."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.analysis.advice.estimate import ScoreCurve
from pipeline.analysis.benchmark.game_state import GameData
from pipeline.analysis.benchmark.units import label_of, strategy_mode
from pipeline.analysis.history import replay
from pipeline.artifacts import benchmark as benchmark_artifact
from pipeline.artifacts import benchmark_history as store
from pipeline.artifacts import commonness as commonness_artifact
from pipeline.artifacts import history as history_artifact
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.core.errors import ArtifactError
from pipeline.core.progress import Progress
from pipeline.stages.play_strategy import attach_rankings, stored_trees

# the score model's curve that orders the fallback's guesses: prior mode's (the
# assistant's CURVES[(True, ...)], first found)
FALLBACK_CURVES = ("commonness", "greedy_entropy")


def fallback_curve(path: Path) -> ScoreCurve:
    rows = benchmark_artifact.read_score_model(path).to_pydict()
    for strategy in FALLBACK_CURVES:
        mine = [i for i, s in enumerate(rows["strategy"]) if s == strategy]
        if mine:
            bits = [rows["mean_bits"][i] for i in mine]
            guesses = [rows["mean_guesses_left"][i] for i in mine]
            return ScoreCurve.from_bins(bits, guesses, strategy)
    raise ArtifactError(f"{path}: holds none of {FALLBACK_CURVES}")


def played_games(path: Path) -> dict[tuple[str, str], dict[str, tuple[int, bool]]]:
    """(strategy, opener) -> answer -> (guesses, solved) of benchmark_games.parquet."""
    table = benchmark_artifact.read_games(path)
    columns = [
        table[n].to_pylist() for n in ("strategy", "opener", "answer", "n_guesses", "solved")
    ]
    played: dict[tuple[str, str], dict[str, tuple[int, bool]]] = {}
    for label, opener, answer, guesses, solved in zip(*columns, strict=True):
        played.setdefault((label, opener), {})[answer] = (guesses, solved)
    return played


def play_history(
    *,
    history: Path,
    words: Path,
    commonness: Path,
    patterns: Sequence[Path],
    games: Path,
    score_model: Path,
    benchmark_history: Path,
    summary: Path,
    strategies: Sequence[Mapping[str, Any]],
    max_turns: int,
    openers: Path | None = None,
    second_guesses: Path | None = None,
    optimal_openers: Path | None = None,
    optimal_trees: Path | None = None,
) -> None:
    """benchmark_history and its yearly summary: each strategy's benchmark game on the
    days whose answer is on the list, a replay with the fallback on the others."""
    index = words_artifact.read_word_index(words)
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    data = GameData(
        index.words, index.answer_rows, matrix.full(),
        commonness_artifact.read_p_common(commonness, index),
    )  # fmt: skip
    inputs = {"history": history, "words": words, "commonness": commonness, "games": games,
              "score_model": score_model, "patterns_index": patterns[0]}  # fmt: skip
    if openers is not None:
        attach_rankings(data, index, words, openers, second_guesses)
        inputs |= {"openers": openers} | (
            {"second_guesses": second_guesses} if second_guesses else {}
        )
    if optimal_openers is not None and optimal_trees is not None:
        data.optimal_trees = stored_trees(optimal_openers, optimal_trees, index)
        inputs |= {"optimal_openers": optimal_openers, "optimal_trees": optimal_trees}
    days_table = history_artifact.read_history(history)
    days = [
        replay.Day(d.isoformat(), p, a)
        for d, p, a in zip(
            *(days_table[n].to_pylist() for n in ("date", "puzzle", "answer")), strict=True
        )
    ]
    configs = {label_of(s): dict(s) for s in strategies}
    modes = {label: strategy_mode(c["name"]) for label, c in configs.items()}
    played = played_games(games)
    with Progress("(strategy, opener) pairs played on the days", len(played)) as progress:
        rows = replay.history_rows(
            data, days, played, configs, modes, max_turns, fallback_curve(score_model),
            on_done=progress.advance,
        )  # fmt: skip
    summary_rows = replay.year_summary(rows)
    for row in rows:
        row["date"] = dt.date.fromisoformat(row["date"])
    table = pa.Table.from_pylist(rows, schema=store.SCHEMA)
    summary_table = pa.Table.from_pylist(summary_rows, schema=store.SUMMARY_SCHEMA)
    settings = {"strategies": [dict(s) for s in strategies], "max_turns": max_turns}
    store.write_history_benchmark(
        table, summary_table, (benchmark_history, summary), inputs=inputs, settings=settings
    )
