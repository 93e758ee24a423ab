"""The report's headline numbers and proven-openers table on small hand-made tables whose
answers are known: the best proven opener per mode, certified only where the top list
says so, the hard-mode openers with no winning tree, the best heuristic and its gap."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pyarrow as pa
from docutils.core import publish_parts

from pipeline.analysis.history.archive import coverage
from pipeline.analysis.report.editions import EditionFrames
from pipeline.analysis.report.headline import best_heuristic, edition_headline, headline_rst
from pipeline.analysis.report.tables import (
    no_win_openers,
    proven_openers_html,
    proven_openers_table,
)


def optimal_rows(rows: list[tuple]) -> pl.DataFrame:
    """(mode, opener, proven, total, top_rank) -> an optimal_openers-like frame (8 answers)."""
    frame = pl.DataFrame(
        rows,
        schema={
            "mode": pl.String,
            "opener": pl.String,
            "proven": pl.Boolean,
            "total_guesses": pl.Int64,
            "top_rank": pl.Int32,
        },
        orient="row",
    )
    counts = {f"n_{k}": pl.lit(0, pl.Int32) for k in range(1, 7)}
    return frame.with_columns(
        (pl.col("total_guesses") / 8).alias("mean_guesses"),
        pl.lit(3, pl.Int32).alias("max_guesses"),
        pl.lit("abbey").alias("deepest_answer"),
        **counts,
    )


OPTIMAL = optimal_rows(
    [
        ("normal", "crane", True, 20, 2),
        ("normal", "slate", True, 18, 1),
        ("normal", "xylyl", False, None, None),
        ("hard", "slate", True, 21, None),
        ("hard", "crane", True, None, None),  # proven: no winning tree
        ("hard", "fuzzy", True, None, None),
        ("hard", "xylyl", False, None, None),
    ]
)
SUMMARY = pl.DataFrame(
    {
        "strategy": ["optimal", "greedy_entropy", "minimax", "opener_benchmark"],
        "mode": ["normal", "normal", "normal", "normal"],
        "opener": ["slate", "crane", "slate", "aaaaa"],
        "mean_guesses": [2.25, 2.5, 2.625, 2.0],
        "gap_to_proven_optimum_mean": [0.0, 0.25, 0.375, -0.25],
        "failures": [0, 1, 0, 0],
    }
)


def test_best_proven_opener_per_mode_and_what_is_certified() -> None:
    headline = edition_headline("e1", "the test edition", 8, OPTIMAL, SUMMARY)
    normal, hard = headline.modes
    assert (normal.opener, normal.total, normal.mean, normal.certified) == ("slate", 18, 2.25, True)
    assert (normal.settled, normal.no_win, normal.openers) == (2, 0, 3)
    assert (hard.opener, hard.total, hard.certified) == ("slate", 21, False)
    assert (hard.settled, hard.no_win, hard.openers) == (3, 2, 4)


def test_best_heuristic_is_the_best_non_optimal_strategy_with_its_gap() -> None:
    heuristic = best_heuristic(SUMMARY)
    assert heuristic is not None
    assert (heuristic.strategy, heuristic.opener) == ("greedy_entropy", "crane")
    assert heuristic.mean == 2.5
    assert (heuristic.gap, heuristic.failures) == (0.25, 1)
    assert best_heuristic(SUMMARY.filter(pl.col("strategy") == "optimal")) is None


def test_headline_text_renders_with_the_numbers_newest_edition_first() -> None:
    older = edition_headline("e1", "the first lists", 8, OPTIMAL, SUMMARY)
    newer = edition_headline("e2", "the later lists", 8, OPTIMAL.head(3), SUMMARY)
    text = headline_rst([older, newer])
    assert text.index("*e2*") < text.index("*e1*")
    assert (
        "Normal mode: best opener **slate**, 2.2500 guesses per game (18 over 8 answers); "
        "certified the best of all 3 openers." in text
    )
    assert "Hard mode: best opener **slate**, 2.6250 guesses per game (21 over 8 answers); " in text
    assert "the best of 1 opener proven, not certified over all words." in text
    assert "No sure win in hard mode: 2 of 3 openers the search settled" in text
    assert "(of the others, 1 opener not settled)" in text
    assert "Hard mode: none of the 0 openers searched wins every answer." in text  # e2
    assert (
        "Best heuristic: greedy_entropy (normal mode, opener crane), 2.5000, 0.2500 above "
        "the proven optimum of its mode; fails 1 game." in text
    )
    html = publish_parts(text, writer="html")["html_body"]
    assert "System Message" not in html and html.count("<li>") == 8


def test_proven_openers_table_lists_proven_values_best_first_per_mode() -> None:
    table = proven_openers_table(OPTIMAL)
    assert table.select("mode", "opener", "total").rows() == [
        ("normal", "slate", 18),
        ("normal", "crane", 20),
        ("hard", "slate", 21),
    ]
    assert table["certified rank"].to_list() == [1, 2, None]
    assert no_win_openers(OPTIMAL, "hard") == ["crane", "fuzzy"]
    page = proven_openers_html(OPTIMAL)
    assert page.count('<tr class="optimum">') == 2  # the best of each mode
    assert "within six guesses in hard mode (2): crane, fuzzy." in page


def test_the_played_answers_an_edition_misses_are_counted_and_named() -> None:
    """Coverage from a history.parquet-like table: days, not words, are counted (a
    repeated missing answer counts twice and is named once); the editions table names
    every one, the landing page the first NAMED_MISSES."""
    days = [dt.date(2021, 6, 19) + dt.timedelta(days=i) for i in range(16)]
    answers = ["cigar", "loris", "loris", *[f"w{i:02d}" for i in range(13)]]
    table = pa.table(
        {
            "date": pa.array(days, pa.date32()),
            "answer": answers,
            "in_a": [word == "cigar" for word in answers],
            "in_b": [True] * 16,
        }
    )
    missed = coverage(table, "a")
    assert missed is not None and (missed.days, missed.missed, missed.covered) == (16, 15, 1)
    assert missed.words == ("loris", *[f"w{i:02d}" for i in range(13)])
    full = coverage(table, "b")
    assert full is not None and full.summary() == "none of 16 played"
    assert coverage(table, "c") is None
    headline = edition_headline("a", "t", 8, OPTIMAL, SUMMARY, missed)
    text = headline_rst([headline])
    assert (
        "Answers as played to 2021-07-04: the answer list misses 15 of 16 played (14 words): "
        "loris, w00, w01, w02, w03, w04, w05, w06, w07, w08, w09, w10 and 2 more." in text
    )
    frames = EditionFrames("t", pl.DataFrame(), pl.DataFrame(), pl.DataFrame(), missed)
    assert frames.coverage.summary().endswith("w11, w12")
