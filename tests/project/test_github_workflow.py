"""The CI artifact workflow cannot run here, so it is linted and its promises checked."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config

from pipeline.plan.optimal_stage import optimal_plan
from tests.support.config_check import checked_config
from tests.support.fixtures import REPO

WORKFLOW = REPO / ".github" / "workflows" / "artifacts.yml"


def actionlint() -> str:
    """The actionlint binary that the test extra installs beside this Python."""
    beside = Path(sys.executable).with_name("actionlint")
    found = str(beside) if beside.exists() else shutil.which("actionlint")
    if found is None:
        pytest.fail("actionlint is missing: install the test extra (the README's test command)")
    return found


def test_actionlint_finds_nothing():
    result = subprocess.run([actionlint(), str(WORKFLOW)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_would_catch_a_broken_workflow(tmp_path):
    broken = tmp_path / ".github" / "workflows" / "broken.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(WORKFLOW.read_text().replace("runs-on: ubuntu-latest", "runs-on: 3", 1))
    result = subprocess.run([actionlint(), str(broken)], capture_output=True)
    assert result.returncode == 1


def test_workflow_runs_the_publishing_script_step_by_step():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as True
    assert triggers["push"] == {"branches": ["main"], "tags": ["v*"]}
    assert "schedule" in triggers and "workflow_dispatch" in triggers
    jobs = workflow["jobs"]
    assert any("bash .ci/run" in step.get("run", "") for step in jobs["tests"]["steps"])

    def publish_steps(job: str) -> list[str]:
        runs = [step.get("run", "") for step in jobs[job]["steps"]]
        return [run.split()[2] for run in runs if run.startswith("python3 .ci/publish.py")]

    assert publish_steps("artifacts") == ["install", "pipeline", "report", "verify"]
    assert publish_steps("release") == ["install", "verify", "bundle", "hub"]
    hub = next(s for s in jobs["release"]["steps"] if "publish.py hub" in s.get("run", ""))
    assert hub["if"] == "env.HF_TOKEN != '' && env.HF_DATASET_REPO != ''"
    assert jobs["release"]["env"]["HF_TOKEN"] == "${{ secrets.HF_TOKEN }}"
    cache = next(
        s for s in jobs["artifacts"]["steps"] if s.get("uses", "").startswith("actions/cache")
    )
    assert cache["with"]["path"] == "data/raw"
    uploads = {
        step["with"]["path"]
        for step in jobs["artifacts"]["steps"]
        if "upload-artifact" in step.get("uses", "")
    }
    assert uploads == {"data/derived", "report.html"}
    release = jobs["release"]
    assert release["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert "gh release upload" in yaml.safe_dump(release["steps"])


def release_config_files(job_steps: list[dict], step: str) -> list[str]:
    """The config files a publish step of the artifacts job gives Snakemake."""
    run = next(
        s["run"] for s in job_steps if s.get("run", "").startswith(f"python3 .ci/publish.py {step}")
    )
    snakemake_args = shlex.split(shlex.split(run.split("--snakemake-args", 1)[1])[0])
    assert snakemake_args[0] == "--configfile", run
    return snakemake_args[1:]


def checked_plans(files: list[str]) -> dict[str, bool]:
    """Edition -> whether it certifies, for the config these files give (merged in order, as
    Snakemake does), completed and checked as the Snakefile does."""
    config: dict = {}
    for name in files:
        update_config(config, yaml.safe_load((REPO / name).read_text()))
    config = checked_config(config)
    enabled = [name for name, entry in config["editions"].items() if entry["enabled"]]
    return {edition: optimal_plan(config, edition).certify for edition in enabled}


def test_what_a_release_publishes_is_certified_for_every_edition():
    """Issue 62: the artifacts job certifies every default edition in both modes, whatever
    the default run does; its report step sees the same config (so it rebuilds nothing)."""
    steps = yaml.safe_load(WORKFLOW.read_text())["jobs"]["artifacts"]["steps"]
    files = release_config_files(steps, "pipeline")
    assert release_config_files(steps, "report") == files
    assert files[0] == "config.yaml"
    default = checked_plans(["config.yaml"])
    assert default["nyt2023"] is False  # the default run does not certify it (its cost)
    released = checked_plans(files)
    assert released.keys() == default.keys() and all(released.values()), released
