"""Stage of rule compute_pattern_chunk: one chunk of guess rows of a pattern matrix."""

from __future__ import annotations

from pathlib import Path

from pipeline.artifacts import patterns as store
from pipeline.artifacts import words as words_artifact
from pipeline.kernels.feedback import feedback_matrix


def compute_pattern_chunk(
    *, words: Path, chunk: Path, matrix: str, number: int, chunk_rows: int, zstd_level: int
) -> None:
    """Rows of chunk `number` of matrix `matrix` against every column word.

    Needs only the word index: one chunk's rows are all it holds in memory, so chunk jobs
    share nothing but files and run anywhere a cluster executor puts them.
    """
    index = words_artifact.read_word_index(words)
    start, stop = store.chunk_bounds(number, len(index.words), chunk_rows)
    columns = index.column_rows(store.MATRICES[matrix])
    block = feedback_matrix(index.encoded[start:stop], index.encoded[columns])
    store.write_chunk(block, chunk, zstd_level=zstd_level, inputs={"words": words})
