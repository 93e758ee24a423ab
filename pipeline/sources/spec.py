"""Source entries of the config: their kinds, their checks, and the mirror folder.

A source is a plain dict from the config, never code, so a user can point the pipeline
at other data without editing Python. Three kinds exist:

- ``url``: ``url`` (https only), optional ``sha256`` and ``mirror_path``;
- ``kaggle``: ``dataset`` (a kagglehub handle) and ``file``, optional ``sha256`` and
  ``mirror_path``;
- ``local``: ``path`` to a user's own file, optional ``sha256``.

The config schema checks all this before any job runs; validate_source checks it again
for callers that do not go through the workflow, with the same one-line errors.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from pipeline.core.errors import PipelineError

MIRROR_ENV = "WORDLE_MIRROR"
"""Environment variable naming the mirror folder; it overrides the config key ``mirror``."""

KINDS = ("url", "kaggle", "local")

_REQUIRED_KEYS: dict[str, tuple[str, ...]] = {
    "url": ("url",),
    "kaggle": ("dataset", "file"),
    "local": ("path",),
}
_SHA256_RE = re.compile(r"[0-9a-f]{64}")

OFFLINE_HINT = (
    "To work offline, point the pipeline at a mirror folder holding copies of the raw "
    "files: set the config key `mirror` (for example `--config mirror=../shared/wordle-data`) "
    f"or the environment variable {MIRROR_ENV}."
)


def resolve_mirror(configured: str | None) -> Path | None:
    """Return the mirror folder to use: the environment wins so one run can redirect it."""
    from_env = os.environ.get(MIRROR_ENV, "").strip()
    chosen = from_env or (configured or "").strip()
    if not chosen:
        return None
    try:
        return Path(chosen).expanduser()
    except RuntimeError:  # ~user of no such user: the folder is then reported missing
        return Path(chosen)


def validate_source(name: str, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Check a source entry and return a normalised copy, so config typos fail early and clearly.

    Extra keys are kept and ignored (other stages may read e.g. a file layout key).
    """
    if not isinstance(spec, Mapping):
        raise PipelineError(
            f"source {name!r}: expected a mapping of settings, got {type(spec).__name__}"
        )
    kind = spec.get("kind")
    if kind not in _REQUIRED_KEYS:
        raise PipelineError(
            f"source {name!r}: unknown kind {kind!r}; expected one of {', '.join(KINDS)}"
        )
    clean: dict[str, Any] = dict(spec)
    for key in _REQUIRED_KEYS[kind]:
        value = spec.get(key)
        if not isinstance(value, str) or not value.strip():
            raise PipelineError(f"source {name!r}: missing or empty key {key!r} (kind {kind})")
        clean[key] = value.strip()
    clean["sha256"] = _pinned_sha256(name, spec.get("sha256"))
    clean["mirror_path"] = _mirror_path(name, spec.get("mirror_path"))
    if kind == "url":
        require_https(name, clean["url"])
    return clean


def _pinned_sha256(name: str, pinned: Any) -> str | None:
    if pinned is None or (isinstance(pinned, str) and not pinned.strip()):
        return None
    if not isinstance(pinned, str) or not _SHA256_RE.fullmatch(pinned.strip().lower()):
        raise PipelineError(
            f"source {name!r}: sha256 must be 64 hex digits or empty, got {pinned!r}"
        )
    return pinned.strip().lower()


def _mirror_path(name: str, mirror_path: Any) -> str | None:
    if mirror_path is None or (isinstance(mirror_path, str) and not mirror_path.strip()):
        return None
    if not isinstance(mirror_path, str):
        raise PipelineError(f"source {name!r}: mirror_path must be a string, got {mirror_path!r}")
    rel = PurePosixPath(mirror_path.strip())
    if rel.is_absolute() or ".." in rel.parts:
        raise PipelineError(
            f"source {name!r}: mirror_path must be relative to the mirror folder "
            f"without '..', got {mirror_path!r}"
        )
    return rel.as_posix()


def origin(src: Mapping[str, Any]) -> str:
    """Where a checked source lives upstream, as one string (no mirror location in it)."""
    if src["kind"] == "url":
        return src["url"]
    if src["kind"] == "kaggle":
        return f"kaggle:{src['dataset']}/{src['file']}"
    return src["path"]


def is_https(url: str) -> bool:
    """Whether `url` is a well-formed https URL with a host (a malformed one is not)."""
    try:
        parts = urlsplit(url)
        _ = parts.port  # a port out of range raises ValueError too
    except ValueError:
        return False
    return parts.scheme.lower() == "https" and bool(parts.hostname)


def require_https(name: str, url: str) -> None:
    """Refuse anything but https, so downloads are authenticated even when not pinned."""
    if not is_https(url):
        raise PipelineError(
            f"source {name!r}: refusing URL {url!r}; only well-formed https:// URLs are allowed"
        )
