"""Atomic file writing and hashing, so a crash never leaves a plausible partial file."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

_HASH_BLOCK = 1 << 20
# (path, size, mtime_ns, inode) -> sha256: a process hashes an unchanged file once.
_HASHES: dict[tuple[str, int, int, int], str] = {}


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside `path`; rename it onto `path` only if the block succeeds.

    Only one job ever writes a given path, so temporary files of that path left by a
    killed writer are removed first.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f".{target.name}.*.tmp"):
        stale.unlink(missing_ok=True)  # left by a writer that was killed
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file and a rename."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write UTF-8 `text` to `path` through a temporary file and a rename."""
    write_bytes_atomic(path, text.encode("utf-8"))


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file, read in blocks; remembered while the file is unchanged."""
    stat = os.stat(path)
    key = (os.path.abspath(path), stat.st_size, stat.st_mtime_ns, stat.st_ino)
    known = _HASHES.get(key)
    if known is None:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            while block := handle.read(_HASH_BLOCK):
                digest.update(block)
        known = _HASHES[key] = digest.hexdigest()
    return known
