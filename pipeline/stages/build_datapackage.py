"""Stage of rule build_datapackage: the Data Package descriptor of every artifact, the
DuckDB script of the tables and the dataset card."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pipeline
from pipeline.artifacts.datapackage import DESCRIPTION, source_entries, write_datapackage
from pipeline.artifacts.dataset_card import write_dataset_card
from pipeline.artifacts.duckdb_schema import write_schema_sql


def build_datapackage(
    *,
    artifacts: Sequence[Path],
    raw: Sequence[Path],
    datapackage: Path,
    schema: Path,
    card: Path,
    config: str,
    editions: Sequence[str],
) -> None:
    """schema.sql (every Parquet artifact as a DuckDB view with its column comments) and
    README.md (the dataset card), then datapackage.json: every artifact and those two
    (checked against their seals), the upstream sources and their terms, the effective
    config (JSON, less where inputs were read from), the enabled editions oldest first."""
    artifacts = [Path(path) for path in artifacts]
    tables = [path for path in artifacts if path.suffix == ".parquet"]
    root = Path(datapackage).parent
    write_schema_sql(tables, root, Path(schema))
    write_dataset_card(
        tables, root, Path(card), description=DESCRIPTION, sources=source_entries(raw),
        version=pipeline.__version__,
    )  # fmt: skip
    published = [*artifacts, schema, card]
    write_datapackage(published, raw, json.loads(config), datapackage, editions)
