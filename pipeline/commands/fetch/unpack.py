"""A release bundle (a zstd-compressed tar, `.ci/publish.py`'s write_bundle) unpacked
into a new folder, refusing anything a bundle never holds.

A bundle is downloaded, so nothing in it is trusted: every member must be a plain file or
folder whose name stays inside the folder (relative, no `..`, no backslash), named once.
Links, devices and fifos are refused outright, since write_bundle writes none, so no
member can reach outside through a link either. Files are written by this module, never
by tarfile's extract, each created anew (`xb`), with default permissions.

zstd's streaming decoder stops quietly at the end of a cut stream, so the frame's end is
checked here: a bundle cut anywhere is refused as truncated, not read as a shorter tar.
"""

from __future__ import annotations

import shutil
import tarfile
from pathlib import Path, PurePosixPath
from typing import BinaryIO

import zstandard

from pipeline.core.errors import ArtifactError

_CHUNK = 1 << 20


class BundleRefused(ArtifactError):
    """The bundle is damaged, truncated, foreign or unsafe; the message names it."""


class _FrameReader:
    """The decompressed bytes of one zstd frame read from `raw`, for tarfile's stream
    mode (which only calls read); BundleRefused when the file ends inside the frame, is
    no zstd at all, or goes on after it."""

    def __init__(self, raw: BinaryIO, name: str) -> None:
        self._raw, self._name = raw, name
        self._decoder = zstandard.ZstdDecompressor().decompressobj()
        self._buffer = bytearray()
        self._ended = False

    def read(self, size: int = -1) -> bytes:
        while not self._ended and (size < 0 or len(self._buffer) < size):
            self._fill()
        if size < 0:
            size = len(self._buffer)
        piece = bytes(self._buffer[:size])
        del self._buffer[:size]
        return piece

    def _fill(self) -> None:
        chunk = self._raw.read(_CHUNK)
        if not chunk:
            if not self._decoder.eof:
                raise BundleRefused(
                    f"{self._name}: truncated (its zstd stream stops before its end); refused"
                )
            self._ended = True
            return
        if self._decoder.eof:
            raise BundleRefused(f"{self._name}: holds bytes after its zstd stream; refused")
        try:
            self._buffer += self._decoder.decompress(chunk)
        except zstandard.ZstdError as error:
            raise BundleRefused(
                f"{self._name}: not a zstd-compressed bundle ({error}); refused"
            ) from None
        if self._decoder.eof and self._decoder.unused_data:
            raise BundleRefused(f"{self._name}: holds bytes after its zstd stream; refused")

    def drain(self) -> None:
        """Read to the end, so a cut after the tar's last member is found too."""
        while not self._ended:
            self._fill()
            self._buffer.clear()


def unpack(bundle: Path, folder: Path, name: str) -> int:
    """Unpack `bundle` into the new folder `folder` (its parent must exist); the number of
    files written. `name` is what refusals call the bundle."""
    try:
        raw = open(bundle, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as error:
        raise BundleRefused(f"{name}: cannot be read ({error.strerror or error})") from None
    folder.mkdir()
    seen: set[str] = set()
    with raw:
        stream = _FrameReader(raw, name)
        try:
            with tarfile.open(fileobj=stream, mode="r|") as tar:
                for member in tar:
                    relative = _checked(name, member, seen)
                    if member.isdir():
                        (folder / relative).mkdir(parents=True, exist_ok=True)
                    else:
                        _write(tar, member, folder / relative)
            stream.drain()
        except tarfile.TarError as error:
            raise BundleRefused(_tar_problem(name, error)) from None
        except EOFError:
            raise BundleRefused(
                f"{name}: truncated (the tar ends inside a member); refused"
            ) from None
    if not seen:
        raise BundleRefused(f"{name}: an empty archive, not a wordle-artifacts bundle; refused")
    return sum(1 for path in folder.rglob("*") if path.is_file())


def _tar_problem(name: str, error: tarfile.TarError) -> str:
    """One line for a tar that cannot be read: cut short, or not a tar at all."""
    text = str(error)
    if "unexpected end" in text or "truncated" in text.lower():
        return f"{name}: truncated (the tar ends inside a member); refused"
    return (
        f"{name}: not a wordle-artifacts bundle (a zstd file, but no tar archive: {text}); refused"
    )


def _checked(name: str, member: tarfile.TarInfo, seen: set[str]) -> str:
    """The member's relative path after every check; BundleRefused naming it otherwise."""
    where = f"{name}: member {member.name!r}"
    if member.issym() or member.islnk():
        raise BundleRefused(
            f"{where} is a link (to {member.linkname!r}); a bundle holds only files and "
            "folders; refused"
        )
    if not (member.isreg() or member.isdir()):
        raise BundleRefused(f"{where} is a device or fifo, which no bundle holds; refused")
    path = PurePosixPath(member.name)
    if (
        not member.name
        or path.is_absolute()
        or ".." in path.parts
        or "\\" in member.name
        or "\x00" in member.name
        or not path.parts
    ):
        raise BundleRefused(f"{where} points outside the folder it unpacks into; refused")
    relative = path.as_posix()
    if relative in seen:
        raise BundleRefused(f"{where} appears twice; refused")
    seen.add(relative)
    return relative


def _write(tar: tarfile.TarFile, member: tarfile.TarInfo, target: Path) -> None:
    """One member's bytes into a new file (its folders made first)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    source = tar.extractfile(member)
    if source is None:  # isreg() members always have data; kept for the type checker
        raise BundleRefused(f"member {member.name!r} has no data; refused")
    with open(target, "xb") as out:
        shutil.copyfileobj(source, out, _CHUNK)
