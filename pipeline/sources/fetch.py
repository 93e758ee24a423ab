"""Fetch the raw inputs (word lists, word frequencies) described by config entries.

A source (see pipeline.sources.spec) is read from the user's local file, else from a
mirror folder holding byte-identical copies (so the pipeline runs without internet
access), else from the network (pipeline.sources.download, pipeline.sources.kaggle).
Nothing is returned unless the bytes were read completely, matched a pinned sha256, and
passed the caller's content check, which is given the file the user knows (their local
file, the mirror file or the URL) so its errors name that file.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.core.errors import PipelineError
from pipeline.core.files import sha256_bytes
from pipeline.sources.download import download
from pipeline.sources.kaggle import read_kaggle
from pipeline.sources.spec import MIRROR_ENV, origin, resolve_mirror, validate_source

__all__ = ["MIRROR_ENV", "Check", "read_source", "resolve_mirror", "validate_source"]

Check = Callable[[bytes, str], object]
"""Checks a source's bytes, given the name of the file they were read from; raises an
InputError naming that file and line (for example pipeline.analysis.word_lists.parse_word_list)."""


@dataclass(frozen=True)
class _Read:
    """Bytes of a source and where they came from."""

    data: bytes
    where: str  # for messages about the whole read
    shown: str  # what a user can open: the local path, the mirror file, the URL or archive
    read_from: str  # local, mirror or network
    mirror_path: str | None = None


def read_source(
    name: str,
    spec: Mapping[str, Any],
    *,
    mirror: Path | None,
    timeout: float,
    retries: int,
    deadline: float,
    backoff: float = 1.0,
    sleep: Callable[[float], None] = time.sleep,
    check: Check | None = None,
) -> tuple[bytes, dict[str, Any]]:
    """Read one source, verify a pinned sha256, then its content: (bytes, provenance).

    `timeout` bounds each wait for a connection or data, `retries` counts extra network
    attempts, `deadline` bounds the whole network read (see pipeline.sources.download).
    """
    src = validate_source(name, spec)
    network = {"timeout": timeout, "retries": retries, "backoff": backoff, "sleep": sleep}
    read = _read(name, src, mirror, deadline=deadline, **network)
    actual = sha256_bytes(read.data)
    pinned = src["sha256"]
    if pinned is not None and actual != pinned:
        raise PipelineError(
            f"source {name!r}: sha256 mismatch for data read from {read.where}: "
            f"expected {pinned}, got {actual} ({len(read.data)} bytes); nothing was written"
        )
    if check is not None:
        check(read.data, read.shown)
    record = {
        "source": name,
        "kind": src["kind"],
        "origin": origin(src),
        "read_from": read.read_from,
        "mirror_path": read.mirror_path,
        "sha256": actual,
        "bytes": len(read.data),
        "pinned_sha256": pinned,
        "verified": pinned is not None,
    }
    return read.data, record


def _read(
    name: str, src: Mapping[str, Any], mirror: Path | None, *, deadline: float, **network: Any
) -> _Read:
    """The bytes of a source: the local file, else the mirror copy, else the network."""
    kind = src["kind"]
    if kind == "local":
        path = src["path"]
        return _Read(_read_local(name, Path(path)), path, path, "local")
    if mirror is not None:
        rel = src["mirror_path"]
        data = _read_mirror(name, src, mirror)
        return _Read(data, f"mirror {mirror} ({rel})", str(mirror / rel), "mirror", rel)
    if kind == "url":
        data = download(name, src["url"], deadline=deadline, **network)
        return _Read(data, src["url"], src["url"], "network")
    data, shown = read_kaggle(name, src["dataset"], src["file"], deadline=deadline)
    where = f"Kaggle dataset {src['dataset']} file {src['file']}"
    return _Read(data, where, shown, "network")


def _read_local(name: str, path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise PipelineError(f"source {name!r}: local file {path} does not exist") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise PipelineError(f"source {name!r}: cannot read local file {path}: {exc}") from None


def _read_mirror(name: str, src: Mapping[str, Any], mirror: Path) -> bytes:
    rel = src["mirror_path"]
    if rel is None:
        raise PipelineError(
            f"source {name!r}: a mirror folder ({mirror}) is in use but the source has no "
            "mirror_path saying which file in it to read"
        )
    if not mirror.is_dir():
        raise PipelineError(
            f"source {name!r}: mirror folder {mirror} does not exist or is not a folder "
            f"(check the config key `mirror` and the environment variable {MIRROR_ENV})"
        )
    try:
        return (mirror / rel).read_bytes()
    except FileNotFoundError:
        raise PipelineError(
            f"source {name!r}: file {rel!r} not found in mirror folder {mirror}"
        ) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise PipelineError(
            f"source {name!r}: cannot read {rel!r} in mirror folder {mirror}: {exc}"
        ) from None
