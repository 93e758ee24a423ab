"""`entropy.parquet` (one row per guess) and `pattern_distribution.parquet` (every guess's
reply distribution over the answers, long format); and the square pass's entropies of an
allowed list (`square_entropy.parquet`, a work file shared by the editions that name the
list), from which each edition's entropy.parquet takes its prior and allowed columns."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.artifacts import parquet
from pipeline.artifacts.parquet import described
from pipeline.artifacts.seal import REBUILD_HINT
from pipeline.core.errors import ArtifactError
from pipeline.core.word_index import WordIndex

ENTROPY_FILE = "entropy.parquet"
SQUARE_ENTROPY_FILE = "square_entropy.parquet"
DISTRIBUTION_FILE = "pattern_distribution.parquet"
DISTRIBUTION_ROW_GROUP = 1 << 20

ENTROPY_SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the guess in words.parquet and every matrix"),
        described("word", pa.string(), "the guess"),
        described("is_answer", pa.bool_(), "whether the guess is a possible answer"),
        described("p_common", pa.float64(), "commonness weight of the guess (commonness.parquet)"),
        described(
            "entropy_answers",
            pa.float64(),
            "bits of information of the reply, answer uniform over the answer list",
        ),
        described(
            "entropy_prior",
            pa.float64(),
            "bits, answer any allowed word weighted by p_common (answer list unknown)",
        ),
        described("entropy_allowed", pa.float64(), "bits, answer uniform over all allowed words"),
        described("buckets", pa.int32(), "distinct replies over the answer list"),
        described("largest_bucket", pa.int32(), "answers left after the worst reply"),
        described(
            "expected_remaining",
            pa.float64(),
            "expected number of answers left after the guess (sum of n_b^2 / N)",
        ),
        described("rank_answers", pa.int32(), "1 = highest entropy_answers; ties by word_id"),
        described("rank_prior", pa.int32(), "1 = highest entropy_prior; ties by word_id"),
        described("rank_allowed", pa.int32(), "1 = highest entropy_allowed; ties by word_id"),
    ]
)

DISTRIBUTION_SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the guess in words.parquet"),
        described("word", pa.string(), "the guess"),
        described("pattern_id", pa.int32(), "reply: sum of c_i * 3^i, 0 grey, 1 yellow, 2 green"),
        described("pattern", pa.string(), "reply as B/Y/G letters, position 0 first"),
        described("count", pa.int32(), "answers that give this reply to the guess"),
        described("probability", pa.float64(), "count / number of answers"),
    ]
)


SQUARE_ENTROPY_SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the guess in the allowed list's word order"),
        described("word", pa.string(), "the guess"),
        ENTROPY_SCHEMA.field("entropy_prior"),
        ENTROPY_SCHEMA.field("entropy_allowed"),
    ]
)


def write_entropy(
    table: pa.Table, path: str | Path, *, inputs: Mapping[str, Path], settings: Mapping[str, Any]
) -> None:
    parquet.write_table(table, path, schema=ENTROPY_SCHEMA, inputs=inputs, settings=settings)


def write_distribution(table: pa.Table, path: str | Path, *, inputs: Mapping[str, Path]) -> None:
    parquet.write_table(
        table,
        path,
        schema=DISTRIBUTION_SCHEMA,
        inputs=inputs,
        settings={},
        row_group_size=DISTRIBUTION_ROW_GROUP,
    )


def read_entropy(path: str | Path, index: WordIndex, columns: list[str] | None = None) -> pa.Table:
    """entropy.parquet, checked to list the word index's words in word_id order."""
    names = [
        "word_id",
        "word",
        *[c for c in columns or ENTROPY_SCHEMA.names if c not in ("word_id", "word")],
    ]
    table = parquet.read_table(path, ENTROPY_SCHEMA, columns=names)
    if (
        table.num_rows != len(index.words)
        or not np.array_equal(table["word_id"].to_numpy(), np.arange(len(index.words)))
        or tuple(table["word"].to_pylist()) != index.words
    ):
        raise ArtifactError(
            f"{path}: does not list the word index's words in order; {REBUILD_HINT}"
        )
    return table


def read_distribution(path: str | Path) -> pa.Table:
    return parquet.read_table(path, DISTRIBUTION_SCHEMA)


def write_square_entropy(table: pa.Table, path: str | Path, *, inputs: Mapping[str, Path]) -> None:
    parquet.write_table(table, path, schema=SQUARE_ENTROPY_SCHEMA, inputs=inputs, settings={})


def read_square_entropy(path: str | Path, index: WordIndex) -> tuple[np.ndarray, np.ndarray]:
    """(entropy_prior, entropy_allowed) in word_id order, after checking the file lists the
    index's words in order (an edition's index is its allowed list)."""
    table = parquet.read_table(path, SQUARE_ENTROPY_SCHEMA)
    if tuple(table["word"].to_pylist()) != index.words or not np.array_equal(
        table["word_id"].to_numpy(), np.arange(len(index.words))
    ):
        raise ArtifactError(
            f"{path}: does not list the word index's words in order; {REBUILD_HINT}"
        )
    return (
        table["entropy_prior"].to_numpy().astype(np.float64),
        table["entropy_allowed"].to_numpy().astype(np.float64),
    )
