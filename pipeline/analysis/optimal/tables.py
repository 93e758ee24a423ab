"""Proven-optimal trees as tables: which openers to solve, one search result as a summary
row and a tree table, and the merged tables in a fixed order.

Plain data in, Arrow tables out: the columns are those of pipeline.artifacts.optimal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from pipeline.core.errors import PipelineError
from pipeline.core.wordle import spell_patterns

if TYPE_CHECKING:  # the Snakefile imports select_openers: it starts faster without numba
    from pipeline.kernels.optimal_search import OptimalResult

ALL_OPENERS = "all"  # config optimal.top: every word of the index


def select_openers(
    words: Sequence[str], ranking: Sequence[int], top: int | str, named: Sequence[str]
) -> list[str]:
    """The openers to solve: the `top` best of the ranking (positions in `words`, best
    first; "all": every word), then the named ones not already among them. A name that
    is not one of `words` is a config error naming the key, as one line."""
    if top != ALL_OPENERS and not 1 <= int(top) <= len(words):
        raise PipelineError(
            f"config: optimal.top: {top} is not in 1..{len(words)} (the allowed words), "
            f'nor "{ALL_OPENERS}"'
        )
    known = set(words)
    unknown = [name for name in named if name not in known]
    if unknown:
        raise PipelineError(
            f"config: optimal.openers: {unknown[0]!r} is not a word of the word index "
            f"({len(words)} words)"
        )
    chosen = list(words) if top == ALL_OPENERS else [words[i] for i in ranking[: int(top)]]
    seen = set(chosen)
    return chosen + [name for name in dict.fromkeys(named) if name not in seen]


def subtree_sums(parent: np.ndarray, n_answers: np.ndarray) -> np.ndarray:
    """Sum of n_answers over each node's subtree (parents come before their children):
    the guesses from that node on, summed over its answers."""
    sums = np.asarray(n_answers, dtype=np.int64).copy()
    for node in range(len(sums) - 1, 0, -1):
        sums[parent[node]] += sums[node]
    return sums


def summary_table(
    result: OptimalResult,
    mode: str,
    words: Sequence[str],
    count_columns: int,
) -> pa.Table:
    """One row of optimal_openers.parquet for one (mode, opener) search; n_1 ..
    n_<count_columns> count the answers solved in exactly that many guesses (the bound
    columns are filled in by merge_rows)."""
    n_answers = int(result.n_answers[0]) if len(result.n_answers) else None
    deepest_answer = None
    if result.total is not None:
        at_bottom = result.guess[result.depth == result.deepest]
        deepest_answer = words[int(at_bottom.min())]  # a bottom node guesses its one answer
    counts = list(result.counts) + [0] * (count_columns - len(result.counts))
    row = {
        "mode": mode,
        "opener": words[result.opener],
        "opener_id": result.opener,
        "total_guesses": result.total,
        "mean_guesses": None if n_answers is None else result.total / n_answers,
        "proven": result.proven,
        "lower_bound": result.lower_bound,
        "upper_bound": result.upper_bound,
        **{f"n_{k + 1}": int(count) for k, count in enumerate(counts)},
        "max_guesses": result.deepest,
        "deepest_answer": deepest_answer,
        "partition_bound": None,
        "second_level_bound": None,
        "in_top": False,
        "top_rank": None,
        "nodes": result.nodes,
        "reason": result.reason,
    }
    return pa.Table.from_pylist([row])


def bound_row(bounds: dict, count_columns: int, max_guesses: int) -> dict:
    """The row of an opener no search was needed for (a row of the bounds work file): its
    bound exceeds the top list's last total, or proves that no tree fits (the reason then
    reads as the search's own)."""
    infeasible = bounds["second_level_bound"] is None
    reason = (
        f"no tree wins every answer within {max_guesses} guesses in {bounds['mode']} mode "
        "(its lower bound proves it)"
        if infeasible
        else "not searched: its lower bound is above the certified top list's last total"
    )
    return {
        **bounds, "total_guesses": None, "mean_guesses": None, "proven": infeasible,
        "lower_bound": bounds["second_level_bound"], "upper_bound": None,
        **{f"n_{k}": 0 for k in range(1, count_columns + 1)}, "max_guesses": None,
        "deepest_answer": None, "in_top": False, "top_rank": None, "nodes": 0,
        "reason": reason,
    }  # fmt: skip


def tree_table(result: OptimalResult, mode: str, words: Sequence[str]) -> pa.Table:
    """The rows of optimal_trees.parquet for one tree (none when there is no tree)."""
    n = len(result.node_id)
    parent = np.asarray(result.parent_id, dtype=np.int64)
    pattern = np.asarray(result.pattern, dtype=np.int64)
    guess = np.asarray(result.guess, dtype=np.int64)
    spellings, position = spell_patterns(np.maximum(pattern, 0), len(words[0]))
    pattern_text = np.asarray(spellings, dtype=object)[position] if n else np.array([])
    is_root = parent < 0
    return pa.table(
        {
            "mode": [mode] * n,
            "opener": [words[result.opener]] * n,
            "node_id": pa.array(result.node_id, pa.int32()),
            "parent_id": pa.array(parent, pa.int32(), mask=is_root),
            "pattern_id": pa.array(pattern, pa.int32(), mask=is_root),
            "pattern": pa.array(pattern_text.tolist(), pa.string(), mask=is_root),
            "guess": [words[g] for g in guess.tolist()],
            "guess_id": pa.array(guess, pa.int32()),
            "n_answers": pa.array(result.n_answers, pa.int32()),
            "depth": pa.array(result.depth, pa.int32()),
            "guesses_to_finish": pa.array(subtree_sums(parent, result.n_answers), pa.int64()),
        }
    )


def merge_rows(
    searched: pa.Table, bounds: pa.Table, count_columns: int, max_guesses: int
) -> pa.Table:
    """The rows of optimal_openers.parquet, sorted by (mode, opener): each searched
    opener's row with its bounds, and a bound_row for every other opener of `bounds`. A
    (mode, opener) searched twice is an error."""
    rows: dict[tuple[str, str], dict] = {}
    for row in searched.to_pylist():
        key = (row["mode"], row["opener"])
        if key in rows:
            raise ValueError(f"two parts hold the same (mode, opener) {key}")
        rows[key] = row
    for bound in bounds.to_pylist():
        key = (bound["mode"], bound["opener"])
        if key in rows:
            rows[key]["partition_bound"] = bound["partition_bound"]
            rows[key]["second_level_bound"] = bound["second_level_bound"]
        else:
            rows[key] = bound_row(bound, count_columns, max_guesses)
    return pa.Table.from_pylist([rows[key] for key in sorted(rows)], schema=searched.schema)


def best_opener(modes: Sequence[str], openers: Sequence[str], totals: Sequence, proven: Sequence,
                mode: str) -> tuple[str, int] | None:  # fmt: skip
    """(opener, total) of the best proven opener of a mode (least total, then the opener's
    spelling), from the columns of optimal_openers.parquet; None when there is none."""
    rows = [
        (int(total), opener)
        for m, opener, total, sure in zip(modes, openers, totals, proven, strict=True)
        if m == mode and sure and total is not None
    ]
    if not rows:
        return None
    total, opener = min(rows)
    return opener, total
