"""Stage of rule build_datapackage: the Data Package descriptor of every artifact, the
DuckDB script of the tables and the dataset card."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pipeline
from pipeline.artifacts.croissant import write_croissant
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
    croissant: Sequence[Path],
    config: str,
    editions: Sequence[str],
) -> None:
    """schema.sql (every Parquet artifact as a DuckDB view with its column comments),
    README.md (the dataset card) and each edition's croissant.json, then
    datapackage.json: every artifact and those (checked against their seals), the
    upstream sources and their terms, the effective config (JSON, less where inputs were
    read from), the enabled editions oldest first."""
    artifacts = [Path(path) for path in artifacts]
    tables = [path for path in artifacts if path.suffix == ".parquet"]
    root = Path(datapackage).parent
    settings = json.loads(config)
    write_schema_sql(tables, root, Path(schema))
    write_dataset_card(
        tables, root, Path(card), description=DESCRIPTION, sources=source_entries(raw),
        version=pipeline.__version__,
    )  # fmt: skip
    for output in croissant:
        edition = output.parent.name
        entry = settings["editions"][edition]
        shared = f"shared/{entry['allowed']}/commonness.parquet"
        mine = [t for t in tables if t.parent == output.parent or t.as_posix().endswith(shared)]
        meta = {
            "name": f"wordle-strategy-data-{edition}",
            "description": f"{DESCRIPTION} This edition: {entry.get('title') or edition}.",
            "version": pipeline.__version__,
            "citeAs": f"wordle-pipeline {pipeline.__version__}, edition {edition}",
        }
        write_croissant(mine, Path(output), meta)
    published = [*artifacts, schema, card, *croissant]
    write_datapackage(published, raw, settings, datapackage, editions)
