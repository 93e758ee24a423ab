"""Stage of rule solve_optimal: the proven-optimal trees of a few openers of one mode.

Its search loop and part writer serve screen_openers too: both search openers one at a
time from an empty memo (so a result depends on its opener alone, not on the job it is
in), each result going to a resume log as it is found.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from pipeline.analysis.optimal.tables import summary_table, tree_table
from pipeline.artifacts import optimal as store
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import sealed_sha256
from pipeline.core.errors import PipelineError
from pipeline.core.progress import Progress
from pipeline.core.resume import ResumeLog, job_key
from pipeline.core.word_index import WordIndex
from pipeline.core.wordle import MAX_GUESSES
from pipeline.kernels.optimal_search import solve_openers

log = logging.getLogger(__name__)


def solve_optimal(
    *,
    words: Path,
    patterns: Sequence[Path],
    summary: Path,
    tree: Path,
    mode: str,
    openers: Sequence[str],
    max_guesses: int,
) -> None:
    """Search every tree that opens with each of `openers` in `mode` for the least total
    guesses; write a summary row per opener and their trees (no tree rows for an opener
    with no tree that wins every answer within max_guesses: its row says so, proven, with
    a null total). A job killed part-way starts again from the openers it finished."""
    if mode not in store.MODES:
        raise PipelineError(f"config: optimal.modes: {mode!r} is not one of {list(store.MODES)}")
    if not 1 <= max_guesses <= MAX_GUESSES:
        limit = MAX_GUESSES
        raise PipelineError(f"config: optimal.max_guesses: {max_guesses} is not in 1..{limit}")
    index = words_artifact.read_word_index(words)
    ids = [index.word_id(opener) for opener in openers]
    for opener, opener_id in zip(openers, ids, strict=True):
        if opener_id is None:
            raise PipelineError(
                f"config: optimal.openers: {opener!r} is not a word of the word index"
            )
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    settings = {"mode": mode, "openers": list(openers), "max_guesses": max_guesses}
    key = job_key({"settings": settings, "inputs": sealed_sha256([words, *patterns])})
    what = f"{mode} mode: openers searched"
    with ResumeLog(summary, key) as resume:
        todo = [opener for opener in ids if str(opener) not in resume.done]
        started = time.process_time()
        with Progress(what, len(ids), note="cutoff None") as progress:
            progress.advance(len(ids) - len(todo))
            search_logged(index, matrix.full(), todo, mode, max_guesses, None, resume, progress)
        seconds, resumed = time.process_time() - started, len(ids) - len(todo)
        log.info("%s: %d of %s in %.1f CPU s, %d more from the resume log",
                 what, len(todo), ", ".join(openers), seconds, resumed)  # fmt: skip
        write_found(
            [resume.done[str(opener)] for opener in ids], (summary, tree),
            inputs={"words": words, "patterns": patterns[0]}, settings=settings,
        )  # fmt: skip
        resume.finish()


def search_logged(  # noqa: PLR0913
    index: WordIndex,
    matrix: np.ndarray,
    openers: list[int],
    mode: str,
    max_guesses: int,
    cutoff: int | None,
    resume: ResumeLog,
    progress: Progress,
) -> None:
    """Search each opener below the cutoff, from an empty memo; log its summary and tree
    rows as it ends."""
    for result in solve_openers(
        matrix, index.answer_rows, index.encoded, openers, hard=mode == "hard",
        max_guesses=max_guesses, cutoff=cutoff, independent=True,
    ):  # fmt: skip
        log.info("%s %s: total %s, proven %s, %d nodes, %.2f CPU s%s",
                 mode, index.words[result.opener], result.total, result.proven, result.nodes,
                 result.seconds, f" ({result.reason})" if result.reason else "")  # fmt: skip
        rows = summary_table(result, mode, index.words, MAX_GUESSES).to_pylist()
        resume.record(result.opener, [rows, tree_table(result, mode, index.words).to_pylist()])
        progress.advance()


def write_found(found: Sequence[Any], paths: tuple[Path, Path], *, inputs: dict[str, Path],
                settings: dict[str, Any]) -> None:  # fmt: skip
    """The part files of a job's logged results (each [summary rows, tree rows]), in the
    job's order of openers."""
    rows = [row for summary_rows, _ in found for row in summary_rows]
    trees = [tree_row for _, tree_rows in found for tree_row in tree_rows]
    store.write_part(
        pa.Table.from_pylist(rows, schema=store.OPENERS_SCHEMA),
        pa.Table.from_pylist(trees, schema=store.TREES_SCHEMA),
        paths, inputs=inputs, settings=settings,
    )  # fmt: skip
