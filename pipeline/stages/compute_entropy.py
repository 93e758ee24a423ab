"""Stage of the entropy maps: entropy.parquet and pattern_distribution.parquet."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from pipeline.analysis.openers import entropy_maps
from pipeline.artifacts import commonness as commonness_artifact
from pipeline.artifacts import entropy as store
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.core.ties import TIE_TOLERANCE

log = logging.getLogger(__name__)


def compute_entropy(
    *,
    words: Path,
    commonness: Path,
    patterns: Sequence[Path],
    square_entropy: Path,
    entropy: Path,
    distribution: Path,
    threads: int,
) -> None:
    """The three entropies of every guess, its buckets, and its reply distribution.

    The answer-list measures come from the stored guess x answer matrix; the prior and
    allowed measures, which depend on the allowed list alone, from the square pass of the
    allowed list (compute_square_entropy), shared by the editions that name it.
    """
    index = words_artifact.read_word_index(words)
    p_common = commonness_artifact.read_p_common(commonness, index)
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    answers = entropy_maps.answer_stats(
        matrix.iter_chunks(), len(index.words), index.length, threads
    )
    prior, allowed = store.read_square_entropy(square_entropy, index)
    inputs = {
        "words": words,
        "commonness": commonness,
        "patterns": patterns[0],
        "square_entropy": square_entropy,
    }
    table = entropy_maps.entropy_table(index, p_common, answers, prior, allowed)
    store.write_entropy(table, entropy, inputs=inputs, settings={"tie_tolerance": TIE_TOLERANCE})
    best = int(table["rank_answers"].to_numpy().argmin())
    log.info(
        "entropy: best opener over the answers %s (%.4f bits)",
        index.words[best],
        answers.entropy[best],
    )
    rows = entropy_maps.distribution_table(index.words, answers, len(index.answer_rows))
    store.write_distribution(rows, distribution, inputs={"words": words, "patterns": patterns[0]})
    log.info("pattern distribution: %d (guess, reply) rows", rows.num_rows)
