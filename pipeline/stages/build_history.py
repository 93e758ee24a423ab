"""Stage of rule build_history: history.parquet from the archive of played answers."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.analysis.history.archive import history_table, parse_history, played
from pipeline.artifacts import history as history_artifact
from pipeline.artifacts import raw as raw_artifact
from pipeline.artifacts import words as words_artifact


def build_history(
    *, source: Path, words: Sequence[Path], history: Path, editions: Sequence[str], until: str
) -> None:
    """history.parquet: the days played up to `until` (history.until; "" means the file's
    last day), with `in_<edition>` for each of `editions` (their word indexes `words`, in
    the same order). Every answer must be an allowed guess of the newest edition (the
    last), the game played today."""
    days = played(
        parse_history(raw_artifact.read_raw(source), raw_artifact.shown_name(source)), until
    )
    indexes = [words_artifact.read_word_index(path) for path in words]
    answers = {
        edition: frozenset(index.answers) for edition, index in zip(editions, indexes, strict=True)
    }
    table = history_table(days, frozenset(indexes[-1].words), answers)
    inputs = {"source": source, **{f"words_{e}": p for e, p in zip(editions, words, strict=True)}}
    history_artifact.write_history(table, history, inputs=inputs, until=until)
