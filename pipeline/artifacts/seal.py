"""Seals: what a writer wrote and what it was built from, checked by every reader.

Beside each file `X` the writer puts `X.seal.json`: the sha256 and size of `X`, the
sha256 of every input file it was built from (paths relative to `X`'s folder, so a
moved checkout or a copied folder stays valid), the stage's settings and the package
version. A reader verifies the file against its seal before using it:

- missing or unsealed: the file is not a product of this pipeline;
- damaged: its bytes differ from the seal (a flipped bit, a truncation, a foreign file);
- stale: an input recorded in the seal exists but holds other bytes now.

An input that is absent (a downloaded bundle has no data/raw) cannot be compared and is
skipped; datapackage.json records the raw inputs' sha256 for such copies.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pipeline
from pipeline.core.errors import ArtifactError
from pipeline.core.files import sha256_file, write_text_atomic

SEAL_SUFFIX = ".seal.json"
SEAL_FORMAT = 1
REBUILD_HINT = "run snakemake again to rebuild it"


def seal_path(path: str | Path) -> Path:
    """Where the seal of `path` lives."""
    return Path(f"{path}{SEAL_SUFFIX}")


def is_seal(path: str | Path) -> bool:
    return str(path).endswith(SEAL_SUFFIX)


@dataclass(frozen=True)
class Seal:
    """The record a writer leaves beside a file."""

    sha256: str
    bytes: int
    inputs: dict[str, dict[str, str]]  # role -> {"path": relative path, "sha256": ...}
    settings: dict[str, Any]
    version: str
    extra: dict[str, Any]


@dataclass(frozen=True)
class RecordedInput:
    """An input known by the sha256 a seal recorded for it: a merged file's upstream
    inputs (upstream_inputs), which need not be at hand (with remote storage only the
    job's own inputs are)."""

    path: Path
    sha256: str

    def __fspath__(self) -> str:
        return str(self.path)


def input_sha256(source: str | Path | RecordedInput) -> str:
    """The sha256 of an input: as recorded, or read from the file."""
    return source.sha256 if isinstance(source, RecordedInput) else sha256_file(source)


def sealed_sha256(paths: Sequence[str | Path]) -> list[str]:
    """The sha256 each file's seal records (a job's identity, for its resume log; the
    job has verified each file as it read it)."""
    return [read_seal(path).sha256 for path in paths]


def write_seal(
    path: str | Path,
    *,
    inputs: Mapping[str, str | Path] | None = None,
    settings: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Seal:
    """Seal the finished file `path`: call after it was written (atomically)."""
    path = Path(path)
    folder = path.parent
    recorded = {
        role: {
            "path": Path(os.path.relpath(source, folder)).as_posix(),
            "sha256": input_sha256(source),
        }
        for role, source in sorted((inputs or {}).items())
    }
    seal = Seal(
        sha256=sha256_file(path),
        bytes=path.stat().st_size,
        inputs=recorded,
        settings=dict(settings or {}),
        version=pipeline.__version__,
        extra=dict(extra or {}),
    )
    document = {
        "format": SEAL_FORMAT,
        "file": path.name,
        "sha256": seal.sha256,
        "bytes": seal.bytes,
        "inputs": seal.inputs,
        "settings": seal.settings,
        "version": seal.version,
        **({"extra": seal.extra} if seal.extra else {}),
    }
    write_text_atomic(seal_path(path), json.dumps(document, indent=2, sort_keys=True) + "\n")
    return seal


def read_seal(path: str | Path) -> Seal:
    """The seal of `path`, or an ArtifactError when there is none or it is unreadable."""
    where = seal_path(path)
    try:
        document = json.loads(where.read_text(encoding="utf-8"))
        if document.get("format") != SEAL_FORMAT or document.get("file") != Path(path).name:
            raise ValueError("not a seal of this file")
        return Seal(
            sha256=str(document["sha256"]),
            bytes=int(document["bytes"]),
            inputs={role: dict(entry) for role, entry in document["inputs"].items()},
            settings=dict(document["settings"]),
            version=str(document["version"]),
            extra=dict(document.get("extra", {})),
        )
    except FileNotFoundError:
        raise ArtifactError(
            f"{path}: has no seal ({where.name}), so it is not a file this pipeline wrote; "
            f"{REBUILD_HINT}"
        ) from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise ArtifactError(f"{where}: damaged seal ({error}); {REBUILD_HINT}") from None


def problem(
    path: str | Path,
    *,
    check_inputs: bool = True,
    absent_inputs_are_stale: bool = False,
    intermediate: str | Path | None = None,
) -> str | None:
    """Why `path` must not be used (missing, unsealed, damaged, stale), or None.

    An input that is absent is skipped (a downloaded copy has no data/raw), unless
    `absent_inputs_are_stale`: inside a working directory it means the input was deleted
    and will be rebuilt, so what was built from it must be rebuilt too. An absent input
    under the folder `intermediate` (data/work) is skipped even then: a work file is
    built again, byte for byte, only when a job needs it again, and what was built from
    it is intact (moving that aside made a targeted run rebuild nothing it moved).
    """
    path = Path(path)
    if not path.is_file():
        return f"{path}: missing; {REBUILD_HINT}"
    try:
        seal = read_seal(path)
    except ArtifactError as error:
        return str(error)
    size = path.stat().st_size
    if size != seal.bytes or sha256_file(path) != seal.sha256:
        return (
            f"{path}: damaged or replaced (its sha256 differs from its seal "
            f"{seal_path(path).name}); {REBUILD_HINT}"
        )
    if check_inputs:
        for role, entry in seal.inputs.items():
            source = path.parent / entry["path"]
            if (
                absent_inputs_are_stale
                and not source.is_file()
                and not _inside(source, intermediate)
            ):
                return f"{path}: stale (its {role} input {source} is missing); {REBUILD_HINT}"
            if source.is_file() and sha256_file(source) != entry["sha256"]:
                return (
                    f"{path}: stale (built from another {source} than the one there now, "
                    f"its {role} input); {REBUILD_HINT}"
                )
    return None


def _inside(path: Path, folder: str | Path | None) -> bool:
    if folder is None:
        return False
    return Path(os.path.abspath(path)).is_relative_to(os.path.abspath(folder))


def verify(path: str | Path, *, check_inputs: bool = True) -> Seal:
    """The seal of `path` after checking the file against it; ArtifactError otherwise."""
    trouble = problem(path, check_inputs=check_inputs)
    if trouble is not None:
        raise ArtifactError(trouble)
    return read_seal(path)


def check_built_from(path: str | Path, role: str, source: str | Path) -> None:
    """Fail unless `path` was built from the bytes `source` holds now, as its input `role`.

    verify() checks a file's inputs where its seal says they are; this checks it against
    the file a stage is actually given (a words.parquet of another folder, say).
    """
    entry = read_seal(path).inputs.get(role)
    if entry is None or entry["sha256"] != sha256_file(source):
        raise ArtifactError(
            f"{path}: built from another {Path(source).name} than {source}; {REBUILD_HINT}"
        )


def check_same_input(path: str | Path, other: str | Path, role: str) -> None:
    """Fail unless `path` and `other` were built from the same bytes as their input `role`
    (as their seals record it; the input itself need not be at hand)."""
    mine = read_seal(path).inputs.get(role)
    theirs = read_seal(other).inputs.get(role)
    if mine is None or theirs is None or mine["sha256"] != theirs["sha256"]:
        raise ArtifactError(f"{path}: built from another {role} list than {other}; {REBUILD_HINT}")


def upstream_inputs(parts: Sequence[str | Path]) -> dict[str, RecordedInput]:
    """What the part files were built from (role -> input, as their seals record it), for
    the file merged from them.

    A merged artifact records these in its bytes, not the parts (the parts only in its
    seal): the same inputs give the same bytes however the work was split
    (`openers.parts`, `solver.openers_per_job`). Parts built from different bytes of one
    input cannot be merged.
    """
    found: dict[str, tuple[Path, str, Path]] = {}
    for part in map(Path, parts):
        for role, entry in read_seal(part).inputs.items():
            source = Path(os.path.normpath(part.parent / entry["path"]))
            if role in found and found[role][1] != entry["sha256"]:
                raise ArtifactError(
                    f"{part}: built from another {role} input than {found[role][2]}; {REBUILD_HINT}"
                )
            found.setdefault(role, (source, entry["sha256"], part))
    return {
        role: RecordedInput(source, digest) for role, (source, digest, _) in sorted(found.items())
    }


def part_inputs(parts: Sequence[str | Path]) -> dict[str, Path]:
    """The parts themselves (role part_0000, ...), for the seal of the file merged from
    them only, beside upstream_inputs: a damaged or rebuilt part makes that file stale."""
    return {f"part_{i:04d}": Path(part) for i, part in enumerate(parts)}
