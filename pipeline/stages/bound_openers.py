"""Stage of rule bound_openers: lower bounds of a share of the allowed words as openers."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.analysis.certified_top import deal, stop_total
from pipeline.analysis.optimal_plan import top_count
from pipeline.artifacts import optimal as store
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.core.progress import Progress
from pipeline.kernels.optimal_search import INF, opener_bounds

DEEPER = 64  # second guesses split per bucket by the third level (measured: see CHANGELOG)

log = logging.getLogger(__name__)


def bound_openers(
    *,
    words: Path,
    patterns: Sequence[Path],
    proven: Sequence[Path],
    bounds: Path,
    mode: str,
    part: int,
    parts: int,
    top: int | str,
    max_guesses: int,
    threads: int,
) -> None:
    """Words k with k mod parts == part: both bounds, the second raised a level where it
    is below the cap (one more than T of the openers proven so far, the two-step
    ranking's best). Its `threads` bound openers side by side, so that a part uses every
    core it is given and the last part of the pass never runs on one core alone."""
    index = words_artifact.read_word_index(words)
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    limit = stop_total(
        store.read_proven_totals(proven, words, mode).values(), top_count(top, len(index.words))
    )
    cap = None if limit is None else limit + 1
    openers = np.array(deal(range(len(index.words)), part, parts), dtype=np.int64)
    started = time.process_time()
    what = f"{mode} mode, part {part}/{parts}: openers bounded"
    with Progress(what, len(openers), note=f"cutoff {cap}") as progress:
        first, second = opener_bounds(
            matrix.full(), index.answer_rows, index.encoded, openers,
            hard=mode == "hard", max_guesses=max_guesses, cap=cap, on_done=progress.advance,
            deeper=DEEPER, threads=threads,
        )  # fmt: skip
    log.info("%s mode, part %d/%d: %d openers bounded below the cap %s in %.1f CPU s",
             mode, part, parts, len(openers), cap, time.process_time() - started)  # fmt: skip
    table = pa.table({
        "mode": [mode] * len(openers),
        "opener": [index.words[o] for o in openers.tolist()],
        "opener_id": pa.array(openers, pa.int32()),
        "partition_bound": pa.array(first, pa.int64(), mask=first >= INF),
        "second_level_bound": pa.array(second, pa.int64(), mask=second >= INF),
    })  # fmt: skip
    store.write_bounds(
        table, bounds,
        inputs={"words": words, "patterns": patterns[0],
                **{f"proven_{i:04d}": p for i, p in enumerate(sorted(proven))}},
        settings={"mode": mode, "part": part, "parts": parts, "cap": cap,
                  "max_guesses": max_guesses},
    )  # fmt: skip
