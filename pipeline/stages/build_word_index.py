"""Stage of rule build_word_index: words.parquet from the two word lists."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.analysis.history.archive import (
    check_allowed,
    parse_history,
    played,
    played_answers,
    union_word_lists,
)
from pipeline.analysis.words.word_lists import (
    WordList,
    check_answers,
    parse_word_list,
    word_index_table,
)
from pipeline.artifacts import raw as raw_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.catalog import HISTORY_SOURCE


def read_answer_list(path: Path, allowed: WordList, until: str) -> WordList:
    """One raw answer source, checked against the allowed list (errors name its own file):
    a word list, or the dated answers (the words played up to `until`, history.until)."""
    shown = raw_artifact.shown_name(path)
    data = raw_artifact.read_raw(path)
    if raw_artifact.read_provenance(path).get("source") == HISTORY_SOURCE:
        days = played(parse_history(data, shown), until)
        check_allowed(days, frozenset(allowed.words))
        return played_answers(days)
    answers = parse_word_list(data, shown, length=allowed.length)
    check_answers(allowed, answers)
    return answers


def build_word_index(*, allowed: Path, answers: Sequence[Path], words: Path, until: str) -> None:
    """words.parquet from the allowed-guess list and the answer list, or the union of the
    answer lists `answers` (the edition's `answers: [..., ...]`)."""
    allowed_list = parse_word_list(raw_artifact.read_raw(allowed), raw_artifact.shown_name(allowed))
    answer_list = union_word_lists(
        [read_answer_list(path, allowed_list, until) for path in answers]
    )
    table = word_index_table(allowed_list, answer_list)
    inputs = {"allowed": allowed} | (
        {"answers": answers[0]}
        if len(answers) == 1
        else {f"answers_{i}": path for i, path in enumerate(answers)}
    )
    settings = {"until": until} if until else {}
    words_artifact.write_word_index(table, words, inputs=inputs, settings=settings)
