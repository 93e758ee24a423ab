"""The repository's license and citation agree with the package's metadata; the test
suite's own ordering names real tests."""

from __future__ import annotations

import importlib
import tomllib

import yaml

from tests.conftest import LONGEST_FIRST
from tests.support.fixtures import REPO


def test_license_file_matches_the_package_license():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["license"]["text"] == "MIT"
    assert (REPO / "LICENSE").read_text().startswith("MIT License")


def test_citation_names_this_version_and_its_license():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0"
    assert citation["version"] == project["version"]
    assert citation["license"] == "MIT"
    assert any("alex1770/wordle" in ref.get("url", "") for ref in citation["references"])


def test_the_tests_conftest_deals_out_first_exist_and_are_slow():
    """A renamed test would silently lose its place at the front of the run."""
    for nodeid in LONGEST_FIRST:
        path, name = nodeid.split("::")
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        test = getattr(module, name, None)
        assert callable(test), nodeid
        module_marks = getattr(module, "pytestmark", [])
        if not isinstance(module_marks, list):
            module_marks = [module_marks]
        marks = [*getattr(test, "pytestmark", []), *module_marks]
        # tests/workflow/conftest.py marks its whole folder slow
        slow_folder = path.startswith("tests/workflow/")
        assert slow_folder or any(mark.name == "slow" for mark in marks), nodeid
