"""The solver benchmark's artifacts: `benchmark_games.parquet` (every game),
`benchmark_summary.parquet` (per strategy and opener) and `score_model.parquet` (the
uncertainty map: guesses still needed against bits left)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.artifacts import parquet
from pipeline.artifacts.parquet import described
from pipeline.core.wordle import MAX_GUESSES

GAMES_FILE = "benchmark_games.parquet"
SUMMARY_FILE = "benchmark_summary.parquet"
SCORE_MODEL_FILE = "score_model.parquet"

GAMES_SCHEMA = pa.schema(
    [
        described("strategy", pa.string(), "strategy label (config solver.strategies)"),
        described("opener", pa.string(), "the game's first guess"),
        described("answer", pa.string(), "the hidden answer of this game"),
        described(
            "guesses",
            pa.list_(pa.field("item", pa.string(), nullable=False)),
            "every guess of the game, in order",
        ),
        described(
            "patterns",
            pa.list_(pa.field("item", pa.int32(), nullable=False)),
            "reply to each guess: pattern id (sum of c_i * 3^i; 0 grey, 1 yellow, 2 green)",
        ),
        described(
            "candidates",
            pa.list_(pa.field("item", pa.int32(), nullable=False)),
            "answers still possible (consistent with the feedback so far) before each guess",
        ),
        described("n_guesses", pa.int32(), "guesses played (the cap + 1 when the game was capped)"),
        described("finished", pa.bool_(), "the answer was guessed before the turn cap"),
        described("solved", pa.bool_(), "the answer was guessed within six guesses"),
    ]
)

SCORE_MODEL_SCHEMA = pa.schema(
    [
        described("strategy", pa.string(), "strategy label"),
        described("bits_low", pa.float64(), "bin start: log2(answers still possible), bits"),
        described("bits_high", pa.float64(), "bin end, bits (exclusive)"),
        described("mean_bits", pa.float64(), "mean uncertainty of the turns in the bin, bits"),
        described(
            "mean_guesses_left",
            pa.float64(),
            "mean guesses still needed from such a turn, that turn's guess included",
        ),
        described("samples", pa.int64(), "turns in the bin"),
    ]
)


def summary_schema(success_turns: int) -> pa.Schema:
    """Columns of benchmark_summary.parquet (n_1 .. n_<success_turns>)."""
    counts = [
        described(f"n_{k}", pa.int32(), f"games solved in exactly {k} guesses")
        for k in range(1, success_turns + 1)
    ]
    return pa.schema(
        [
            described("strategy", pa.string(), "strategy label; opener_benchmark rows per opener"),
            described("opener", pa.string(), "first guess of every game of the row"),
            described("n_games", pa.int32(), "games played (one per answer)"),
            described("mean_guesses", pa.float64(), "mean guesses per game (capped: cap + 1)"),
            described("median_guesses", pa.float64(), "median guesses per game"),
            described("max_guesses", pa.int32(), "most guesses any game needed"),
            described("total_guesses", pa.int64(), "guesses summed over all games"),
            *counts,
            described("failures", pa.int32(), "games not solved within six guesses"),
            described("capped", pa.int32(), "games stopped at the turn cap"),
            described(
                "mode",
                pa.string(),
                "rules the strategy's guesses obey: normal (any allowed word), hard (NYT hard "
                "mode) or ultrahard (every guess consistent with all feedback so far)",
            ),
            described(
                "gap_to_proven_optimum_mean",
                pa.float64(),
                "mean_guesses minus the mean of the best proven opener of the row's mode in "
                "optimal_openers.parquet (ultrahard rows: the hard-mode one); null when none",
                nullable=True,
            ),
            described(
                "gap_to_proven_optimum_total",
                pa.int64(),
                "total_guesses minus that proven optimal total; null when none",
                nullable=True,
            ),
            described(
                "optimum_source",
                pa.string(),
                "the optimum measured against: optimal_openers.parquet, its mode and opener",
                nullable=True,
            ),
        ]
    )


def write_benchmark(
    games: pa.Table,
    summary: pa.Table,
    score_model: pa.Table,
    paths: tuple[Path, Path, Path],
    *,
    success_turns: int,
    inputs: Mapping[str, Path],
    built_from: Mapping[str, Path] | None = None,
    settings: Mapping[str, Any],
) -> None:
    """Write the three benchmark tables (games, summary, score model); `built_from` (the
    units' games) goes into their seals only."""
    for table, path, schema in zip(
        (games, summary, score_model),
        paths,
        (GAMES_SCHEMA, summary_schema(success_turns), SCORE_MODEL_SCHEMA),
        strict=True,
    ):
        parquet.write_table(
            table, path, schema=schema, inputs=inputs, settings=settings, built_from=built_from
        )


def read_summary(path: str | Path) -> pa.Table:
    return parquet.read_table(path, summary_schema(MAX_GUESSES))


def read_score_model(path: str | Path) -> pa.Table:
    return parquet.read_table(path, SCORE_MODEL_SCHEMA)


def read_games(path: str | Path) -> pa.Table:
    return parquet.read_table(path, GAMES_SCHEMA)


def write_games_part(
    games: pa.Table, path: str | Path, *, inputs: Mapping[str, Path], settings: Mapping[str, Any]
) -> None:
    """One unit's games (data/work), merged later into benchmark_games.parquet."""
    parquet.write_table(games, path, schema=GAMES_SCHEMA, inputs=inputs, settings=settings)
