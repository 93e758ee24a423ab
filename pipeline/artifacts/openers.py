"""Two-step opener rankings: `openers.parquet`, `second_guesses.parquet`, and the part
files (data/work) the ranking jobs write before they are merged."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.artifacts import parquet
from pipeline.artifacts.parquet import described
from pipeline.artifacts.seal import REBUILD_HINT, check_built_from, check_same_input, read_seal
from pipeline.core.errors import ArtifactError
from pipeline.core.word_index import WordIndex

OPENERS_FILE = "openers.parquet"
SECOND_GUESSES_FILE = "second_guesses.parquet"
# Second-guess rows per Parquet row group. Rows are sorted by (mode, opener_id, pattern_id)
# and one opener has at most 3**L rows (243 for five letters), so filtering one opener
# reads one row group, two when its rows straddle a boundary.
SECOND_GUESS_ROW_GROUP = 1 << 16

OPENERS_SCHEMA = pa.schema(
    [
        described("mode", pa.string(), "answers: answer list known; prior: any word, p_common"),
        described("word_id", pa.int32(), "row of the opener in words.parquet"),
        described("word", pa.string(), "the opener"),
        described("h1", pa.float64(), "bits of information of the opener's reply"),
        described(
            "h2_expected",
            pa.float64(),
            "bits of the best second guess, averaged over replies (sum of n_b/N * H2(b))",
        ),
        described("two_step_total", pa.float64(), "h1 + h2_expected, bits"),
        described(
            "expected_left_after_two",
            pa.float64(),
            "expected candidates left after opener and recommended second guess (won = 0)",
        ),
        described("p_solved_by_two", pa.float64(), "probability the game is won by guess two"),
        described(
            "rank", pa.int32(), "1 = highest two_step_total within the mode; ties by word_id"
        ),
        described("n_buckets", pa.int32(), "distinct replies the opener can get"),
    ]
)

SECOND_GUESSES_SCHEMA = pa.schema(
    [
        described("mode", pa.string(), "answers or prior, as in openers.parquet"),
        described("opener", pa.string(), "the first guess"),
        described("opener_id", pa.int32(), "word_id of the first guess"),
        described("pattern_id", pa.int32(), "reply to the opener (sum of c_i * 3^i)"),
        described("pattern", pa.string(), "the reply as B/Y/G letters, position 0 first"),
        described("bucket_size", pa.int32(), "candidates that give this reply"),
        described("bucket_probability", pa.float64(), "probability of this reply"),
        described("second_guess", pa.string(), "recommended second guess for this reply"),
        described("second_guess_id", pa.int32(), "word_id of the second guess"),
        described("second_entropy", pa.float64(), "bits the second guess gives within the bucket"),
        described("second_is_candidate", pa.bool_(), "the second guess could be the answer"),
    ]
)

# A part file holds second-guess rows with the opener's figures repeated on each row.
_FIGURES = [f for f in OPENERS_SCHEMA if f.name not in ("mode", "word_id", "word", "rank")]
PART_SCHEMA = pa.schema(list(SECOND_GUESSES_SCHEMA) + _FIGURES)


def write_part(
    table: pa.Table, path: str | Path, *, inputs: Mapping[str, Path], settings: Mapping[str, Any]
) -> None:
    parquet.write_table(table, path, schema=PART_SCHEMA, inputs=inputs, settings=settings)


def read_part(path: str | Path, columns: Sequence[str] | None = None) -> pa.Table:
    """A part file's rows (`columns` of PART_SCHEMA only, if given)."""
    return parquet.read_table(path, PART_SCHEMA, columns=columns)


def read_parts(
    paths: Sequence[Path], words: Path, columns: Sequence[str] | None = None
) -> list[pa.Table]:
    """The part files' rows (see read_part), each part checked to be built from `words`
    (or, for a part of the allowed list alone, the prior part, from the allowed list
    `words` was built from): parts of another word index are never merged against it."""
    tables = []
    for path in paths:
        tables.append(read_part(path, columns))
        if "words" in read_seal(path).inputs:
            check_built_from(path, "words", words)
        else:
            check_same_input(path, words, "allowed")
    return tables


def write_openers(
    openers: pa.Table,
    path: str | Path,
    *,
    inputs: Mapping[str, Path],
    built_from: Mapping[str, Path] | None = None,
    settings: Mapping[str, Any],
) -> None:
    """openers.parquet; `built_from` (the parts) goes into its seal only."""
    parquet.write_table(
        openers, path, schema=OPENERS_SCHEMA, inputs=inputs, settings=settings,
        built_from=built_from,
    )  # fmt: skip


def write_second_guesses(
    second_guesses: pa.Table,
    path: str | Path,
    *,
    inputs: Mapping[str, Path],
    built_from: Mapping[str, Path] | None = None,
    settings: Mapping[str, Any],
) -> None:
    """second_guesses.parquet; `built_from` (the parts) goes into its seal only."""
    parquet.write_table(
        second_guesses,
        path,
        schema=SECOND_GUESSES_SCHEMA,
        inputs=inputs,
        settings=settings,
        row_group_size=SECOND_GUESS_ROW_GROUP,
        built_from=built_from,
    )


def read_openers(path: str | Path, index: WordIndex) -> pa.Table:
    """openers.parquet, checked against the word index (word_id and word agree)."""
    table = parquet.read_table(path, OPENERS_SCHEMA)
    ids = table["word_id"].to_numpy()
    words = np.asarray(index.words, dtype=object)
    if ids.size and (
        ids.min() < 0 or ids.max() >= len(words) or list(words[ids]) != table["word"].to_pylist()
    ):
        raise ArtifactError(f"{path}: word_id/word disagree with the word index; {REBUILD_HINT}")
    return table


def opener_ranking(path: str | Path, index: WordIndex, mode: str) -> list[int]:
    """word_ids of one mode's openers, best first."""
    table = read_openers(path, index)
    mode_rows = table.filter(pc.equal(table["mode"], mode)).sort_by("rank")
    return [int(i) for i in mode_rows["word_id"].to_pylist()]


def ranked_words(path: str | Path, mode: str) -> list[str]:
    """One mode's openers, best first, read without the word index (the workflow asks
    while it builds the job graph; mode answers ranks every word of the index)."""
    table = parquet.read_table(path, OPENERS_SCHEMA)
    return table.filter(pc.equal(table["mode"], mode)).sort_by("rank")["word"].to_pylist()


def read_second_guesses(path: str | Path, mode: str, opener_id: int) -> pa.Table:
    """The rows of one (mode, opener): only the row groups whose statistics admit it."""
    handle = parquet.open_file(path, SECOND_GUESSES_SCHEMA)
    metadata = handle.metadata
    column = metadata.schema.to_arrow_schema().get_field_index("opener_id")
    groups = []
    for number in range(metadata.num_row_groups):
        stats = metadata.row_group(number).column(column).statistics
        if stats is None or not stats.has_min_max or stats.min <= opener_id <= stats.max:
            groups.append(number)
    table = parquet.read_table(path, SECOND_GUESSES_SCHEMA, row_groups=groups)
    keep = pc.and_(pc.equal(table["mode"], mode), pc.equal(table["opener_id"], opener_id))
    return table.filter(keep)
