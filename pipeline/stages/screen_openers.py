"""Stage of rule screen_openers: bound a share of the allowed words and prove those
whose bound does not exclude them from the certified top list."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from pipeline.analysis.optimal_tables import bound_table, summary_table, tree_table
from pipeline.artifacts import optimal as store
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import check_built_from
from pipeline.core.errors import PipelineError
from pipeline.kernels.optimal_search.screen import screen_openers as screen
from pipeline.kernels.optimal_search.screen import stop_total

log = logging.getLogger(__name__)


def proven_first(summaries: Sequence[Path], words: Path, mode: str) -> dict[str, int | None]:
    """Opener -> proven total (None: no tree) of the openers proven outright, in `mode`."""
    totals: dict[str, int | None] = {}
    for path in summaries:
        check_built_from(path, "words", words)
        for row in store.read_part_summary(path).to_pylist():
            if row["mode"] == mode and row["proven"]:
                totals[row["opener"]] = row["total_guesses"]
    return totals


def screen_openers(
    *,
    words: Path,
    patterns: Sequence[Path],
    proven: Sequence[Path],
    summary: Path,
    tree: Path,
    mode: str,
    part: int,
    parts: int,
    top: int | str,
    max_guesses: int,
) -> None:
    """Words k with k mod parts == part: each gets its bounds, and a search below the cap
    (the top-th best total proven outright, plus one) where its bound is below the cap.
    The openers proven outright only get their bounds (merge_optimal joins them)."""
    if not 0 <= part < parts:
        raise PipelineError(f"screen part {part} is not in 0..{parts - 1}")
    index = words_artifact.read_word_index(words)
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    known = proven_first(proven, words, mode)
    k = len(index.words) if top == "all" else int(top)
    limit = stop_total(list(known.values()), k)
    cap = None if limit is None else limit + 1
    openers = range(part, len(index.words), parts)
    started = time.process_time()
    rows, trees, searched = [], [], 0
    for screened in screen(
        matrix.full(), index.answer_rows, index.encoded, openers,
        hard=mode == "hard", max_guesses=max_guesses, cap=cap,
    ):  # fmt: skip
        bounds = (screened.partition_bound, screened.second_level_bound)
        word = index.words[screened.opener]
        if word in known or screened.result is None:
            rows.append(bound_table(mode, screened.opener, index.words, store.MAX_GUESSES,
                                    bounds, cap or 0))  # fmt: skip
            continue
        searched += 1
        rows.append(summary_table(screened.result, mode, index.words, store.MAX_GUESSES, bounds))
        trees.append(tree_table(screened.result, mode, index.words))
    log.info("%s mode, part %d/%d: %d openers bounded, %d searched below the cap %s, "
             "%.1f CPU s", mode, part, parts, len(rows), searched, cap,
             time.process_time() - started)  # fmt: skip
    store.write_part(
        pa.Table.from_pylist([r for t in rows for r in t.to_pylist()], schema=store.OPENERS_SCHEMA),
        pa.Table.from_pylist([r for t in trees for r in t.to_pylist()], schema=store.TREES_SCHEMA),
        (summary, tree),
        inputs={"words": words, "patterns": patterns[0],
                **{f"proven_{i:04d}": p for i, p in enumerate(proven)}},
        settings={"mode": mode, "part": part, "parts": parts, "cap": cap,
                  "max_guesses": max_guesses},
    )  # fmt: skip
