"""Rules and code: the one contract between a rule and its stage, and code changes that
rerun exactly the rules whose stage imports the changed module."""

from __future__ import annotations

import functools
import inspect
import modulefinder
import re
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from pipeline.plan.code_version import code_version, import_closure
from tests.support.fixtures import REPO
from tests.support.workflow_helpers import (
    clone_checkout,
    fixture_env,
    make_checkout,
    planned_jobs,
    snakemake,
    snakemake_command,
)

SCRIPTS = REPO / "workflow" / "scripts"
MODULES = sorted(path.relative_to(REPO).as_posix() for path in (REPO / "pipeline").rglob("*.py"))
# Edited for real, one of each kind: the package root (every rule), a kernel (the pattern
# matrix and all after it), a module of the checkpoint that names the optimal jobs, one
# read only near the end, and one no rule imports. That every other module is declared
# where it must be is checked for all of them at once from the parsed rules.
EDITED_MODULES = [
    "pipeline/__init__.py",
    "pipeline/kernels/feedback_jit.py",
    "pipeline/analysis/openers/tables.py",
    "pipeline/analysis/benchmark/tables.py",
    "pipeline/commands/assistant/game.py",
]


def script_stage(script: Path) -> tuple[str, str]:
    """(stage module, stage function) a rule's script hands its job to."""
    text = script.read_text()
    found = re.search(r"^from (pipeline\.stages\.(?!adapter)\w+) import (\w+)$", text, re.M)
    assert found, f"{script} imports no stage"
    assert f"run_stage(snakemake, {found.group(2)})" in text, f"{script} does not run it"
    return found.group(1), found.group(2)


@functools.cache
def rule_stages() -> dict[str, tuple[str, str]]:
    """Rule name -> (stage module, stage function) its script runs."""
    return {name: script_stage(script) for name, _, _, _, script, *_ in workflow_rules()}


def modulefinder_closure(module: str) -> set[str]:
    """The package modules `module` imports, by Python's own modulefinder (an independent
    reading of the same source: it follows imports inside functions too)."""
    finder = modulefinder.ModuleFinder(path=[str(REPO)])
    finder.import_hook(module)  # as `import module` does: its packages, then the module
    return {name for name in finder.modules if name.split(".")[0] == "pipeline"}


def closure_files(module: str) -> set[str]:
    files = set()
    for name in modulefinder_closure(module):
        base = REPO / name.replace(".", "/")
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        files.add(path.relative_to(REPO).as_posix())
    return files


def workflow_rules():
    """The parsed workflow's rules, through Snakemake's own API."""
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import (
        ConfigSettings,
        OutputSettings,
        ResourceSettings,
        StorageSettings,
    )

    with SnakemakeApi(OutputSettings(quiet={"all"})) as api:
        workflow = api.workflow(
            resource_settings=ResourceSettings(cores=2),
            config_settings=ConfigSettings(),
            storage_settings=StorageSettings(),
            snakefile=REPO / "Snakefile",
            workdir=REPO,
        )._workflow
        return [
            (
                rule.name,
                set(rule.input._names),
                set(rule.output._names),
                set(rule.params._names),
                (Path(rule.snakefile).parent / rule.script).resolve(),
                {
                    str(path)
                    for path in rule.input
                    if isinstance(path, str) and path.endswith(".py")
                },
                [value for value in rule.params if str(value).startswith("code ")],
            )
            for rule in workflow.rules
            if rule.script
        ]


def test_every_rule_hands_exactly_its_named_files_and_params_to_its_stage():
    scripts = set()
    for name, inputs, outputs, params, script, *_ in workflow_rules():
        module_name, function_name = script_stage(script)
        scripts.add(script)
        stage = getattr(__import__(module_name, fromlist=[function_name]), function_name)
        signature = inspect.signature(stage)
        assert inputs | outputs | params == set(signature.parameters) - {"threads"}, name
        assert all(p.kind is p.KEYWORD_ONLY for p in signature.parameters.values()), name
        assert typing.get_type_hints(stage)["return"] is type(None), name
    assert scripts == set(SCRIPTS.glob("*.py")), "a script no rule runs"


def test_import_closures_are_modulefinders():
    for module, _ in set(rule_stages().values()):
        assert set(import_closure(REPO, module)) == modulefinder_closure(module), module


def test_a_code_version_changes_exactly_with_the_modules_its_stage_imports(tmp_path):
    """Editing any module of the package changes the code version of exactly the stages
    whose closure (by modulefinder) holds it; the same files elsewhere (a moved checkout)
    have the same versions."""
    root = tmp_path / "here"
    shutil.copytree(REPO / "pipeline", root / "pipeline", ignore=shutil.ignore_patterns("__py*"))
    stages = sorted({module for module, _ in rule_stages().values()})
    closures = {stage: closure_files(stage) for stage in stages}
    versions = {stage: code_version(root, stage) for stage in stages}
    assert versions == {stage: code_version(REPO, stage) for stage in stages}
    assert len(set(versions.values())) == len(stages)
    for module in MODULES:
        path = root / module
        original = path.read_bytes()
        path.write_bytes(original + b"\n# edited by a test\n")
        changed = {stage for stage in stages if code_version(root, stage) != versions[stage]}
        path.write_bytes(original)
        assert changed == {stage for stage in stages if module in closures[stage]}, module


def test_import_closure_reads_every_form_of_import(tmp_path):
    """A made-up package: imports at the top, in a function, in parentheses over several
    lines, with aliases, and one continued by a backslash (the whole file is parsed then);
    relative imports and other packages do not count."""
    root = tmp_path / "root"
    sources = {
        "__init__.py": "",
        "stage.py": (
            "import os, pipeline.a as a\n"
            "from pipeline import b\n"
            "from pipeline.c import (\n    d,  # a module\n    value,\n)\n"
            "from . import e\n"
            "def late():\n    from pipeline.f import g\n"
        ),
        "a.py": "",
        "b.py": "from pipeline.h import \\\n    thing\n",
        "c/__init__.py": "value = 1\n",
        "c/d.py": "",
        "e.py": "",
        "f.py": "",
        "h.py": "",
        "unused.py": "",
    }
    for name, text in sources.items():
        path = root / "pipeline" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    closure = import_closure(root, "pipeline.stage")
    assert closure == (
        "pipeline", "pipeline.a", "pipeline.b", "pipeline.c", "pipeline.c.d",
        "pipeline.f", "pipeline.h", "pipeline.stage",
    )  # fmt: skip


def test_the_snakefile_starts_without_the_compute_libraries(tmp_path):
    """Snakemake parses the Snakefile at every start, and on a cluster in every job: what
    it imports (the package's paths, seals and config checks) must not pull in numba or
    polars, which only the jobs need (numba alone took 0.45 s of a 2.6 s dry run)."""
    checkout = make_checkout(tmp_path / "checkout")
    result = subprocess.run(
        snakemake_command(checkout, "--dry-run"),
        cwd=checkout,
        capture_output=True,
        text=True,
        env={**fixture_env(), "PYTHONPROFILEIMPORTTIME": "1"},
        check=True,
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()}
    assert {"snakemake", "pipeline.plan.repair", "pipeline.analysis.optimal.tables"} <= imported
    assert not {"numba", "polars"} & imported


# Libraries a stage's jobs start without. Stages that call no kernel: numba (0.3 s of CPU
# a job, and the benchmark summary is on the critical path of every run). Libraries only
# some of a stage's jobs use: the play jobs (13 a run) build only the games table, without
# polars (0.27 s each); the report's tables are drawn without matplotlib (0.9 s).
NUMBA_FREE_STAGES = [
    "build_commonness", "build_datapackage", "build_word_index", "fetch_source",
    "index_pattern_chunks", "merge_optimal", "merge_second_guesses", "rank_openers",
    "summarize_benchmarks", "draw_report_item",
]  # fmt: skip
UNLOADED = [
    *[(stage, "numba") for stage in NUMBA_FREE_STAGES],
    ("play_strategy", "polars"),
    ("draw_report_item", "matplotlib"),
]


@pytest.mark.parametrize(("stage", "library"), UNLOADED)
def test_stages_start_without_the_libraries_their_jobs_do_not_use(stage, library):
    code = f"import sys, pipeline.stages.{stage}; print({library!r} in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_every_report_figure_names_a_drawing_function():
    from pipeline.analysis.report import figures
    from pipeline.stages.draw_report_item import FIGURES

    assert all(callable(getattr(figures, function)) for function in FIGURES.values())


def test_every_rule_passes_its_stages_code_version_as_a_param():
    """Each rule, as Snakemake parsed it, has its stage's code version as its one unnamed
    param, and no source file among its inputs (Snakemake would list them all with each
    job): editing any module reruns the rules whose stage imports it
    (test_editing_a_module_reruns_exactly_the_rules_that_import_it runs that for real)."""
    rules = workflow_rules()
    assert {name for name, *_ in rules} == set(rule_stages())
    for name, *_, python_inputs, code in rules:
        module, _ = rule_stages()[name]
        assert code == [code_version(REPO, module)], name
        assert python_inputs == set(), name
    imported = set().union(*(closure_files(module) for module, _ in rule_stages().values()))
    assert "pipeline/__init__.py" in imported
    assert "pipeline/commands/assistant/game.py" not in imported
    assert imported < set(MODULES)


@functools.cache
def consumers(checkout: Path) -> dict[str, set[str]]:
    """Rule -> the rules that read its outputs, from Snakemake's rule graph of a built
    checkout (where the word index checkpoint has run, so every rule is known)."""
    dot = snakemake(checkout, "--rulegraph").stdout
    names = dict(re.findall(r"^\s*(\d+)\[label = \"(\w+)\"", dot, flags=re.M))
    graph: dict[str, set[str]] = {name: set() for name in names.values()}
    for source, target in re.findall(r"^\s*(\d+) -> (\d+)$", dot, flags=re.M):
        graph[names[source]].add(names[target])
    return graph


def downstream(graph: dict[str, set[str]], rules: set[str]) -> set[str]:
    """`rules` and every rule that reads what they write, directly or not."""
    seen, todo = set(rules), list(rules)
    while todo:
        for consumer in graph.get(todo.pop(), set()) - seen:
            seen.add(consumer)
            todo.append(consumer)
    return seen


CHECKPOINTS = ("build_word_index", "rank_openers")
CHECKPOINT_JOBS = {"solve_optimal", "merge_optimal"}  # planned from the opener ranking


@pytest.mark.slow
@pytest.mark.parametrize("module", EDITED_MODULES)
def test_editing_a_module_reruns_exactly_the_rules_that_import_it(built_checkout, tmp_path, module):
    """The rules whose stage imports the module rerun, then what reads their outputs,
    and nothing else (Snakemake cannot know a rebuilt file comes out the same). When a
    checkpoint (the word index, the opener ranking that names the optimal jobs) reruns,
    the jobs that wait for it are planned once it has run: the dry run shows the
    checkpoint and no job outside the expected ones."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    path = checkout / module
    original = path.read_bytes()
    path.write_bytes(original + b"\n# edited by a test\n")
    direct = {rule for rule, (stage, _) in rule_stages().items() if module in closure_files(stage)}
    graph = consumers(built_checkout)
    expected = downstream(graph, direct) - {"all"}
    if "rank_openers" in expected:  # the jobs it names wait for it, not a file
        expected |= downstream(graph, CHECKPOINT_JOBS) - {"all"}
    jobs = set(planned_jobs(checkout))
    for checkpoint in CHECKPOINTS:  # in the order they run
        if checkpoint in expected:
            assert checkpoint in jobs and jobs <= expected
            return
    assert jobs == expected


@pytest.mark.slow
def test_rewriting_code_with_the_same_bytes_reruns_nothing(built_checkout, tmp_path):
    """A checkout, a `git checkout` or an editor's save gives newer files with the same
    bytes: Snakemake compares their checksums, so nothing reruns."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    for path in (checkout / "pipeline").rglob("*.py"):
        path.write_bytes(path.read_bytes())
    assert planned_jobs(checkout) == {}


@pytest.mark.slow
def test_moving_the_checkout_reruns_nothing(built_checkout, tmp_path):
    checkout = clone_checkout(built_checkout, tmp_path / "here" / "c")
    moved = tmp_path / "elsewhere" / "deeper" / "c"
    moved.parent.mkdir(parents=True)
    shutil.move(str(checkout), str(moved))
    assert planned_jobs(moved) == {}
