"""Stage of rule merge_opener_rankings: openers.parquet and second_guesses.parquet."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from pipeline.analysis.opener_tables import merge_parts
from pipeline.artifacts import openers as store
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import check_built_from, part_inputs, upstream_inputs
from pipeline.core.errors import PipelineError
from pipeline.core.ties import TIE_TOLERANCE

log = logging.getLogger(__name__)


def merge_opener_rankings(
    *, words: Path, parts: Sequence[Path], openers: Path, second_guesses: Path
) -> None:
    """openers.parquet and second_guesses.parquet from the part files."""
    index = words_artifact.read_word_index(words)
    tables = []
    for path in parts:
        tables.append(store.read_part(path))
        check_built_from(path, "words", words)
    try:
        ranked, rows = merge_parts(tables, index.words)
    except ValueError as error:
        raise PipelineError(f"cannot merge the openers parts: {error}") from None
    inputs = upstream_inputs(parts) | {"words": words}  # the same, whatever the split
    modes = sorted(set(ranked["mode"].to_pylist()))
    store.write_rankings(
        ranked,
        rows,
        openers,
        second_guesses,
        inputs=inputs,
        built_from=part_inputs(parts),
        settings={"tie_tolerance": TIE_TOLERANCE, "modes": modes},
    )
    log.info("openers: %d ranked rows, %d second-guess rows", ranked.num_rows, rows.num_rows)
