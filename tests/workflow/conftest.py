"""Every test here runs Snakemake end to end: the whole folder is `slow` (pyproject.toml's
markers), so `pytest -m "not slow"` leaves it out and tests/conftest.py deals it out first."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark before tests/conftest.py sorts the slow tests first (tryfirst)."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.slow)
