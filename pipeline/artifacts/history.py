"""`history.parquet`: every NYT answer by the day it was played, and which editions hold it.

Shared by every edition (data/derived/shared/). Besides the fixed columns it has one
boolean column `in_<edition>` per edition enabled when it was built, so its schema
follows the enabled editions.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa

from pipeline.artifacts import parquet
from pipeline.artifacts.parquet import described
from pipeline.artifacts.seal import REBUILD_HINT
from pipeline.core.errors import ArtifactError

FILE = "history.parquet"
EDITION_PREFIX = "in_"
SCHEMA = pa.schema(
    [
        described("date", pa.date32(), "the day the answer was played (the NYT's date)"),
        described(
            "puzzle",
            pa.int32(),
            "puzzle number: days since 19 June 2021, puzzle 0 (the NYT numbering)",
        ),
        described("answer", pa.string(), "the day's answer"),
        described("repeat", pa.bool_(), "whether the answer was played on an earlier day"),
        described("first_played", pa.date32(), "the first day this answer was played"),
    ]
)
EDITION_DESCRIPTION = "whether the answer is in the answer list of edition {edition}"


def schema_of(editions: list[str]) -> pa.Schema:
    """The file's schema: the fixed columns, then `in_<edition>` for each edition."""
    extra = [
        described(f"{EDITION_PREFIX}{e}", pa.bool_(), EDITION_DESCRIPTION.format(edition=e))
        for e in editions
    ]
    return pa.schema([*SCHEMA, *extra])


def write_history(
    table: pa.Table, path: str | Path, *, inputs: Mapping[str, Path], until: str
) -> None:
    """Write the table of pipeline.analysis.history.archive.history_table."""
    editions = editions_of(table)
    settings = {"until": until, "editions": editions}
    parquet.write_table(table, path, schema=schema_of(editions), inputs=inputs, settings=settings)


def read_history(path: str | Path) -> pa.Table:
    """The checked table: every column (the `in_<edition>` ones too), one row per day in
    date order with no gap."""
    names = parquet.open_file(path, SCHEMA).schema_arrow.names
    editions = [n.removeprefix(EDITION_PREFIX) for n in names if n.startswith(EDITION_PREFIX)]
    table = parquet.read_table(path, schema_of(editions))
    puzzles = table["puzzle"].to_pylist()
    if not puzzles or puzzles != list(range(puzzles[0], puzzles[0] + len(puzzles))):
        raise ArtifactError(f"{path}: the days are not one a day in order; {REBUILD_HINT}")
    return table


def editions_of(table: pa.Table) -> list[str]:
    """The editions a history table has an `in_<edition>` column for."""
    return [
        n.removeprefix(EDITION_PREFIX) for n in table.column_names if n.startswith(EDITION_PREFIX)
    ]
