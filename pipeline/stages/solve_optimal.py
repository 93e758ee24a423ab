"""Stage of rule solve_optimal: the proven-optimal tree of one (mode, opener)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from pipeline.analysis.optimal.tables import summary_table, tree_table
from pipeline.artifacts import optimal as store
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.core.errors import PipelineError
from pipeline.core.progress import Progress
from pipeline.core.wordle import MAX_GUESSES
from pipeline.kernels.optimal_search import solve_opener

log = logging.getLogger(__name__)


def solve_optimal(
    *,
    words: Path,
    patterns: Sequence[Path],
    summary: Path,
    tree: Path,
    mode: str,
    opener: str,
    max_guesses: int,
) -> None:
    """Search every tree that opens with `opener` in `mode` for the least total guesses;
    write the summary row and the tree (no tree rows when no tree wins every answer
    within max_guesses: the row says so, proven, with a null total)."""
    if mode not in store.MODES:
        raise PipelineError(f"config: optimal.modes: {mode!r} is not one of {list(store.MODES)}")
    if not 1 <= max_guesses <= MAX_GUESSES:
        limit = MAX_GUESSES
        raise PipelineError(f"config: optimal.max_guesses: {max_guesses} is not in 1..{limit}")
    index = words_artifact.read_word_index(words)
    opener_id = index.word_id(opener)
    if opener_id is None:
        raise PipelineError(f"config: optimal.openers: {opener!r} is not a word of the word index")
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    with Progress(f"{mode} {opener}: opener searched", 1, note="cutoff None") as progress:
        result = solve_opener(
            matrix.full(),
            index.answer_rows,
            index.encoded,
            opener_id,
            hard=mode == "hard",
            max_guesses=max_guesses,
        )
        progress.advance()
    log.info(
        "%s %s: total %s, proven %s, %d nodes, %.2f CPU s%s",
        mode, opener, result.total, result.proven, result.nodes, result.seconds,
        f" ({result.reason})" if result.reason else "",
    )  # fmt: skip
    store.write_part(
        summary_table(result, mode, index.words, MAX_GUESSES),
        tree_table(result, mode, index.words),
        (summary, tree),
        inputs={"words": words, "patterns": patterns[0]},
        settings={"mode": mode, "opener": opener, "max_guesses": max_guesses},
    )
