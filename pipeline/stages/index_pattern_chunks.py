"""Stage of rule index_pattern_chunks: check the chunks and write the matrix's index."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.artifacts import patterns as store
from pipeline.artifacts import words as words_artifact


def index_pattern_chunks(
    *, words: Path, chunks: Sequence[Path], index: Path, matrix: str, chunk_rows: int
) -> None:
    """Check that the chunks tile the matrix and write its index.json."""
    word_index = words_artifact.read_word_index(words)
    store.write_chunk_index(
        word_index, words, chunks, index, chunk_rows=chunk_rows, columns=store.MATRICES[matrix]
    )
