"""Stage of rule rank_openers: openers.parquet, the ranking, from the parts' figures."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from pipeline.analysis.openers.tables import FIGURE_COLUMNS, rank_parts, ranking_settings
from pipeline.artifacts import openers as store
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import part_inputs, upstream_inputs
from pipeline.core.errors import PipelineError

log = logging.getLogger(__name__)


def rank_openers(*, words: Path, parts: Sequence[Path], openers: Path) -> None:
    """openers.parquet from the part files' opener figures (their second guesses unread)."""
    index = words_artifact.read_word_index(words)
    tables = store.read_parts(parts, words, columns=FIGURE_COLUMNS)
    try:
        ranked = rank_parts(tables, index.words)
    except ValueError as error:
        raise PipelineError(f"cannot rank the openers parts: {error}") from None
    store.write_openers(
        ranked,
        openers,
        inputs=upstream_inputs(parts) | {"words": words},  # the same, whatever the split
        built_from=part_inputs(parts),
        settings=ranking_settings(ranked["mode"].to_pylist()),
    )
    log.info("openers: %d ranked rows", ranked.num_rows)
