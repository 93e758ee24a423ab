"""`benchmark_history.parquet`: the solver benchmark's strategies on the days the NYT
played, and `benchmark_history_summary.parquet`: per strategy, opener and year."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.artifacts import parquet
from pipeline.artifacts.parquet import described

FILE = "benchmark_history.parquet"
SUMMARY_FILE = "benchmark_history_summary.parquet"
SCHEMA = pa.schema(
    [
        described("date", pa.date32(), "the day the answer was played (history.parquet)"),
        described("puzzle", pa.int32(), "puzzle number, as history.parquet numbers the days"),
        described("answer", pa.string(), "the day's answer"),
        described("strategy", pa.string(), "strategy label (benchmark_games.parquet)"),
        described(
            "mode", pa.string(), "rules the strategy's guesses obey: normal, hard, ultrahard"
        ),
        described("opener", pa.string(), "the strategy's first guess"),
        described("guesses", pa.int32(), "guesses needed (the turn cap + 1 when not solved by it)"),
        described("solved", pa.bool_(), "the answer was guessed within six guesses"),
        described(
            "outside_list",
            pa.bool_(),
            "the answer is not on the edition's answer list: the game was replayed, and the "
            "strategy played on over the allowed words weighted by p_common once its "
            "candidates ran out; otherwise the game is the strategy's benchmark game",
        ),
        described(
            "fallback_turn",
            pa.int32(),
            "the first guess chosen over the allowed words; null when the list never ran out",
            nullable=True,
        ),
    ]
)
SUMMARY_SCHEMA = pa.schema(
    [
        described("strategy", pa.string(), "strategy label"),
        described("mode", pa.string(), "rules the strategy's guesses obey"),
        described("opener", pa.string(), "the strategy's first guess"),
        described("year", pa.int32(), "calendar year of the days"),
        described("days", pa.int32(), "days played in the year"),
        described("mean_guesses", pa.float64(), "mean guesses over the year's days"),
        described("failures", pa.int32(), "days not solved within six guesses"),
        described("outside_list", pa.int32(), "days whose answer the edition's list lacks"),
        described("max_guesses", pa.int32(), "most guesses any day of the year needed"),
        described(
            "hardest_days",
            pa.list_(pa.field("item", pa.string(), nullable=False)),
            "the days that needed max_guesses, as date:answer, in date order",
        ),
    ]
)


def write_history_benchmark(
    table: pa.Table,
    summary: pa.Table,
    paths: tuple[Path, Path],
    *,
    inputs: Mapping[str, Path],
    settings: Mapping[str, Any],
) -> None:
    for data, path, schema in zip((table, summary), paths, (SCHEMA, SUMMARY_SCHEMA), strict=True):
        parquet.write_table(data, path, schema=schema, inputs=inputs, settings=settings)


def read_history_benchmark(path: str | Path) -> pa.Table:
    return parquet.read_table(path, SCHEMA)


def read_history_summary(path: str | Path) -> pa.Table:
    return parquet.read_table(path, SUMMARY_SCHEMA)
