"""Stage of checkpoint merge_bounds: one mode's bounds of every allowed word, in word order."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from pipeline.artifacts import optimal as store
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import check_built_from
from pipeline.core.errors import PipelineError

log = logging.getLogger(__name__)


def merge_bounds(*, words: Path, parts: Sequence[Path], bounds: Path, mode: str) -> None:
    """Every word exactly once, sorted by word id, so the split changes no byte; the
    parts' common cap is kept in the settings (the next jobs are chosen below it)."""
    index = words_artifact.read_word_index(words)
    rows = []
    caps = set()
    for path in parts:
        check_built_from(path, "words", words)
        part = store.read_bounds(path)
        rows += part.to_pylist()
        caps.add(store.bounds_cap(part))
    if len(caps) != 1:
        raise PipelineError(f"the bound parts of {mode} mode have different caps: {caps}")
    rows.sort(key=lambda row: row["opener_id"])
    ids = [row["opener_id"] for row in rows]
    if ids != list(range(len(index.words))) or any(row["mode"] != mode for row in rows):
        raise PipelineError(f"the bound parts of {mode} mode do not cover every word once")
    table = pa.Table.from_pylist(rows, schema=store.BOUNDS_SCHEMA)
    store.write_bounds(
        table, bounds, inputs={"words": words}, settings={"mode": mode, "cap": caps.pop()},
        built_from={f"part_{i:04d}": p for i, p in enumerate(parts)},
    )  # fmt: skip
    log.info("%s mode: bounds of %d openers", mode, table.num_rows)
