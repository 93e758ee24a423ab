"""The SLURM profile on a real cluster: the fixture's optimal stage and everything it is
built from (both checkpoints, the grouped jobs, the per-opener jobs), as sbatch jobs. Every
other rule runs as its own process in test_workflow's cluster executor test.

Needs a SLURM cluster whose nodes see this machine's temporary folder: `.ci/slurm.sh up`
(as root) starts a single-node one from Debian's packages, and `.ci/run` does that.
Skipped, with the reason, when no cluster answers or no node is idle. On a multi-node
cluster, set WORDLE_SLURM_TMP to a folder on the shared file system.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.support.workflow_helpers import (
    OPTIMAL_STAGE,
    derived_digests,
    make_checkout,
    snakemake,
)

# Snakemake with the SLURM plugin's status checks at a steady pace (see that script)
STEADY_CHECKS = Path(__file__).parents[1] / "support" / "cluster" / "snakemake_steady_checks.py"


def no_cluster_reason() -> str | None:
    """Why the SLURM test cannot run here, or None when a node is idle."""
    for command in ("sinfo", "sbatch", "squeue"):
        if shutil.which(command) is None:
            return f"no SLURM cluster: `{command}` not found (as root: bash .ci/slurm.sh up)"
    try:
        result = subprocess.run(
            ["sinfo", "--noheader", "--Node", "--format", "%T"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "no SLURM cluster: sinfo did not answer within 20 s"
    if result.returncode != 0:
        return f"no SLURM cluster: sinfo failed: {result.stderr.strip()}"
    states = result.stdout.split()
    if not any(state.startswith(("idle", "mix")) for state in states):
        return f"no idle SLURM node (sinfo node states: {states or 'none'})"
    return None


@pytest.fixture
def shared_tmp(tmp_path: Path):
    """A folder the cluster's nodes see: tmp_path, or one below WORDLE_SLURM_TMP."""
    base = os.environ.get("WORDLE_SLURM_TMP")
    if not base:
        yield tmp_path
        return
    path = Path(tempfile.mkdtemp(prefix="wordle-slurm-", dir=base))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_slurm_profile_builds_the_same_artifacts_as_a_local_run(built_checkout, shared_tmp):
    reason = no_cluster_reason()
    if reason:
        pytest.skip(reason)

    cluster = make_checkout(shared_tmp / "slurm")
    started = time.monotonic()
    # The repository's profile as it is; only the status checks come every second, not
    # after the profile's 10 s and ever longer waits, because every fixture job takes seconds.
    result = snakemake(
        cluster,
        *OPTIMAL_STAGE,
        "--slurm-init-seconds-before-status-checks",
        "1",
        "--seconds-between-status-checks",
        "1",
        profile="slurm",
        timeout=1500,
        program=[sys.executable, str(STEADY_CHECKS)],
    )
    slurm_seconds = time.monotonic() - started
    output = result.stdout + result.stderr
    submitted = re.findall(r"submitted with SLURM jobid (\d+)", output)
    print(f"SLURM run {slurm_seconds:.0f} s with {len(submitted)} sbatch jobs")
    assert submitted, "no job went through sbatch:\n" + output[-3000:]

    built = derived_digests(cluster)
    assert set(OPTIMAL_STAGE) <= {f"data/derived/{name}" for name in built}
    expected = derived_digests(built_checkout)
    assert built == {name: expected.get(name) for name in built}
