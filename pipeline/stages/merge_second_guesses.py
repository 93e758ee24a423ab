"""Stage of rule merge_second_guesses: second_guesses.parquet from the part files."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from pipeline.analysis.openers.tables import ranking_settings, second_guess_rows
from pipeline.artifacts import openers as store
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import part_inputs, upstream_inputs
from pipeline.core.errors import PipelineError

log = logging.getLogger(__name__)


def merge_second_guesses(*, words: Path, parts: Sequence[Path], second_guesses: Path) -> None:
    """second_guesses.parquet: every part's rows, in (mode, opener_id, pattern_id) order."""
    index = words_artifact.read_word_index(words)
    tables = store.read_parts(parts, words, columns=store.SECOND_GUESSES_SCHEMA.names)
    try:
        rows = second_guess_rows(tables, index.words)
    except ValueError as error:
        raise PipelineError(f"cannot merge the openers parts: {error}") from None
    store.write_second_guesses(
        rows,
        second_guesses,
        inputs=upstream_inputs(parts) | {"words": words},  # the same, whatever the split
        built_from=part_inputs(parts),
        settings=ranking_settings(rows["mode"].unique().to_pylist()),
    )
    log.info("second guesses: %d rows", rows.num_rows)
