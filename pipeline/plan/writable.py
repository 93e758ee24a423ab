"""Whether a run can write where its jobs write: checked once the job graph says there
are jobs to run, before the first starts.

Snakemake checks the outputs a run would replace (write-protected files), but not the
folders it must add files to: on a read-only data folder (a system-wide install, a
container, a shared cluster folder) its first job would end in a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

# Every job writes its outputs under data/ and its log and benchmark under logs/.
RUN_FOLDERS = ("data", "logs")


def unwritable_folder(folders: Iterable[str | Path] = RUN_FOLDERS) -> Path | None:
    """The first of `folders` (or, where one does not exist yet, its nearest existing
    parent) that this process cannot write to, or None. os.access also answers "no" for
    root on a read-only mount, where file modes do not apply."""
    for folder in map(Path, folders):
        existing = folder
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not os.access(existing, os.W_OK):
            return existing
    return None


def read_only_message(folder: Path) -> str:
    """The one line a run stops with when `folder` cannot be written."""
    return (
        f"wordle: {folder.as_posix()}/ is read-only here, and this run must write files "
        "in it; make it writable, or run in a writable copy of the checkout"
    )
