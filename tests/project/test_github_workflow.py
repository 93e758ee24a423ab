"""The CI artifact workflow cannot run here, so it is linted and its promises checked."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

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
