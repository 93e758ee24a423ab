"""Fetch the raw inputs (word lists, word frequencies) described by config entries.

A source is a plain dict from the config, never code, so a user can point the pipeline
at other data without editing Python. Three kinds exist:

- ``url``: ``url`` (https only), optional ``sha256`` and ``mirror_path``;
- ``kaggle``: ``dataset`` (a kagglehub handle) and ``file``, optional ``sha256`` and
  ``mirror_path``;
- ``local``: ``path`` to a user's own file, optional ``sha256``.

A mirror folder holding byte-identical copies replaces the network for ``url`` and
``kaggle`` sources, so the pipeline runs on machines without internet access. Every
fetch writes a provenance JSON next to the data saying what was read and from where.
"""

from __future__ import annotations

import json
import os
import re
import time
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from pipeline.errors import PipelineError
from pipeline.files import sha256_bytes, sha256_file, write_bytes_atomic, write_text_atomic

MIRROR_ENV = "WORDLE_MIRROR"
"""Environment variable naming the mirror folder; it overrides the config key ``mirror``."""

KINDS = ("url", "kaggle", "local")

_REQUIRED_KEYS: dict[str, tuple[str, ...]] = {
    "url": ("url",),
    "kaggle": ("dataset", "file"),
    "local": ("path",),
}
_SHA256_RE = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1 << 16
# Longest wait for a TCP connection: an unreachable host should fail fast even when
# the read timeout is generous for a slow but working server.
_MAX_CONNECT_TIMEOUT = 10.0
_RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})

OFFLINE_HINT = (
    "To work offline, point the pipeline at a mirror folder holding copies of the raw "
    "files: set the config key `mirror` (for example `--config mirror=../shared/wordle-data`) "
    f"or the environment variable {MIRROR_ENV}."
)


def resolve_mirror(configured: str | None) -> Path | None:
    """Return the mirror folder to use: the environment wins so one run can redirect it."""
    from_env = os.environ.get(MIRROR_ENV, "").strip()
    chosen = from_env or (configured or "").strip()
    return Path(chosen).expanduser() if chosen else None


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
            raise PipelineError(f"source {name!r} (kind {kind}): missing or empty key {key!r}")
        clean[key] = value.strip()

    pinned = spec.get("sha256")
    if pinned is None or (isinstance(pinned, str) and not pinned.strip()):
        clean["sha256"] = None
    elif not isinstance(pinned, str) or not _SHA256_RE.fullmatch(pinned.strip().lower()):
        raise PipelineError(
            f"source {name!r}: sha256 must be 64 hex digits or empty, got {pinned!r}"
        )
    else:
        clean["sha256"] = pinned.strip().lower()

    mirror_path = spec.get("mirror_path")
    if mirror_path is None or (isinstance(mirror_path, str) and not mirror_path.strip()):
        clean["mirror_path"] = None
    elif not isinstance(mirror_path, str):
        raise PipelineError(f"source {name!r}: mirror_path must be a string, got {mirror_path!r}")
    else:
        rel = PurePosixPath(mirror_path.strip())
        if rel.is_absolute() or ".." in rel.parts:
            raise PipelineError(
                f"source {name!r}: mirror_path must be relative to the mirror folder "
                f"without '..', got {mirror_path!r}"
            )
        clean["mirror_path"] = rel.as_posix()

    if kind == "url":
        _require_https(name, clean["url"])
    return clean


def source_fingerprint(spec: Mapping[str, Any], mirror: Path | None) -> str:
    """A cheap string that changes exactly when the bytes that would be read change.

    Used as a Snakemake param: touching a file leaves it alone, editing bytes changes it,
    and moving the mirror folder does not (only the path inside the mirror counts).
    A pinned sha256 names the bytes wherever they come from, so switching between the
    network and a mirror that holds the same bytes changes nothing; a local or mirror
    file that differs from its pin changes the fingerprint, so the fetch reruns and
    reports the mismatch.
    """
    src = validate_source(str(spec.get("name", "<source>")), spec)
    pinned = src["sha256"]
    kind = src["kind"]
    if kind == "local":
        path, where = Path(src["path"]), f"local:{src['path']}"
    elif mirror is not None:
        rel = src["mirror_path"]
        if rel is None:
            return f"missing:mirror_path:{kind}"
        path, where = mirror / rel, f"mirror:{kind}:{rel}"
    else:
        path, where = None, f"network:{_origin(src)}"
    if path is not None and not path.is_file():
        return f"missing:{src['path']}" if kind == "local" else f"missing:mirror:{rel}"
    actual = None if path is None else sha256_file(path)
    if pinned is not None and actual in (None, pinned):
        return f"pinned:sha256={pinned}"
    if pinned is not None:
        return f"{where}:sha256={actual}:pinned={pinned}"
    if actual is None:
        return f"{where}:pinned=-"
    return f"{where}:sha256={actual}:pinned=-"


def fetch_source(
    name: str,
    spec: Mapping[str, Any],
    dest: Path,
    provenance: Path,
    *,
    mirror: Path | None,
    timeout: float = 60,
    retries: int = 3,
    backoff: float = 1.0,
    sleep: Callable[[float], None] = time.sleep,
    expected_fingerprint: str | None = None,
) -> None:
    """Read one source, verify a pinned sha256, then write `dest` and its provenance JSON.

    Nothing is written unless the bytes were read completely and (when pinned) verified.
    `expected_fingerprint`, when given, is `source_fingerprint` as Snakemake saw it when it
    planned the job: a local or mirror file that changed since then is refused, so the
    recorded fingerprint always describes the bytes written.
    `retries` is the number of extra network attempts after the first; attempt n waits
    `backoff * 2**(n-1)` seconds first (`sleep` is injectable so tests need not wait).
    """
    src = validate_source(name, spec)
    kind = src["kind"]
    mirror_path: str | None = None
    if kind == "local":
        data, where, read_from = _read_local(name, Path(src["path"])), src["path"], "local"
    elif mirror is not None:
        mirror_path = src["mirror_path"]
        data = _read_mirror(name, src, mirror)
        where, read_from = f"mirror {mirror} ({mirror_path})", "mirror"
    elif kind == "url":
        data = _download(
            name,
            src["url"],
            timeout=timeout,
            retries=retries,
            backoff=backoff,
            sleep=sleep,
        )
        where, read_from = src["url"], "network"
    else:
        data = _read_kaggle(name, src["dataset"], src["file"])
        where, read_from = f"Kaggle dataset {src['dataset']} file {src['file']}", "network"

    if expected_fingerprint is not None:
        now = source_fingerprint(src, mirror)
        if now != expected_fingerprint:
            raise PipelineError(
                f"source {name!r} changed while the workflow ran ({expected_fingerprint} "
                f"became {now}); run the workflow again"
            )
    actual = sha256_bytes(data)
    pinned = src["sha256"]
    if pinned is not None and actual != pinned:
        raise PipelineError(
            f"source {name!r}: sha256 mismatch for data read from {where}: "
            f"expected {pinned}, got {actual} ({len(data)} bytes); nothing was written"
        )

    record = {
        "source": name,
        "kind": kind,
        "origin": _origin(src),
        "read_from": read_from,
        "mirror_path": mirror_path,
        "sha256": actual,
        "bytes": len(data),
        "pinned_sha256": pinned,
        "verified": pinned is not None,
    }
    write_bytes_atomic(dest, data)
    write_text_atomic(provenance, json.dumps(record, sort_keys=True, indent=2) + "\n")


def _origin(src: Mapping[str, Any]) -> str:
    """Where a source lives upstream, as one string (no mirror location in it)."""
    if src["kind"] == "url":
        return src["url"]
    if src["kind"] == "kaggle":
        return f"kaggle:{src['dataset']}/{src['file']}"
    return src["path"]


def _require_https(name: str, url: str) -> None:
    """Refuse anything but https, so downloads are authenticated even when not pinned."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "https" or not parts.netloc:
        raise PipelineError(
            f"source {name!r}: refusing URL {url!r}; only https:// URLs are allowed"
        )


def _read_local(name: str, path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise PipelineError(f"source {name!r}: local file {path} does not exist") from None
    except OSError as exc:
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
    path = mirror / rel
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise PipelineError(
            f"source {name!r}: file {rel!r} not found in mirror folder {mirror}"
        ) from None
    except OSError as exc:
        raise PipelineError(
            f"source {name!r}: cannot read {rel!r} in mirror folder {mirror}: {exc}"
        ) from None


def _read_kaggle(name: str, dataset: str, file: str) -> bytes:
    """Download one file of a public Kaggle dataset through kagglehub (cached by it)."""
    try:
        import kagglehub

        returned = Path(kagglehub.dataset_download(dataset, path=file))
    except Exception as exc:  # kagglehub raises many types; all mean "could not get it"
        raise PipelineError(
            f"source {name!r}: could not download file {file!r} of Kaggle dataset "
            f"{dataset!r}: {type(exc).__name__}: {exc}. {OFFLINE_HINT}"
        ) from exc
    return _kaggle_file_bytes(name, returned, file)


def _kaggle_file_bytes(name: str, returned: Path, file: str) -> bytes:
    """The bytes of `file` from what kagglehub returned: the file, a folder, or an archive.

    Nothing is extracted to disk: an archive member is read in memory, and only a member
    whose path stays inside the archive (no absolute path, no `..`) is accepted, so a
    hostile archive cannot write or read outside its folder.
    """
    path = returned / file if returned.is_dir() else returned
    if not path.resolve().is_relative_to(returned.resolve()):
        raise PipelineError(f"source {name!r}: file {file!r} lies outside {returned}")
    if not path.is_file():
        raise PipelineError(f"source {name!r}: kagglehub returned no file {file!r} ({path})")
    if not zipfile.is_zipfile(path) or file.endswith(".zip"):
        return path.read_bytes()
    wanted = PurePosixPath(file).name
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            member_path = PurePosixPath(member)
            if member_path.name != wanted:
                continue
            if member_path.is_absolute() or ".." in member_path.parts:
                raise PipelineError(
                    f"source {name!r}: archive {path} holds {member!r}, a path outside the "
                    "archive; refused"
                )
            return archive.read(member)
    raise PipelineError(f"source {name!r}: archive {path} has no member {wanted!r}")


class _Retryable(Exception):
    """A failure worth another attempt (connection trouble, timeout, 5xx, truncation)."""


def _download(
    name: str,
    url: str,
    *,
    timeout: float,
    retries: int,
    backoff: float,
    sleep: Callable[[float], None],
) -> bytes:
    """GET `url` into memory with bounded, exponentially spaced retries."""
    import requests

    _require_https(name, url)
    attempts = max(0, retries) + 1
    limits = (min(timeout, _MAX_CONNECT_TIMEOUT), timeout)
    last = ""
    for attempt in range(1, attempts + 1):
        if attempt > 1:
            sleep(backoff * 2 ** (attempt - 2))
        try:
            return _get_once(requests, name, url, limits)
        except _Retryable as exc:
            last = str(exc)
    raise PipelineError(
        f"source {name!r}: could not download {url} after {attempts} attempt(s); last error: "
        f"{last}. The network may be unreachable (no mirror is set). {OFFLINE_HINT}"
    )


def _get_once(requests: Any, name: str, url: str, limits: tuple[float, float]) -> bytes:
    """One download attempt: raise _Retryable for transient faults, PipelineError otherwise."""
    try:
        with (
            requests.Session() as session,
            session.get(url, timeout=limits, stream=True) as response,
        ):
            for hop in [*response.history, response]:
                if urlsplit(hop.url).scheme.lower() != "https":
                    raise PipelineError(
                        f"source {name!r}: {url} redirected to non-https {hop.url}; refused"
                    )
            if response.status_code in _RETRY_STATUS:
                raise _Retryable(f"HTTP {response.status_code} {response.reason}")
            if response.status_code != 200:
                raise PipelineError(
                    f"source {name!r}: download of {url} failed with HTTP "
                    f"{response.status_code} {response.reason}"
                )
            return b"".join(response.iter_content(chunk_size=_CHUNK))
    except requests.exceptions.SSLError as exc:
        raise PipelineError(
            f"source {name!r}: TLS verification failed for {url}: {exc}. {OFFLINE_HINT}"
        ) from exc
    except (
        requests.exceptions.ConnectionError,
        requests.exceptions.Timeout,
        requests.exceptions.ChunkedEncodingError,
        requests.exceptions.ContentDecodingError,
    ) as exc:
        raise _Retryable(f"{type(exc).__name__}: {exc}") from exc
    except requests.exceptions.RequestException as exc:
        raise PipelineError(f"source {name!r}: cannot download {url}: {exc}") from exc
