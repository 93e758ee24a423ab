"""The suite's plugins (shared fixtures: tests/support/fixtures.py) and the order in
which its tests are dealt out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# One numba cache for the run, read and written by every process of it (both xdist
# workers, every Snakemake job of every test checkout, every command a test starts), and
# kept for the next run of this checkout: set before anything imports numba. Its kernels
# are filed by their source digest (pipeline/kernels/jit.py), so a checkout a test edited
# compiles its own, and each is compiled once (pipeline/kernels/compiling.py). The
# pytest cache folder ignores its contents in git.
os.environ.setdefault(
    "NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".pytest_cache" / "numba")
)

pytest_plugins = [
    "tests.support.fixtures",
    "tests.support.assistant_fixture",  # the assistant's fixture folder
]


# The longest tests, dealt out first and in this order (see below): xdist gives the first
# worker the first two and the second worker the next two. The first worker builds the
# shared fixture (`built_checkout`, about 150 s), then runs the README blocks in a checkout that
# starts with the build's compiled numba kernels (compiling them again cost about 100 s of
# CPU); the second runs the real two-step ranking (in process, no fixture) and then the
# SLURM run, which needs the build, done by then, so neither waits on the other's lock.
# The rest follow longest first (minutes, measured in a whole run on 2 cores, 2026-11-25).
LONGEST_FIRST = (
    # the shared fixture build, 2.7
    "tests/workflow/test_workflow.py::test_run_builds_every_artifact",
    "tests/project/test_readme_commands.py::test_every_readme_shell_block_runs_as_written",  # 4.6
    "tests/stages/test_rank_openers.py::test_real_two_step_rankings",  # 2.9
    # 3.4 (6.1 when it ran the whole workflow)
    "tests/workflow/test_slurm.py::test_slurm_profile_builds_the_same_artifacts_as_a_local_run",
    "tests/workflow/test_publish.py::test_every_publishing_step_works_from_a_fresh_checkout",  # 3.0
    # 2.8
    "tests/workflow/test_workflow.py::test_cluster_executor_runs_every_job_as_its_own_process",
    # 2.3
    "tests/workflow/test_remote_storage.py::test_s3_default_storage_gives_a_local_runs_artifacts",
    "tests/workflow/test_workflow.py::test_killed_runs_resume_to_identical_artifacts",  # 0.9
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The end-to-end (slow) tests first, the longest of them in LONGEST_FIRST's order,
    then the rest: with `-n 2` and xdist's --maxschedchunk=2 (pyproject.toml), which deals
    the tests out two at a time, both workers start on the long Snakemake runs and the many
    short tests fill in behind them. Every xdist worker sorts alike, so they agree on the
    collection."""
    for item in items:  # what reads the real lists is a mirror test, marked or not
        if "mirror" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.mirror)
    rank = {nodeid: number for number, nodeid in enumerate(LONGEST_FIRST)}
    items.sort(
        key=lambda item: (
            item.get_closest_marker("slow") is None,
            rank.get(item.nodeid, len(rank)),
        )
    )
