"""Kaggle datasets through kagglehub, within the download deadline, and their zip archives.

kagglehub returns a file, a folder, or an archive. Nothing is extracted to disk: an
archive member is read in memory, only a member whose path stays inside the archive is
accepted, and a damaged archive (bad CRC, corrupt deflate data, a broken central
directory) is a PipelineError naming the archive and the member.
"""

from __future__ import annotations

import threading
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from pipeline.core.errors import PipelineError
from pipeline.sources.spec import OFFLINE_HINT

_ARCHIVE_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError)
_ZIP_MAGIC = b"PK\x03\x04"  # a zip archive's first local file header
_DELETE_HINT = "Delete the archive (kagglehub's cached copy) and fetch again"


def read_kaggle(name: str, dataset: str, file: str, *, deadline: float) -> tuple[bytes, str]:
    """Download one file of a public Kaggle dataset through kagglehub (cached by it): its
    bytes and the name of what was read (see kaggle_file_bytes)."""

    def download() -> Path:
        import kagglehub

        return Path(kagglehub.dataset_download(dataset, path=file))

    try:
        returned = _within_deadline(download, deadline)
    except TimeoutError:
        raise PipelineError(
            f"source {name!r}: downloading file {file!r} of Kaggle dataset {dataset!r} took "
            f"longer than the deadline of {deadline:g} s (download.deadline); nothing was "
            f"written. {OFFLINE_HINT}"
        ) from None
    except Exception as exc:  # kagglehub raises many types; all mean "could not get it"
        message = " ".join(f"{type(exc).__name__}: {exc}".split())  # one line
        raise PipelineError(
            f"source {name!r}: could not download file {file!r} of Kaggle dataset "
            f"{dataset!r}: {message}. {OFFLINE_HINT}"
        ) from exc
    return kaggle_file_bytes(name, returned, file)


def _within_deadline(run: Callable[[], Path], seconds: float) -> Path:
    """run() in a daemon thread, waiting at most `seconds`: kagglehub takes no deadline,
    and a call still running at process exit cannot delay it. TimeoutError if late."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = run()
        except BaseException as exc:  # handed to the caller's thread
            outcome["error"] = exc

    worker = threading.Thread(target=target, name="kaggle-download", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise TimeoutError
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def kaggle_file_bytes(name: str, returned: Path, file: str) -> tuple[bytes, str]:
    """The bytes of `file` from what kagglehub returned (the file, a folder, or an archive)
    and the name of what was read, for messages: the file, or `archive (member)`."""
    path = returned / file if returned.is_dir() else returned
    if not path.resolve().is_relative_to(returned.resolve()):
        raise PipelineError(f"source {name!r}: file {file!r} lies outside {returned}")
    if not path.is_file():
        raise PipelineError(f"source {name!r}: kagglehub returned no file {file!r} ({path})")
    try:
        with open(path, "rb") as handle:
            if file.endswith(".zip") or not zipfile.is_zipfile(handle):
                handle.seek(0)
                data = handle.read()
                if data.startswith(_ZIP_MAGIC) and not file.endswith(".zip"):
                    raise PipelineError(
                        f"source {name!r}: archive {path} is damaged: it has no central "
                        f"directory (truncated?). {_DELETE_HINT}"
                    )
                return data, str(path)
            wanted = PurePosixPath(file).name
            return read_archive_member(name, handle, str(path), wanted), f"{path} ({wanted})"
    except OSError as exc:
        raise PipelineError(f"source {name!r}: cannot read {path}: {exc}") from None


def read_archive_member(name: str, archive: BinaryIO, shown: str, wanted: str) -> bytes:
    """The bytes of the member called `wanted` (in any folder) of a zip archive.

    Only a member whose path stays inside the archive (no absolute path, no `..`) is
    accepted, so a hostile archive cannot point outside its folder. A damaged archive is
    a PipelineError naming `shown` (the archive) and the member, never a zipfile or zlib
    exception.
    """
    member = None
    try:
        with zipfile.ZipFile(archive) as zipped:
            for member in zipped.namelist():
                member_path = PurePosixPath(member)
                if member_path.name != wanted:
                    continue
                if member_path.is_absolute() or ".." in member_path.parts:
                    raise PipelineError(
                        f"source {name!r}: archive {shown} holds {member!r}, a path outside "
                        "the archive; refused"
                    )
                return zipped.read(member)
    except _ARCHIVE_ERRORS as exc:
        what = f"member {member!r} of archive {shown}" if member else f"archive {shown}"
        reason = f"corrupt compressed data ({exc})" if isinstance(exc, zlib.error) else exc
        raise PipelineError(
            f"source {name!r}: {what} is damaged: {reason}. {_DELETE_HINT}"
        ) from None
    except RuntimeError as exc:  # an encrypted member
        raise PipelineError(f"source {name!r}: member {member!r} of {shown}: {exc}") from None
    raise PipelineError(f"source {name!r}: archive {shown} has no member {wanted!r}")
