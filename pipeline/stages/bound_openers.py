"""Stage of rule bound_openers: lower bounds of a share of the allowed words as openers."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.analysis.optimal.certified_top import deal, stop_total
from pipeline.analysis.optimal.edition_plan import top_count
from pipeline.artifacts import optimal as store
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import sealed_sha256
from pipeline.core.progress import Progress
from pipeline.core.resume import ResumeLog, job_key
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
    core it is given and the last part of the pass never runs on one core alone. Each
    opener's bounds go to a resume log as they are found: a job killed part-way starts
    again from the openers it finished."""
    index = words_artifact.read_word_index(words)
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    limit = stop_total(
        store.read_proven_totals(proven, words, mode).values(), top_count(top, len(index.words))
    )
    cap = None if limit is None else limit + 1
    openers = np.array(deal(range(len(index.words)), part, parts), dtype=np.int64)
    settings = {"mode": mode, "part": part, "parts": parts, "cap": cap, "max_guesses": max_guesses}
    sources = [words, *patterns, *sorted(proven)]
    key = job_key({"settings": settings, "deeper": DEEPER, "inputs": sealed_sha256(sources)})
    what = f"{mode} mode, part {part}/{parts}: openers bounded"
    with ResumeLog(bounds, key) as resume:
        todo = np.array([o for o in openers.tolist() if str(o) not in resume.done], np.int64)
        resumed, started = len(openers) - len(todo), time.process_time()
        with Progress(what, len(openers), note=f"cutoff {cap}") as progress:
            progress.advance(resumed)
            opener_bounds(
                matrix.full(), index.answer_rows, index.encoded, todo,
                hard=mode == "hard", max_guesses=max_guesses, cap=cap, on_done=progress.advance,
                on_bound=lambda o, a, b: resume.record(o, [a, b]), deeper=DEEPER, threads=threads,
            )  # fmt: skip
        log.info("%s: %d below the cap %s in %.1f CPU s, %d more from the resume log",
                 what, len(todo), cap, time.process_time() - started, resumed)  # fmt: skip
        found = [resume.done[str(o)] for o in openers.tolist()]
        inputs = {"words": words, "patterns": patterns[0],
                  **{f"proven_{i:04d}": p for i, p in enumerate(sorted(proven))}}  # fmt: skip
        table = _bounds_table(mode, index.words, openers, np.array(found, np.int64))
        store.write_bounds(table, bounds, inputs=inputs, settings=settings)
        resume.finish()


def _bounds_table(
    mode: str, words: Sequence[str], openers: np.ndarray, found: np.ndarray
) -> pa.Table:
    """The part's table: found[i] = (partition, second-level) bound of openers[i]."""
    first, second = found.reshape(-1, 2)[:, 0], found.reshape(-1, 2)[:, 1]
    return pa.table({
        "mode": [mode] * len(openers),
        "opener": [words[o] for o in openers.tolist()],
        "opener_id": pa.array(openers, pa.int32()),
        "partition_bound": pa.array(first, pa.int64(), mask=first >= INF),
        "second_level_bound": pa.array(second, pa.int64(), mask=second >= INF),
    })  # fmt: skip
