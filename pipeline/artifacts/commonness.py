"""`commonness.parquet`: how common each guess word is (p_common, from frequency rank)."""

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

FILE = "commonness.parquet"
SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the word in words.parquet and every matrix"),
        described("word", pa.string(), "the word"),
        described(
            "count", pa.int64(), "corpus occurrences, summed over case variants; 0 if absent"
        ),
        described("frequency_rank", pa.int32(), "1 = most frequent; equal counts ordered by word"),
        described("x", pa.float64(), "sigmoid input, evenly spaced by frequency rank"),
        described("p_common", pa.float64(), "1 / (1 + e^-x): how likely the word is a common word"),
    ]
)


def write_commonness(
    table: pa.Table, path: str | Path, *, inputs: Mapping[str, Path], settings: Mapping[str, Any]
) -> None:
    parquet.write_table(table, path, schema=SCHEMA, inputs=inputs, settings=settings)


def read_p_common(path: str | Path, index: WordIndex) -> np.ndarray:
    """p_common in word_id order, after checking the file lists the index's words in order."""
    table = parquet.read_table(path, SCHEMA, columns=["word_id", "word", "p_common"])
    if (
        table.num_rows != len(index.words)
        or table["word_id"].to_pylist() != list(range(len(index.words)))
        or tuple(table["word"].to_pylist()) != index.words
    ):
        raise ArtifactError(
            f"{path}: does not list the word index's words in order; {REBUILD_HINT}"
        )
    p_common = table["p_common"].to_numpy(zero_copy_only=False).astype(np.float64)
    if not np.all(np.isfinite(p_common)) or p_common.min() < 0 or not p_common.sum() > 0:
        raise ArtifactError(f"{path}: p_common must be finite, >= 0 and not all zero")
    return p_common
