"""Stage of the report's items: one figure (PNG) or table (HTML page) per rule."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import polars as pl
import pyarrow as pa

from pipeline.analysis.report import tables
from pipeline.artifacts import (
    benchmark,
    benchmark_history,
    commonness,
    entropy,
    openers,
    optimal,
    parquet,
    plots,
    prior,
)
from pipeline.core.errors import PipelineError
from pipeline.core.wordle import MAX_GUESSES

# file name of a plotted artifact -> its schema (every artifact is read checked)
SCHEMAS = {
    benchmark.SUMMARY_FILE: benchmark.summary_schema(MAX_GUESSES),
    benchmark.SCORE_MODEL_FILE: benchmark.SCORE_MODEL_SCHEMA,
    benchmark_history.SUMMARY_FILE: benchmark_history.SUMMARY_SCHEMA,
    entropy.ENTROPY_FILE: entropy.ENTROPY_SCHEMA,
    commonness.FILE: commonness.SCHEMA,
    openers.OPENERS_FILE: openers.OPENERS_SCHEMA,
    optimal.OPENERS_FILE: optimal.OPENERS_SCHEMA,
    prior.FILE: prior.SCHEMA,
    prior.BACKTEST_FILE: prior.BACKTEST_SCHEMA,
}
# item -> the function of pipeline.analysis.report.figures that draws it; that module (and
# matplotlib, about 0.9 s of CPU to import) is loaded only by the jobs that draw
FIGURES = {
    "guess-distribution": "guess_distribution_figure",
    "opener-benchmark": "opener_benchmark_figure",
    "score-model": "score_model_figure",
    "history-benchmark": "history_benchmark_figure",
    "entropy-vs-commonness": "entropy_vs_commonness_figure",
}
TABLES: dict[str, Callable[..., str]] = {
    "benchmark-summary": tables.benchmark_summary_html,
    "top-openers": tables.top_openers_html,
    "proven-openers": tables.proven_openers_html,
    "prior-backtest": tables.prior_backtest_html,
}


def _frame(path: Path) -> pl.DataFrame:
    if path.name not in SCHEMAS:
        raise PipelineError(f"{path}: not an artifact the report shows")
    table: pa.Table = parquet.read_table(path, SCHEMAS[path.name])
    return pl.from_arrow(table)


def draw_report_item(*, artifacts: Sequence[Path], item: Path, name: str) -> None:
    """Draw (PNG) or tabulate (HTML) report item `name` from its artifacts, in order."""
    frames = [_frame(path) for path in artifacts]
    inputs = {f"input_{i}": path for i, path in enumerate(artifacts)}
    if name in FIGURES:
        from pipeline.analysis.report import figures

        plots.write_png(getattr(figures, FIGURES[name])(*frames), item, inputs=inputs)
    elif name in TABLES:
        plots.write_html(TABLES[name](*frames), item, inputs=inputs)
    else:
        raise PipelineError(f"unknown report item {name!r}; known: {sorted(FIGURES | TABLES)}")
