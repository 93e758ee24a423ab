"""Stage of rule tabulate_headline: the report landing page's headline numbers."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from pipeline.analysis.history.archive import coverage
from pipeline.analysis.report.headline import edition_headline, headline_rst
from pipeline.artifacts import benchmark as benchmark_artifact
from pipeline.artifacts import history as history_artifact
from pipeline.artifacts import optimal as optimal_artifact
from pipeline.artifacts import plots
from pipeline.artifacts import words as words_artifact


def tabulate_headline(
    *,
    words: Sequence[Path],
    optimal_openers: Sequence[Path],
    summaries: Sequence[Path],
    history: Path,
    headline: Path,
    editions: Sequence[str],
    titles: Sequence[str],
) -> None:
    """The headline (reStructuredText, included by workflow/report/workflow.rst) from each
    edition's word index, optimal openers and benchmark summary, in the order of
    `editions`, and the answers played (history.parquet)."""
    played = history_artifact.read_history(history)
    headlines = [
        edition_headline(
            name,
            title,
            len(words_artifact.read_word_index(words_file).answer_rows),
            pl.from_arrow(optimal_artifact.read_openers(optimal_file)),
            pl.from_arrow(benchmark_artifact.read_summary(summary_file)),
            coverage(played, name),
        )
        for name, title, words_file, optimal_file, summary_file in zip(
            editions, titles, words, optimal_openers, summaries, strict=True
        )
    ]
    inputs = {
        f"{kind}_{name}": path
        for kind, paths in (("words", words), ("optimal", optimal_openers), ("summary", summaries))
        for name, path in zip(editions, paths, strict=True)
    }
    plots.write_text(headline_rst(headlines), headline, inputs={**inputs, "history": history})
