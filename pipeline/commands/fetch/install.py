"""`wordle-pipeline fetch`: a release's artifacts downloaded, checked and put where
`wordle-assist` reads them, all or nothing.

Everything happens in a new folder beside the target (`.NAME.fetch-*`, on the same file
system, so the last step is a rename): the descriptor and the bundle are downloaded there,
the bundle unpacked there and every file checked (the bundle's datapackage.json is the
release's descriptor byte for byte, `verify`'s checks pass, every resource matches its
own seal, no file is unlisted). Only then is the target replaced: the old folder renamed
aside into the work folder, the new one renamed in, the old one deleted with the work
folder. Whatever fails, the work folder is removed and the target is as it was.

A target that already holds artifacts is replaced only with --force (it may be a build
of many minutes); one that already holds this very release, verified, is left alone.
A bundle of another package version than the installed one is refused (artifacts carry
no promise across versions, older or newer; the readers would stop on a schema they do
not know, or read a changed column as the old one) unless --any-version, which warns.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import tempfile
from pathlib import Path

from pipeline.artifacts import seal
from pipeline.artifacts.package_check import (
    COMPANIONS,
    DESCRIPTOR,
    package_totals,
    read_entries,
    verify_datapackage,
)
from pipeline.commands.fetch.locate import Origin, resolve
from pipeline.commands.fetch.transfer import download
from pipeline.commands.fetch.unpack import BundleRefused, unpack
from pipeline.core.errors import ArtifactError, PipelineError, one_line

log = logging.getLogger("pipeline")

KEEP = ".gitkeep"  # a checkout's empty data/derived holds it; it moves into the new folder


def default_folder() -> Path:
    """Where `wordle-assist` looks without --data: $WORDLE_DATA, else data/derived here."""
    from pipeline.commands.assistant.data import DATA_VARIABLE, DERIVED

    return Path(os.environ[DATA_VARIABLE]) if os.environ.get(DATA_VARIABLE) else DERIVED


def fetch(source: str, into: Path | None, *, force: bool = False, any_version: bool = False) -> str:
    """Fetch SOURCE into `into` (default_folder() when None); the line that says what was
    done. A PipelineError (one line) leaves the target as it was and nothing beside it."""
    origin = resolve(source)
    target = _target(into if into is not None else default_folder())
    made = _missing_folders(target.parent)
    work, done = None, False
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{target.name}.fetch-", dir=target.parent))
        line = _fetch_into(origin, target, work, force=force, any_version=any_version)
        done = True
        return line
    except OSError as error:  # a full disk, a folder that cannot be written
        raise PipelineError(
            f"{target}: cannot unpack there ({error.strerror or error}); it was left as it was"
        ) from None
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
        for folder in [] if done else made:  # the folders made for it, deepest first
            with contextlib.suppress(OSError):  # not empty: another process wrote there
                folder.rmdir()


def _fetch_into(origin: Origin, target: Path, work: Path, *, force: bool, any_version: bool) -> str:
    """fetch's steps, in the work folder `work` beside `target`."""
    descriptor = _descriptor(origin, work)
    if descriptor is not None:
        check_version(Path(str(origin.descriptor)).name, descriptor, any_version)
        if _holds(target, descriptor):
            return f"{target} already holds this release, verified; nothing to do"
    if _occupied(target) and not force:
        raise PipelineError(
            f"{target}: already holds artifacts; --force replaces them (the old folder "
            "is removed only once the new one is checked and in place)"
        )
    bundle = _bundle(origin, work)
    unpacked = work / "unpacked"
    unpack(bundle, unpacked, origin.bundle_name)
    count, size = _check(origin, unpacked, descriptor, any_version)
    _swap_in(unpacked, target, work)
    editions = ", ".join(_editions(target / DESCRIPTOR))
    against = Path(origin.descriptor).name if origin.descriptor else f"its own {DESCRIPTOR}"
    return one_line(
        f"fetched {origin.bundle_name}: {count} artifacts ({size:,} bytes) checked against "
        f"{against}, unpacked into {target} (editions: {editions})"
    )


def _missing_folders(folder: Path) -> list[Path]:
    """`folder` and those of its parents that do not exist yet, deepest first: what a
    refused fetch removes again."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _target(folder: Path) -> Path:
    """The folder to fill; a symlink to a folder is followed (the link stays), and `.` or
    `..` made absolute, so that the work folder is beside it, not inside."""
    if (folder.is_symlink() and folder.is_dir()) or folder.name in ("", ".."):
        folder = folder.resolve()
    if folder.exists() and not folder.is_dir():
        raise PipelineError(f"{folder}: exists and is not a folder; refused")
    return folder


def _descriptor(origin: Origin, work: Path) -> bytes | None:
    """The release's descriptor (downloaded into `work`), None for a local bundle with
    none beside it: its own datapackage.json, sealed, is then all there is to check."""
    if origin.descriptor is None:
        log.warning(
            "%s: no descriptor beside it; checking it against its own datapackage.json",
            origin.bundle,
        )
        return None
    if not origin.remote:
        try:
            return Path(origin.descriptor).read_bytes()
        except OSError as error:
            raise PipelineError(
                f"{origin.descriptor}: cannot be read ({error.strerror or error})"
            ) from None
    return _download(origin.descriptor, work / "descriptor.json").read_bytes()


def _bundle(origin: Origin, work: Path) -> Path:
    if not origin.remote:
        return Path(origin.bundle)
    return _download(origin.bundle, work / "bundle.tar.zst")


def _download(url: str, destination: Path) -> Path:
    log.info("downloading %s", url)
    download(url, destination)
    return destination


def package_version(name: str, content: bytes) -> str:
    """The package version a descriptor records (wordle_pipeline.package_version)."""
    try:
        version = json.loads(content.decode("utf-8"))["wordle_pipeline"]["package_version"]
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        raise ArtifactError(
            f"{name}: not a descriptor of wordle-pipeline artifacts (no package version: "
            f"{type(error).__name__}); refused"
        ) from None
    if not isinstance(version, str):
        raise ArtifactError(f"{name}: records no package version as text; refused")
    return version


def check_version(name: str, content: bytes, any_version: bool) -> None:
    """Refuse (or with `any_version` warn about) artifacts of another package version."""
    import pipeline

    recorded, installed = package_version(name, content), pipeline.__version__
    if recorded == installed:
        return
    if installed.endswith("+unknown"):
        log.warning("%s: built by %s; the installed version is unknown", name, recorded)
        return
    problem = (
        f"{name}: artifacts of wordle-pipeline {recorded}, but {installed} is installed; "
        f"fetch the release of {installed}, or install {recorded}"
    )
    if not any_version:
        raise ArtifactError(f"{problem} (--any-version takes them anyway)")
    log.warning("%s; taken anyway (--any-version)", problem)


def _holds(target: Path, descriptor: bytes) -> bool:
    """Whether `target` already holds this release, every file verified."""
    path = target / DESCRIPTOR
    try:
        if not path.is_file() or path.read_bytes() != descriptor:
            return False
        return not verify_datapackage(path) and not _extra_files(target, path)
    except (PipelineError, OSError):
        return False


def _occupied(target: Path) -> bool:
    """Whether `target` holds anything but a checkout's .gitkeep."""
    return target.is_dir() and any(entry.name != KEEP for entry in target.iterdir())


def _check(
    origin: Origin, folder: Path, descriptor: bytes | None, any_version: bool
) -> tuple[int, int]:
    """Every check of the unpacked folder; (artifacts, bytes). A refusal names the bundle
    and the member, never the work folder."""
    name = origin.bundle_name
    path = folder / DESCRIPTOR
    if not path.is_file():
        raise BundleRefused(f"{name}: not a wordle-artifacts bundle (no {DESCRIPTOR}); refused")
    if descriptor is not None and path.read_bytes() != descriptor:
        raise BundleRefused(
            f"{name}: its {DESCRIPTOR} differs from the release's descriptor "
            f"{Path(str(origin.descriptor)).name}; refused"
        )
    if descriptor is None:
        check_version(f"{name}: {DESCRIPTOR}", path.read_bytes(), any_version)
    prefix = f"{folder}{os.sep}"
    try:
        problems = verify_datapackage(path)
        problems += [
            problem
            for relative in sorted(read_entries(path, folder))
            if (problem := seal.problem(folder / relative)) is not None
        ]
        problems += [f"{extra}: not listed in {DESCRIPTOR}" for extra in _extra_files(folder, path)]
    except PipelineError as error:
        problems = [str(error)]
    if problems:
        first = problems[0].replace(prefix, "").replace(str(folder), ".")
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BundleRefused(f"{name}: {first}{more}; refused")
    return package_totals(path)


def _extra_files(folder: Path, descriptor: Path) -> list[Path]:
    """Files that are neither a resource, a resource's seal nor a companion: a bundle
    holds nothing else (verify leaves an unlisted edition's folder unchecked)."""
    known = set(COMPANIONS)
    for relative in read_entries(descriptor, folder):
        known.update((relative, f"{relative}{seal.SEAL_SUFFIX}"))
    files = sorted(p for p in folder.rglob("*") if p.is_file() or p.is_symlink())
    return [p for p in files if p.relative_to(folder).as_posix() not in known]


def _swap_in(new: Path, target: Path, work: Path) -> None:
    """Put `new` at `target`: the old folder renamed aside into `work` first (deleted with
    it), and renamed back if the new one cannot take its place."""
    if (target / KEEP).is_file():
        shutil.copyfile(target / KEEP, new / KEEP)
    aside = work / "previous"
    if target.exists():
        os.rename(target, aside)
    try:
        os.rename(new, target)
    except OSError:
        if aside.exists():
            os.rename(aside, target)
        raise


def _editions(descriptor: Path) -> list[str]:
    """The edition names the (checked) descriptor lists."""
    document = json.loads(descriptor.read_text(encoding="utf-8"))
    return [entry["name"] for entry in document["wordle_pipeline"]["editions"]]
