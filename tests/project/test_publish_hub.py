"""CI's optional push to a Hugging Face dataset repository (.ci/publish.py hub): without
a token and a repository it pushes nothing, says so, and does not fail the release."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.fixtures import REPO


def test_without_a_token_nothing_is_pushed_and_the_step_succeeds():
    env = {k: v for k, v in os.environ.items() if k not in ("HF_TOKEN", "HF_DATASET_REPO")}
    result = subprocess.run(
        [sys.executable, str(REPO / ".ci" / "publish.py"), "hub", "--tag", "v0"],
        cwd=REPO, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "publish: hub: HF_TOKEN and HF_DATASET_REPO are not both set; nothing pushed\n"
    )
