"""Opener rankings as tables: the part files' rows, the merge, the ranks.

The definitions of the figures are in pipeline.analysis.openers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from pipeline.analysis.tables import spelled_patterns
from pipeline.core.ties import ranks

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


def rank_openers(totals: np.ndarray, word_ids: np.ndarray) -> np.ndarray:
    """1-based rank of each opener: highest two_step_total first, by the tie rule."""
    order = np.argsort(word_ids, kind="stable")
    result = np.empty(len(totals), dtype=np.int32)
    result[order] = ranks(np.asarray(totals)[order], higher_is_better=True)
    return result


def merge_parts(parts: Sequence[pa.Table], words: Sequence[str]) -> tuple[pa.Table, pa.Table]:
    """(openers, second guesses) from part tables: each opener once per mode, every word
    ranked in mode answers; ranks per mode; openers sorted by (mode, rank), second
    guesses by (mode, opener_id, pattern_id)."""
    table = pa.concat_tables(parts).sort_by(
        [("mode", "ascending"), ("opener_id", "ascending"), ("pattern_id", "ascending")]
    )
    modes = np.asarray(table["mode"].to_pylist(), dtype=object)
    opener_ids = table["opener_id"].to_numpy()
    pattern_ids = table["pattern_id"].to_numpy()
    new_opener = np.ones(len(modes), dtype=bool)
    new_opener[1:] = (modes[1:] != modes[:-1]) | (opener_ids[1:] != opener_ids[:-1])
    repeated = ~new_opener & (pattern_ids == np.roll(pattern_ids, 1))
    if np.any(repeated):
        row = int(np.flatnonzero(repeated)[0])
        raise ValueError(f"opener {words[opener_ids[row]]!r} ({modes[row]}) is in two parts")
    heads = np.flatnonzero(new_opener)
    head_modes = modes[heads]
    unknown = set(head_modes) - set(MODES)
    if unknown:
        raise ValueError(f"unknown modes {sorted(unknown)} in openers parts")
    answers = opener_ids[heads][head_modes == "answers"]
    if answers.size and not np.array_equal(answers, np.arange(len(words))):
        raise ValueError(f"answers-mode parts cover {answers.size} of {len(words)} openers")
    openers = table.take(pa.array(heads))
    totals = openers["two_step_total"].to_numpy()
    rank = np.empty(len(heads), dtype=np.int32)
    for mode in sorted(set(head_modes)):
        members = np.flatnonzero(head_modes == mode)
        rank[members] = rank_openers(totals[members], opener_ids[heads][members])
    openers = openers.rename_columns(
        [
            "word" if n == "opener" else "word_id" if n == "opener_id" else n
            for n in openers.column_names
        ]
    ).append_column("rank", pa.array(rank))
    return openers.sort_by([("mode", "ascending"), ("rank", "ascending")]), table
