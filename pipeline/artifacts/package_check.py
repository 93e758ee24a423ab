"""`wordle-pipeline verify`: a folder of artifacts checked against its `datapackage.json`.

A descriptor is often downloaded, so nothing in it is trusted until it is checked: first
its bytes against its own seal (written beside it by the pipeline, and carried in the
release bundle), then its shape (a non-empty list of resources with unique, relative
paths, each with its size and sha256, the same paths the seal recorded), then every
resource against the bytes on disk. Every other file in the folder must be a resource's
seal or one of the few documented companions; anything else is reported as foreign.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pipeline.artifacts import seal
from pipeline.artifacts.catalog import SHARED
from pipeline.artifacts.commonness import FILE as SHARED_MARKER  # marks a list's folder
from pipeline.artifacts.words import FILE as EDITION_INDEX  # what marks an edition folder
from pipeline.core.errors import ArtifactError, InputError
from pipeline.core.files import sha256_bytes, sha256_file

log = logging.getLogger(__name__)

DESCRIPTOR = "datapackage.json"
# Files that belong in a folder of artifacts without being resources: the descriptor, its
# seal and the empty marker that keeps the folder in git.
COMPANIONS = frozenset({DESCRIPTOR, f"{DESCRIPTOR}{seal.SEAL_SUFFIX}", ".gitkeep"})
# What repair named a file it moved aside before it used data/repair (pipeline.plan.repair).
LEFTOVER_SUFFIX = ".damaged"


def _read_bytes(descriptor_path: Path) -> bytes:
    try:
        return descriptor_path.read_bytes()
    except FileNotFoundError:
        raise ArtifactError(f"{descriptor_path}: the data package descriptor is missing") from None
    except OSError as error:
        raise ArtifactError(
            f"{descriptor_path}: cannot be read ({error.strerror or error})"
        ) from None


def _seal_of(descriptor_path: Path, root: Path) -> Path | None:
    """The descriptor's seal: beside it, or (for a copy such as the release's
    datapackage-TAG.json checked with --directory) the one in the folder it describes."""
    for candidate in (seal.seal_path(descriptor_path), seal.seal_path(root / DESCRIPTOR)):
        if candidate.is_file():
            return candidate
    return None


def _sealed_resources(descriptor_path: Path, root: Path, content: bytes) -> set[str] | None:
    """The artifact paths the descriptor's seal recorded (relative to the folder), after
    checking the descriptor's bytes against it; None when there is no seal."""
    where = _seal_of(descriptor_path, root)
    if where is None:
        return None
    try:
        document = json.loads(where.read_text(encoding="utf-8"))
        digest, size = document["sha256"], document["bytes"]
        recorded = {entry["path"] for entry in document["inputs"].values()}
        if not (isinstance(digest, str) and isinstance(size, int)):
            raise TypeError("sha256 or bytes of the wrong type")
        if not all(isinstance(path, str) for path in recorded):
            raise TypeError("an input path is not a string")
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise ArtifactError(f"{where}: damaged seal ({error})") from None
    if size != len(content) or sha256_bytes(content) != digest:
        raise ArtifactError(
            f"{descriptor_path}: altered since it was written (its sha256 differs from its "
            f"seal {where})"
        )
    return recorded


def _parse(descriptor_path: Path, content: bytes) -> list:
    """The descriptor's resource list; malformed JSON of any shape is one InputError."""
    try:
        document = json.loads(content.decode("utf-8"))
    except RecursionError:
        raise InputError(
            descriptor_path, "is not a data package descriptor (nested too deeply)"
        ) from None
    except ValueError as error:  # not UTF-8, not JSON, or a number with too many digits
        raise InputError(descriptor_path, f"is not a data package descriptor ({error})") from None
    resources = document.get("resources") if isinstance(document, dict) else None
    if not isinstance(resources, list):
        raise InputError(descriptor_path, "is not a data package descriptor (no `resources` list)")
    if not resources:
        raise InputError(descriptor_path, "lists no resources")
    return resources


def _entry(descriptor_path: Path, resource: object) -> tuple[str, int | None, str]:
    """(relative path, bytes or None where the descriptor gives none, sha256), checked."""
    relative = resource.get("path") if isinstance(resource, dict) else None
    size = resource.get("bytes") if isinstance(resource, dict) else None
    digest = resource.get("hash") if isinstance(resource, dict) else None
    if not isinstance(relative, str) or not relative:
        raise InputError(descriptor_path, "lists a resource without a path")
    parts = PurePosixPath(relative).parts
    if PurePosixPath(relative).is_absolute() or ".." in parts or "\\" in relative:
        raise InputError(descriptor_path, f"lists {relative!r}, a path outside its folder; refused")
    absent = isinstance(resource, dict) and "bytes" not in resource  # Parquet: see datapackage
    if not absent and (not isinstance(size, int) or isinstance(size, bool)):
        raise InputError(descriptor_path, f"resource {relative!r} lacks its bytes or hash")
    if not isinstance(digest, str):
        raise InputError(descriptor_path, f"resource {relative!r} lacks its bytes or hash")
    return PurePosixPath(relative).as_posix(), size, digest.removeprefix("sha256:")


def read_entries(descriptor_path: Path, root: Path) -> dict[str, tuple[int | None, str]]:
    """relative path -> (bytes, sha256) of every resource, after the descriptor passed its
    seal and every check of its shape; one ArtifactError or InputError otherwise."""
    content = _read_bytes(descriptor_path)
    sealed = _sealed_resources(descriptor_path, root, content)
    entries: dict[str, tuple[int | None, str]] = {}
    for resource in _parse(descriptor_path, content):
        relative, size, digest = _entry(descriptor_path, resource)
        if relative in entries:
            raise InputError(descriptor_path, f"lists {relative!r} twice")
        entries[relative] = (size, digest)
    if sealed is not None and sealed != set(entries):
        missing = sorted(sealed - set(entries))
        raise InputError(
            descriptor_path,
            f"lists {len(entries)} resources where its seal recorded {len(sealed)}"
            + (f" (missing: {', '.join(missing[:3])})" if missing else ""),
        )
    return entries


def _problem(path: Path, size: int | None, digest: str) -> tuple[str | None, int]:
    """(why `path` does not match its resource entry, or None; its bytes as checked)."""
    try:
        if not path.is_file():
            return f"{path}: missing", 0
        found = path.stat().st_size
        if size is not None and found != size:
            return f"{path}: altered ({found} bytes, descriptor says {size})", found
        if sha256_file(path) != digest:
            return f"{path}: altered (sha256 differs from the descriptor)", found
    except OSError as error:
        return f"{path}: cannot be read ({error.strerror or error})", 0
    return None, found


def foreign_files(root: Path, resources: Iterable[str]) -> list[Path]:
    """Files under `root` that are neither a resource, a resource's seal nor a companion,
    nor inside a folder the descriptor does not list (unlisted_folders)."""
    resources = list(resources)
    known = set(COMPANIONS)
    for relative in resources:
        known.update((relative, f"{relative}{seal.SEAL_SUFFIX}"))
    skipped = tuple(f"{folder}/" for folder in unlisted_folders(root, resources))
    found = sorted(path for path in root.rglob("*") if path.is_file() or path.is_symlink())
    return [
        path
        for path in found
        if path.relative_to(root).as_posix() not in known
        and not path.relative_to(root).as_posix().startswith(skipped)
    ]


def repair_leftovers(root: Path, resources: Iterable[str]) -> list[Path]:
    """The files under `root` that an older version's repair moved aside beside the file
    it replaced: `<resource, its seal or a companion>.damaged`. Not part of the package
    (the release bundle skips them), so `verify` warns about them instead of failing: the
    artifacts themselves are correct."""
    resources = list(resources)
    known = set(COMPANIONS).union(*({r, f"{r}{seal.SEAL_SUFFIX}"} for r in resources))
    return [
        path
        for path in foreign_files(root, resources)
        if path.name.endswith(LEFTOVER_SUFFIX)
        and path.relative_to(root).as_posix().removesuffix(LEFTOVER_SUFFIX) in known
    ]


def leftovers_of(descriptor_path: str | Path, directory: str | Path | None = None) -> int:
    """How many files left by repair verify warned about (its summary line says so)."""
    descriptor_path = Path(descriptor_path)
    root = Path(directory) if directory is not None else descriptor_path.parent
    return len(repair_leftovers(root, read_entries(descriptor_path, root))) if root.is_dir() else 0


def leftover_advice(root: Path, path: Path) -> str:
    """One line naming a file left by repair and where it belongs (data/repair mirrors
    data/: data/derived/x -> data/repair/derived/x)."""
    relative = path.relative_to(root).as_posix().removesuffix(LEFTOVER_SUFFIX)
    place = root.parent / "repair" / root.name / relative
    return f"{path}: left by repair (not part of the package): move it to {place} or delete it"


def unlisted_folders(root: Path, resources: Iterable[str]) -> list[str]:
    """Folders of `root` (relative) that hold an edition's word index, or an allowed
    list's shared commonness, but none of the descriptor's resources: an edition built
    before and not enabled in this build (disabling an edition removes none of its
    files). They are not part of the package."""
    listed = [PurePosixPath(relative) for relative in resources]
    found = []
    for pattern in (f"*/{EDITION_INDEX}", f"{SHARED}/*/{SHARED_MARKER}"):
        for path in sorted(root.glob(pattern)) if root.is_dir() else []:
            folder = path.parent.relative_to(root)
            if not any(folder in entry.parents for entry in listed):
                found.append(folder.as_posix())
    return found


@dataclass(frozen=True)
class PackageCheck:
    """What checking a folder against its descriptor found: the problems ([] = all
    good), and how many resources it checked and their bytes as it read them (so that a
    passing check's totals are those of the files it matched, even while a rebuild
    moves files in and out around it)."""

    problems: list[str]
    count: int
    size: int


def verify_datapackage(
    descriptor_path: str | Path,
    directory: str | Path | None = None,
    *,
    remove_damaged: bool = False,
) -> list[str]:
    """Problems found checking a folder of artifacts against its descriptor ([] = all
    good): check_datapackage's problems."""
    return check_datapackage(descriptor_path, directory, remove_damaged=remove_damaged).problems


def check_datapackage(
    descriptor_path: str | Path,
    directory: str | Path | None = None,
    *,
    remove_damaged: bool = False,
) -> PackageCheck:
    """Check a folder of artifacts against its descriptor.

    A descriptor that fails its seal or its shape raises one error and nothing is removed.
    With `remove_damaged`, missing or altered resources are deleted (with the descriptor),
    so that the next `snakemake` run rebuilds exactly them and what depends on them;
    foreign files are reported, never deleted.
    """
    descriptor_path = Path(descriptor_path)
    root = Path(directory) if directory is not None else descriptor_path.parent
    entries = read_entries(descriptor_path, root)
    problems = []
    if _seal_of(descriptor_path, root) is None:
        problems.append(f"{descriptor_path}: has no seal, so it cannot be checked itself")
    damaged = []
    checked_bytes = 0
    for relative, (size, digest) in sorted(entries.items()):
        problem, found = _problem(root / relative, size, digest)
        checked_bytes += found
        if problem is not None:
            problems.append(problem)
            damaged.append(root / relative)
    if root.is_dir():
        for folder in unlisted_folders(root, entries):
            log.info("%s: a folder the descriptor does not list; not checked", root / folder)
        leftovers = repair_leftovers(root, entries)
        for path in leftovers:
            log.warning("%s", leftover_advice(root, path))
        foreign = [path for path in foreign_files(root, entries) if path not in leftovers]
        problems += [f"{path}: foreign (not in the descriptor)" for path in foreign]
    if damaged and remove_damaged:
        for path in damaged:
            path.unlink(missing_ok=True)
        descriptor_path.unlink(missing_ok=True)
        log.info(
            "removed the damaged files and %s: rerun snakemake to rebuild them", descriptor_path
        )
    return PackageCheck(problems, len(entries), checked_bytes)


def package_totals(descriptor_path: str | Path, directory: str | Path | None = None):
    """(how many resources the descriptor lists, the bytes of those on disk): what
    verify reads."""
    descriptor_path = Path(descriptor_path)
    root = Path(directory) if directory is not None else descriptor_path.parent
    entries = read_entries(descriptor_path, root)
    paths = [root / relative for relative in entries]
    return len(entries), sum(path.stat().st_size for path in paths if path.is_file())
