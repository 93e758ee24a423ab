"""Stage of rule merge_optimal: optimal_openers.parquet and optimal_trees.parquet."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from pipeline.analysis.optimal_tables import merge_order
from pipeline.artifacts import optimal as store
from pipeline.artifacts.seal import check_built_from
from pipeline.core.errors import PipelineError

log = logging.getLogger(__name__)


def merge_optimal(
    *,
    words: Path,
    summaries: Sequence[Path],
    trees: Sequence[Path],
    optimal_openers: Path,
    optimal_trees: Path,
) -> None:
    """The parts of every (mode, opener) job, sorted by (mode, opener): one summary row
    and one row group of tree nodes each, so the split into jobs changes no byte."""
    if len(summaries) != len(trees):
        raise PipelineError(f"{len(summaries)} summary parts but {len(trees)} tree parts")
    rows, nodes = [], []
    for summary, tree in zip(summaries, trees, strict=True):
        for path in (summary, tree):
            check_built_from(path, "words", words)
        rows.append(store.read_part_summary(summary))
        nodes.append(store.read_part_tree(tree))
    try:
        order = merge_order(rows)
    except ValueError as error:
        raise PipelineError(f"cannot merge the optimal parts: {error}") from None
    inputs = {"words": words}
    inputs |= {f"summary_{i:04d}": summaries[k] for i, k in enumerate(order)}
    inputs |= {f"tree_{i:04d}": trees[k] for i, k in enumerate(order)}
    ordered = [rows[k] for k in order]
    table = pa.concat_tables(ordered) if ordered else store.OPENERS_SCHEMA.empty_table()
    store.write_optimal(
        table,
        [nodes[k] for k in order if nodes[k].num_rows],
        (optimal_openers, optimal_trees),
        inputs=inputs,
        settings={"parts": len(order)},
    )
    log.info("optimal: %d (mode, opener) rows, %d tree nodes", table.num_rows,
             sum(n.num_rows for n in nodes))  # fmt: skip
