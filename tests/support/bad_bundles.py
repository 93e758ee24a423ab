"""Bad release bundles for `wordle-pipeline fetch`, made the way a hostile or careless
server would serve them: cut short, foreign, altered, escaping their folder, of another
version. Each case is (the bundle's bytes from (the good bundle, the fixture's folder, a
scratch folder whose datapackage.json, when there, is served as the descriptor), words
of the refusal); tests/commands/test_fetch.py serves and fetches every one. Part of the
bad-input catalogue (tests.support.bad_inputs.BUNDLE_CASES).
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import shutil
import tarfile
from collections.abc import Callable
from pathlib import Path

import zstandard

from tests.support.artifact_set import EDITION
from tests.support.fixtures import REPO


def publish_module():
    """.ci/publish.py, imported from its file (.ci is no package)."""
    spec = importlib.util.spec_from_file_location("publish", REPO / ".ci" / "publish.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def zstd_tar(members: list[tuple[tarfile.TarInfo, bytes | None]]) -> bytes:
    """A zstd-compressed tar of exactly these members (crafted ones included)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return zstandard.ZstdCompressor(level=3).compress(raw.getvalue())


def member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tuple:
    """A crafted member: a file holding b"x", or a link or device (no data)."""
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    return info, b"x" if kind == tarfile.REGTYPE else None


def reseal(descriptor: Path) -> None:
    """Make the descriptor's seal agree with its bytes again, as a careful forger would."""
    where = descriptor.with_name(descriptor.name + ".seal.json")
    document = json.loads(where.read_text())
    document["sha256"] = hashlib.sha256(descriptor.read_bytes()).hexdigest()
    document["bytes"] = descriptor.stat().st_size
    where.write_text(json.dumps(document))


def altered_copy(derived: Path, folder: Path, change: Callable[[Path], None]) -> Path:
    shutil.copytree(derived, folder)
    change(folder)
    return folder


def other_version(folder: Path) -> None:
    """The descriptor of version 0.0.1, resealed: a bundle the old release made."""
    path = folder / "datapackage.json"
    document = json.loads(path.read_text())
    document["version"] = document["wordle_pipeline"]["package_version"] = "0.0.1"
    path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
    reseal(path)


def flip_a_byte(folder: Path) -> None:
    path = folder / EDITION / "tables" / "top-openers.html"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x20
    path.write_bytes(bytes(data))


def retitled(folder: Path) -> None:
    """Another title in the descriptor: valid, but not the bundle's."""
    path = folder / "datapackage.json"
    path.write_text(path.read_text().replace('"title": "Wordle', '"title": "Not Wordle'))


def good_members(release: Path, count: int) -> list[tuple[tarfile.TarInfo, bytes]]:
    """The first `count` files of the good bundle, to put before a crafted member."""
    data = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(release.read_bytes())).read()
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        files = [member for member in tar.getmembers() if member.isfile()][:count]
        return [(member, tar.extractfile(member).read()) for member in files]


def bundle_of(folder: Path) -> bytes:
    output = folder.with_name(folder.name + ".tar.zst")
    publish_module().write_bundle(folder, output)
    return output.read_bytes()


def crafted(count: int, *extra: tuple) -> Callable[[Path, Path, Path], bytes]:
    """A bundle of the good bundle's first `count` files, then the crafted members."""
    return lambda good, _d, _s: zstd_tar([*good_members(good, count), *extra])


def changed(change: Callable[[Path], None], bundle: bool = True) -> Callable[..., bytes]:
    """The fixture's folder copied to the scratch folder and changed (its descriptor is
    served); the bundle of that copy, or the good bundle."""

    def make(good: Path, derived: Path, scratch: Path) -> bytes:
        altered_copy(derived, scratch, change)
        return bundle_of(scratch) if bundle else good.read_bytes()

    return make


def half(good: Path, *_: Path) -> bytes:
    return good.read_bytes()[: good.stat().st_size // 2]


# name -> (the bundle's bytes from (the good bundle, the fixture's folder, a scratch folder
# whose datapackage.json, when there, is served as the descriptor), words of the refusal)
BUNDLE_CASES: dict[str, tuple[Callable[[Path, Path, Path], bytes], str]] = {
    "truncated in the middle": (half, "truncated"),
    "truncated by its last bytes": (lambda good, _d, _s: good.read_bytes()[:-4], "truncated"),
    "an html page, not zstd": (lambda *_: b"<html>Not Found</html>\n" * 40, "not a zstd"),
    "zstd, but no tar": (lambda *_: zstandard.compress(b"text\n" * 500), "no tar archive"),
    "a tar, but not a bundle": (crafted(0, member("notes.txt")), "(no datapackage.json)"),
    "bytes after its zstd stream": (lambda good, *_: good.read_bytes() + b"\0", "bytes after"),
    "a member altered": (changed(flip_a_byte), f"{EDITION}/tables/top-openers.html: altered"),
    "another descriptor beside it": (changed(retitled, bundle=False), "differs from the release's"),
    "a member named ../x": (crafted(3, member("../x")), "member '../x' points outside"),
    "an absolute member": (crafted(3, member("/tmp/x")), "member '/tmp/x' points outside"),
    "a symlink": (crafted(3, member("tiny/x", tarfile.SYMTYPE, "../../x")), "'tiny/x' is a link"),
    "a hard link": (crafted(3, member("tiny/x", tarfile.LNKTYPE, "/etc/passwd")), "is a link"),
    "a device file": (crafted(0, member("tiny/x", tarfile.CHRTYPE)), "is a device or fifo"),
    "a member twice": (lambda good, *_: zstd_tar(good_members(good, 2) * 2), "appears twice"),
    "another package version": (changed(other_version), "artifacts of wordle-pipeline 0.0.1, but"),
}  # fmt: skip
