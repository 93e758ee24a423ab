"""No import circle among the package's modules (issue 48): no module imports, directly
or through others, a module that imports it back, whether at the top of the file or
inside a function (a lazy import hides a circle, it does not break it)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.project.test_layers import PACKAGE


def imports(path: Path, modules: set[str]) -> set[str]:
    """The `modules` that `path` imports, anywhere in the file; `from package import
    module` names the module (a package's own __init__ is not counted as imported
    through it: `from pipeline.x import y` asks pipeline.x only for a name that is no
    module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            inside = {f"{node.module}.{alias.name}" for alias in node.names}
            found.update(inside & modules)
            if not inside <= modules:
                found.add(node.module)
    return found & modules


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module of the package folder -> the package's modules it imports."""
    names = {}
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package.parent).with_suffix("")
        names[path] = ".".join(relative.parts[:-1] if path.stem == "__init__" else relative.parts)
    modules = set(names.values())
    return {name: imports(path, modules) - {name} for path, name in names.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, each sorted (the strongly connected
    components of more than one module, by Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return sorted(found)


def test_no_module_of_the_package_is_in_an_import_circle():
    graph = import_graph(PACKAGE)
    assert "pipeline.commands.assistant.advisor" in graph["pipeline.commands.assistant.cli"]
    assert circles(graph) == []


def test_a_circle_is_found_through_any_number_of_modules():
    graph = {"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": set(), "e": {"a", "e"}, "f": {"g"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"x": {"y"}, "y": {"x"}, "z": {"x"}}) == [["x", "y"]]


def test_the_assistants_old_circle_is_seen(tmp_path):
    """The circle issue 48 named: the command imported play inside a function, and play
    imported the command's exit codes inside one of its own."""
    folder = tmp_path / "pipeline" / "commands"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "assistant.py").write_text(
        "def run():\n    from pipeline.commands.assistant_play import play\n"
    )
    (folder / "assistant_play.py").write_text(
        "def play():\n    from pipeline.commands.assistant import EXIT_OK\n"
    )
    graph = import_graph(tmp_path / "pipeline")
    assert circles(graph) == [["pipeline.commands.assistant", "pipeline.commands.assistant_play"]]
