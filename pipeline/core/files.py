"""Atomic file writing and hashing, so a crash never leaves a plausible partial file."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pipeline.core.errors import PipelineError

_HASH_BLOCK = 1 << 20
# What to do when a file cannot be written, by errno. Only a write fails with one of
# _WRITE_ONLY, so wherever it arises in a writer's block (which may also read) it is the
# target's; the others are the target's only in atomic_path's own steps (its folder, the
# temporary file, the rename). Any other OSError is none the user can fix: it stays one.
_NOT_WRITABLE = "make its folder writable, or run in a writable copy of the checkout"
_WHAT_TO_DO = {
    errno.ENOSPC: "free space on its disk",
    errno.EDQUOT: "free space or ask for a larger disk quota",
    errno.EFBIG: "raise the file size limit (ulimit -f) or use a filesystem that takes "
    "larger files",
    errno.EROFS: _NOT_WRITABLE,
    errno.EACCES: _NOT_WRITABLE,
    errno.EPERM: _NOT_WRITABLE,
}
_WRITE_ONLY = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS)
# (path, size, mtime_ns, inode) -> sha256: a process hashes an unchanged file once.
_HASHES: dict[tuple[str, int, int, int], str] = {}


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside `path`; rename it onto `path` only if the block succeeds.

    Only one job ever writes a given path, so temporary files of that path left by a
    killed writer are removed first. A full disk, a file size limit or a folder that
    cannot be written is a WriteError naming `path` and what to do; `path` keeps what
    it held.
    """
    target = Path(path)
    with _writing(target):
        target.parent.mkdir(parents=True, exist_ok=True)
        for stale in target.parent.glob(f".{target.name}.*.tmp"):
            stale.unlink(missing_ok=True)  # left by a writer that was killed
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
    tmp = Path(tmp_name)
    try:
        try:
            yield tmp
        except OSError as error:
            if error.errno not in _WRITE_ONLY:
                raise
            raise _cannot_write(target, error) from error
        with _writing(target):
            with open(tmp, "rb") as handle:
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
    finally:
        with contextlib.suppress(OSError):  # the next writer of `path` removes it
            tmp.unlink(missing_ok=True)


class WriteError(PipelineError, OSError):
    """A file that cannot be written for a reason its user can fix (a full disk, a file
    size limit, a folder that cannot be written): one line naming it, why, and what to do.
    Also an OSError, as before, for the callers that catch those."""


def _cannot_write(target: Path, error: OSError) -> WriteError:
    """One line for a file that cannot be written: which file, why, and what to do (the
    job ends with it; nothing is left under the file's name)."""
    why, todo = os.strerror(error.errno), _WHAT_TO_DO[error.errno]
    return WriteError(
        f"{target}: cannot be written ({why}); {todo}, then run the same command again"
    )


@contextlib.contextmanager
def _writing(target: Path) -> Iterator[None]:
    """atomic_path's own steps: an OSError of _WHAT_TO_DO is `target`'s, as one line."""
    try:
        yield
    except OSError as error:
        if error.errno not in _WHAT_TO_DO:
            raise
        raise _cannot_write(target, error) from error


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
