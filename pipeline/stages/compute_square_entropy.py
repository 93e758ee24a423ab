"""Stage of rule compute_square_entropy: every guess of an allowed list against every word
of it, once per allowed list for every edition that names it."""

from __future__ import annotations

import logging
from pathlib import Path

import pyarrow as pa

from pipeline.analysis.openers import entropy_maps
from pipeline.analysis.words.word_lists import allowed_index
from pipeline.artifacts import commonness as commonness_artifact
from pipeline.artifacts import entropy as store
from pipeline.artifacts import raw as raw_artifact
from pipeline.core.progress import Progress

log = logging.getLogger(__name__)


def compute_square_entropy(
    *, allowed: Path, commonness: Path, square_entropy: Path, threads: int
) -> None:
    """entropy_prior (answer any allowed word, weighted by p_common) and entropy_allowed
    (answer uniform over the allowed words) of every guess, by the streamed square pass:
    they depend on the allowed list alone, never on an edition's answers."""
    index = allowed_index(raw_artifact.read_word_list(allowed))
    p_common = commonness_artifact.read_p_common(commonness, index)
    progress = Progress("square pass (every guess against every word)", len(index.words))
    uniform, weighted = entropy_maps.square_stats_streamed(
        index.encoded, p_common, threads, progress.advance
    )
    table = pa.table(
        {
            "word_id": pa.array(range(len(index.words)), pa.int32()),
            "word": pa.array(index.words, pa.string()),
            "entropy_prior": weighted,
            "entropy_allowed": uniform,
        }
    )
    store.write_square_entropy(
        table, square_entropy, inputs={"allowed": allowed, "commonness": commonness}
    )
    log.info("square entropy: %d guesses", len(index.words))
