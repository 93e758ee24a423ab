"""A long job's finished units, made durable, so that a job killed part-way (the memory
limit's SIGKILL, a scheduler's SIGTERM) starts again from them instead of from zero.

The log is a JSON-lines file beside the job's output (`<output>.resume.jsonl`): a first
line with the job's key, then one line per finished unit, written and flushed as each
unit finishes (a kill loses at most the units in flight). The key is a digest of all
that a unit's result depends on: the job's inputs (their sealed sha256), its settings
and the package's source. A log with another key is another job's, and is started
afresh; a last line cut by the kill is dropped. Each unit's result depends on that unit
alone, so the output built from the log's units and the new ones, in the job's own
order, has the bytes of an uncut run. The job removes its log once the output is
sealed; the log is not an artifact (no seal, never published, never trusted by a
reader). A log that cannot be written (a full disk, a read-only folder) is one warning,
and the job goes on without it: the output's own write then says what is wrong.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

log = logging.getLogger(__name__)

SUFFIX = ".resume.jsonl"
SYNC_INTERVAL = 30.0  # seconds between fsyncs (flushed lines survive a killed process)
_PACKAGE = Path(__file__).resolve().parents[1]


def resume_path(output: str | Path) -> Path:
    """Where the resume log of the job writing `output` lives."""
    return Path(f"{output}{SUFFIX}")


def package_digest() -> str:
    """sha256 of every module of the installed package: a log from other code is not
    resumed (a unit's result may depend on any module it runs)."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(_PACKAGE).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def job_key(identity: Mapping[str, Any]) -> str:
    """The key of a job: its identity (inputs' sha256, settings; JSON values) and the
    package's source."""
    text = json.dumps({"job": identity, "code": package_digest()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class ResumeLog:
    """Finished units of one job: `done` (unit -> result: those of an earlier cut run,
    then those `record` adds as this run finishes them, from any thread)."""

    def __init__(self, output: str | Path, key: str) -> None:
        self.path = resume_path(output)
        self.key = key
        self.done: dict[str, Any] = self._read()
        self.resumed = len(self.done)  # units read from an earlier run's log
        self.lock = threading.Lock()
        self.synced = time.monotonic()
        self.file: TextIO | None = self._open()

    def _read(self) -> dict[str, Any]:
        """The units of a log with this job's key; {} for none, another key or a log that
        cannot be read (it is only a shortcut: the units are computed again)."""
        try:
            lines = self.path.read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError):
            return {}
        try:
            if json.loads(lines[0]) != {"key": self.key}:
                return {}
        except ValueError:
            return {}
        done: dict[str, Any] = {}
        for line in lines[1:-1]:  # the last piece has no newline: cut, or empty
            try:
                unit, result = json.loads(line)
            except ValueError:
                break  # a damaged line: keep the units before it only
            done[str(unit)] = result
        return done

    def _open(self) -> TextIO | None:
        """_reopen(), or None (one warning) where the log cannot be written."""
        try:
            return self._reopen()
        except OSError as error:
            with contextlib.suppress(OSError):
                self._temporary().unlink(missing_ok=True)
            self._cannot_write(error)
            return None

    def _temporary(self) -> Path:
        return self.path.with_name(self.path.name + ".tmp")

    def _cannot_write(self, error: OSError) -> None:
        why = error.strerror or type(error).__name__
        log.warning("%s: cannot be written (%s); this job goes on without it", self.path, why)

    def _reopen(self) -> TextIO:
        """The log rewritten with its good units (a cut line dropped), open to append."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self._temporary()
        with temporary.open("w", encoding="utf-8") as out:
            out.write(json.dumps({"key": self.key}) + "\n")
            for unit, result in self.done.items():
                out.write(json.dumps([unit, result]) + "\n")
        os.replace(temporary, self.path)
        if self.done:
            log.info("resuming from %s: %d units already done", self.path, len(self.done))
        return self.path.open("a", encoding="utf-8")

    def record(self, unit: int | str, result: Any) -> None:
        """Append one finished unit (JSON values) and flush it to the operating system."""
        line = json.dumps([str(unit), result]) + "\n"
        with self.lock:
            self.done[str(unit)] = result
            if self.file is None:
                return
            try:
                self.file.write(line)
                self.file.flush()
                if time.monotonic() - self.synced >= SYNC_INTERVAL:
                    os.fsync(self.file.fileno())
                    self.synced = time.monotonic()
            except OSError as error:  # the disk filled: no more checkpoints
                self._cannot_write(error)
                self._close()

    def _close(self) -> None:
        if self.file is not None:
            with contextlib.suppress(OSError):  # a cut last line is dropped when read
                self.file.close()
            self.file = None

    def finish(self) -> None:
        """The output is sealed: the log has served."""
        self._close()
        with contextlib.suppress(OSError):  # a log left behind is another run's to drop
            self.path.unlink(missing_ok=True)

    def __enter__(self) -> ResumeLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self._close()  # kept on failure: the next run resumes from it
