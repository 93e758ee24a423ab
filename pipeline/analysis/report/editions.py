"""The editions side by side: the headline numbers of each edition in one table.

Frames in, a display frame out (the report renders it with report.tables.html_page).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from pipeline.analysis.history.archive import Coverage
from pipeline.analysis.report.headline import mode_headline


@dataclass(frozen=True)
class EditionFrames:
    """What the table reads of one edition: its word index (word, is_answer), its opener
    ranking, its optimal openers and its coverage of the answers played (None: no
    history.parquet column for it)."""

    title: str
    words: pl.DataFrame
    openers: pl.DataFrame
    optimal: pl.DataFrame
    coverage: Coverage | None = None


def editions_table(editions: Mapping[str, EditionFrames]) -> pl.DataFrame:
    """One row per edition, in the given order: its size, the best opener of its two-step
    ranking, and the best proven opener of each mode among those the optimal stage
    searched (with the mean guesses of its optimal tree), and the played answers its list
    misses, named."""
    rows = []
    for name, frames in editions.items():
        answers_mode = frames.openers.filter(pl.col("mode") == "answers").sort("rank")
        normal = mode_headline(frames.optimal, "normal")
        hard = mode_headline(frames.optimal, "hard")
        rows.append(
            {
                "edition": name,
                "what": frames.title,
                "allowed": frames.words.height,
                "answers": int(frames.words["is_answer"].sum()),
                "two-step best": answers_mode["word"][0],
                "bits": answers_mode["two_step_total"][0],
                "normal: best proven": normal.opener,
                "mean": normal.mean,
                "hard: best proven": hard.opener,
                "hard mean": hard.mean,
                "played answers missed": frames.coverage.summary() if frames.coverage else "",
            }
        )
    return pl.DataFrame(rows)
