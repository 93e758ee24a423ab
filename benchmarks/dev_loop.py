"""The developer's loop (issue 72, point 6): the fast lane and, on request, the whole
suite, each beside the baseline that most of the suite's time is made of.

The suite's end-to-end tests run the real workflow on the tiny fixture
(tests/support/workflow_helpers.py), so the baseline is one warm build of that fixture
from scratch in the same run: the loop is reported in fixture builds as well as in
seconds, a ratio that moves when the tests change and less when the machine does. The
suite's test-seconds (setup, call and teardown, every worker) are summed by file from
pytest's --durations=0, the table benchmarks/HISTORY.md keeps.
"""

from __future__ import annotations

import collections
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.first_run import children_cpu
from benchmarks.kernels import report

REPO = Path(__file__).resolve().parents[1]
FAST_LANE = ("-m", "not slow and not mirror")  # docs/development.md's fast lane
DURATION = re.compile(r"^([\d.]+)s (?:call|setup|teardown)\s+(\S+?)::", re.M)
SHOWN_FILES = 12  # the suite's costliest files, by test-seconds


@dataclass
class Timed:
    """A measured command: wall and CPU seconds (every process it waited for)."""

    wall: float
    cpu: float
    ok: bool = True
    by_file: dict[str, float] = field(default_factory=dict)


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> Timed:
    """Run `command`, its output to a log file; the log's tail is printed if it fails."""
    before, started = children_cpu(), time.monotonic()
    with tempfile.TemporaryFile(mode="w+") as log:
        result = subprocess.run(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        log.seek(0)
        output = log.read()
    measured = Timed(time.monotonic() - started, children_cpu() - before, result.returncode == 0)
    if not measured.ok:
        print(f"  FAILED ({result.returncode}): {' '.join(command)}\n{output[-3000:]}")
    for seconds, path in DURATION.findall(output):
        measured.by_file[path] = measured.by_file.get(path, 0.0) + float(seconds)
    return measured


def fixture_build() -> Timed:
    """One build of the fixture workflow from scratch at --cores 2, in a scratch checkout,
    with the repository's numba cache of the test runs (tests/conftest.py), so warm.
    Imported here: the other sections never read the tests' helpers."""
    from tests.support.workflow_helpers import make_checkout, snakemake_command

    env = {**os.environ, "NUMBA_CACHE_DIR": str(REPO / ".pytest_cache" / "numba")}
    env.pop("WORDLE_MIRROR", None)
    with tempfile.TemporaryDirectory(prefix="wordle-loop-") as folder:
        checkout = make_checkout(Path(folder) / "checkout")
        return timed(snakemake_command(checkout), checkout, env)


def pytest_run(*args: str) -> Timed:
    return timed([sys.executable, "-m", "pytest", "-n", "2", "-q", *args], REPO)


def measure(suite: bool) -> dict[str, Timed]:
    """The baseline, the fast lane and (with `suite`) the whole suite, one after another."""
    fixture_build()  # compiles what a cold cache lacks, so the baseline is a warm build
    measured = {"fixture build": fixture_build(), "fast lane": pytest_run(*FAST_LANE)}
    if suite:
        measured["suite"] = pytest_run("--durations=0")
    return measured


def print_loop(measured: dict[str, Timed]) -> None:
    base = measured["fixture build"]
    print("the developer's loop at -n 2, against one warm fixture build from scratch")
    for name, run in measured.items():
        status = "" if run.ok else "(FAILED)"
        report(f"{name}: wall", run.wall, "s", status)
        report(f"{name}: CPU", run.cpu, "s")
        if run is not base:
            report(f"{name}: wall in fixture builds", run.wall / base.wall, "x")
    suite = measured.get("suite")
    if suite and suite.by_file:
        print(f"  test-seconds by file, the costliest {SHOWN_FILES}:")
        costly = collections.Counter(suite.by_file).most_common(SHOWN_FILES)
        for path, seconds in costly:
            print(f"    {seconds:8.0f}  {path}")
        print(f"    {sum(suite.by_file.values()):8.0f}  every file")
