"""Proven-optimal strategies: `optimal_openers.parquet` (one row per mode and opener: every
allowed word when the top list is certified, with its bounds) and
`optimal_trees.parquet` (one row per node of one optimal decision tree per mode and
opener), and the per-job part files they are merged from."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from pipeline.artifacts import parquet
from pipeline.artifacts.parquet import described
from pipeline.artifacts.seal import check_built_from
from pipeline.core.wordle import MAX_GUESSES

OPENERS_FILE = "optimal_openers.parquet"
TREES_FILE = "optimal_trees.parquet"
MODES = ("normal", "hard")

OPENERS_SCHEMA = pa.schema(
    [
        described("mode", pa.string(), "normal: any allowed guess; hard: NYT hard mode"),
        described("opener", pa.string(), "the first guess"),
        described("opener_id", pa.int32(), "word_id of the first guess"),
        described(
            "total_guesses",
            pa.int64(),
            "guesses over all answers of the best tree (winning guess included); null when "
            "no tree wins every answer within six guesses",
            nullable=True,
        ),
        described("mean_guesses", pa.float64(), "total_guesses / number of answers", nullable=True),
        described("proven", pa.bool_(), "an exhaustive search proved the value (else only bounds)"),
        described("lower_bound", pa.int64(), "proven lower bound on total_guesses", nullable=True),
        described(
            "upper_bound",
            pa.int64(),
            "total of the best tree found (equals lower_bound when proven)",
            nullable=True,
        ),
        described(
            "partition_bound",
            pa.int64(),
            "lower bound from the opener's reply buckets alone; null where not computed or "
            "where it proves that no tree wins within six guesses",
            nullable=True,
        ),
        described(
            "second_level_bound",
            pa.int64(),
            "lower bound from the best second guess of each bucket, below the stop value "
            "of the certified top list raised by third guesses in the largest buckets (at "
            "or above that value: only a bound at or above it); null where not computed "
            "or where it proves that no tree wins",
            nullable=True,
        ),
        described(
            "in_top",
            pa.bool_(),
            "inside the certified top list of its mode: proven, with a total at most the "
            "K-th best (optimal.top), ties included, every other allowed word bounded above "
            "it; false everywhere when the run did not certify (optimal.certify)",
        ),
        described(
            "top_rank",
            pa.int32(),
            "1 + the number of openers of the mode with a smaller total, for in_top rows",
            nullable=True,
        ),
        *[
            described(f"n_{k}", pa.int32(), f"answers the tree solves in exactly {k} guesses")
            for k in range(1, MAX_GUESSES + 1)
        ],
        described("max_guesses", pa.int32(), "guesses the deepest answer needs", nullable=True),
        described(
            "deepest_answer",
            pa.string(),
            "an answer that needs max_guesses (the first in word order)",
            nullable=True,
        ),
        # No CPU seconds here: a measured time would make every run's bytes differ. They
        # are in the job's log and benchmark file (logs/benchmarks/solve_optimal/).
        described("nodes", pa.int64(), "search nodes visited (the search's work, reproducible)"),
        described(
            "reason",
            pa.string(),
            "why there is no total (e.g. no tree wins every answer in six guesses)",
            nullable=True,
        ),
    ]
)

TREES_SCHEMA = pa.schema(
    [
        described("mode", pa.string(), "normal or hard, as in optimal_openers.parquet"),
        described("opener", pa.string(), "the tree's first guess"),
        described("node_id", pa.int32(), "node number within the tree, 0 = the root"),
        described("parent_id", pa.int32(), "the parent node; null at the root", nullable=True),
        described(
            "pattern_id",
            pa.int32(),
            "the reply to the parent's guess that leads here; null at the root",
            nullable=True,
        ),
        described(
            "pattern", pa.string(), "that reply as B/Y/G letters; null at the root", nullable=True
        ),
        described("guess", pa.string(), "the guess to play at this node"),
        described("guess_id", pa.int32(), "word_id of the guess"),
        described("n_answers", pa.int32(), "answers still possible at this node"),
        described("depth", pa.int32(), "guess number of this node's guess (1 at the root)"),
        described(
            "guesses_to_finish",
            pa.int64(),
            "guesses from here on summed over the node's answers (this guess included); "
            "divided by n_answers: the expected number of guesses still needed",
        ),
    ]
)


BOUNDS_SCHEMA = pa.schema(
    [
        described("mode", pa.string(), "normal or hard"),
        described("opener", pa.string(), "the first guess"),
        described("opener_id", pa.int32(), "word_id of the first guess"),
        *[OPENERS_SCHEMA.field(name) for name in ("partition_bound", "second_level_bound")],
    ]
)


def write_bounds(table: pa.Table, path: Path, *, inputs: Mapping[str, Path],
                 settings: Mapping[str, Any], built_from: Mapping[str, Path] | None = None,
                 ) -> None:  # fmt: skip
    """A work file of openers' lower bounds (a part, or one mode's merged bounds)."""
    parquet.write_table(table, path, schema=BOUNDS_SCHEMA, inputs=inputs, settings=settings,
                        built_from=built_from)  # fmt: skip


def read_bounds(path: str | Path) -> pa.Table:
    return parquet.read_table(path, BOUNDS_SCHEMA)


def bounds_cap(bounds: pa.Table) -> int | None:
    """The cap a bound pass stopped its bounds at (settings `cap`, from the table that
    read_bounds returned), or None where it had none."""
    return parquet.provenance_of(bounds.schema)["config"].get("cap")


def write_part(
    summary: pa.Table,
    tree: pa.Table,
    paths: tuple[Path, Path],
    *,
    inputs: Mapping[str, Path],
    settings: Mapping[str, Any],
) -> None:
    """One solve_optimal or screen job's result: a summary row per opener, their trees."""
    parquet.write_table(summary, paths[0], schema=OPENERS_SCHEMA, inputs=inputs, settings=settings)
    parquet.write_table(tree, paths[1], schema=TREES_SCHEMA, inputs=inputs, settings=settings)


def write_optimal(
    openers: pa.Table,
    trees: list[pa.Table],
    paths: tuple[Path, Path],
    *,
    inputs: Mapping[str, Path],
    settings: Mapping[str, Any],
    built_from: Mapping[str, Path] | None = None,
) -> None:
    """optimal_openers.parquet, and optimal_trees.parquet with one row group per tree, so
    a reader filtering on (mode, opener) touches exactly one row group. built_from: work
    files recorded in the seals only (see parquet.write_table)."""
    options = {"inputs": inputs, "settings": settings, "built_from": built_from}
    parquet.write_table(openers, paths[0], schema=OPENERS_SCHEMA, **options)
    parquet.write_row_groups(trees, paths[1], schema=TREES_SCHEMA, **options)


def read_openers(path: str | Path) -> pa.Table:
    return parquet.read_table(path, OPENERS_SCHEMA)


def read_part_summary(path: str | Path) -> pa.Table:
    return parquet.read_table(path, OPENERS_SCHEMA)


def read_part_tree(path: str | Path) -> pa.Table:
    return parquet.read_table(path, TREES_SCHEMA)


def read_tree(path: str | Path, mode: str, opener: str) -> pa.Table:
    """The nodes of one (mode, opener) tree: only its row group is read."""
    handle = parquet.open_file(path, TREES_SCHEMA)
    metadata = handle.metadata
    names = metadata.schema.to_arrow_schema().names
    mode_column, opener_column = names.index("mode"), names.index("opener")
    groups = []
    for number in range(metadata.num_row_groups):
        group = metadata.row_group(number)
        stats = [group.column(c).statistics for c in (mode_column, opener_column)]
        if all(
            s is None or not s.has_min_max or s.min <= v <= s.max
            for s, v in zip(stats, (mode, opener), strict=True)
        ):
            groups.append(number)
    table = parquet.read_table(path, TREES_SCHEMA, row_groups=groups)
    import pyarrow.compute as pc  # here: the assistant's one-shot answer never needs it

    keep = pc.and_(pc.equal(table["mode"], mode), pc.equal(table["opener"], opener))
    return table.filter(keep)


def read_proven_totals(summaries: Sequence[Path], words: Path, mode: str
                       ) -> dict[str, int | None]:  # fmt: skip
    """Opener -> proven total (None: no tree) in `mode`, from solve_optimal summary parts,
    each checked against the word index."""
    totals: dict[str, int | None] = {}
    for path in summaries:
        check_built_from(path, "words", words)
        for row in read_part_summary(path).to_pylist():
            if row["mode"] == mode and row["proven"]:
                totals[row["opener"]] = row["total_guesses"]
    return totals
