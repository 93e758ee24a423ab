"""Sealed, deterministic Parquet: the one way every Parquet artifact is written and read.

Written with zstd, explicit Arrow types (the artifact's schema, every field described),
page checksums and provenance metadata (the inputs' sha256, the stage's settings, the
package version), atomically, then sealed. Read only after the seal checks out, with
page checksum verification, and only when the file holds the expected schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import pipeline
from pipeline.artifacts import seal
from pipeline.core.errors import ArtifactError
from pipeline.core.files import atomic_path

METADATA_PREFIX = "wordle_pipeline."
ROW_GROUP_SIZE = 1 << 20
ZSTD_LEVEL = 9


def described(
    name: str, type_: pa.DataType, description: str, *, nullable: bool = False
) -> pa.Field:
    """A schema field carrying its one-line description, which the metadata publishes."""
    return pa.field(name, type_, nullable=nullable, metadata={"description": description})


def field_descriptions(schema: pa.Schema) -> dict[str, str]:
    """Column name -> description, for fields made with `described` (others: empty)."""
    return {
        field.name: (field.metadata or {}).get(b"description", b"").decode() for field in schema
    }


def _provenance(
    inputs: Mapping[str, str | Path], settings: Mapping[str, Any]
) -> dict[bytes, bytes]:
    """Key-value metadata: each input's sha256, the settings and the package version.

    Only content hashes are recorded, never paths or times, so the same inputs always
    give the same bytes.
    """
    hashes = {role: seal.input_sha256(path) for role, path in sorted(inputs.items())}
    return {
        f"{METADATA_PREFIX}inputs_sha256".encode(): json.dumps(hashes, sort_keys=True).encode(),
        f"{METADATA_PREFIX}config".encode(): json.dumps(settings, sort_keys=True).encode(),
        f"{METADATA_PREFIX}version".encode(): pipeline.__version__.encode(),
    }


def conform(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """`table` with exactly the schema's columns, in its order and types (a safe cast)."""
    missing = [name for name in schema.names if name not in table.column_names]
    if missing:
        raise ValueError(f"table lacks the columns {missing} of its schema")
    return table.select(schema.names).cast(schema)


def write_table(
    table: pa.Table,
    path: str | Path,
    *,
    schema: pa.Schema,
    inputs: Mapping[str, str | Path],
    settings: Mapping[str, Any],
    row_group_size: int = ROW_GROUP_SIZE,
    built_from: Mapping[str, str | Path] | None = None,
) -> None:
    """Write `table` in `schema` as a sealed Parquet file.

    `inputs` are recorded in the file and its seal. `built_from` (the work files a merged
    file was made of) only in its seal: a damaged or rebuilt part makes the file stale,
    while its bytes stay the same however the work was split.
    """
    table = conform(table, schema)
    metadata = dict(table.schema.metadata or {})
    metadata.update(_provenance(inputs, settings))
    table = table.replace_schema_metadata(metadata)
    with atomic_path(path) as tmp:
        pq.write_table(
            table,
            tmp,
            compression="zstd",
            compression_level=ZSTD_LEVEL,
            row_group_size=row_group_size,
            write_statistics=True,
            write_page_checksum=True,
        )
    seal.write_seal(path, inputs={**inputs, **(built_from or {})}, settings=settings)


def write_row_groups(
    tables: Sequence[pa.Table],
    path: str | Path,
    *,
    schema: pa.Schema,
    inputs: Mapping[str, str | Path],
    settings: Mapping[str, Any],
    built_from: Mapping[str, str | Path] | None = None,
) -> None:
    """Write `tables` in order, each as one row group of its own, as a sealed Parquet file
    (so a reader filtering on what one table holds touches one row group); inputs and
    built_from as for write_table."""
    metadata = dict(schema.metadata or {})
    metadata.update(_provenance(inputs, settings))
    full = schema.with_metadata(metadata)
    with (
        atomic_path(path) as tmp,
        pq.ParquetWriter(
            tmp,
            full,
            compression="zstd",
            compression_level=ZSTD_LEVEL,
            write_statistics=True,
            write_page_checksum=True,
        ) as writer,
    ):
        for table in tables:
            writer.write_table(conform(table, schema).replace_schema_metadata(metadata))
    seal.write_seal(path, inputs={**inputs, **(built_from or {})}, settings=settings)


def open_file(path: str | Path, schema: pa.Schema) -> pq.ParquetFile:
    """A checked ParquetFile: sealed, readable, and holding `schema`'s columns and types.

    Through pq.ParquetFile: pq.read_table would import pyarrow.dataset (~0.15 s).
    """
    seal.verify(path)
    try:
        handle = pq.ParquetFile(path, page_checksum_verification=True)
        found = handle.schema_arrow
    except (OSError, pa.ArrowException) as error:
        raise ArtifactError(
            f"{path}: cannot be read as Parquet ({error}); {seal.REBUILD_HINT}"
        ) from None
    for field in schema:
        index = found.get_field_index(field.name)
        if index < 0 or not found.field(index).type.equals(field.type):
            raise ArtifactError(
                f"{path}: lacks column {field.name} ({field.type}); {seal.REBUILD_HINT}"
            )
    return handle


def read_table(
    path: str | Path,
    schema: pa.Schema,
    *,
    columns: Sequence[str] | None = None,
    row_groups: Sequence[int] | None = None,
) -> pa.Table:
    """Checked columns (default: all of the schema) of a sealed Parquet artifact."""
    handle = open_file(path, schema)
    names = list(columns) if columns is not None else schema.names
    try:
        if row_groups is None:
            return handle.read(columns=names)
        return handle.read_row_groups(list(row_groups), columns=names)
    except (OSError, pa.ArrowException) as error:
        raise ArtifactError(f"{path}: unreadable ({error}); {seal.REBUILD_HINT}") from None


def read_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance metadata of a Parquet artifact (inputs_sha256, config, version)."""
    return provenance_of(pq.read_schema(path))


def provenance_of(schema: pa.Schema) -> dict[str, Any]:
    """The provenance metadata in the schema of a table read from an artifact, so that a
    checked read does not open the file again for it."""
    metadata = schema.metadata or {}
    result: dict[str, Any] = {}
    for key, value in metadata.items():
        name = key.decode()
        if name.startswith(METADATA_PREFIX):
            short = name.removeprefix(METADATA_PREFIX)
            result[short] = value.decode() if short == "version" else json.loads(value)
    return result
