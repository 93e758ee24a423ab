"""PNG figures for the Snakemake HTML report, drawn with matplotlib's Agg backend.

Each function reads one or two Parquet tables and writes one PNG. Figures are drawn
headless (no display needed) and with fixed sizes, so the same tables give the same
picture.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from pipeline.errors import InputError  # noqa: E402
from pipeline.files import atomic_path  # noqa: E402

OPENER_BENCHMARK = "opener_benchmark"
DPI = 120


def _read(path: str | Path, columns: list[str] | None = None) -> pl.DataFrame:
    """A Parquet table as polars, or an InputError naming the file and what is missing."""
    try:
        frame = pl.read_parquet(path)
    except (OSError, pl.exceptions.PolarsError) as error:
        raise InputError(path, f"cannot be read as Parquet: {error}") from None
    missing = [c for c in columns or [] if c not in frame.columns]
    if missing:
        raise InputError(path, f"lacks the columns {missing}")
    return frame


def _save(figure: plt.Figure, out_png: str | Path) -> None:
    """Write the figure atomically (no half-written PNG) with fixed metadata."""
    with atomic_path(out_png) as tmp:
        figure.savefig(tmp, format="png", dpi=DPI, metadata={"Software": None})
    plt.close(figure)


def _guess_columns(frame: pl.DataFrame) -> list[str]:
    """n_1, n_2, ... in order."""
    names = [c for c in frame.columns if c.startswith("n_") and c[2:].isdigit()]
    return sorted(names, key=lambda name: int(name[2:]))


def plot_guess_distribution(summary_path: str | Path, out_png: str | Path) -> None:
    """Bars of how many games each strategy solved in 1, 2, ... guesses, and failed,
    strategies side by side; the legend gives each strategy's mean."""
    frame = _read(summary_path, ["strategy", "opener", "mean_guesses", "failures", "n_games"])
    frame = frame.filter(pl.col("strategy") != OPENER_BENCHMARK).sort("mean_guesses")
    counts = _guess_columns(frame)
    labels = [c[2:] for c in counts] + ["failed"]
    x = np.arange(len(labels))
    n = max(frame.height, 1)
    width = 0.8 / n
    figure, axes = plt.subplots(figsize=(11, 5.5))
    colours = plt.get_cmap("tab10")
    for i, row in enumerate(frame.iter_rows(named=True)):
        values = [row[c] for c in counts] + [row["failures"]]
        axes.bar(
            x - 0.4 + width * (i + 0.5),
            values,
            width,
            color=colours(i % 10),
            label=f"{row['strategy']} (opener {row['opener']}): mean {row['mean_guesses']:.3f}",
        )
    axes.set_xticks(x, labels)
    axes.set_xlabel("guesses needed to find the answer (count)")
    axes.set_ylabel("games (answers)")
    games = frame["n_games"].max() if frame.height else 0
    axes.set_title(f"Guess-count distribution per strategy over {games} answers")
    axes.legend(fontsize="small", title="strategy, sorted by mean guesses")
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    _save(figure, out_png)


def plot_opener_benchmark(summary_path: str | Path, out_png: str | Path) -> None:
    """Mean guesses of greedy entropy after each benchmarked opener, best first, with
    the proven optimum as a reference line when the summary carries it."""
    frame = _read(summary_path, ["strategy", "opener", "mean_guesses", "gap_to_optimum_mean"])
    frame = frame.filter(pl.col("strategy") == OPENER_BENCHMARK).sort("mean_guesses", "opener")
    height = max(4.0, 0.22 * frame.height + 1.5)
    figure, axes = plt.subplots(figsize=(8, height))
    y = np.arange(frame.height)
    means = frame["mean_guesses"].to_numpy()
    axes.barh(y, means, color="tab:blue", label="greedy entropy after this opener")
    axes.set_yticks(y, frame["opener"].to_list(), fontsize="small")
    axes.set_ylim(frame.height - 0.5, -0.5)  # best opener on top
    if frame.height:
        low, high = float(means.min()), float(means.max())
        gaps = frame["gap_to_optimum_mean"].drop_nulls()
        if gaps.len():
            optimum = float(means[0] - frame["gap_to_optimum_mean"][0])
            source = frame["optimum_source"][0] if "optimum_source" in frame.columns else "optimum"
            axes.axvline(optimum, color="tab:red", linestyle="--", label=f"optimum ({source})")
            low = min(low, optimum)
        margin = max((high - low) * 0.15, 0.01)
        axes.set_xlim(low - margin, high + margin)
    axes.set_xlabel("mean guesses per game (guesses)")
    axes.set_ylabel("opener (top of the two-step ranking)")
    axes.set_title("Opener benchmark: mean guesses, greedy entropy after each opener")
    # below the axes: long bars fill the right, the optimum's source is a long label
    axes.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.9 / height))
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    _save(figure, out_png)


def plot_entropy_vs_commonness(
    entropy_path: str | Path, commonness_path: str | Path, out_png: str | Path
) -> None:
    """Every allowed word: opener entropy over the answers against p_common, answers
    highlighted; shows that informative openers are often uncommon words."""
    entropy = _read(entropy_path, ["word_id", "word", "entropy_answers", "is_answer"])
    common = _read(commonness_path, ["word_id", "p_common"]).select("word_id", "p_common")
    frame = entropy.drop("p_common", strict=False).join(common, on="word_id", how="inner")
    figure, axes = plt.subplots(figsize=(9, 6))
    for is_answer, colour, label, size in (
        (False, "tab:gray", "allowed guess only", 3),
        (True, "tab:orange", "answer", 5),
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
    best = frame.sort("entropy_answers", "word_id", descending=[True, False]).head(3)
    for rank, row in enumerate(best.iter_rows(named=True)):
        axes.annotate(
            f"{row['word']} ({row['entropy_answers']:.3f} bits)",
            (row["p_common"], row["entropy_answers"]),
            xytext=(40, -12 - 14 * rank),
            textcoords="offset points",
            fontsize="small",
            arrowprops={"arrowstyle": "-", "color": "black", "lw": 0.5},
        )
    axes.set_xlabel("p_common (probability the word is common, 0-1)")
    axes.set_ylabel("entropy of the reply over the answers (bits)")
    axes.set_title("Opener information vs word commonness, all allowed words")
    axes.legend(fontsize="small", markerscale=3)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    _save(figure, out_png)


def plot_score_model(score_model_path: str | Path, out_png: str | Path) -> None:
    """The uncertainty map: mean guesses still needed against bits of uncertainty left."""
    frame = _read(
        score_model_path, ["strategy", "mean_bits", "mean_guesses_left", "samples"]
    ).filter(pl.col("strategy") != OPENER_BENCHMARK)
    figure, axes = plt.subplots(figsize=(9, 5.5))
    for strategy in sorted(frame["strategy"].unique().to_list()):
        part = frame.filter(pl.col("strategy") == strategy).sort("mean_bits")
        axes.plot(
            part["mean_bits"].to_numpy(),
            part["mean_guesses_left"].to_numpy(),
            marker="o",
            markersize=3,
            label=strategy,
        )
    axes.set_xlabel("uncertainty before a guess: log2(answers still possible) (bits)")
    axes.set_ylabel("mean guesses still needed, this one included (guesses)")
    axes.set_title("Uncertainty map: guesses left vs bits left, per strategy")
    axes.legend(fontsize="small")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    _save(figure, out_png)
