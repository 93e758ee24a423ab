"""The numbers the report's landing page leads with, per edition: the best proven opener of
each mode, how many hard-mode openers are proven to have no winning tree, and the best
heuristic's gap to the proven optimum.

Frames in, a dataclass or reStructuredText out (the landing page includes the text, see
workflow/report/workflow.rst). Every number is the artifacts' own; a best opener is called
the best of all openers only where the optimal stage certified it (`top_rank` 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from pipeline.analysis.history.archive import Coverage
from pipeline.analysis.report.summary_rows import OPTIMAL_STRATEGIES, strategy_rows

NAMED_MISSES = 12  # played answers an edition misses named on the landing page, at most


@dataclass(frozen=True)
class ModeHeadline:
    """One mode of one edition: its best proven opener (None when no opener the search
    settled wins every answer), and how many openers the search settled, of which how many
    have no winning tree."""

    mode: str
    opener: str | None
    total: int | None
    mean: float | None
    certified: bool
    settled: int
    no_win: int
    openers: int


@dataclass(frozen=True)
class HeuristicHeadline:
    """The benchmark's best strategy that is not the proven optimum."""

    strategy: str
    mode: str
    opener: str
    mean: float
    gap: float | None
    failures: int


@dataclass(frozen=True)
class EditionHeadline:
    edition: str
    title: str
    answers: int
    modes: tuple[ModeHeadline, ...]
    heuristic: HeuristicHeadline | None
    coverage: Coverage | None = None


def mode_headline(optimal: pl.DataFrame, mode: str) -> ModeHeadline:
    """The best proven opener of `mode` in an optimal_openers table, and its counts."""
    rows = optimal.filter(pl.col("mode") == mode)
    settled = rows.filter(pl.col("proven"))
    winning = settled.filter(pl.col("total_guesses").is_not_null())
    best = winning.sort("total_guesses", "opener").head(1).rows(named=True)
    return ModeHeadline(
        mode=mode,
        opener=best[0]["opener"] if best else None,
        total=best[0]["total_guesses"] if best else None,
        mean=best[0]["mean_guesses"] if best else None,
        certified=bool(best) and best[0]["top_rank"] == 1,
        settled=settled.height,
        no_win=settled.height - winning.height,
        openers=rows.height,
    )


def best_heuristic(summary: pl.DataFrame) -> HeuristicHeadline | None:
    """The strategy with the fewest mean guesses among those that are not the proven
    optimum (the benchmark summary page's own choice), with its gap to the optimum."""
    rows = strategy_rows(summary).filter(~pl.col("strategy").is_in(OPTIMAL_STRATEGIES))
    if rows.is_empty():
        return None
    row = rows.row(0, named=True)
    return HeuristicHeadline(
        strategy=row["strategy"],
        mode=row["mode"],
        opener=row["opener"],
        mean=row["mean_guesses"],
        gap=row["gap_to_proven_optimum_mean"],
        failures=row["failures"],
    )


def edition_headline(
    edition: str,
    title: str,
    answers: int,
    optimal: pl.DataFrame,
    summary: pl.DataFrame,
    coverage: Coverage | None = None,
) -> EditionHeadline:
    modes = tuple(mode_headline(optimal, mode) for mode in ("normal", "hard"))
    return EditionHeadline(edition, title, answers, modes, best_heuristic(summary), coverage)


def headline_rst(editions: Sequence[EditionHeadline]) -> str:
    """The landing page's headline: one list per edition, newest first."""
    parts = [
        "**Headline.** Proven by this pipeline's exhaustive search "
        "(``optimal_openers.parquet``) and measured by its benchmark "
        "(``benchmark_summary.parquet``); guesses per game, over every answer. "
        "Newest edition first.\n"
    ]
    for headline in reversed(editions):
        lines = [_mode_line(mode, headline.answers) for mode in headline.modes]
        lines.append(_no_win_line(headline.modes[-1]))
        lines.append(_heuristic_line(headline.heuristic))
        if headline.coverage is not None:
            lines.append(_coverage_line(headline.coverage))
        items = "\n".join(f"- {line}" for line in lines)
        parts.append(f"*{headline.edition}*: {headline.title}.\n\n{items}\n")
    return "\n".join(parts)


def _mode_line(mode: ModeHeadline, answers: int) -> str:
    name = f"{mode.mode.capitalize()} mode"
    if mode.opener is None:
        return f"{name}: none of the {_count(mode.settled, 'opener')} searched wins every answer."
    value = (
        f"best opener **{mode.opener}**, {mode.mean:.4f} guesses per game "
        f"({mode.total:,} over {answers:,} answers)"
    )
    if mode.certified:
        scope = f"certified the best of all {_count(mode.openers, 'opener')}"
    else:
        winning = mode.settled - mode.no_win
        scope = f"the best of {_count(winning, 'opener')} proven, not certified over all words"
    return f"{name}: {value}; {scope}."


def _no_win_line(hard: ModeHeadline) -> str:
    unsettled = hard.openers - hard.settled
    rest = f" (of the others, {_count(unsettled, 'opener')} not settled)" if unsettled else ""
    return (
        f"No sure win in hard mode: {hard.no_win:,} of {_count(hard.settled, 'opener')} the search "
        f"settled are proven to have no tree that wins every answer within six guesses{rest}."
    )


def _heuristic_line(heuristic: HeuristicHeadline | None) -> str:
    if heuristic is None:
        return "Best heuristic: no heuristic strategy was played."
    gap = (
        f", {heuristic.gap:.4f} above the proven optimum of its mode"
        if heuristic.gap is not None
        else ", no proven optimum of its mode to compare with"
    )
    failed = f"; fails {_count(heuristic.failures, 'game')}" if heuristic.failures else ""
    return (
        f"Best heuristic: {heuristic.strategy} ({heuristic.mode} mode, opener "
        f"{heuristic.opener}), {heuristic.mean:.4f}{gap}{failed}."
    )


def _coverage_line(coverage: Coverage) -> str:
    """The played answers the answer list misses (the editions table names them all)."""
    return (
        f"Answers as played to {coverage.last}: the answer list misses "
        f"{coverage.summary(NAMED_MISSES)}."
    )


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
