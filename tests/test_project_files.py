"""The repository's license and citation agree with the package's metadata."""

from __future__ import annotations

import tomllib

import yaml

from tests.conftest import REPO


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
