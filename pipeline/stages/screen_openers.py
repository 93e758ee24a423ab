"""Stage of rule screen_openers: search the openers the stop rule cannot exclude."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from pipeline.analysis.certified_top import contenders, deal, stop_total
from pipeline.analysis.optimal_plan import top_count
from pipeline.analysis.optimal_tables import summary_table, tree_table
from pipeline.artifacts import optimal as store
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import check_built_from
from pipeline.core.progress import Progress
from pipeline.core.wordle import MAX_GUESSES
from pipeline.kernels.optimal_search import solve_openers

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
    empty memo (so its result does not depend on the split)."""
    index = words_artifact.read_word_index(words)
    check_built_from(bounds, "words", words)
    table = store.read_bounds(bounds).to_pydict()
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    totals = store.read_proven_totals(proven, words, mode)
    limit = stop_total(totals.values(), top_count(top, len(index.words)))
    done = {index.word_id(word) for word in totals}
    lower = dict(zip(table["opener_id"], table["second_level_bound"], strict=True))
    mine = deal(contenders(lower, done, limit), part, parts)
    started = time.process_time()
    rows, trees = [], []
    cutoff = None if limit is None else limit + 1
    what = f"{mode} mode, part {part}/{parts}: openers searched"
    with Progress(what, len(mine), note=f"cutoff {cutoff}") as progress:
        for result in solve_openers(
            matrix.full(), index.answer_rows, index.encoded, mine, hard=mode == "hard",
            max_guesses=max_guesses, cutoff=cutoff, independent=True,
        ):  # fmt: skip
            rows += summary_table(result, mode, index.words, MAX_GUESSES).to_pylist()
            trees += tree_table(result, mode, index.words).to_pylist()
            progress.advance()
    proven_here = sum(row["total_guesses"] is not None for row in rows)
    log.info("%s mode, part %d/%d: %d openers searched below %s (%d proven there), %.1f CPU s",
             mode, part, parts, len(mine), cutoff, proven_here,
             time.process_time() - started)  # fmt: skip
    store.write_part(
        pa.Table.from_pylist(rows, schema=store.OPENERS_SCHEMA),
        pa.Table.from_pylist(trees, schema=store.TREES_SCHEMA),
        (summary, tree),
        inputs={"words": words, "patterns": patterns[0], "bounds": bounds,
                **{f"proven_{i:04d}": p for i, p in enumerate(sorted(proven))}},
        settings={"mode": mode, "part": part, "parts": parts, "limit": limit,
                  "max_guesses": max_guesses},
    )  # fmt: skip
