"""Every test runs under a time limit: a test that hangs fails under its own name and the
run goes on, instead of using up CI's 90 minutes (pyproject.toml's `timeout`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import REPO
from tests.support.locks import LOCK_WAIT

HANGS = """
import time


def test_that_hangs():
    time.sleep(3600)


def test_after_it():
    assert True
"""


def test_the_suite_has_a_time_limit_above_its_lock_waits(pytestconfig: pytest.Config):
    limit = float(pytestconfig.getini("timeout"))
    # generous for the slowest honest test, yet a hang costs at most a sixth of CI's limit
    assert 600 <= limit <= 900
    assert limit > LOCK_WAIT  # a stuck build fails as a lock wait, naming the lock file


def test_a_hanging_test_fails_under_its_name_and_the_run_goes_on(tmp_path: Path):
    (tmp_path / "test_hang.py").write_text(HANGS)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(REPO / "pyproject.toml"), "--rootdir",
         str(tmp_path), "-p", "no:cacheprovider", "-n", "0", "-o", "timeout=2",
         "-o", "addopts=", str(tmp_path / "test_hang.py")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "FAILED test_hang.py::test_that_hangs - Failed: Timeout" in output, output
    assert "1 failed, 1 passed" in output, output
