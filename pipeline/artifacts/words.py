"""`words.parquet`: the word index, the row and column order of every matrix."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.artifacts import parquet
from pipeline.artifacts.parquet import described
from pipeline.artifacts.seal import REBUILD_HINT
from pipeline.core.errors import ArtifactError
from pipeline.core.word_index import WordIndex
from pipeline.core.wordle import MAX_WORD_LENGTH

FILE = "words.parquet"
SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the word in every guess x answer matrix"),
        described("word", pa.string(), "the word, lower case a-z"),
        described("is_answer", pa.bool_(), "whether the word is a possible answer"),
        described(
            "answer_id",
            pa.int32(),
            "column of the word in the guess x answer matrix; null for non-answers",
            nullable=True,
        ),
    ]
)


def write_word_index(
    table: pa.Table,
    path: str | Path,
    *,
    inputs: Mapping[str, Path],
    settings: Mapping[str, object] | None = None,
) -> None:
    """Write the index built by pipeline.analysis.words.word_lists.word_index_table (`settings`:
    what else decided the answers, e.g. history.until)."""
    length = len(table["word"][0].as_py())
    recorded = {"word_length": length, **(settings or {})}
    parquet.write_table(table, path, schema=SCHEMA, inputs=inputs, settings=recorded)


def read_word_index(path: str | Path) -> WordIndex:
    """The checked word index: sealed, sorted, unique, one length, answers numbered."""
    table = parquet.read_table(path, SCHEMA)

    def bad(problem: str) -> ArtifactError:
        return ArtifactError(f"{path}: {problem}; {REBUILD_HINT}")

    words = tuple(table["word"].to_pylist())
    if not words:
        raise bad("holds no words")
    if not np.array_equal(table["word_id"].to_numpy(zero_copy_only=False), np.arange(len(words))):
        raise bad("word_id is not 0, 1, 2, ... in row order")
    if list(words) != sorted(words) or len(set(words)) != len(words):
        raise bad("words are not sorted and unique")
    length = len(words[0])
    joined = "".join(words)
    if not 1 <= length <= MAX_WORD_LENGTH or len(joined) != length * len(words):
        raise bad(f"words are not all of one length between 1 and {MAX_WORD_LENGTH}")
    if not (joined.isascii() and joined.isalpha() and joined.islower()):
        raise bad("holds characters outside a-z")
    is_answer = table["is_answer"].to_numpy(zero_copy_only=False).astype(bool)
    answer_ids = table["answer_id"].to_numpy(zero_copy_only=False)
    rows = np.flatnonzero(is_answer)
    if len(rows) == 0:
        raise bad("has no answers (is_answer is false everywhere)")
    if not np.array_equal(answer_ids[rows].astype(np.int64), np.arange(len(rows))):
        raise bad("answer_id is not 0, 1, 2, ... over the answers in word order")
    return WordIndex(words, is_answer, rows.astype(np.int64))
