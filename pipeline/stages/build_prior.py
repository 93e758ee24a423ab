"""Stage of rule build_prior: the edition's prior.parquet and prior_backtest.parquet."""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

from pipeline.analysis.history.archive import History
from pipeline.analysis.history.prior import (
    backtest,
    backtest_start,
    choose_window,
    history_prior,
    prior_table,
    window_label,
)
from pipeline.artifacts import history as history_artifact
from pipeline.artifacts import prior as prior_artifact
from pipeline.artifacts import words as words_artifact

log = logging.getLogger(__name__)


def build_prior(*, words: Path, history: Path, prior: Path, backtest_file: Path) -> None:
    """The history prior of the edition's answers for the day after history.parquet's
    last day, its window chosen by the backtest of the days before it, and the backtest."""
    index = words_artifact.read_word_index(words)
    table = history_artifact.read_history(history)
    days = History(str(history), tuple(table["date"].to_pylist()),
                   tuple(table["answer"].to_pylist()))  # fmt: skip
    day = days.dates[-1] + dt.timedelta(days=1)
    start = backtest_start(days)
    window = choose_window(days, index.answers, day, start)
    result = history_prior(days, index.answers, day, window)
    scored = backtest(days, index.answers, start)
    log.info(
        "prior for %s: window %s, repeat rate %s, %d played (weight %d), %d unplayed "
        "(weight %d); backtest of %d days from %s: mean log-likelihood %.5f, uniform %.5f",
        day, window_label(window), result.repeat_rate, int(result.played.sum()),
        result.played_weight, int((~result.played).sum()), result.unplayed_weight,
        len(scored.scores.dates), start, scored.online_mean, scored.uniform_mean,
    )  # fmt: skip
    inputs = {"words": words, "history": history}
    settings = {"day": str(day), "window": window_label(window),
                "repeat_rate": str(result.repeat_rate), "backtest_start": str(start)}  # fmt: skip
    word_ids = index.answer_rows.tolist()  # the answers, in the prior's order
    prior_artifact.write_prior(prior_table(result, word_ids), prior, inputs=inputs,
                               settings=settings)  # fmt: skip
    prior_artifact.write_backtest(scored.table(window), backtest_file, inputs=inputs,
                                  settings=settings)  # fmt: skip
