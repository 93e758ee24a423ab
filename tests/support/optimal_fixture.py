"""optimal_openers.parquet and optimal_trees.parquet for small word lists, from the
brute-force optimal trees of tests.support.naive_advice (not from the package's search), written
through pipeline.artifacts.optimal's writer: what the optimal strategies play in tests."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pyarrow as pa

from pipeline.artifacts import optimal as optimal_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.core.wordle import pattern_string
from tests.support.naive_advice import optimal_tree

MODES = {"normal": False, "hard": True}


@cache
def brute_force(words: tuple[str, ...], answers: tuple[str, ...], opener: str, hard: bool):
    """(total, nodes) of a least-total tree opening with `opener` (math.inf: none in 6)."""
    return optimal_tree(words, answers, opener, hard)


def summary_row(mode: str, opener: str, words: Sequence[str], total, nodes) -> dict:
    """One optimal_openers row of a brute-force tree (proven: the search is exhaustive)."""
    row = {"mode": mode, "opener": opener, "opener_id": words.index(opener), "proven": True,
           "nodes": 0, "cpu_seconds": 0.0, "partition_bound": None, "second_level_bound": None,
           "in_top": False, "top_rank": None}  # fmt: skip
    if total == math.inf:
        return row | {"reason": "no tree wins every answer within six guesses"}
    solving = sorted((n["depth"], n["guess"]) for n in nodes if n["solves"])
    counts = {f"n_{k}": sum(1 for d, _ in solving if d == k) for k in range(1, 7)}
    answers = len(solving)
    return row | counts | {
        "total_guesses": int(total), "mean_guesses": total / answers,
        "lower_bound": int(total), "upper_bound": int(total),
        "max_guesses": solving[-1][0],
        "deepest_answer": min(g for d, g in solving if d == solving[-1][0]),
    }  # fmt: skip


def tree_table(mode: str, opener: str, words: Sequence[str], nodes: list[dict]) -> pa.Table:
    """The optimal_trees rows of one brute-force tree."""
    length = len(opener)
    pattern = [None if n["pattern_id"] is None else pattern_string(n["pattern_id"], length)
               for n in nodes]  # fmt: skip
    return pa.table(
        {
            "mode": [mode] * len(nodes),
            "opener": [opener] * len(nodes),
            "node_id": [n["node_id"] for n in nodes],
            "parent_id": [n["parent_id"] for n in nodes],
            "pattern_id": [n["pattern_id"] for n in nodes],
            "pattern": pattern,
            "guess": [n["guess"] for n in nodes],
            "guess_id": [words.index(n["guess"]) for n in nodes],
            "n_answers": [n["n_answers"] for n in nodes],
            "depth": [n["depth"] for n in nodes],
            "guesses_to_finish": [n["guesses_to_finish"] for n in nodes],
        }
    )


def write_optimal_files(
    words_file: Path, openers_file: Path, trees_file: Path, openers: Sequence[str] | None = None
) -> None:
    """Both files for every opener (default every word) in both modes."""
    index = words_artifact.read_word_index(words_file)
    words = tuple(index.words)
    answers = tuple(words[i] for i in index.answer_rows)
    rows, trees = [], []
    for mode, hard in MODES.items():
        for opener in openers or words:
            total, nodes = brute_force(words, answers, opener, hard)
            rows.append(summary_row(mode, opener, words, total, nodes))
            if total != math.inf:
                trees.append(tree_table(mode, opener, words, nodes))
    table = pa.Table.from_pylist(rows, schema=optimal_artifact.OPENERS_SCHEMA)
    optimal_artifact.write_optimal(
        table, trees, (openers_file, trees_file), inputs={"words": words_file},
        settings={"search": "tests.support.naive_advice.optimal_tree"},
    )  # fmt: skip
