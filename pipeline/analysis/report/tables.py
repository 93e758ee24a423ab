"""Tables of the Snakemake report: polars DataFrames in, display frames and HTML text out.

Snakemake 9's HTML report shows an item of type text/html in a frame and offers a CSV or
TSV item only as a download, so each table becomes a small self-contained HTML page (no
scripts, no network). Selecting the rows (`*_table`) is kept apart from rendering them
(`html_page`) so tests can check the numbers without parsing HTML.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

import polars as pl

from pipeline.analysis.report.summary_rows import (
    OPENER_BENCHMARK,
    OPTIMAL_STRATEGIES,
    guess_columns,
    normal_mode_optimum,
    strategy_rows,
)
from pipeline.core.ties import TIE_TOLERANCE

TOP_OPENERS = 20
OPTIMUM_CLASS = "optimum"

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1em; color: #1e293b; }
h1 { font-size: 1.25em; margin: 0 0 0.4em; }
p { margin: 0.3em 0 0.8em; max-width: 60em; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #cbd5e1; }
th { background: #e2e8f0; text-align: left; vertical-align: bottom; }
tr.group th { text-align: center; border-bottom: 1px solid #94a3b8; font-weight: normal; }
td.number { text-align: right; }
tbody tr:nth-child(even) { background: #f8fafc; }
tr.optimum td { background: #fef3c7; font-weight: bold; }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll tr:not(.group) th:first-child, .scroll td:first-child { position: sticky; left: 0; }
.scroll td:first-child { background: #fff; }
.scroll tbody tr:nth-child(even) td:first-child { background: #f8fafc; }
.scroll tbody tr.optimum td:first-child { background: #fef3c7; }
"""


def benchmark_summary_table(summary: pl.DataFrame) -> pl.DataFrame:
    """One row per strategy, best mean first, plus the opener benchmark's best opener;
    columns named with their units. The gap is the summary's own: to the best proven
    opener of the strategy's mode (ultrahard: the hard-mode one), empty when none."""
    best_opener = (
        summary.filter(pl.col("strategy") == OPENER_BENCHMARK)
        .sort("mean_guesses", "opener")
        .head(1)
        .with_columns(pl.lit(f"{OPENER_BENCHMARK} (best opener)").alias("strategy"))
    )
    rows = pl.concat([strategy_rows(summary), best_opener]).sort("mean_guesses", "strategy")
    counts = [pl.col(c).alias(c[2:]) for c in guess_columns(summary)]
    return rows.select(
        pl.col("strategy"),
        pl.col("mode"),
        pl.col("opener"),
        pl.col("mean_guesses").alias("mean"),
        pl.col("gap_to_proven_optimum_mean").alias("gap to optimum"),
        pl.col("total_guesses").alias("total"),
        pl.col("max_guesses").alias("most in a game"),
        *counts,
        pl.col("failures").alias("failed"),
        pl.col("n_games").alias("played"),
    )


def benchmark_summary_groups(table: pl.DataFrame) -> list[tuple[str, int]]:
    """The header row above the column names: what the columns count, and in what unit."""
    solved = table.width - 9
    return [
        ("", 3),
        ("guesses per game", 2),
        ("guesses", 2),
        ("games solved in exactly N guesses", solved),
        ("games", 2),
    ]


def benchmark_headline(summary: pl.DataFrame) -> str:
    """One sentence with the numbers to remember: the best heuristic, its gap to the
    proven optimum, and who fails games."""
    rows = strategy_rows(summary)
    heuristics = rows.filter(~pl.col("strategy").is_in(OPTIMAL_STRATEGIES))
    if heuristics.height == 0:
        return "No strategy was played."
    best = heuristics.row(0, named=True)
    tied = heuristics.filter(
        ((pl.col("mean_guesses") - best["mean_guesses"]).abs() <= TIE_TOLERANCE)
        & (pl.col("strategy") != best["strategy"])
    )["strategy"]
    text = (
        f"Best heuristic: {best['strategy']} (opener {best['opener']}"
        + (f"; tied with {', '.join(tied)}" if tied.len() else "")
        + f"), {best['mean_guesses']:.4f} guesses per game over {best['n_games']} answers"
    )
    optimum = normal_mode_optimum(summary)
    if optimum is not None:
        text += (
            f", {best['mean_guesses'] - optimum.mean:.4f} more than the proven optimum "
            f"({optimum.mean:.4f})"
        )
    failing = heuristics.filter(pl.col("failures") > 0).sort("failures", "strategy")
    failures = ", ".join(f"{r['strategy']} {r['failures']}" for r in failing.iter_rows(named=True))
    return text + (
        f". Failed games: {failures}; every other strategy solves all."
        if failures
        else ". No strategy fails a game."
    )


def top_openers_table(
    openers: pl.DataFrame, summary: pl.DataFrame | None = None, top: int = TOP_OPENERS
) -> pl.DataFrame:
    """The top openers of the two-step ranking (mode answers) with, when benchmarked, the
    mean guesses of greedy entropy after them: ranking information versus actual play."""
    rows = openers.filter(pl.col("mode") == "answers").sort("rank", "word_id").head(top)
    table = rows.select(
        pl.col("rank"),
        pl.col("word").alias("opener"),
        pl.col("h1").alias("first guess"),
        pl.col("h2_expected").alias("best second guess (expected)"),
        pl.col("two_step_total").alias("two-step total"),
        pl.col("n_buckets").alias("distinct replies"),
        pl.col("expected_left_after_two").alias("answers left (expected)"),
        (pl.col("p_solved_by_two") * 100).alias("solved by guess 2 (%)"),
    )
    if summary is None:
        return table
    played = summary.filter(pl.col("strategy") == OPENER_BENCHMARK).select(
        pl.col("opener"), pl.col("mean_guesses").alias("greedy entropy after it")
    )
    return table.join(played, on="opener", how="left", maintain_order="left")


def top_openers_groups(table: pl.DataFrame) -> list[tuple[str, int]]:
    """The header row above the column names."""
    groups = [("", 2), ("information (bits)", 3), ("", 1), ("after two guesses", 2)]
    if table.width > 8:
        groups.append(("guesses per game", 1))
    return groups


def html_page(
    frame: pl.DataFrame,
    title: str,
    intro: str = "",
    formats: Mapping[str, str] | None = None,
    highlight: list[bool] | None = None,
    groups: list[tuple[str, int]] | None = None,
    after: str = "",
) -> str:
    """A self-contained HTML page with the frame as a table: numbers right-aligned and
    formatted by column (str.format specs, e.g. '{:.4f}'), empty cells for nulls,
    highlighted rows marked with the class `optimum`, and optionally a header row of
    (label, columns spanned) groups above the column names, so the names stay short.
    A table wider than the window scrolls sideways inside the page, its first column kept
    in view; `after` is a paragraph below it."""
    formats = formats or {}
    header = "<tr>" + "".join(f"<th>{html.escape(name)}</th>" for name in frame.columns) + "</tr>"
    if groups:
        spans = "".join(f'<th colspan="{n}">{html.escape(label)}</th>' for label, n in groups)
        header = f'<tr class="group">{spans}</tr>\n{header}'

    body = []
    for index, row in enumerate(frame.iter_rows()):
        cells = [
            _cell(value, formats.get(name)) for name, value in zip(frame.columns, row, strict=True)
        ]
        marked = highlight is not None and highlight[index]
        attribute = f' class="{OPTIMUM_CLASS}"' if marked else ""
        body.append(f"<tr{attribute}>{''.join(cells)}</tr>")
    rows = "\n".join(body)
    intro_html = f"<p>{html.escape(intro)}</p>\n" if intro else ""
    after_html = f"<p>{html.escape(after)}</p>\n" if after else ""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{html.escape(title)}</h1>\n{intro_html}"
        f'<div class="scroll">\n<table>\n<thead>\n{header}\n</thead>\n<tbody>\n{rows}\n'
        f"</tbody>\n</table>\n</div>\n{after_html}</body>\n</html>\n"
    )


def _cell(value: object, spec: str | None) -> str:
    """One <td>: formatted, escaped, right-aligned when a number."""
    if value is None:
        return '<td class="number"></td>'
    number = isinstance(value, int | float) and not isinstance(value, bool)
    text = spec.format(value) if spec and number else str(value)
    css = ' class="number"' if number else ""
    return f"<td{css}>{html.escape(text)}</td>"


def benchmark_summary_html(summary: pl.DataFrame) -> str:
    """The benchmark summary page: the headline sentence, then the table."""
    table = benchmark_summary_table(summary)
    return html_page(
        table,
        "Solver benchmark: every strategy against every answer",
        intro=benchmark_headline(summary),
        formats={"mean": "{:.4f}", "gap to optimum": "{:+.4f}"},
        highlight=[name in OPTIMAL_STRATEGIES for name in table["strategy"]],
        groups=benchmark_summary_groups(table),
    )


def top_openers_html(openers: pl.DataFrame, summary: pl.DataFrame | None = None) -> str:
    """The top-20 openers page."""
    table = top_openers_table(openers, summary)
    return html_page(
        table,
        f"Top {TOP_OPENERS} openers of the two-step ranking (answer list known)",
        intro=(
            "Ranked by two-step information: the bits of the opener's reply plus those of "
            "the best second guess for each reply, averaged over the replies. The last "
            "column is how greedy entropy plays after the opener, where benchmarked."
        ),
        formats={
            "first guess": "{:.4f}",
            "best second guess (expected)": "{:.4f}",
            "two-step total": "{:.4f}",
            "answers left (expected)": "{:.3f}",
            "solved by guess 2 (%)": "{:.2f}",
            "greedy entropy after it": "{:.4f}",
        },
        groups=top_openers_groups(table),
    )


def proven_openers_table(optimal: pl.DataFrame) -> pl.DataFrame:
    """Every opener with a proven optimal total, normal mode first, best first in each
    mode: the optimal stage's exact values with the certified top list's ranks."""
    rows = optimal.filter(pl.col("proven") & pl.col("total_guesses").is_not_null())
    rows = rows.with_columns((pl.col("mode") == "hard").alias("_hard"))
    counts = [pl.col(c).alias(c[2:]) for c in guess_columns(optimal)]
    return rows.sort("_hard", "total_guesses", "opener").select(
        pl.col("mode"),
        pl.col("opener"),
        pl.col("top_rank").alias("certified rank"),
        pl.col("mean_guesses").alias("mean"),
        pl.col("total_guesses").alias("total"),
        pl.col("max_guesses").alias("most in a game"),
        *counts,
        pl.col("deepest_answer").alias("a deepest answer"),
    )


def no_win_openers(optimal: pl.DataFrame, mode: str) -> list[str]:
    """The openers of `mode` proven to have no tree that wins every answer in time."""
    rows = optimal.filter(
        (pl.col("mode") == mode) & pl.col("proven") & pl.col("total_guesses").is_null()
    )
    return sorted(rows["opener"])


def proven_openers_html(optimal: pl.DataFrame) -> str:
    """The proven openers page: the table, then the hard-mode openers with no winning tree."""
    table = proven_openers_table(optimal)
    best = {
        mode: table.filter(pl.col("mode") == mode)["total"].min() for mode in ("normal", "hard")
    }
    losing = no_win_openers(optimal, "hard")
    after = (
        f"Proven to have no tree that wins every answer within six guesses in hard mode "
        f"({len(losing)}): {', '.join(losing)}."
        if losing
        else "Every opener the search settled in hard mode has a winning tree."
    )
    return html_page(
        table,
        "Proven openers: exact optimal values, both modes",
        intro=(
            "The openers whose optimal decision tree this pipeline's exhaustive search proved, "
            "with the guesses per game of that tree over every answer. Certified rank: the "
            "opener's place among all allowed words, where the search certified the top list "
            "(every other word bounded above it); empty where it did not. The best of each "
            "mode is highlighted."
        ),
        formats={"mean": "{:.4f}"},
        highlight=[
            total == best[mode] for mode, total in zip(table["mode"], table["total"], strict=True)
        ],
        groups=[
            ("", 3),
            ("guesses per game", 1),
            ("guesses", 2),
            ("games solved in exactly N guesses", table.width - 7),
            ("", 1),
        ],
        after=after,
    )


def prior_backtest_html(backtest: pl.DataFrame, prior: pl.DataFrame) -> str:
    """The history prior's page: tomorrow's odds in one sentence, then the backtest."""
    day = prior["day"][0]
    classes = prior.group_by("class").agg(pl.len().alias("words"), pl.first("weight"))
    weight = dict(zip(classes["class"], classes["weight"], strict=True))
    words = dict(zip(classes["class"], classes["words"], strict=True))
    uniform = backtest.filter(pl.col("model") == "uniform")["mean_log_likelihood"][0]
    table = backtest.select(
        pl.col("model"),
        pl.col("days"),
        pl.col("mean_log_likelihood").alias("mean log-likelihood"),
        (pl.col("mean_log_likelihood") - uniform).exp().alias("likelihood per day vs uniform"),
    )
    if "played" in weight and "unplayed" in weight:
        ratio = weight["unplayed"] / weight["played"]
        odds = (f"{words['unplayed']:,} words not played yet, each {ratio:.1f}x as likely as "
                f"each of the {words['played']:,} played (weights {weight['unplayed']} and "
                f"{weight['played']})")  # fmt: skip
    else:
        odds = "every word equally likely (no played word, or every word played)"
    first, last = backtest["first_day"][0], backtest["last_day"][0]
    return html_page(
        table,
        f"Odds for {day}: the answers as the NYT draws them",
        intro=(
            f"On {day}: {odds}. Below, each model's mean log-likelihood of the day's answer "
            f"over the {backtest['days'][0]:,} days from {first} to {last} whose answer is "
            "on the list, each day under a prior fitted on the days before it only; the "
            "highlighted window is the one the prior uses (the best so far). No other table "
            "uses the prior yet."
        ),
        formats={"mean log-likelihood": "{:.5f}", "likelihood per day vs uniform": "{:.3f}"},
        highlight=backtest["chosen"].to_list(),
    )
