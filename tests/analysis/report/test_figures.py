"""The report's figures and tables: what is drawn and printed, not just that a file exists.

Summaries are built with the real summary schema from today's benchmark numbers (2309
answers), so the checks read like the report.
"""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from matplotlib.colors import to_rgba

from pipeline.analysis.report import figures, tables
from pipeline.analysis.report.figures import OPTIMUM_COLOUR, adjacent_runs
from pipeline.artifacts import plots
from pipeline.artifacts.benchmark import SCORE_MODEL_SCHEMA, summary_schema

OPTIMUM = 3.4140
OPTIMA = {"normal": (OPTIMUM, 7883, "tarse"), "hard": (3.5067, 8097, "salet")}
MODES = {"greedy_entropy_hard": "hard", "optimal_hard": "hard"}
# strategy, opener, mean guesses, most guesses, n_1 .. n_6, failures
STRATEGIES = [
    ("commonness", "tares", 3.634474, 7, [0, 38, 1008, 1056, 180, 21], 6),
    ("greedy_entropy", "tarse", 3.427891, 6, [0, 61, 1256, 937, 53, 2], 0),
    ("greedy_entropy_hard", "tarse", 3.538328, 7, [0, 118, 1058, 951, 142, 34], 6),
    ("greedy_entropy_ultrahard", "tarse", 3.548328, 7, [0, 118, 1058, 941, 142, 44], 6),
    ("letter_frequency", "slate", 3.648766, 8, [1, 145, 903, 960, 236, 46], 18),
    ("minimax", "olate", 3.557384, 5, [0, 62, 968, 1209, 70, 0], 0),
    ("most_parts", "trace", 3.429623, 6, [1, 74, 1237, 928, 67, 2], 0),
    ("two_step", "tarse", 3.435253, 6, [0, 61, 1263, 905, 79, 1], 0),
]
OPENERS = {"tarse": 3.427891, "salet": 3.430056, "crane": 3.433954, "irate": 3.476397}


def row(strategy: str, opener: str, mean: float, most: int, counts: list[int], failed: int):
    """One summary row as summarize_benchmarks writes it, gaps against the proven optimum
    of the strategy's mode (ultrahard: the hard one)."""
    games = 2309
    mode = MODES.get(strategy, "ultrahard" if strategy.endswith("ultrahard") else "normal")
    mean_optimum, total_optimum, opener_optimum = OPTIMA["normal" if mode == "normal" else "hard"]
    return {
        "strategy": strategy,
        "opener": opener,
        "n_games": games,
        "mean_guesses": mean,
        "median_guesses": 3.0,
        "max_guesses": most,
        "total_guesses": round(mean * games),
        **{f"n_{k}": n for k, n in enumerate(counts, start=1)},
        "failures": failed,
        "capped": 0,
        "mode": mode,
        "gap_to_proven_optimum_mean": mean - mean_optimum,
        "gap_to_proven_optimum_total": round(mean * games) - total_optimum,
        "optimum_source": f"optimal_openers.parquet: {mode} mode, opener {opener_optimum}",
    }


def summary_frame(extra: list[dict] | None = None, gaps: bool = True) -> pl.DataFrame:
    rows = [row(*strategy) for strategy in STRATEGIES]
    rows += [
        row("opener_benchmark", o, m, 6, [0, 60, 1250, 940, 57, 2], 0) for o, m in OPENERS.items()
    ]
    rows += extra or []
    frame = pl.from_arrow(pa.Table.from_pylist(rows, schema=summary_schema(6)))
    if not gaps:
        frame = frame.with_columns(
            pl.lit(None, pl.Float64).alias("gap_to_proven_optimum_mean"),
            pl.lit(None, pl.Int64).alias("gap_to_proven_optimum_total"),
            pl.lit(None, pl.String).alias("optimum_source"),
        )
    return frame


def optimal_rows(opener: str = "tarse") -> list[dict]:
    """The optimal strategies' rows (counts made up for the test): normal mode after
    `opener`, a proven optimum only when it is the best proven opener (tarse)."""
    mean = OPTIMUM if opener == "tarse" else 3.4210
    return [
        row("optimal", opener, mean, 5, [0, 80, 1300, 900, 29, 0], 0),
        row("optimal_hard", "salet", 3.5067, 6, [0, 70, 1150, 950, 130, 9], 0),
    ]


def panels(figure) -> dict:
    return {axes.get_label(): axes for axes in figure.axes if axes.get_label()}


# --- guess distribution -------------------------------------------------------------------


def test_every_count_is_printed_on_its_bar_failures_in_red() -> None:
    figure = figures.guess_distribution_figure(summary_frame())
    by_strategy = panels(figure)
    by_mean = sorted(STRATEGIES, key=lambda s: s[2])
    assert list(by_strategy) == [s[0] for s in by_mean]  # best mean first
    for strategy, _, _, _, counts, failed in STRATEGIES:
        axes = by_strategy[strategy]
        values = [*counts, failed]
        assert [t.get_text() for t in axes.texts] == [str(v) for v in values]
        assert [p.get_height() for p in axes.patches] == values
        assert axes.texts[-1].get_color() == figures.FAILED_COLOUR
        assert [t.get_text() for t in axes.get_xticklabels()][-1] == "failed"
    assert "18 failed" in by_strategy["letter_frequency"].get_title()
    assert "2309 answers" in figure.get_suptitle()


def test_proven_optima_get_their_own_gold_panels() -> None:
    figure = figures.guess_distribution_figure(summary_frame(optimal_rows()))
    by_strategy = panels(figure)
    assert len(by_strategy) == len(STRATEGIES) + 2
    assert list(by_strategy)[0] == "optimal"
    for name in ("optimal", "optimal_hard"):
        axes = by_strategy[name]
        assert "proven optimum" in axes.get_title()
        assert axes.patches[0].get_facecolor() == to_rgba(OPTIMUM_COLOUR)
    assert "proven optimum" not in by_strategy["greedy_entropy"].get_title()


# --- opener benchmark ---------------------------------------------------------------------


def bars_and_axes(figure):
    [axes] = [a for a in figure.axes if a.patches]
    return axes, [p.get_width() for p in axes.patches]


def test_opener_axis_starts_at_the_proven_optimum_and_bars_are_the_gaps() -> None:
    axes, widths = bars_and_axes(figures.opener_benchmark_figure(summary_frame()))
    means = sorted(OPENERS.values())
    assert axes.get_xlim()[0] == 0
    assert widths == pytest.approx([m - OPTIMUM for m in means])
    assert [t.get_text() for t in axes.get_yticklabels()] == sorted(OPENERS, key=OPENERS.get)
    assert "3.4140" in axes.get_xlabel() and "proven optimum" in axes.get_xlabel()
    [baseline] = [line for line in axes.lines if line.get_label().startswith("x = 0")]
    assert list(baseline.get_xdata()) == [0, 0]
    assert "proven optimum, 3.4140" in baseline.get_label()
    labels = [t.get_text() for t in axes.texts]
    assert labels[0] == f"{means[0]:.4f} (+{means[0] - OPTIMUM:.4f})"


def test_opener_chart_marks_the_opener_of_the_optimal_tree() -> None:
    """The baseline is the summary's proven optimum; the opener the optimal strategy plays
    is gold when it is the optimum's, and not when it plays another opener's tree."""
    summary = summary_frame(optimal_rows())
    axes, widths = bars_and_axes(figures.opener_benchmark_figure(summary))
    assert widths == pytest.approx([m - OPTIMUM for m in sorted(OPENERS.values())])
    ticks = {t.get_text(): t for t in axes.get_yticklabels()}
    assert ticks["tarse"].get_color() == OPTIMUM_COLOUR
    assert ticks["salet"].get_color() != OPTIMUM_COLOUR
    axes, widths = bars_and_axes(
        figures.opener_benchmark_figure(summary_frame(optimal_rows("salet")))
    )
    assert widths == pytest.approx([m - OPTIMUM for m in sorted(OPENERS.values())])
    assert all(t.get_color() != OPTIMUM_COLOUR for t in axes.get_yticklabels())


def test_without_gaps_the_optimal_row_is_the_baseline() -> None:
    summary = summary_frame(optimal_rows("salet"), gaps=False)
    axes, widths = bars_and_axes(figures.opener_benchmark_figure(summary))
    assert widths == pytest.approx([m - 3.4210 for m in sorted(OPENERS.values())])
    ticks = {t.get_text(): t for t in axes.get_yticklabels()}
    assert ticks["salet"].get_color() == OPTIMUM_COLOUR


def test_opener_chart_reads_a_renamed_gap_column() -> None:
    summary = summary_frame().rename({"gap_to_proven_optimum_mean": "gap_to_optimal_mean"})
    _, widths = bars_and_axes(figures.opener_benchmark_figure(summary))
    assert widths[0] == pytest.approx(OPENERS["tarse"] - OPTIMUM)


def test_without_a_known_optimum_the_baseline_is_the_best_opener_and_says_so() -> None:
    axes, widths = bars_and_axes(figures.opener_benchmark_figure(summary_frame(gaps=False)))
    assert axes.get_xlim()[0] == 0 and widths[0] == 0
    assert widths[-1] == pytest.approx(OPENERS["irate"] - OPENERS["tarse"])
    assert "best opener here" in axes.get_xlabel()
    assert any("no proven optimum known" in line.get_label() for line in axes.lines)


def test_a_run_without_opener_benchmark_gets_a_note_not_an_empty_chart() -> None:
    summary = summary_frame().filter(pl.col("strategy") != "opener_benchmark")
    figure = figures.opener_benchmark_figure(summary)
    assert figure.axes == []
    assert [t.get_text() for t in figure.texts] == [
        "No opener benchmark in this run (no opener_benchmark strategy)."
    ]


# --- score model --------------------------------------------------------------------------


def score_model() -> pl.DataFrame:
    """Strategy a has bins 0, 2-4 and 7 (gaps at 1 and 5-6); b has bins 0-3; the opener
    benchmark must be left out. mean_bits differ between strategies, to tell points apart."""
    rows = []
    for strategy, bins, shift in (("a", [0, 2, 3, 4, 7], 0.1), ("b", [0, 1, 2, 3], 0.2)):
        for k in bins:
            low = 0.5 * k
            rows.append((strategy, low, low + 0.5, low + shift, 1 + low / 2, 100 * (k + 1)))
    rows.append(("opener_benchmark", 5.0, 5.5, 5.3, 3.0, 7))
    columns = [field.name for field in SCORE_MODEL_SCHEMA]
    return pl.DataFrame(rows, schema=columns, orient="row")


def test_score_model_joins_neighbouring_bins_only() -> None:
    model = score_model()
    top, bottom = figures.score_model_figure(model).axes[:2]
    bin_of = {
        (r["mean_bits"]): (r["strategy"], round(r["bits_low"] / 0.5))
        for r in model.iter_rows(named=True)
    }
    drawn = []
    for line in top.lines:
        points = [bin_of[x] for x in line.get_xdata()]
        assert len({strategy for strategy, _ in points}) == 1
        steps = [b - a for (_, a), (_, b) in zip(points, points[1:], strict=False)]
        assert all(step == 1 for step in steps), points  # no segment spans an empty bin
        assert line.get_marker() not in (None, "", "None")  # every bin has a marker
        drawn.append([k for _, k in points])
    assert sorted(drawn) == [[0], [0, 1, 2, 3], [2, 3, 4], [7]]
    assert 5.3 not in np.concatenate([line.get_xdata() for line in top.lines])
    samples = sorted(y for line in bottom.lines for y in line.get_ydata())
    assert samples == sorted(model.filter(pl.col("strategy") != "opener_benchmark")["samples"])
    assert bottom.get_yscale() == "log"


def test_adjacent_runs_split_where_a_bin_is_missing() -> None:
    part = score_model().filter(pl.col("strategy") == "a")
    runs = adjacent_runs(part)
    assert [run["bits_low"].to_list() for run in runs] == [[0.0], [1.0, 1.5, 2.0], [3.5]]
    assert adjacent_runs(part.head(0)) == []


# --- entropy vs commonness ----------------------------------------------------------------


def test_entropy_plot_shows_every_word_and_names_the_best_openers() -> None:
    words = ["tarse", "soare", "slate", "crane", "zzzzz"]
    entropy = pl.DataFrame(
        {
            "word_id": pl.Series(range(5), dtype=pl.Int32),
            "word": words,
            "is_answer": [False, False, True, True, False],
            "entropy_answers": [5.949, 5.885, 5.856, 5.7, 1.0],
        }
    )
    commonness = pl.DataFrame(
        {"word_id": pl.Series(range(5), dtype=pl.Int32), "p_common": [0.01, 0.009, 0.8, 0.85, 0.0]}
    )
    figure = figures.entropy_vs_commonness_figure(entropy, commonness)
    axes = figure.axes[0]
    sizes = sorted(len(c.get_offsets()) for c in axes.collections)
    assert sizes == [2, 3]
    named = [t.get_text().split(":")[0] for t in axes.texts]
    assert named == ["tarse", "soare", "slate"]
    assert axes.get_legend() is None and figure.legends  # the legend sits outside the axes


# --- files --------------------------------------------------------------------------------


def test_pngs_are_byte_identical_with_fixed_size_and_no_metadata(tmp_path) -> None:
    figure = figures.guess_distribution_figure(summary_frame())
    first, second = tmp_path / "a.png", tmp_path / "b.png"
    plots.write_png(figure, first, inputs={})
    plots.write_png(figures.guess_distribution_figure(summary_frame()), second, inputs={})
    data = first.read_bytes()
    assert data == second.read_bytes()
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    expected = np.round(figure.get_size_inches() * plots.DPI)
    assert (width, height) == tuple(expected)
    assert width <= 1100  # the report's content width at a 1400 px window
    assert b"tEXt" not in data and b"tIME" not in data


# --- tables -------------------------------------------------------------------------------


def test_benchmark_table_lists_strategies_with_gaps_and_counts() -> None:
    table = tables.benchmark_summary_table(summary_frame())
    assert table.height == len(STRATEGIES) + 1
    assert table["mean"].to_list() == sorted(table["mean"].to_list())
    best_opener = table.filter(pl.col("strategy") == "opener_benchmark (best opener)")
    assert best_opener["opener"].item() == "tarse"
    optimum = [OPTIMA["normal" if m == "normal" else "hard"][0] for m in table["mode"]]
    assert table["gap to optimum"].to_list() == pytest.approx(
        [m - o for m, o in zip(table["mean"], optimum, strict=True)]
    )
    assert table["mode"].to_list().count("normal") == len(STRATEGIES) - 1
    letters = table.filter(pl.col("strategy") == "letter_frequency").row(0, named=True)
    assert [letters[str(k)] for k in range(1, 7)] == [1, 145, 903, 960, 236, 46]
    assert letters["failed"] == 18 and letters["played"] == 2309
    groups = tables.benchmark_summary_groups(table)
    assert sum(span for _, span in groups) == table.width


def test_headline_names_the_best_heuristic_its_gap_and_who_fails() -> None:
    text = tables.benchmark_headline(summary_frame(optimal_rows()))
    assert text.startswith(
        "Best heuristic: greedy_entropy (opener tarse), 3.4279 guesses per game over 2309 "
        "answers, 0.0139 more than the proven optimum (3.4140)."
    )
    assert (
        "commonness 6, greedy_entropy_hard 6, greedy_entropy_ultrahard 6, letter_frequency 18"
        in text
    )


def test_headline_names_ties_for_best() -> None:
    tie = row("most_parts", "trace", 3.427891, 6, [1, 74, 1237, 928, 67, 2], 0)
    summary = summary_frame().filter(pl.col("strategy") != "most_parts")
    summary = pl.concat([summary, summary_frame([tie]).tail(1)])
    text = tables.benchmark_headline(summary)
    assert text.startswith("Best heuristic: greedy_entropy (opener tarse; tied with most_parts), ")


def test_hard_mode_is_measured_against_optimal_hard_when_present() -> None:
    table = tables.benchmark_summary_table(summary_frame(optimal_rows()))
    gaps = dict(zip(table["strategy"], table["gap to optimum"], strict=True))
    assert gaps["greedy_entropy_hard"] == pytest.approx(3.538328 - 3.5067)
    assert gaps["greedy_entropy_ultrahard"] == pytest.approx(3.548328 - 3.5067)
    assert gaps["greedy_entropy"] == pytest.approx(3.427891 - OPTIMUM)
    assert gaps["optimal"] == 0 and gaps["optimal_hard"] == 0


def test_summary_page_highlights_the_optima_and_escapes_text() -> None:
    page = tables.benchmark_summary_html(summary_frame(optimal_rows()))
    highlighted = re.findall(r'<tr class="optimum"><td>(\w+)</td>', page)
    assert highlighted == ["optimal", "optimal_hard"]
    assert "<script" not in page and "http" not in page  # self-contained
    page = tables.html_page(pl.DataFrame({"a": ["<b>&"]}), "t")
    assert "<td>&lt;b&gt;&amp;</td>" in page


def test_top_openers_are_the_first_twenty_of_mode_answers_with_their_play() -> None:
    words = [f"w{i:02d}" for i in range(25)]
    openers = pl.DataFrame(
        {
            "mode": ["answers"] * 25 + ["prior"] * 2,
            "word_id": pl.Series([*range(25), 0, 1], dtype=pl.Int32),
            "word": [*words, "w00", "w01"],
            "h1": [6.0 - i / 100 for i in range(25)] + [1.0, 1.0],
            "h2_expected": [4.0] * 27,
            "two_step_total": [10.0 - i / 100 for i in range(25)] + [2.0, 2.0],
            "expected_left_after_two": [3.2] * 27,
            "p_solved_by_two": [0.0264] * 27,
            "rank": pl.Series([*range(1, 26), 1, 2], dtype=pl.Int32),
            "n_buckets": pl.Series([147] * 27, dtype=pl.Int32),
        }
    ).reverse()  # rows out of rank order
    summary = summary_frame().with_columns(
        pl.when(pl.col("opener") == "salet").then(pl.lit("w03")).otherwise("opener").alias("opener")
    )
    table = tables.top_openers_table(openers, summary)
    assert table.height == 20 and table["rank"].to_list() == list(range(1, 21))
    played = dict(zip(table["opener"], table["greedy entropy after it"], strict=True))
    assert played["w03"] == pytest.approx(OPENERS["salet"]) and played["w04"] is None
    assert table["solved by guess 2 (%)"][0] == pytest.approx(2.64)
    page = tables.top_openers_html(openers, summary)
    assert page.count("<tr>") == 1 + 20  # the column names, then one row per opener


def test_history_plot_draws_each_strategy_per_year() -> None:
    summary = pl.DataFrame({
        "strategy": ["greedy_entropy", "greedy_entropy", "optimal", "optimal", "opener_benchmark"],
        "year": [2024, 2025, 2024, 2025, 2024],
        "mean_guesses": [3.6, 3.7, 3.4, 3.5, 3.9],
        "failures": [1, 0, 0, 2, 5],
    })  # fmt: skip
    top, bottom = figures.history_benchmark_figure(summary).axes[:2]
    means = {line.get_label(): line.get_ydata().tolist() for line in top.lines}
    assert means == {"greedy_entropy": [3.6, 3.7], "optimal (proven optimal tree)": [3.4, 3.5]}
    assert sorted(line.get_ydata().tolist() for line in bottom.lines) == [[0, 2], [1, 0]]
    assert all(line.get_xdata().tolist() == [2024, 2025] for line in top.lines)
    assert bottom.get_xlim() == (2023.5, 2025.5)
