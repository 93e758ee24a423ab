"""What the Snakefile asks while it builds the job graph: code versions and file integrity.

- code_version: a digest of the source of a stage's import closure (every
  `import pipeline...` in the package's source, also inside functions), by module name
  and content, never by path. Each rule passes it as an unnamed param, which Snakemake
  records with the job's outputs: editing a module reruns exactly the rules whose stage
  imports it; moving the checkout, or rewriting a module with the same bytes, reruns
  nothing. (The rule's own script is watched by Snakemake itself.)
- repair: every sealed file that is damaged, foreign or stale (see
  pipeline.artifacts.seal), every expected artifact that has no seal, and every file
  built from one of those, is moved aside, with its seal, to the same path under
  `data/repair/` (quarantined) before the job graph is built. Snakemake then sees it
  missing and rebuilds it from its own inputs, and everything built from it, instead of
  building on it; the data package is never rewritten around it. Nothing is lost: the bad
  file is kept for inspection, outside the published folder, so `verify` passes on the
  rebuilt one.
  Snakemake offers a Snakefile no sanctioned way to force a rule, and a damaged file has
  no use, so moving it is the honest repair. A dry run only names what a run would move.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

from pipeline.artifacts import catalog, layout, seal
from pipeline.artifacts.words import read_word_index
from pipeline.core.errors import ArtifactError
from pipeline.core.files import sha256_file
from pipeline.core.word_index import WordIndex

PACKAGE = "pipeline"


@cache
def _module_path(root: Path, module: str) -> Path | None:
    """Source file of a module of the package under `root`, or None if it is not one."""
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


# The import statements that name the package, at any indent (so also inside functions),
# a parenthesised list included. Only these are parsed: with every module parsed whole,
# the code inputs took 0.52 s of each Snakemake start (and a cluster job's); now 0.07 s.
# A text in a string that looks like such a statement adds a dependency, never hides one.
_PACKAGE_IMPORT = re.compile(
    rf"^[ \t]*(?:from[ \t]+{PACKAGE}[\w.]*[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)"
    rf"|import[ \t]+[^\n]*\b{PACKAGE}\b[^\n]*)",
    re.MULTILINE,
)


def _import_nodes(text: str, path: Path) -> list[ast.AST]:
    """The package's import statements in a module's source: those the pattern finds, or,
    if one of them does not parse on its own (a backslash continuation), the whole file's."""
    try:
        return [
            node
            for statement in _PACKAGE_IMPORT.findall(text)
            for node in ast.parse(statement.strip(), filename=str(path)).body
        ]
    except SyntaxError:
        return list(ast.walk(ast.parse(text, filename=str(path))))


@cache
def _imported(root: Path, module: str) -> frozenset[str]:
    """Package modules that `module`'s source imports anywhere (top level or in functions).
    Cached: the closures of the stages share most modules, each read once per run."""
    path = _module_path(root, module)
    found: set[str] = set()
    for node in _import_nodes(path.read_text(encoding="utf-8"), path):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(n for n in names if n.split(".")[0] == PACKAGE and _module_path(root, n))
    return frozenset(found)


@cache
def import_closure(root: Path, module: str) -> tuple[str, ...]:
    """`module` and every package module it imports, directly or not, with their packages."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        parts = current.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # parent packages
        todo.extend(_imported(root, current) - seen)
    return tuple(sorted(seen))


def code_version(root: str | Path, module: str) -> str:
    """A digest of `module`'s import closure: each module's name and the sha256 of its
    source (core.files.sha256_file: hashed again whenever the file changes), never its
    path, so moving the checkout keeps it."""
    root = Path(root).resolve()
    digest = hashlib.sha256()
    for name in import_closure(root, module):
        digest.update(f"{name}\0{sha256_file(_module_path(root, name))}\n".encode())
    return f"code {digest.hexdigest()[:16]}"


def word_index(path: str) -> WordIndex:
    """The checked word index (read_word_index), read once per version (mtime and size) of
    the file and its seal: the input functions of about 70 jobs ask for it each time
    Snakemake updates the job graph (after each checkpoint, while the run waits)."""
    files = (Path(path), seal.seal_path(path))
    return _read_word_index(path, tuple((f.stat().st_mtime_ns, f.stat().st_size) for f in files))


@cache
def _read_word_index(path: str, versions: tuple[tuple[int, int], ...]) -> WordIndex:
    return read_word_index(path)


def is_stale(path: str | Path) -> bool:
    """Whether `path` matches its seal but one of its inputs changed since: in a running
    workflow, a file whose inputs are being rebuilt, so it will be rebuilt too (an input
    function must wait for it, not read it)."""
    return seal.problem(path, check_inputs=False) is None and seal.problem(path) is not None


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
            lines.append(f"wordle: {problem}: moved to {quarantine(path)}, rebuilding it")
    return lines


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
        trouble = seal.problem(artifact, absent_inputs_are_stale=True)
        if trouble:
            problems[artifact.as_posix()] = trouble
    for artifact in map(Path, expected):
        if artifact.is_file() and not seal.seal_path(artifact).is_file():
            problems[artifact.as_posix()] = seal.problem(artifact) or f"{artifact}: unsealed"
    return problems
