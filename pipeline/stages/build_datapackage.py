"""Stage of rule build_datapackage: the Data Package descriptor of every artifact, and
the DuckDB script of the tables."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pipeline.artifacts.datapackage import write_datapackage
from pipeline.artifacts.duckdb_schema import write_schema_sql


def build_datapackage(
    *,
    artifacts: Sequence[Path],
    raw: Sequence[Path],
    datapackage: Path,
    schema: Path,
    config: str,
    editions: Sequence[str],
) -> None:
    """schema.sql (every Parquet artifact as a DuckDB view with its column comments), then
    datapackage.json: every artifact and schema.sql (checked against their seals), the
    upstream sources and their terms, the effective config (JSON, less where inputs were
    read from), the enabled editions oldest first."""
    artifacts = [Path(path) for path in artifacts]
    tables = [path for path in artifacts if path.suffix == ".parquet"]
    write_schema_sql(tables, Path(datapackage).parent, Path(schema))
    write_datapackage([*artifacts, schema], raw, json.loads(config), datapackage, editions)
