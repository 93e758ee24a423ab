"""Stage of rule build_word_index: words.parquet from the two word lists."""

from __future__ import annotations

from pathlib import Path

from pipeline.analysis.word_lists import build_word_index as merge_word_lists
from pipeline.analysis.word_lists import parse_word_list
from pipeline.artifacts import raw as raw_artifact
from pipeline.artifacts import words as words_artifact


def build_word_index(*, allowed: Path, answers: Path, words: Path) -> None:
    """words.parquet from the allowed-guess list and the answer list."""
    allowed_list = parse_word_list(raw_artifact.read_raw(allowed), raw_artifact.shown_name(allowed))
    answer_list = parse_word_list(
        raw_artifact.read_raw(answers), raw_artifact.shown_name(answers), length=allowed_list.length
    )
    table = merge_word_lists(allowed_list, answer_list)
    words_artifact.write_word_index(table, words, inputs={"allowed": allowed, "answers": answers})
