"""The solver benchmark's tables: every game, a summary per strategy, the score model.

The summary and the score model are computed with polars, imported where they are: the
play jobs build only the games table, and each of them starts about 0.27 s of CPU
sooner without it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from pipeline.analysis.benchmark.game_state import Game, GameData
from pipeline.analysis.benchmark.units import OPTIMUM_OF_MODE
from pipeline.core.errors import PipelineError
from pipeline.core.wordle import MAX_GUESSES

log = logging.getLogger(__name__)


def games_table(
    data: GameData,
    results: Sequence[tuple[str, str, list[Game]]],
    success_turns: int = MAX_GUESSES,
) -> pa.Table:
    """benchmark_games rows sorted by (strategy, opener, answer)."""
    if data.green > np.iinfo(np.int32).max:
        raise PipelineError(f"words of {data.length} letters have pattern ids beyond int32")
    rows: list[tuple[str, str, str, Game]] = []
    for label, opener, games in results:
        rows.extend((label, opener, data.words[data.answer_rows[g.answer]], g) for g in games)
    rows.sort(key=lambda row: row[:3])
    words = data.words
    return pa.table(
        {
            "strategy": pa.array([r[0] for r in rows], pa.string()),
            "opener": pa.array([r[1] for r in rows], pa.string()),
            "answer": pa.array([r[2] for r in rows], pa.string()),
            "guesses": pa.array(
                [[words[g] for g in r[3].guesses] for r in rows], pa.list_(pa.string())
            ),
            "patterns": pa.array([list(r[3].patterns) for r in rows], pa.list_(pa.int32())),
            "candidates": pa.array([list(r[3].candidates) for r in rows], pa.list_(pa.int32())),
            "n_guesses": pa.array([len(r[3].guesses) for r in rows], pa.int32()),
            "finished": pa.array([r[3].finished for r in rows], pa.bool_()),
            "solved": pa.array(
                [r[3].finished and len(r[3].guesses) <= success_turns for r in rows], pa.bool_()
            ),
        }
    )


@dataclass(frozen=True)
class ProvenOptimum:
    """The best proven total of one mode (optimal_openers.parquet) and its opener."""

    mode: str
    opener: str
    total: int
    mean: float
    answers: int  # the answers the tree solves: the gap compares games over the same list

    @property
    def source(self) -> str:
        return f"optimal_openers.parquet: {self.mode} mode, opener {self.opener}"


def summary_table(
    games: pa.Table,
    optima: Mapping[str, ProvenOptimum],
    modes: Mapping[str, str],
    max_turns: int,
    success_turns: int = MAX_GUESSES,
) -> pa.Table:
    """Per (strategy, opener): guess counts, failures and the gap to the proven optimum.

    A capped (unfinished) game counts as max_turns + 1 guesses in the mean, median, max
    and total: a lower bound on what it would have needed. failures = games not solved
    within success_turns, capped ones included. `modes` gives each strategy label's mode
    (normal when absent); the gap is to the optimum of that mode's rules (ultrahard
    against hard: its guesses are legal hard-mode guesses), null when `optima` has none.
    """
    import polars as pl

    frame = pl.from_arrow(games).with_columns(
        counted=pl.when(pl.col("finished"))
        .then(pl.col("n_guesses").cast(pl.Int64))
        .otherwise(max_turns + 1)
    )
    counts = [
        (pl.col("finished") & (pl.col("n_guesses") == k)).sum().cast(pl.Int32).alias(f"n_{k}")
        for k in range(1, success_turns + 1)
    ]
    summary = (
        frame.group_by("strategy", "opener", maintain_order=True)
        .agg(
            pl.len().cast(pl.Int32).alias("n_games"),
            pl.col("counted").mean().alias("mean_guesses"),
            pl.col("counted").median().cast(pl.Float64).alias("median_guesses"),
            pl.col("counted").max().cast(pl.Int32).alias("max_guesses"),
            pl.col("counted").sum().cast(pl.Int64).alias("total_guesses"),
            *counts,
            (~pl.col("solved")).sum().cast(pl.Int32).alias("failures"),
            (~pl.col("finished")).sum().cast(pl.Int32).alias("capped"),
        )
        .sort("strategy", "opener")
    )
    mode = [modes.get(label, "normal") for label in summary["strategy"].to_list()]
    optimum = [optima.get(OPTIMUM_OF_MODE[m]) for m in mode]
    return summary.with_columns(
        pl.Series("mode", mode, pl.String),
        gap_to_proven_optimum_mean=pl.col("mean_guesses")
        - pl.Series([o.mean if o else None for o in optimum], dtype=pl.Float64),
        gap_to_proven_optimum_total=pl.col("total_guesses")
        - pl.Series([o.total if o else None for o in optimum], dtype=pl.Int64),
        optimum_source=pl.Series([o.source if o else None for o in optimum], dtype=pl.String),
    ).to_arrow()


def score_model_table(games: pa.Table, bin_bits: float) -> pa.Table:
    """The uncertainty map: per strategy and bin of log2(remaining answers) before a
    guess, the mean number of guesses still needed (that guess included); finished games
    only. The opener benchmark's openers are pooled under their strategy label."""
    if not bin_bits > 0:
        raise PipelineError(f"score model bins must be wider than 0 bits, got {bin_bits}")
    import polars as pl

    frame = (
        pl.from_arrow(games)
        .filter(pl.col("finished"))
        .select("strategy", "candidates", "n_guesses")
        .with_columns(turn=pl.int_ranges(0, pl.col("candidates").list.len()))
        .explode("candidates", "turn")
        .with_columns(
            bits=pl.col("candidates").cast(pl.Float64).log(2),
            left=(pl.col("n_guesses") - pl.col("turn")).cast(pl.Float64),
        )
        .with_columns(bin=(pl.col("bits") / bin_bits).floor().cast(pl.Int64))
    )
    table = (
        frame.group_by("strategy", "bin")
        .agg(
            pl.col("bits").mean().alias("mean_bits"),
            pl.col("left").mean().alias("mean_guesses_left"),
            pl.len().cast(pl.Int64).alias("samples"),
        )
        .sort("strategy", "bin")
        .with_columns(
            bits_low=pl.col("bin") * bin_bits,
            bits_high=(pl.col("bin") + 1) * bin_bits,
        )
        .select("strategy", "bits_low", "bits_high", "mean_bits", "mean_guesses_left", "samples")
    )
    return table.to_arrow()
