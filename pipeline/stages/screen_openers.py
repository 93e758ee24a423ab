"""Stage of rule screen_openers: search the openers the stop rule cannot exclude."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path

from pipeline.analysis.optimal.certified_top import contenders, deal, stop_total
from pipeline.analysis.optimal.edition_plan import top_count
from pipeline.artifacts import optimal as store
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import check_built_from, sealed_sha256
from pipeline.core.progress import Progress
from pipeline.core.resume import ResumeLog, job_key
from pipeline.stages.solve_optimal import search_logged, write_found

log = logging.getLogger(__name__)


def screen_openers(
    *,
    words: Path,
    patterns: Sequence[Path],
    bounds: Path,
    proven: Sequence[Path],
    summary: Path,
    tree: Path,
    mode: str,
    part: int,
    parts: int,
    top: int | str,
    max_guesses: int,
) -> None:
    """T1 from every opener proven so far; the unproven openers bounded at most T1 are
    dealt out over the parts, and each of this part's is searched below T1 + 1, from an
    empty memo (so its result does not depend on the split, nor on a resume: each result
    goes to a resume log as it is found, and a job killed part-way starts again from the
    openers it finished)."""
    index = words_artifact.read_word_index(words)
    check_built_from(bounds, "words", words)
    table = store.read_bounds(bounds).to_pydict()
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    totals = store.read_proven_totals(proven, words, mode)
    limit = stop_total(totals.values(), top_count(top, len(index.words)))
    done = {index.word_id(word) for word in totals}
    lower = dict(zip(table["opener_id"], table["second_level_bound"], strict=True))
    mine = deal(contenders(lower, done, limit), part, parts)
    cutoff = None if limit is None else limit + 1
    settings = {"mode": mode, "part": part, "parts": parts, "limit": limit,
                "max_guesses": max_guesses}  # fmt: skip
    sources = [words, *patterns, bounds, *sorted(proven)]
    key = job_key({"settings": settings, "openers": mine, "inputs": sealed_sha256(sources)})
    what = f"{mode} mode, part {part}/{parts}: openers searched"
    with ResumeLog(summary, key) as resume:
        todo = [opener for opener in mine if str(opener) not in resume.done]
        resumed, started = len(mine) - len(todo), time.process_time()
        with Progress(what, len(mine), note=f"cutoff {cutoff}") as progress:
            progress.advance(resumed)
            search_logged(index, matrix.full(), todo, mode, max_guesses, cutoff, resume, progress)
        found = [resume.done[str(opener)] for opener in mine]
        rows = [row for summary_rows, _ in found for row in summary_rows]
        proven_here = sum(row["total_guesses"] is not None for row in rows)
        log.info("%s: %d below %s (%d proven there), %.1f CPU s, %d more from the resume log",
                 what, len(todo), cutoff, proven_here, time.process_time() - started,
                 resumed)  # fmt: skip
        inputs = {"words": words, "patterns": patterns[0], "bounds": bounds,
                  **{f"proven_{i:04d}": p for i, p in enumerate(sorted(proven))}}  # fmt: skip
        write_found(found, (summary, tree), inputs=inputs, settings=settings)
        resume.finish()
