"""Stage of rule build_commonness: commonness.parquet from the frequency counts."""

from __future__ import annotations

from pathlib import Path

from pipeline.analysis.words.commonness import commonness_table
from pipeline.analysis.words.frequency import parse_frequency_counts
from pipeline.analysis.words.word_lists import index_words
from pipeline.artifacts import commonness as commonness_artifact
from pipeline.artifacts import raw as raw_artifact


def build_commonness(
    *, allowed: Path, frequency: Path, commonness: Path, n_common: int, width: float
) -> None:
    """commonness.parquet: p_common of every word of an allowed list (in the word order of
    every edition's index that names the list) from the frequency counts.

    The frequency file is streamed in blocks and only the list's words are kept, so
    memory stays bounded whatever the file's size (the rule's mem_mb).
    """
    words = index_words(raw_artifact.read_word_list(allowed))
    counts = parse_frequency_counts(
        raw_artifact.read_raw_blocks(frequency), raw_artifact.shown_name(frequency), words
    )
    table = commonness_table(words, counts, n_common, width)
    commonness_artifact.write_commonness(
        table,
        commonness,
        inputs={"allowed": allowed, "frequency": frequency},
        settings={"n_common": n_common, "width": width},
    )
