"""The data package as its consumers check it: `frictionless validate`, the Frictionless
Data project's own command, on the fixture's whole package, every row of every resource.

A Parquet table is read by frictionless through pandas: a null integer arrives as NaN and
a list as a numpy array, and it cannot count the file's bytes. The descriptor says so in
the standard's terms (pipeline.artifacts.datapackage: NULL_INTEGER, LIST_TYPE), and this
test fails the day a column or a resource is described in a way frictionless refuses.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.artifact_set import shared_artifact_set

FRICTIONLESS = Path(sys.executable).with_name("frictionless")


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    return shared_artifact_set(tmp_path_factory, "fixture").manifest


def test_frictionless_validates_the_whole_package_with_its_data(package):
    command = shutil.which("frictionless") or str(FRICTIONLESS)
    result = subprocess.run(
        [command, "validate", "--json", package.name],
        cwd=package.parent, capture_output=True, text=True, check=False,
    )  # fmt: skip
    report = json.loads(result.stdout)
    failures = [
        (task["name"], [e["message"] for e in task["errors"][:3]])
        for task in report["tasks"]
        if not task["valid"]
    ]
    assert report["valid"] and not failures and not report["errors"], failures
    assert result.returncode == 0
    tables = [task for task in report["tasks"] if task["type"] == "table"]
    descriptor = json.loads(package.read_text())
    parquet = [r for r in descriptor["resources"] if r["format"] == "parquet"]
    assert len(tables) == len(parquet) >= 10
    rows = {r["name"]: r["rows"] for r in parquet}
    assert all(task["stats"]["rows"] == rows[task["name"]] for task in tables)
