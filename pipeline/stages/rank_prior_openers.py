"""Stage of rule rank_prior_openers: mode prior, the top openers by entropy_prior."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np

from pipeline.analysis.openers import two_step
from pipeline.analysis.openers.tables import part_table
from pipeline.analysis.words.word_lists import allowed_index
from pipeline.artifacts import commonness as commonness_artifact
from pipeline.artifacts import entropy as entropy_artifact
from pipeline.artifacts import openers as store
from pipeline.artifacts import raw as raw_artifact
from pipeline.core.progress import Progress
from pipeline.core.ties import TIE_TOLERANCE, ranks
from pipeline.kernels.threads import map_ranges, thread_count

log = logging.getLogger(__name__)


def rank_prior_openers(
    *,
    allowed: Path,
    commonness: Path,
    square_entropy: Path,
    part: Path,
    prior_top_k: int,
    threads: int,
) -> None:
    """Mode prior: the top `prior_top_k` openers by entropy_prior (every allowed word a
    candidate, weighted by p_common), as a part file for the merge. It depends on the
    allowed list alone, so it is ranked once for every edition that names the list."""
    index = allowed_index(raw_artifact.read_word_list(allowed))
    weights = commonness_artifact.read_p_common(commonness, index)
    prior, _ = entropy_artifact.read_square_entropy(square_entropy, index)
    best_first = np.argsort(ranks(prior, higher_is_better=True), kind="stable")
    chosen = [int(i) for i in best_first[: min(prior_top_k, len(index.words))]]
    search = two_step.PriorSearch(index.encoded, weights)
    progress = Progress("prior openers", len(chosen))

    def solve(first: int, last: int) -> list[two_step.SecondGuesses]:
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
        inputs={"allowed": allowed, "commonness": commonness, "square_entropy": square_entropy},
        settings={"mode": "prior", "top_k": prior_top_k, "tie_tolerance": TIE_TOLERANCE},
    )
