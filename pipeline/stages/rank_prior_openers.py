"""Stage of rule rank_prior_openers: mode prior, the top openers by entropy_prior."""

from __future__ import annotations

import logging
import time
from pathlib import Path

from pipeline.analysis import openers as analysis
from pipeline.analysis.opener_tables import part_table
from pipeline.artifacts import commonness as commonness_artifact
from pipeline.artifacts import entropy as entropy_artifact
from pipeline.artifacts import openers as store
from pipeline.artifacts import words as words_artifact
from pipeline.core.progress import Progress
from pipeline.core.ties import TIE_TOLERANCE
from pipeline.kernels.threads import map_ranges, thread_count

log = logging.getLogger(__name__)


def rank_prior_openers(
    *, words: Path, commonness: Path, entropy: Path, part: Path, prior_top_k: int, threads: int
) -> None:
    """Mode prior: the top `prior_top_k` openers by entropy_prior (every allowed word a
    candidate, weighted by p_common), as a part file for the merge."""
    index = words_artifact.read_word_index(words)
    weights = commonness_artifact.read_p_common(commonness, index)
    chosen = entropy_artifact.top_by_rank(entropy, index, "rank_prior", prior_top_k)
    search = analysis.PriorSearch(index.encoded, weights)
    progress = Progress("prior openers", len(chosen))

    def solve(first: int, last: int) -> list[analysis.SecondGuesses]:
        results = []
        for opener in chosen[first:last]:
            results.append(search.second_guesses(opener))
            progress.advance()
        return results

    began = time.perf_counter()
    results = map_ranges(solve, 0, len(chosen), thread_count(threads, len(chosen), len(chosen), 1))
    log.info("prior: %d openers in %.1f s", len(chosen), time.perf_counter() - began)
    results.sort(key=lambda result: result.opener)
    store.write_part(
        part_table("prior", index.words, results),
        part,
        inputs={"words": words, "commonness": commonness, "entropy": entropy},
        settings={"mode": "prior", "top_k": prior_top_k, "tie_tolerance": TIE_TOLERANCE},
    )
