"""Opener rankings as tables: the part files' rows, the merge, the ranks.

The definitions of the figures are in pipeline.analysis.openers.two_step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.analysis.openers.pattern_spelling import spelled_patterns
from pipeline.core.ties import TIE_TOLERANCE, ranks

MODES = ("answers", "prior")


@dataclass(frozen=True)
class SecondGuesses:
    """Buckets of one opener (ascending reply id) and the best second guess for each."""

    opener: int
    h1: float  # bits of the opener's reply
    pattern_ids: np.ndarray  # int64
    sizes: np.ndarray  # int64, words in the bucket
    probabilities: np.ndarray  # float64, chance the answer is in the bucket
    second_ids: np.ndarray  # int64 word_id of the best second guess
    second_entropies: np.ndarray  # float64 bits over the bucket
    second_is_candidate: np.ndarray  # bool, second guess lies in the bucket
    expected_left: np.ndarray  # float64, candidates left after the second reply | bucket
    solve_probabilities: np.ndarray  # float64, chance the second guess is the answer | bucket


def opener_figures(result: SecondGuesses) -> dict[str, float | int]:
    """h1, expected second entropy, their total, expected candidates left, P(won by two)."""
    q = result.probabilities
    h2 = float(np.sum(q * result.second_entropies))
    return {
        "h1": result.h1,
        "h2_expected": h2,
        "two_step_total": result.h1 + h2,
        "expected_left_after_two": float(np.sum(q * result.expected_left)),
        "p_solved_by_two": float(np.sum(q * result.solve_probabilities)),
        "n_buckets": int(q.size),
    }


def part_table(mode: str, words: Sequence[str], results: Sequence[SecondGuesses]) -> pa.Table:
    """Second-guess rows, one per (opener, bucket), the opener's figures on each row."""
    length = len(words[0])
    word_array = np.array(words, dtype=object)
    figures = [opener_figures(result) for result in results]
    counts = np.array([len(result.pattern_ids) for result in results], dtype=np.int64)
    opener_ids = np.repeat([result.opener for result in results], counts).astype(np.int64)

    def joined(name: str) -> np.ndarray:
        return np.concatenate([getattr(r, name) for r in results]) if results else np.empty(0)

    pattern_ids = joined("pattern_ids").astype(np.int64)
    second_ids = joined("second_ids").astype(np.int64)
    columns = {
        "mode": pa.array([mode] * len(pattern_ids), pa.string()),
        "opener": pa.array(word_array[opener_ids], pa.string()),
        "opener_id": opener_ids.astype(np.int32),
        "pattern_id": pattern_ids.astype(np.int32),
        "pattern": spelled_patterns(pattern_ids, length),
        "bucket_size": joined("sizes").astype(np.int32),
        "bucket_probability": joined("probabilities").astype(np.float64),
        "second_guess": pa.array(word_array[second_ids], pa.string()),
        "second_guess_id": second_ids.astype(np.int32),
        "second_entropy": joined("second_entropies").astype(np.float64),
        "second_is_candidate": pa.array(joined("second_is_candidate").astype(bool)),
    }
    for name in ("h1", "h2_expected", "two_step_total", "expected_left_after_two"):
        columns[name] = np.repeat([f[name] for f in figures], counts).astype(np.float64)
    columns["p_solved_by_two"] = np.repeat([f["p_solved_by_two"] for f in figures], counts)
    columns["n_buckets"] = np.repeat([f["n_buckets"] for f in figures], counts).astype(np.int32)
    return pa.table(columns)


def opener_ranks(totals: np.ndarray, word_ids: np.ndarray) -> np.ndarray:
    """1-based rank of each opener: highest two_step_total first, by the tie rule."""
    order = np.argsort(word_ids, kind="stable")
    result = np.empty(len(totals), dtype=np.int32)
    result[order] = ranks(np.asarray(totals)[order], higher_is_better=True)
    return result


# The columns of a part that carry an opener's figures (repeated on each of its rows).
FIGURE_COLUMNS = (
    "mode", "opener_id", "h1", "h2_expected", "two_step_total", "expected_left_after_two",
    "p_solved_by_two", "n_buckets",
)  # fmt: skip


def ranking_settings(modes: Sequence[str]) -> dict:
    """The settings both ranking artifacts record: the tie rule and the modes ranked."""
    return {"tie_tolerance": TIE_TOLERANCE, "modes": sorted(set(modes))}


def _check_openers(modes: np.ndarray, opener_ids: np.ndarray, words: Sequence[str]) -> None:
    """One (mode, opener) per entry, sorted: known modes, every word once in mode answers."""
    unknown = set(modes) - set(MODES)
    if unknown:
        raise ValueError(f"unknown modes {sorted(unknown)} in openers parts")
    answers = opener_ids[modes == "answers"]
    if answers.size and not np.array_equal(answers, np.arange(len(words))):
        raise ValueError(f"answers-mode parts cover {answers.size} of {len(words)} openers")


def _first_rows(table: pa.Table) -> np.ndarray:
    """Rows where a new (mode, opener_id) run begins (a part holds each opener's rows together)."""
    n = table.num_rows
    first = np.ones(n, dtype=bool)
    if n > 1:
        first[1:] = False
        for name in ("mode", "opener_id"):
            column = table[name]
            first[1:] |= pc.not_equal(column.slice(1), column.slice(0, n - 1)).to_numpy()
    return np.flatnonzero(first)


def rank_parts(parts: Sequence[pa.Table], words: Sequence[str]) -> pa.Table:
    """openers.parquet's rows from the parts' FIGURE_COLUMNS: each opener once per mode,
    every word in mode answers, ranked per mode, sorted by (mode, rank).

    Reads no second guess: the solver units that need only the ranking wait for this
    alone, not for the merge of every second-guess row (the longer job)."""
    heads = pa.concat_tables(
        [part.select(FIGURE_COLUMNS).take(pa.array(_first_rows(part))) for part in parts]
    ).sort_by([("mode", "ascending"), ("opener_id", "ascending")])
    modes = np.asarray(heads["mode"].to_pylist(), dtype=object)
    opener_ids = heads["opener_id"].to_numpy()
    same = (modes[1:] == modes[:-1]) & (opener_ids[1:] == opener_ids[:-1])
    if np.any(same):
        row = int(np.flatnonzero(same)[0])
        raise ValueError(f"opener {words[opener_ids[row]]!r} ({modes[row]}) is in two parts")
    _check_openers(modes, opener_ids, words)
    totals = heads["two_step_total"].to_numpy()
    rank = np.empty(len(modes), dtype=np.int32)
    for mode in sorted(set(modes)):
        members = np.flatnonzero(modes == mode)
        rank[members] = opener_ranks(totals[members], opener_ids[members])
    word_array = np.asarray(words, dtype=object)
    openers = (
        heads.rename_columns(["word_id" if n == "opener_id" else n for n in heads.column_names])
        .append_column("word", pa.array(word_array[opener_ids], pa.string()))
        .append_column("rank", pa.array(rank))
    )
    return openers.sort_by([("mode", "ascending"), ("rank", "ascending")])


def second_guess_rows(parts: Sequence[pa.Table], words: Sequence[str]) -> pa.Table:
    """second_guesses.parquet's rows from the part tables, sorted by (mode, opener_id,
    pattern_id); each (mode, opener) in one part only, every word in mode answers."""
    table = pa.concat_tables(parts).sort_by(
        [("mode", "ascending"), ("opener_id", "ascending"), ("pattern_id", "ascending")]
    )
    opener_ids = table["opener_id"].to_numpy()
    pattern_ids = table["pattern_id"].to_numpy()
    heads = _first_rows(table)
    new_opener = np.zeros(len(opener_ids), dtype=bool)
    new_opener[heads] = True
    repeated = ~new_opener & (pattern_ids == np.roll(pattern_ids, 1))
    if np.any(repeated):
        row = int(np.flatnonzero(repeated)[0])
        mode = table["mode"][row].as_py()
        raise ValueError(f"opener {words[opener_ids[row]]!r} ({mode}) is in two parts")
    head_modes = np.asarray(table["mode"].take(pa.array(heads)).to_pylist(), dtype=object)
    _check_openers(head_modes, opener_ids[heads], words)
    return table
