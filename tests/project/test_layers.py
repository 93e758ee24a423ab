"""The package's layers hold (ARCHITECTURE.md): a module imports only the layers above its
own, never one below it and never a sibling beside it, whether at the top of the file or
inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.fixtures import REPO

PACKAGE = REPO / "pipeline"
# Layer of each subpackage: a smaller number is above. Siblings share a number.
LEVELS = {
    "core": 0,
    "kernels": 1,
    "analysis": 2,
    "artifacts": 3,
    "sources": 3,
    "stages": 4,
    "commands": 4,
    # What the Snakefile asks while it builds the job graph: below every layer but the
    # workflow itself. Stages never import it (they get its choices as params).
    "plan": 5,
}


def layer(module: str) -> tuple[str, int] | None:
    """(layer name, level) of a module of the package, None for the package itself."""
    parts = module.split(".")
    if parts[0] != "pipeline" or len(parts) == 1:
        return None
    return parts[1], LEVELS[parts[1]]


def module_name(path: Path) -> str:
    relative = path.relative_to(REPO).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def imported(path: Path) -> set[str]:
    """Every pipeline module `path` imports, anywhere in the file."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name.startswith("pipeline.")}


def wrong_way(importer: str, target: str) -> bool:
    mine, theirs = layer(importer), layer(target)
    if mine is None or theirs is None or mine[0] == theirs[0]:
        return False
    return theirs[1] >= mine[1]


def violations(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        importer = module_name(path)
        for target in sorted(imported(path)):
            if wrong_way(importer, target):
                found.append(f"{importer} imports {target}")
    return found


def test_no_import_runs_the_wrong_way():
    assert violations(PACKAGE) == []


def test_every_subpackage_has_a_layer():
    subpackages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert subpackages == set(LEVELS)


def test_no_module_lies_loose_at_the_package_root():
    assert [p.name for p in PACKAGE.glob("*.py")] == ["__init__.py"]


@pytest.mark.parametrize(
    ("importer", "target", "wrong"),
    [
        ("pipeline.kernels.partition", "pipeline.core.ties", False),
        ("pipeline.core.ties", "pipeline.kernels.partition", True),  # upward
        ("pipeline.stages.fetch_source", "pipeline.commands.assistant", True),  # sibling
        ("pipeline.artifacts.raw", "pipeline.sources.fetch", True),  # sibling
        ("pipeline.plan.repair", "pipeline.artifacts.seal", False),
        ("pipeline.commands.assistant", "pipeline.plan.repair", True),
        ("pipeline.stages.merge_optimal", "pipeline.plan.optimal_stage", True),
        ("pipeline.stages.merge_optimal", "pipeline.analysis.optimal.edition_plan", False),
        (
            "pipeline.analysis.benchmark.games",
            "pipeline.analysis.benchmark.strategies",
            False,
        ),  # same layer
        # the analysis layer's subpackages are one layer: one may import another
        ("pipeline.analysis.history.replay", "pipeline.analysis.advice.fallback", False),
    ],
)
def test_the_rule_itself(importer, target, wrong):
    assert wrong_way(importer, target) is wrong


def test_imports_are_found_at_the_top_and_inside_functions():
    found = imported(PACKAGE / "commands" / "assistant" / "data.py")
    assert "pipeline.artifacts.words" in found  # at the top
    assert "pipeline.artifacts.optimal" in found  # inside a method
    assert module_name(PACKAGE / "kernels" / "opener_search" / "__init__.py") == (
        "pipeline.kernels.opener_search"
    )
