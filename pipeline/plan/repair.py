"""The repair set: what a run moves aside before the job graph is built.

Every sealed file that is damaged, foreign or stale (see pipeline.artifacts.seal), every
expected artifact that has no seal, and every file built from one of those, is moved
aside, with its seal, to the same path under `data/repair/` (quarantined). Snakemake then
sees it missing and rebuilds it from its own inputs, and everything built from it,
instead of building on it; the data package is never rewritten around it. Nothing is
lost: the bad file is kept for inspection, outside the published folder, so `verify`
passes on the rebuilt one.
Snakemake offers a Snakefile no sanctioned way to force a rule, and a damaged file has no
use, so moving it is the honest repair. A dry run only names what a run would move.
A deleted work file (data/work) moves nothing: what was built from it is intact, and
Snakemake builds it again, with the same bytes, when a job needs it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pipeline.artifacts import catalog, layout, seal
from pipeline.core.errors import ArtifactError
from pipeline.plan.editions import allowed_of


def workdir_locked(workdir: str | Path = ".") -> bool:
    """Whether a running Snakemake holds this working directory (its lock files exist).

    Then its jobs may be writing files right now, between a file and its seal: leave
    everything alone (the run itself will refuse to start on the lock).
    """
    locks = Path(workdir) / ".snakemake" / "locks"
    return locks.is_dir() and any(locks.iterdir())


def quarantined(path: str | Path) -> Path:
    """Where a run moves a damaged file: the same path under data/repair instead of data/
    (data/derived/x -> data/repair/derived/x), outside the published folder so that
    `verify` passes once the rebuild is done; `.2`, `.3`, ... after the name when that
    place is taken, so an earlier one is never overwritten. Deterministic: a dry run names
    the place a run would use."""
    path = Path(path)
    inside = Path(os.path.relpath(os.path.abspath(path), os.path.abspath("data")))
    if inside.parts[0] == os.pardir:  # not under data/: mirror its whole path
        inside = Path(*path.resolve().parts[1:])
    target = Path(layout.REPAIR) / inside
    number = 1
    while target.exists() or seal.seal_path(target).exists():
        number += 1
        target = target.with_name(f"{inside.name}.{number}")
    return target


def quarantine(path: str | Path) -> Path:
    """Move a damaged file (and its seal, if any: how it was built) to quarantined(path)."""
    target = quarantined(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if seal.seal_path(path).is_file():
        shutil.move(seal.seal_path(path), seal.seal_path(target))
    shutil.move(path, target)
    return target


def expected_artifacts(config: Mapping[str, Any]) -> list[str]:
    """The artifacts of fixed name of every defined edition (a disabled one has rules
    too) and of their allowed lists: a file of these without a seal is foreign."""
    editions = list(config["editions"])
    return catalog.expected(editions, sorted({allowed_of(config, e) for e in editions}))


def repair(
    *,
    dry_run: bool,
    expected: Iterable[str | Path],
    sealed_roots: Iterable[str | Path] = catalog.SEALED_ROOTS,
) -> list[str]:
    """Move every file of to_move aside (a dry run moves nothing); return one line per
    file, saying where it went (in a dry run: where a run would move it)."""
    lines = []
    for path, problem in to_move(sealed_roots, expected).items():
        if dry_run:
            lines.append(f"wordle: {problem}: a run without -n moves it to {quarantined(path)}")
        else:
            lines.append(f"wordle: {problem}: moved to {_moved_aside(path)}, rebuilding it")
    return lines


def _moved_aside(path: str) -> Path:
    """quarantine(path), or a one-line ArtifactError when the data folder cannot be
    changed (read-only, full): the run stops before its first job, and nothing of
    `path` is lost (a move that failed leaves it where it was)."""
    try:
        return quarantine(path)
    except OSError as error:
        why = error.strerror or type(error).__name__
        raise ArtifactError(
            f"wordle: {path} must be rebuilt, but cannot be moved aside to "
            f"{quarantined(path)} ({why}); make data/ writable, or run in a writable "
            "copy of the checkout"
        ) from error


def to_move(sealed_roots: Iterable[str | Path], expected: Iterable[str | Path]) -> dict[str, str]:
    """Path -> problem (one clause) of every file a run moves aside: those find_damaged
    names, then every sealed file whose seal names one of them as an input, until none
    is added. Reads files, never changes one.

    Every file downstream is named explicitly: Snakemake does not rebuild a missing
    input of a job that reads a checkpoint's output.
    """
    sealed_roots = list(sealed_roots)
    found = find_damaged(sealed_roots, expected)
    damaged = {path: problem.split("; ")[0] for path, problem in found.items()}
    built_from = dict(sealed_inputs(sealed_roots))
    while stale := {
        path: next(source for source in inputs if source in damaged)
        for path, inputs in built_from.items()
        if path not in damaged and not damaged.keys().isdisjoint(inputs)
    }:
        for path, source in stale.items():
            damaged[path] = f"{path}: stale (built from {source}, which is moved aside)"
    return damaged


def sealed_inputs(sealed_roots: Iterable[str | Path]) -> Iterator[tuple[str, list[str]]]:
    """(path, the input files its seal names) of every sealed file under `sealed_roots`,
    paths relative to the working directory as find_damaged names them."""
    for artifact in sealed_files(sealed_roots):
        try:
            recorded = seal.read_seal(artifact).inputs.values()
        except ArtifactError:
            continue
        inputs = [os.path.normpath(artifact.parent / entry["path"]) for entry in recorded]
        yield artifact.as_posix(), [Path(source).as_posix() for source in inputs]


def sealed_files(sealed_roots: Iterable[str | Path]) -> list[Path]:
    """Every file under `sealed_roots` that has a seal beside it (in sorted order)."""
    found = []
    for root in map(Path, sealed_roots):
        for seal_file in sorted(root.rglob(f"*{seal.SEAL_SUFFIX}")) if root.is_dir() else []:
            artifact = Path(str(seal_file)[: -len(seal.SEAL_SUFFIX)])
            if artifact.is_file():
                found.append(artifact)
    return found


def find_damaged(
    sealed_roots: Iterable[str | Path], expected: Iterable[str | Path]
) -> dict[str, str]:
    """Path -> problem for every damaged, foreign or stale file (see the module docstring).

    Sealed files are found by their seals under `sealed_roots`; `expected` artifacts that
    exist without a seal are foreign. Missing files are Snakemake's business.
    """
    problems: dict[str, str] = {}
    for artifact in sealed_files(sealed_roots):
        trouble = seal.problem(artifact, absent_inputs_are_stale=True, intermediate=layout.WORK)
        if trouble:
            problems[artifact.as_posix()] = trouble
    for artifact in map(Path, expected):
        if artifact.is_file() and not seal.seal_path(artifact).is_file():
            problems[artifact.as_posix()] = seal.problem(artifact) or f"{artifact}: unsealed"
    return problems
