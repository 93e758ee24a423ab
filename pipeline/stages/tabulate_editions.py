"""Stage of rule tabulate_editions: the report's page with every edition side by side."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from pipeline.analysis.history.archive import coverage
from pipeline.analysis.report.editions import EditionFrames, editions_table
from pipeline.analysis.report.tables import html_page
from pipeline.artifacts import history as history_artifact
from pipeline.artifacts import openers as openers_artifact
from pipeline.artifacts import optimal as optimal_artifact
from pipeline.artifacts import plots
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.parquet import read_table


def tabulate_editions(
    *,
    words: Sequence[Path],
    openers: Sequence[Path],
    optimal_openers: Sequence[Path],
    history: Path,
    table: Path,
    editions: Sequence[str],
    titles: Sequence[str],
) -> None:
    """tables/editions.html from each edition's word index, ranking and optimal openers
    (the lists are in the order of `editions`) and the answers played (history.parquet)."""
    played = history_artifact.read_history(history)
    frames = {}
    for name, title, words_file, openers_file, optimal_file in zip(
        editions, titles, words, openers, optimal_openers, strict=True
    ):
        index = words_artifact.read_word_index(words_file)
        frames[name] = EditionFrames(
            title=title,
            words=pl.from_arrow(read_table(words_file, words_artifact.SCHEMA)),
            openers=pl.from_arrow(openers_artifact.read_openers(openers_file, index)),
            optimal=pl.from_arrow(optimal_artifact.read_openers(optimal_file)),
            coverage=coverage(played, name),
        )
    page = html_page(
        editions_table(frames),
        "The editions side by side",
        intro=(
            "Each edition is an allowed list and an answer list, built into a folder of its "
            "own. Best proven: the opener with the fewest total guesses among those the "
            "optimal stage searched, and the mean guesses of its optimal tree. Played "
            "answers missed: the days, of those played (history.parquet), whose answer the "
            "edition's answer list lacks, and those answers."
        ),
        formats={"bits": "{:.4f}", "mean": "{:.4f}", "hard mean": "{:.4f}"},
    )
    inputs = {
        f"{kind}_{name}": path
        for kind, paths in (("words", words), ("openers", openers), ("optimal", optimal_openers))
        for name, path in zip(editions, paths, strict=True)
    }
    plots.write_html(page, table, inputs={**inputs, "history": history})
