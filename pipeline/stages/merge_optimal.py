"""Stage of rule merge_optimal: optimal_openers.parquet and optimal_trees.parquet."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from pipeline.analysis.optimal.certified_top import certify_top
from pipeline.analysis.optimal.edition_plan import top_count
from pipeline.analysis.optimal.tables import merge_rows
from pipeline.artifacts import optimal as store
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.seal import check_built_from, part_inputs, upstream_inputs
from pipeline.core.errors import PipelineError
from pipeline.core.wordle import MAX_GUESSES

log = logging.getLogger(__name__)


def _read_parts(words: Path, summaries: Sequence[Path], trees: Sequence[Path]):
    """Every part's summary rows and tree nodes, each checked against the word index."""
    if len(summaries) != len(trees):
        raise PipelineError(f"{len(summaries)} summary parts but {len(trees)} tree parts")
    rows, nodes = [], []
    for summary, tree in zip(summaries, trees, strict=True):
        for path in (summary, tree):
            check_built_from(path, "words", words)
        rows.append(store.read_part_summary(summary))
        nodes.append(store.read_part_tree(tree))
    return rows, nodes


def _rows(parts: list[pa.Table]) -> pa.Table:
    return pa.Table.from_pylist(
        [r for t in parts for r in t.to_pylist()], schema=store.OPENERS_SCHEMA
    )


def _trees_in_order(table: pa.Table, nodes: list[pa.Table]) -> list[pa.Table]:
    """One table per (mode, opener) that has a tree, in the rows' order."""
    by_key: dict[tuple[str, str], pa.Table] = {}
    for part in nodes:
        keys = list(zip(part["mode"].to_pylist(), part["opener"].to_pylist(), strict=True))
        for key in dict.fromkeys(keys):
            by_key[key] = part.filter(pa.array([k == key for k in keys]))
    keys = zip(table["mode"].to_pylist(), table["opener"].to_pylist(), strict=True)
    return [by_key[key] for key in keys if key in by_key]


def merge_optimal(
    *,
    words: Path,
    summaries: Sequence[Path],
    trees: Sequence[Path],
    screen_summaries: Sequence[Path] = (),
    screen_trees: Sequence[Path] = (),
    bounds: Sequence[Path] = (),
    optimal_openers: Path,
    optimal_trees: Path,
    top: int | str,
    certify: bool,
    max_guesses: int,
) -> None:
    """The rows of every searched opener, and with `certify` of every other allowed word
    (its bounds), sorted by (mode, opener), each tree one row group, so the split into
    jobs changes no byte; with `certify`, each mode's certified top list is marked."""
    rows, nodes = _read_parts(words, [*summaries, *screen_summaries], [*trees, *screen_trees])
    for path in bounds:
        check_built_from(path, "words", words)
    bound_rows = [r for path in bounds for r in store.read_bounds(path).to_pylist()]
    try:
        table = merge_rows(
            _rows(rows), pa.Table.from_pylist(bound_rows, schema=store.BOUNDS_SCHEMA),
            MAX_GUESSES, max_guesses,
        )  # fmt: skip
        if certify:
            n_words = len(words_artifact.read_word_index(words).words)
            table = certify_top(table, top_count(top, n_words))
    except ValueError as error:
        raise PipelineError(f"cannot merge the optimal parts: {error}") from None
    # The file records what every part was built from and the merged bounds, whose bytes
    # do not depend on the split; the parts themselves go to its seal only, so the split
    # into jobs (optimal.openers_per_job, screen_parts) changes no byte of it.
    inputs = {"words": words, **upstream_inputs(summaries)}
    inputs |= {f"bounds_{i:04d}": path for i, path in enumerate(bounds)}
    parts = [*sorted(summaries), *sorted(trees), *screen_summaries, *screen_trees]
    ordered = _trees_in_order(table, nodes)
    store.write_optimal(
        table, [t for t in ordered if t.num_rows], (optimal_openers, optimal_trees),
        inputs=inputs, settings={"top": top, "certify": certify}, built_from=part_inputs(parts),
    )  # fmt: skip
    log.info("optimal: %d (mode, opener) rows, %d trees, %d in the top lists", table.num_rows,
             len(ordered), sum(table["in_top"].to_pylist()))  # fmt: skip
