"""`prior.parquet` and `prior_backtest.parquet`: how likely each word of an edition's
answer list is to be the next day's answer, as the NYT has drawn them (the history prior
of pipeline.analysis.history.prior), and the backtest that fitted and checks it.

The prior is for one day, the day after the last one of history.parquet (history.until):
weights are exact integers, one per word by its class (played before that day or not).
No other artifact reads it yet: every table of an edition is still computed with each
answer equally likely (issue 61).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa

from pipeline.artifacts import parquet
from pipeline.artifacts.parquet import described

FILE = "prior.parquet"
BACKTEST_FILE = "prior_backtest.parquet"
PLAYED, UNPLAYED = "played", "unplayed"

SCHEMA = pa.schema(
    [
        described("day", pa.date32(), "the day the prior is for: the day after history.until"),
        described("word_id", pa.int32(), "the answer's word_id (words.parquet)"),
        described("word", pa.string(), "the answer"),
        described(
            "class",
            pa.string(),
            f"{PLAYED!r}: the NYT played it before `day`; {UNPLAYED!r}: never yet",
        ),
        described("times_played", pa.int32(), "days before `day` it was the answer"),
        described("last_played", pa.date32(), "the latest such day; null if never", nullable=True),
        described(
            "weight",
            pa.int64(),
            "the integer weight of the word (its class's); the chance it is the answer on "
            "`day` is weight / the sum of all weights",
        ),
        described("probability", pa.float64(), "weight / the sum of all weights"),
    ]
)
BACKTEST_SCHEMA = pa.schema(
    [
        described(
            "model",
            pa.string(),
            "a window of the history prior (the number of played days the repeat rate is "
            "fitted on, or 'all'), 'online' (the window chosen each day from the days "
            "before it: the model the prior uses) or 'uniform' (every word equally likely)",
        ),
        described("days", pa.int32(), "days scored: from `first_day` whose answer is listed"),
        described("first_day", pa.date32(), "the first day scored"),
        described("last_day", pa.date32(), "the last day scored"),
        described(
            "mean_log_likelihood",
            pa.float64(),
            "the mean natural log of the probability the model gave the day's answer, each "
            "day fitted on the days before it only; higher is better",
        ),
        described("chosen", pa.bool_(), "the model the prior for `day` uses (one row)"),
    ]
)


def write_prior(
    table: pa.Table, path: str | Path, *, inputs: Mapping[str, Path], settings: Mapping
) -> None:
    parquet.write_table(table, path, schema=SCHEMA, inputs=inputs, settings=settings)


def read_prior(path: str | Path) -> pa.Table:
    """The checked prior: every column, one row per answer in word_id order."""
    return parquet.read_table(path, SCHEMA)


def write_backtest(
    table: pa.Table, path: str | Path, *, inputs: Mapping[str, Path], settings: Mapping
) -> None:
    parquet.write_table(table, path, schema=BACKTEST_SCHEMA, inputs=inputs, settings=settings)


def read_backtest(path: str | Path) -> pa.Table:
    return parquet.read_table(path, BACKTEST_SCHEMA)


def day_of(table: pa.Table) -> dt.date:
    """The day a prior table is for."""
    return table["day"][0].as_py()
