"""The manifest: what every published artifact is, so a download can be trusted and read.

`manifest.json` sits beside the artifacts and lists each one (path relative to the
manifest, sha256, bytes, rows, schema with a description of every column), the sha256
of each raw input, the effective config and the package version. It holds no times and
no machine paths, so two clean runs of the same inputs give the same manifest.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

import pipeline
from pipeline.errors import InputError, PipelineError
from pipeline.files import sha256_file, write_text_atomic
from pipeline.parquet import field_descriptions

log = logging.getLogger(__name__)

MANIFEST_FORMAT = 1
# Settings that say where inputs were read from, not what they are.
LOCATION_KEYS = ("mirror",)


def _parquet_entry(path: Path) -> dict[str, Any]:
    schema = pq.read_schema(path)
    descriptions = field_descriptions(schema)
    return {
        "format": "parquet",
        "rows": pq.read_metadata(path).num_rows,
        "schema": [
            {
                "name": field.name,
                "type": str(field.type),
                "nullable": field.nullable,
                "description": descriptions[field.name],
            }
            for field in schema
        ],
    }


def _chunk_index_entries(index_path: Path) -> dict[str, dict[str, Any]]:
    """Entries for a pattern index and its chunks, from the index (no decompression)."""
    document = json.loads(index_path.read_text())
    entries = {
        index_path.name: {
            "format": "json",
            "rows": len(document["chunks"]),
            "schema": "pattern chunk index: one entry per chunk file",
        }
    }
    for chunk in document["chunks"]:
        entries[chunk["file"]] = {
            "format": "npy.zst",
            "rows": chunk["shape"][0],
            "schema": {
                "dtype": chunk["dtype"],
                "shape": chunk["shape"],
                "rows": f"guesses {chunk['row_start']}-{chunk['row_stop'] - 1} (word_id)",
                "columns": document["columns"],
                "values": "feedback pattern id: sum of c_i * 3^i, c = 0 grey, 1 yellow, 2 green",
            },
        }
    return entries


def describe_artifact(path: Path) -> dict[str, Any]:
    if path.suffix == ".parquet":
        return _parquet_entry(path)
    if path.suffix == ".json":
        return {"format": "json", "rows": None, "schema": None}
    return {"format": path.suffix.lstrip("."), "rows": None, "schema": None}


def build_manifest(
    artifacts: Sequence[str | Path],
    provenance_files: Sequence[str | Path],
    config: Mapping[str, Any],
    root: str | Path,
) -> dict[str, Any]:
    """The manifest document for `artifacts` (paths under `root`, where it will be written)."""
    root = Path(root)
    entries: dict[str, dict[str, Any]] = {}
    for artifact in map(Path, artifacts):
        if artifact.name == "index.json" and artifact.parent.name.startswith("patterns"):
            extra = _chunk_index_entries(artifact)
            for name, entry in extra.items():
                entries[(artifact.parent / name).relative_to(root).as_posix()] = entry
    for artifact in map(Path, artifacts):
        relative = artifact.relative_to(root).as_posix()
        if relative not in entries:
            entries[relative] = describe_artifact(artifact)
    for relative, entry in entries.items():
        path = root / relative
        if not path.is_file():
            raise PipelineError(f"{path}: artifact listed for the manifest is missing")
        entry["bytes"] = path.stat().st_size
        entry["sha256"] = sha256_file(path)
    raw_inputs = {}
    for provenance in map(Path, provenance_files):
        record = json.loads(provenance.read_text())
        raw_inputs[record["source"]] = {
            "origin": record["origin"],
            "sha256": record["sha256"],
            "bytes": record["bytes"],
        }
    effective = {key: value for key, value in config.items() if key not in LOCATION_KEYS}
    return {
        "format": MANIFEST_FORMAT,
        "package_version": pipeline.__version__,
        "config": effective,
        "raw_inputs": raw_inputs,
        "artifacts": dict(sorted(entries.items())),
    }


def write_manifest(
    artifacts: Sequence[str | Path],
    provenance_files: Sequence[str | Path],
    config: Mapping[str, Any],
    output: str | Path,
) -> None:
    output = Path(output)
    document = build_manifest(artifacts, provenance_files, config, output.parent)
    write_text_atomic(output, json.dumps(document, indent=2, sort_keys=True) + "\n")
    total = sum(entry["bytes"] for entry in document["artifacts"].values())
    log.info("manifest: %d artifacts, %d bytes", len(document["artifacts"]), total)


def verify_manifest(
    manifest: str | Path, directory: str | Path | None = None, *, remove_damaged: bool = False
) -> list[str]:
    """Problems found checking a folder of artifacts against its manifest ([] = all good).

    With `remove_damaged`, altered files are deleted (with the manifest), so that the next
    `snakemake` run rebuilds exactly them and what depends on them.
    """
    manifest = Path(manifest)
    try:
        document = json.loads(manifest.read_text())
        artifacts = document["artifacts"]
    except FileNotFoundError:
        raise PipelineError(f"{manifest}: manifest is missing") from None
    except (ValueError, KeyError, TypeError) as error:
        raise InputError(manifest, f"is not a manifest ({error})") from None
    root = Path(directory) if directory is not None else manifest.parent
    problems = []
    for relative, entry in sorted(artifacts.items()):
        path = root / relative
        if not path.is_file():
            problems.append(f"{path}: missing")
        elif path.stat().st_size != entry["bytes"]:
            problems.append(
                f"{path}: altered ({path.stat().st_size} bytes, manifest says {entry['bytes']})"
            )
        elif sha256_file(path) != entry["sha256"]:
            problems.append(f"{path}: altered (sha256 differs from the manifest)")
        else:
            continue
        if remove_damaged:
            path.unlink(missing_ok=True)
    if problems and remove_damaged:
        manifest.unlink()
        log.info("removed the damaged files and %s: rerun snakemake to rebuild them", manifest)
    return problems
