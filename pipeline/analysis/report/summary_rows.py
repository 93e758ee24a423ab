"""The benchmark summary's rows as the report reads them: which rows are strategies, the
guess-count columns, and the proven normal-mode optimum. Shared by the figures and the
report's tables; no matplotlib here, so the jobs that only tabulate start without it."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

OPENER_BENCHMARK = "opener_benchmark"
OPTIMAL = "optimal"
OPTIMAL_HARD = "optimal_hard"
OPTIMAL_STRATEGIES = (OPTIMAL, OPTIMAL_HARD)


@dataclass(frozen=True)
class Optimum:
    """A baseline mean (guesses per game), where it comes from and its opener, for labels;
    proven is False for a stand-in (the best opener) when no optimum is known."""

    mean: float
    source: str
    opener: str | None = None
    proven: bool = True


def guess_columns(frame: pl.DataFrame) -> list[str]:
    """n_1, n_2, ... (games solved in exactly k guesses) in order of k."""
    names = [c for c in frame.columns if c.startswith("n_") and c[2:].isdigit()]
    return sorted(names, key=lambda name: int(name[2:]))


def strategy_rows(summary: pl.DataFrame) -> pl.DataFrame:
    """One row per strategy, best mean first: the opener benchmark's rows are per opener
    and have a figure of their own."""
    rows = summary.filter(pl.col("strategy") != OPENER_BENCHMARK)
    return rows.sort("mean_guesses", "strategy")


def normal_mode_optimum(summary: pl.DataFrame) -> Optimum | None:
    """The proven normal-mode optimum. The summary measures every row against the best
    proven opener of its mode (a `gap_to_*_mean` column), so a normal-mode row's mean less
    its gap is that optimum; its opener is the `optimal` row's when that row plays it.
    Without gaps, the `optimal` row itself; None without either."""
    own = summary.filter(pl.col("strategy") == OPTIMAL)
    normal = summary.filter(_normal_mode(summary))
    for column in [c for c in summary.columns if c.startswith("gap_to_") and c.endswith("_mean")]:
        known = normal.filter(pl.col(column).is_not_null())
        if known.height:
            row = known.row(0, named=True)
            mean = row["mean_guesses"] - row[column]
            playing = own.filter((pl.col("mean_guesses") - mean).abs() <= 1e-9)
            opener = playing["opener"][0] if playing.height else None
            return Optimum(mean, row.get("optimum_source") or column, opener)
    if own.height:
        row = own.row(0, named=True)
        source = f"this pipeline's strategy {OPTIMAL}, opener {row['opener']}"
        return Optimum(row["mean_guesses"], source, row["opener"])
    return None


def _normal_mode(summary: pl.DataFrame) -> pl.Expr:
    """Rows of normal-mode strategies: the summary's `mode` column (older summaries: by
    the name, hard-mode strategies end in _hard)."""
    if "mode" in summary.columns:
        return pl.col("mode") == "normal"
    return ~pl.col("strategy").str.ends_with("_hard")
