"""What the Snakefile asks while it builds the job graph: code inputs and file integrity.

- code_inputs: the source files a stage's job runs, computed from the import closure of
  its module (every `import pipeline...` in the package's source, also inside
  functions), as paths relative to the working directory. Editing a module reruns
  exactly the rules whose stage imports it; moving the checkout reruns nothing.
- find_damaged and quarantine: every sealed file that is damaged, foreign or stale (see
  pipeline.artifacts.seal), and every expected artifact that has no seal, is moved
  aside to `<file>.damaged` before the job graph is built. Snakemake then sees it
  missing and rebuilds it from its own inputs, and everything built from it, instead of
  building on it; the data package is never rewritten around it. Nothing is lost: the bad
  file stays beside, for inspection. Snakemake offers a Snakefile no sanctioned way to
  force a rule, and a damaged file has no use, so moving it is the honest repair.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from pipeline.artifacts import seal

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


def code_inputs(root: str | Path, module: str, workdir: str | Path = ".") -> list[str]:
    """Source files of `module`'s import closure, relative to `workdir` (posix paths)."""
    root = Path(root).resolve()
    files = [_module_path(root, name) for name in import_closure(root, module)]
    return sorted(Path(os.path.relpath(f, Path(workdir).resolve())).as_posix() for f in files)


def workdir_locked(workdir: str | Path = ".") -> bool:
    """Whether a running Snakemake holds this working directory (its lock files exist).

    Then its jobs may be writing files right now, between a file and its seal: leave
    everything alone (the run itself will refuse to start on the lock).
    """
    locks = Path(workdir) / ".snakemake" / "locks"
    return locks.is_dir() and any(locks.iterdir())


def quarantine(path: str | Path) -> Path:
    """Move a damaged file aside to `<file>.damaged` (replacing an older one)."""
    path = Path(path)
    target = path.with_name(path.name + ".damaged")
    os.replace(path, target)
    return target


def repair(sealed_roots: Iterable[str | Path], expected: Iterable[str | Path]) -> list[str]:
    """Move every damaged, foreign or stale file aside, then what was built from it, until
    nothing is left to move; return one line per file moved.

    Moving a file makes what was built from it stale in turn (its input is now absent),
    so the check repeats: Snakemake does not rebuild a missing input of a job that reads
    a checkpoint's output, so every file downstream must go explicitly.
    """
    expected = list(expected)
    lines = []
    while damaged := find_damaged(sealed_roots, expected):
        for path, problem in damaged.items():
            moved = quarantine(path)
            lines.append(f"wordle: {problem.split('; ')[0]}: moved to {moved}, rebuilding it")
    return lines


def find_damaged(
    sealed_roots: Iterable[str | Path], expected: Iterable[str | Path]
) -> dict[str, str]:
    """Path -> problem for every damaged, foreign or stale file (see the module docstring).

    Sealed files are found by their seals under `sealed_roots`; `expected` artifacts that
    exist without a seal are foreign. Missing files are Snakemake's business.
    """
    problems: dict[str, str] = {}
    for root in map(Path, sealed_roots):
        for found in sorted(root.rglob(f"*{seal.SEAL_SUFFIX}")) if root.is_dir() else []:
            artifact = Path(str(found)[: -len(seal.SEAL_SUFFIX)])
            trouble = artifact.is_file() and seal.problem(artifact, absent_inputs_are_stale=True)
            if trouble:
                problems[artifact.as_posix()] = trouble
    for artifact in map(Path, expected):
        if artifact.is_file() and not seal.seal_path(artifact).is_file():
            problems[artifact.as_posix()] = seal.problem(artifact) or f"{artifact}: unsealed"
    return problems
