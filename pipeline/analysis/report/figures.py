"""Figures of the Snakemake report: polars DataFrames in, matplotlib Figures out.

The artifact layer reads and checks the Parquet files; these functions only draw. They
take no paths and write nothing, so tests can inspect what is drawn. Figures are built
on `matplotlib.figure.Figure` (no pyplot state, no display) with sizes that depend on the
number of rows only, so the same tables always give the same picture.

A proven-optimal strategy may appear as a row beside the heuristics (OPTIMAL_STRATEGIES).
Every figure then marks it in OPTIMUM_COLOUR, and the opener chart measures against it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from pipeline.analysis.report.summary_rows import (
    OPENER_BENCHMARK,
    OPTIMAL_HARD,
    OPTIMAL_STRATEGIES,
    Optimum,
    guess_columns,
    normal_mode_optimum,
    strategy_rows,
)

OPTIMUM_COLOUR = "#b8860b"  # dark goldenrod, the optimum in every figure
SOLVED_COLOUR = "tab:blue"
FAILED_COLOUR = "tab:red"
PALETTE = [
    "tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple",
    "tab:brown", "tab:pink", "tab:gray", "tab:cyan", "navy",
]  # fmt: skip
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h"]


def strategy_colours(strategies: Iterable[str]) -> dict[str, str]:
    """The same colour for a strategy in every figure (by name), the optima in gold."""
    heuristics = sorted(set(strategies) - set(OPTIMAL_STRATEGIES))
    colours = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(heuristics)}
    colours.update(dict.fromkeys(OPTIMAL_STRATEGIES, OPTIMUM_COLOUR))
    return colours


def guess_distribution_figure(summary: pl.DataFrame) -> Figure:
    """One panel per strategy, best mean first: games solved in 1..6 guesses and failed,
    every bar labelled with its count, because 6 failures among 2309 games are too short
    a bar to see. Panels share the y axis, so bars compare across strategies."""
    rows = strategy_rows(summary)
    counts = guess_columns(summary)
    n_panels = max(rows.height, 1)
    n_cols = min(n_panels, 3)
    n_rows = -(-n_panels // n_cols)
    figure = Figure(figsize=(3.3 * n_cols, 3.0 * n_rows + 1.0), layout="constrained")
    grid = figure.subplots(n_rows, n_cols, sharey=True, squeeze=False)
    for axes, row in zip(grid.flat, rows.iter_rows(named=True), strict=False):
        _guess_panel(axes, row, counts)
    for axes in grid.flat[rows.height :]:
        axes.set_axis_off()
    tallest = max([row[c] for row in rows.iter_rows(named=True) for c in counts] or [1])
    grid[0, 0].set_ylim(0, tallest * 1.18)  # room for the counts above the bars
    games = int(rows["n_games"].max()) if rows.height else 0
    figure.suptitle(
        f"Guesses needed per game: every strategy against all {games} answers, best mean first"
    )
    figure.supxlabel("guesses needed to solve the game (failed: not solved within six)")
    figure.supylabel("games (one per answer)")
    return figure


def _guess_panel(axes: Axes, row: dict, counts: list[str]) -> None:
    """Bars of one strategy with their counts printed; the failure count in red."""
    values = [int(row[c]) for c in counts] + [int(row["failures"])]
    optimal = row["strategy"] in OPTIMAL_STRATEGIES
    solved = OPTIMUM_COLOUR if optimal else SOLVED_COLOUR
    x = np.arange(len(values))
    bars = axes.bar(x, values, color=[solved] * len(counts) + [FAILED_COLOUR])
    texts = axes.bar_label(bars, labels=[str(v) for v in values], padding=2, fontsize="small")
    texts[-1].set_color(FAILED_COLOUR)
    texts[-1].set_fontweight("bold")
    axes.set_xticks(x, [c[2:] for c in counts] + ["failed"])
    name = f"{row['strategy']} (proven optimum)" if optimal else row["strategy"]
    axes.set_title(
        f"{name}, opener {row['opener']}\n"
        f"mean {row['mean_guesses']:.4f} guesses, {row['failures']} failed",
        fontsize="medium",
        fontweight="bold" if optimal else "normal",
    )
    axes.set_label(row["strategy"])
    axes.grid(axis="y", alpha=0.3)
    if optimal:
        for spine in axes.spines.values():
            spine.set(color=OPTIMUM_COLOUR, linewidth=2)


def opener_benchmark_figure(summary: pl.DataFrame) -> Figure:
    """Greedy entropy after each benchmarked opener, as extra guesses per game over a
    labelled baseline at x = 0: the proven optimum when known, else the best opener.
    Openers differ by hundredths of a guess; bars of the mean on an axis starting near
    3.4 would make that look like a factor of several. The top axis gives the means."""
    rows = summary.filter(pl.col("strategy") == OPENER_BENCHMARK).sort("mean_guesses", "opener")
    if rows.height == 0:
        return _note_figure(f"No opener benchmark in this run (no {OPENER_BENCHMARK} strategy).")
    baseline = _opener_baseline(summary, rows)
    means = rows["mean_guesses"].to_numpy()
    gaps = means - baseline.mean
    figure = Figure(figsize=(9, 0.24 * max(rows.height, 1) + 2.8), layout="constrained")
    axes = figure.subplots()
    y = np.arange(rows.height)
    bars = axes.barh(y, gaps, color=SOLVED_COLOUR, label="greedy entropy after this opener")
    labels = [f"{m:.4f} (+{g:.4f})" for m, g in zip(means, gaps, strict=True)]
    axes.bar_label(bars, labels=labels, padding=3, fontsize="x-small")
    axes.set_yticks(y, rows["opener"].to_list(), fontsize="small")
    axes.set_ylim(rows.height - 0.5, -0.5)  # best opener on top
    widest = float(gaps.max())
    axes.set_xlim(min(0.0, float(gaps.min())), max(widest * 1.35, 0.01))
    _mark_baseline(axes, baseline, rows["opener"].to_list())
    what = "the proven optimum" if baseline.proven else "the best opener here"
    axes.set_xlabel(f"extra guesses per game over {what} (x = 0: {baseline.mean:.4f} guesses)")
    axes.set_ylabel("opener (top of the two-step ranking)")
    mean_axis = axes.secondary_xaxis(
        "top", functions=(lambda g: g + baseline.mean, lambda m: m - baseline.mean)
    )
    mean_axis.set_xlabel("mean guesses per game")
    games = int(rows["n_games"].max())
    axes.set_title(
        f"Opener benchmark: greedy entropy after each of {rows.height} openers, {games} answers\n"
        f"all within {widest:.3f} guesses per game of {what} "
        f"({100 * widest / baseline.mean:.1f} % of {baseline.mean:.4f})"
    )
    axes.grid(axis="x", alpha=0.3)
    figure.legend(loc="outside lower center", fontsize="small", ncols=2)
    return figure


def _note_figure(message: str) -> Figure:
    """A small figure that says why there is nothing to draw, instead of an empty axes."""
    figure = Figure(figsize=(9, 2))
    figure.text(0.5, 0.5, message, ha="center", va="center")
    return figure


def _opener_baseline(summary: pl.DataFrame, rows: pl.DataFrame) -> Optimum:
    """The proven normal-mode optimum, else the best benchmarked opener (rows not empty)."""
    optimum = normal_mode_optimum(summary)
    if optimum is not None:
        return optimum
    best = rows.row(0, named=True)
    return Optimum(best["mean_guesses"], "no proven optimum known", best["opener"], proven=False)


def _mark_baseline(axes: Axes, baseline: Optimum, openers: list[str]) -> None:
    """A gold line at x = 0 over the axis edge, labelled; the optimum's opener in gold."""
    what = "proven optimum" if baseline.proven else "best opener here"
    source = textwrap.shorten(baseline.source, 60, placeholder="...")
    axes.axvline(
        0,
        color=OPTIMUM_COLOUR,
        linewidth=3,
        clip_on=False,
        zorder=5,
        label=f"x = 0: {what}, {baseline.mean:.4f} guesses per game ({source})",
    )
    if baseline.proven and baseline.opener in openers:
        tick = axes.get_yticklabels()[openers.index(baseline.opener)]
        tick.set(color=OPTIMUM_COLOUR, fontweight="bold")


def entropy_vs_commonness_figure(entropy: pl.DataFrame, commonness: pl.DataFrame) -> Figure:
    """Every allowed word: opener entropy over the answers against p_common, answers in
    orange; shows that the most informative openers are often uncommon words."""
    common = commonness.select("word_id", "p_common")
    frame = entropy.drop("p_common", strict=False).join(common, on="word_id", how="inner")
    figure = Figure(figsize=(10, 6.5), layout="constrained")
    axes = figure.subplots()
    for is_answer, colour, label, size in (
        (False, "tab:gray", "allowed guess, not an answer", 3),
        (True, "tab:orange", "possible answer", 6),
    ):
        part = frame.filter(pl.col("is_answer") == is_answer)
        axes.scatter(
            part["p_common"].to_numpy(),
            part["entropy_answers"].to_numpy(),
            s=size,
            alpha=0.5,
            color=colour,
            label=f"{label} ({part.height} words)",
            linewidths=0,
        )
    _label_best_openers(axes, frame)
    axes.set_xlim(-0.02, 1.02)
    axes.set_xlabel("p_common: probability-like weight that the word is common (0 to 1)")
    axes.set_ylabel("entropy of the reply as an opener, answers equally likely (bits)")
    axes.set_title(f"Opener information vs word commonness, all {frame.height} allowed words")
    axes.grid(alpha=0.3)
    figure.legend(loc="outside lower center", ncols=2, fontsize="small", markerscale=3)
    return figure


def _label_best_openers(axes: Axes, frame: pl.DataFrame, count: int = 3) -> None:
    """Name the most informative openers in a column of labels right of the dense strip
    near p_common 0, best on top, so that the leader lines do not cross."""
    best = frame.sort("entropy_answers", "word_id", descending=[True, False]).head(count)
    for rank, row in enumerate(best.iter_rows(named=True)):
        axes.annotate(
            f"{row['word']}: {row['entropy_answers']:.3f} bits, p_common {row['p_common']:.3f}",
            (row["p_common"], row["entropy_answers"]),
            xytext=(0.2, 0.97 - 0.06 * rank),
            textcoords="axes fraction",
            va="top",
            fontsize="small",
            bbox={"boxstyle": "round", "facecolor": "white", "alpha": 0.85, "linewidth": 0.5},
            arrowprops={"arrowstyle": "-", "color": "black", "lw": 0.6},
        )


def adjacent_runs(part: pl.DataFrame) -> list[pl.DataFrame]:
    """One strategy's bins (sorted) split wherever a bin is missing, so that a line joins
    neighbouring bins only and never spans an empty stretch of uncertainty."""
    if part.height == 0:
        return []
    width = part["bits_high"] - part["bits_low"]
    index = (part["bits_low"] / width).round().cast(pl.Int64)
    run = (index.diff().fill_null(1) != 1).cum_sum().alias("run")
    return part.with_columns(run).partition_by("run", maintain_order=True, include_key=False)


def _label_first_guesses(axes: Axes, frame: pl.DataFrame) -> None:
    """Explain the lone bin far right: every game's first guess, all answers possible."""
    first = frame.filter(pl.col("bits_low") == pl.col("bits_low").max())
    bits = float(first["mean_bits"].max())
    axes.annotate(
        f"first guesses:\nall {round(2**bits)} answers\npossible",
        (bits, float(first["mean_guesses_left"].min())),
        xytext=(0, -18),
        textcoords="offset points",
        ha="center",
        va="top",
        fontsize="small",
    )


def _line_style(strategy: str, number: int, colours: dict[str, str]) -> dict:
    """A strategy's line: its colour and marker; a proven-optimal one thick, on top,
    dashed in hard mode."""
    optimal = strategy in OPTIMAL_STRATEGIES
    return {
        "color": colours[strategy],
        "marker": MARKERS[number % len(MARKERS)],
        "markersize": 6 if optimal else 4,
        "linewidth": 2.5 if optimal else 1.2,
        "linestyle": "--" if strategy == OPTIMAL_HARD else "-",
        "zorder": 3 if optimal else 2,
    }


def score_model_figure(score_model: pl.DataFrame) -> Figure:
    """Mean guesses still needed against bits of uncertainty left, per strategy, and below
    it the turns behind each bin. A marker per bin; lines join neighbouring bins only."""
    frame = score_model.filter(pl.col("strategy") != OPENER_BENCHMARK)
    strategies = sorted(frame["strategy"].unique().to_list())
    colours = strategy_colours(strategies)
    figure = Figure(figsize=(10, 7.5), layout="constrained")
    top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=[3, 1.4])
    for number, strategy in enumerate(strategies):
        part = frame.filter(pl.col("strategy") == strategy).sort("bits_low")
        optimal = strategy in OPTIMAL_STRATEGIES
        style = _line_style(strategy, number, colours)
        label = f"{strategy} (proven optimum)" if optimal else strategy
        for i, run in enumerate(adjacent_runs(part)):
            x = run["mean_bits"].to_numpy()
            top.plot(
                x, run["mean_guesses_left"].to_numpy(), label=label if i == 0 else None, **style
            )
            bottom.plot(x, run["samples"].to_numpy(), **style)
    if frame.height:
        _label_first_guesses(top, frame)
    top.set_ylabel("mean guesses still needed,\nthis guess included (guesses)")
    top.set_title("Uncertainty map: guesses still needed vs uncertainty left, per strategy")
    bottom.set_yscale("log")
    bottom.set_ylabel("turns in the bin\n(count, log scale)")
    bottom.set_xlabel("uncertainty before the guess: log2(answers still possible) (bits)")
    for axes in (top, bottom):
        axes.grid(alpha=0.3)
    figure.legend(loc="outside right upper", fontsize="small", title="strategy")
    return figure


def history_benchmark_figure(summary: pl.DataFrame) -> Figure:
    """Each strategy on the days the NYT played: mean guesses per year (top), and the
    days not solved within six (bottom), the opener benchmark left out."""
    frame = summary.filter(pl.col("strategy") != OPENER_BENCHMARK)
    strategies = sorted(frame["strategy"].unique().to_list())
    if not strategies:
        return _note_figure("no strategy played the history")
    colours = strategy_colours(strategies)
    figure = Figure(figsize=(10, 7), layout="constrained")
    top, bottom = figure.subplots(2, 1, sharex=True, height_ratios=[3, 1.4])
    for number, strategy in enumerate(strategies):
        part = frame.filter(pl.col("strategy") == strategy).sort("year")
        optimal = strategy in OPTIMAL_STRATEGIES
        style = _line_style(strategy, number, colours)
        label = f"{strategy} (proven optimal tree)" if optimal else strategy
        years = part["year"].to_numpy()
        top.plot(years, part["mean_guesses"].to_numpy(), label=label, **style)
        bottom.plot(years, part["failures"].to_numpy(), **style)
    top.set_ylabel("mean guesses per played day (guesses)")
    top.set_title("The days the NYT played: mean guesses per year, per strategy")
    bottom.set_ylabel("days not solved\nwithin six (count)")
    bottom.set_xlabel("year")
    years = sorted(frame["year"].unique().to_list())
    bottom.set_xticks(years, [str(year) for year in years])
    bottom.set_xlim(years[0] - 0.5, years[-1] + 0.5)  # one year is a column, not a century
    for axes in (top, bottom):
        axes.grid(alpha=0.3)
    figure.legend(loc="outside right upper", fontsize="small", title="strategy")
    return figure
