"""Stage of rule play_strategy: one unit of the solver benchmark played against every answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.analysis.benchmark import tables
from pipeline.analysis.benchmark.game_state import GameData
from pipeline.analysis.benchmark.games import play_unit
from pipeline.analysis.benchmark.optimal_strategy import TreeLookup
from pipeline.analysis.benchmark.units import needs_rankings, needs_second_guesses
from pipeline.analysis.optimal.tables import best_opener
from pipeline.analysis.optimal.tree import OptimalTree, TreeError
from pipeline.artifacts import benchmark as store
from pipeline.artifacts import commonness as commonness_artifact
from pipeline.artifacts import openers as openers_artifact
from pipeline.artifacts import optimal as optimal_artifact
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import check_built_from
from pipeline.core.errors import ArtifactError, PipelineError
from pipeline.core.word_index import WordIndex
from pipeline.core.wordle import MAX_GUESSES


def stored_trees(openers: Path, trees: Path, index: WordIndex) -> TreeLookup:
    """The optimal strategies' trees: (mode, opener or None) -> the stored tree of that
    opener, or of the best proven opener of the mode; None when the search proved that no
    tree wins every answer (for that opener, or for every opener of the mode). An opener
    without a proven result, or a tree whose words are not the word index's, is an
    ArtifactError naming the file."""
    table = optimal_artifact.read_openers(openers)
    columns = [table[name].to_pylist() for name in ("mode", "opener", "total_guesses", "proven")]

    def lookup(mode: str, opener: str | None) -> OptimalTree | None:
        if opener is None:
            best = best_opener(*columns, mode=mode)
            if best is None and no_tree_wins(columns, mode):
                return None
            if best is None:
                raise ArtifactError(f"{openers}: no proven {mode}-mode opener")
            opener, total = best
        else:
            rows = [
                t for m, o, t, p in zip(*columns, strict=True) if (m, o, p) == (mode, opener, True)
            ]
            if rows == [None]:
                return None
            if not rows:
                raise ArtifactError(f"{openers}: no proven {mode}-mode total for opener {opener!r}")
            total = rows[0]
        nodes = optimal_artifact.read_tree(trees, mode, opener).to_pydict()
        try:
            return OptimalTree.from_columns(mode, opener, nodes, total, index.words)
        except TreeError as error:
            raise ArtifactError(f"{trees}: {error}") from error

    return lookup


def no_tree_wins(columns: Sequence[list], mode: str) -> bool:
    """Whether optimal_openers.parquet's columns (mode, opener, total, proven) prove, for
    every opener of the mode searched, that no tree wins every answer."""
    rows = [(t, p) for m, _, t, p in zip(*columns, strict=True) if m == mode]
    return bool(rows) and all(proven and total is None for total, proven in rows)


def attach_rankings(
    data: GameData, index: WordIndex, words: Path, openers: Path, second_guesses: Path | None
) -> None:
    """Give the game data the stored two-step ranking and, when given, the stored second
    guesses (lazily read)."""
    for rankings in filter(None, (openers, second_guesses)):
        check_built_from(rankings, "words", words)
    data.opener_ranking = openers_artifact.opener_ranking(openers, index, "answers")
    if second_guesses is None:
        return

    def stored_second_guesses(opener: int) -> dict[int, int]:
        rows = openers_artifact.read_second_guesses(second_guesses, "answers", opener)
        ids = rows["pattern_id"].to_pylist()
        return dict(zip(ids, rows["second_guess_id"].to_pylist(), strict=True))

    data.second_guesses = stored_second_guesses


def play_strategy(
    *,
    words: Path,
    commonness: Path,
    patterns: Sequence[Path],
    games: Path,
    openers: Path | None = None,
    second_guesses: Path | None = None,
    optimal_openers: Path | None = None,
    optimal_trees: Path | None = None,
    strategy: Mapping[str, Any],
    opener_slice: Sequence[int] | None,
    max_turns: int,
    threads: int,
) -> None:
    """Play one strategy (or a share of the opener benchmark) against every answer. The
    strategies that read the opener ranking (and two_step the second guesses), and the
    optimal ones the stored trees, are given those files (their jobs alone)."""
    index = words_artifact.read_word_index(words)
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    data = GameData(
        index.words,
        index.answer_rows,
        matrix.full(),
        commonness_artifact.read_p_common(commonness, index),
        threads=threads,
    )
    inputs = {"words": words, "commonness": commonness, "patterns_index": patterns[0]}
    if needs_rankings(strategy):
        if openers is None or (needs_second_guesses(strategy) and second_guesses is None):
            raise PipelineError(f"strategy {strategy['name']!r} needs the opener ranking files")
        attach_rankings(data, index, words, openers, second_guesses)
        inputs |= {"openers": openers}
        if second_guesses is not None:
            inputs |= {"second_guesses": second_guesses}
    if optimal_openers is not None and optimal_trees is not None:
        data.optimal_trees = stored_trees(optimal_openers, optimal_trees, index)
        inputs |= {"optimal_openers": optimal_openers, "optimal_trees": optimal_trees}
    try:
        results = play_unit(data, strategy, opener_slice, max_turns)
    except TreeError as error:
        raise ArtifactError(f"{optimal_trees}: {error}") from error
    store.write_games_part(
        tables.games_table(data, results, MAX_GUESSES),
        games,
        inputs=inputs,
        settings={"strategy": dict(strategy), "opener_slice": opener_slice, "max_turns": max_turns},
    )
