"""The editions side by side: the headline numbers of each edition in one table.

Frames in, a display frame out (the report renders it with report_tables.html_page).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl


@dataclass(frozen=True)
class EditionFrames:
    """What the table reads of one edition: its word index (word, is_answer), its opener
    ranking and its optimal openers."""

    title: str
    words: pl.DataFrame
    openers: pl.DataFrame
    optimal: pl.DataFrame


def _best_proven(optimal: pl.DataFrame, mode: str) -> tuple[str | None, float | None]:
    """The best proven opener of a mode among those searched, and its mean guesses."""
    rows = optimal.filter(
        (pl.col("mode") == mode) & pl.col("proven") & pl.col("total_guesses").is_not_null()
    ).sort(["total_guesses", "opener"])
    if rows.is_empty():
        return None, None
    return rows["opener"][0], rows["mean_guesses"][0]


def editions_table(editions: Mapping[str, EditionFrames]) -> pl.DataFrame:
    """One row per edition, in the given order: its size, the best opener of its two-step
    ranking, and the best proven opener of each mode among those the optimal stage
    searched (with the mean guesses of its optimal tree)."""
    rows = []
    for name, frames in editions.items():
        answers_mode = frames.openers.filter(pl.col("mode") == "answers").sort("rank")
        normal, normal_mean = _best_proven(frames.optimal, "normal")
        hard, hard_mean = _best_proven(frames.optimal, "hard")
        rows.append(
            {
                "edition": name,
                "what": frames.title,
                "allowed": frames.words.height,
                "answers": int(frames.words["is_answer"].sum()),
                "two-step best": answers_mode["word"][0],
                "bits": answers_mode["two_step_total"][0],
                "normal: best proven": normal,
                "mean": normal_mean,
                "hard: best proven": hard,
                "hard mean": hard_mean,
            }
        )
    return pl.DataFrame(rows)
