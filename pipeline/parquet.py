"""Deterministic Parquet writing with provenance metadata (inputs' sha256 and config)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import pipeline
from pipeline.files import atomic_path, sha256_file

METADATA_PREFIX = "wordle_pipeline."
ROW_GROUP_SIZE = 1 << 20


def described(
    name: str, type_: pa.DataType, description: str, *, nullable: bool = False
) -> pa.Field:
    """A schema field carrying its one-line description, which the manifest publishes."""
    return pa.field(name, type_, nullable=nullable, metadata={"description": description})


def field_descriptions(schema: pa.Schema) -> dict[str, str]:
    """Column name -> description, for fields made with `described` (others: empty)."""
    return {
        field.name: (field.metadata or {}).get(b"description", b"").decode() for field in schema
    }


def provenance_metadata(
    inputs: Mapping[str, str | Path], config: Mapping[str, Any]
) -> dict[bytes, bytes]:
    """Key-value metadata naming each input's sha256, the stage's config and the package version.

    `inputs` maps a role (for example "allowed") to a file; only content hashes are recorded,
    never paths or times, so the same inputs always give the same bytes.
    """
    hashes = {role: sha256_file(path) for role, path in sorted(inputs.items())}
    return {
        f"{METADATA_PREFIX}inputs_sha256".encode(): json.dumps(hashes, sort_keys=True).encode(),
        f"{METADATA_PREFIX}config".encode(): json.dumps(config, sort_keys=True).encode(),
        f"{METADATA_PREFIX}version".encode(): pipeline.__version__.encode(),
    }


def write_parquet(
    table: pa.Table,
    path: str | Path,
    *,
    inputs: Mapping[str, str | Path],
    config: Mapping[str, Any],
    row_group_size: int = ROW_GROUP_SIZE,
) -> None:
    """Write `table` atomically as zstd Parquet with provenance metadata."""
    metadata = dict(table.schema.metadata or {})
    metadata.update(provenance_metadata(inputs, config))
    table = table.replace_schema_metadata(metadata)
    with atomic_path(path) as tmp:
        pq.write_table(
            table,
            tmp,
            compression="zstd",
            compression_level=9,
            row_group_size=row_group_size,
            write_statistics=True,
        )


def read_provenance(path: str | Path) -> dict[str, Any]:
    """Return the provenance metadata of a Parquet file written by `write_parquet`."""
    metadata = pq.read_schema(path).metadata or {}
    result: dict[str, Any] = {}
    for key, value in metadata.items():
        name = key.decode()
        if name.startswith(METADATA_PREFIX):
            short = name.removeprefix(METADATA_PREFIX)
            result[short] = value.decode() if short == "version" else json.loads(value)
    return result
