"""The code version of a rule: a digest of the source of its stage's import closure.

Every `import pipeline...` in the package's source counts, also inside functions, by
module name and content, never by path. Each rule passes it as an unnamed param, which
Snakemake records with the job's outputs: editing a module reruns exactly the rules whose
stage imports it; moving the checkout, or rewriting a module with the same bytes, reruns
nothing. (The rule's own script is watched by Snakemake itself.)
"""

from __future__ import annotations

import ast
import hashlib
import re
from functools import cache
from pathlib import Path

from pipeline.core.files import sha256_file

PACKAGE = "pipeline"
PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder that holds the package


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
