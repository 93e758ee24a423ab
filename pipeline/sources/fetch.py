"""Fetch the raw inputs (word lists, word frequencies) described by config entries.

A source (see pipeline.sources.spec) is read from the user's local file, else from a
mirror folder holding byte-identical copies (so the pipeline runs without internet
access), else from the network (pipeline.sources.download, pipeline.sources.kaggle).
The mirror is only looked in first: a missing mirror folder or file is one warning, and
the real source is fetched instead.
Nothing is returned unless the bytes were read completely, matched a pinned sha256, and
passed the caller's content check, which is given the file the user knows (their local
file, the mirror file or the URL) so its errors name that file.
"""

from __future__ import annotations

import logging
import stat
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

__all__ = ["MIRROR_ENV", "Check", "Warn", "read_source", "resolve_mirror", "validate_source"]

log = logging.getLogger(__name__)

Check = Callable[[bytes, str], object]
"""Checks a source's bytes, given the name of the file they were read from; raises an
InputError naming that file and line (for example
pipeline.analysis.words.word_lists.parse_word_list)."""

Warn = Callable[[str], None]
"""Shows a one-line warning (a mirror without the source's copy) to the user."""


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
    warn: Warn = log.warning,
) -> tuple[bytes, dict[str, Any]]:
    """Read one source, verify a pinned sha256, then its content: (bytes, provenance).

    `timeout` bounds each wait for a connection or data, `retries` counts extra network
    attempts, `deadline` bounds the whole network read (see pipeline.sources.download).
    `warn` is given the one line saying the mirror had no copy and the network is used.
    """
    src = validate_source(name, spec)
    network = {"timeout": timeout, "retries": retries, "backoff": backoff, "sleep": sleep}
    read = _read(name, src, mirror, deadline=deadline, warn=warn, **network)
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
    name: str,
    src: Mapping[str, Any],
    mirror: Path | None,
    *,
    deadline: float,
    warn: Warn,
    **network: Any,
) -> _Read:
    """The bytes of a source: the local file, else the mirror copy, else the network."""
    kind = src["kind"]
    if kind == "local":
        path = src["path"]
        return _Read(_read_local(name, Path(path)), path, path, "local")
    if mirror is not None:
        copy = _read_mirror(name, src, mirror, warn)
        if copy is not None:
            return copy
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


def _read_mirror(name: str, src: Mapping[str, Any], mirror: Path, warn: Warn) -> _Read | None:
    """The mirror's copy of a source, or None after one warning when the mirror has none.

    The mirror is looked in first, as pip looks in --find-links: a missing folder or file
    means the real source is fetched. A mirror that is not a folder, or a copy that cannot
    be read, is an error: that is a mistake to fix, not a copy to do without.
    """
    instead = f"fetching {_upstream(src)} instead"
    try:
        is_folder = stat.S_ISDIR(mirror.stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        warn(f"source {name!r}: mirror folder {mirror} does not exist; {instead}")
        return None
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise PipelineError(f"source {name!r}: cannot open mirror folder {mirror}: {exc}") from None
    if not is_folder:
        raise PipelineError(
            f"source {name!r}: mirror {mirror} is not a folder (check the config key "
            f"`mirror` and the environment variable {MIRROR_ENV})"
        )
    rel = src["mirror_path"]
    if rel is None:
        warn(f"source {name!r}: no mirror_path names its file in mirror folder {mirror}; {instead}")
        return None
    path = mirror / rel
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        warn(f"source {name!r}: {rel!r} not found in mirror folder {mirror}; {instead}")
        return None
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise PipelineError(f"source {name!r}: cannot read mirror file {path}: {exc}") from None
    return _Read(data, f"mirror file {path}", str(path), "mirror", rel)


def _upstream(src: Mapping[str, Any]) -> str:
    """The real source of a url or kaggle entry, as a warning names it."""
    if src["kind"] == "url":
        return src["url"]
    return f"file {src['file']!r} of Kaggle dataset {src['dataset']!r}"
