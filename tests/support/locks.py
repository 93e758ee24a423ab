"""The one lock the suite's shared builds wait on: a file lock with a deadline.

A build shared by the xdist workers (the fixture workflow, an artifact set) is made by
the first worker to ask, behind a lock the others wait on. A wait with no end would hang
the whole run if the builder hung; this one ends after LOCK_WAIT seconds with an error
that names the lock file, below the per-test limit (pyproject.toml's `timeout`), so
the waiting test fails under its own name first.
"""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock

# seconds: the longest honest shared build (the fixture workflow) takes about 3 minutes
# on two loaded cores; pytest-timeout stops any test at 15.
LOCK_WAIT = 600


def build_lock(path: str | Path) -> FileLock:
    """A lock on the file `path` whose acquisition fails (filelock.Timeout, naming the
    file) after LOCK_WAIT seconds."""
    return FileLock(str(path), timeout=LOCK_WAIT)
