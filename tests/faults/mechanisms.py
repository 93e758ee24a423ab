"""Real faults for the tests of tests/faults/: a file size limit (`ulimit -f`), a small
filesystem that fills up (a tmpfs), and a read-only folder (a read-only bind mount, or
`chmod -R a-w` where the tests do not run as root, whom file modes do not stop).

The file size limit works for every user. Mounting needs root: without it the tmpfs case
is skipped (the file size limit covers a file that cannot be written) and a read-only
folder is made by its modes.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import stat
import subprocess
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

IS_ROOT = os.geteuid() == 0


def file_size_limit(limit: int) -> Callable[[], None]:
    """A `preexec_fn` for subprocess: the process and its children may write no file past
    `limit` bytes (RLIMIT_FSIZE, `ulimit -f`). Python ignores SIGXFSZ, so a write past it
    fails with EFBIG ("File too large") instead of killing the process."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limited


def _run(command: Sequence[str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, check=False)


def free_bytes(folder: Path) -> int:
    st = os.statvfs(folder)
    return st.f_bavail * st.f_frsize


@dataclass
class SmallFilesystem:
    """A tmpfs mounted on `folder`, its earlier contents copied in, filled by `filler`
    until `free` bytes are left."""

    folder: Path
    filler: Path

    def free_space(self) -> None:
        """What the user does: delete what filled the disk."""
        self.filler.unlink()


@contextlib.contextmanager
def small_filesystem(folder: Path, free: int, size: str = "16m") -> Iterator[SmallFilesystem]:
    """Put `folder` (its files kept) on a tmpfs of `size` with only `free` bytes left, as
    a disk that is full but for those; unmounted at the end (its files then vanish)."""
    if not IS_ROOT:
        pytest.skip("mounting a small tmpfs needs root; the file size limit case covers this")
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    saved = folder.with_name(folder.name + ".before-mount")
    folder.rename(saved)
    folder.mkdir()
    mounted = _run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)])
    if mounted.returncode != 0:
        folder.rmdir()
        saved.rename(folder)
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        shutil.copytree(saved, folder, symlinks=True, dirs_exist_ok=True)
        shutil.rmtree(saved)
        filler = folder / "filler"
        with open(filler, "wb") as handle:
            handle.write(b"\0" * (free_bytes(folder) - free))
        assert free_bytes(folder) == free, "the tmpfs did not fill as planned"
        yield SmallFilesystem(folder, filler)
    finally:
        _run(["umount", "--lazy", str(folder)])


def _writable_again(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IWUSR)


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[list[str]]:
    """A command prefix that runs a command with `folder` read-only.

    As root, a read-only bind mount of `folder` onto itself, in a mount namespace of the
    command's own (`unshare`), which ends with it: nothing to undo, even if a test dies.
    Otherwise every file and folder under it loses its write bits until the block ends,
    and the prefix is empty. Either way, a probe first checks that writing really fails.
    """
    if IS_ROOT:
        if shutil.which("unshare") is None:
            pytest.skip("running as root, and no unshare for a read-only mount")
        # cd "$PWD": a working directory inside `folder` would still be the writable one.
        script = (
            'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && cd "$PWD" '
            '&& shift && exec "$@"'
        )
        prefix = ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh"]
        prefix.append(str(folder))
        probe = _run([*prefix, "touch", str(folder / "probe")])
        if probe.returncode == 0 or "Read-only file system" not in probe.stderr:
            (folder / "probe").unlink(missing_ok=True)
            pytest.skip(f"cannot mount {folder} read-only here: {probe.stderr.strip()}")
        yield prefix
        return
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        probe = _run(["touch", str(folder / "probe")])
        assert probe.returncode != 0, "the folder is still writable"
        yield []
    finally:
        _writable_again(folder)
