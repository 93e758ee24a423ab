"""A rule's script run as Snakemake runs it, without Snakemake: fast, for many bad inputs.

`run_rule(workdir, rule, input=..., output=..., params=...)` starts a fresh Python in
`workdir` that runs workflow/scripts/<rule>.py with a stand-in for the `snakemake` object
of the script directive: named input, output and params (objects with .items()), threads,
log and rule. As Snakemake does, it makes the folders of the outputs and of the log first.
Give paths as the rule does, relative to `workdir`, each artifact with its seal
(`sealed(path)`). Representative cases go through real `snakemake` as well
(tests/core/test_bad_input.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / "workflow" / "scripts"
Files = Mapping[str, str | list[str]]


def sealed(path: str) -> list[str]:
    """A file and its seal, as the rules declare every artifact."""
    return [path, f"{path}.seal.json"]


def run_rule(
    workdir: Path,
    rule: str,
    *,
    input: Files | None = None,
    output: Files | None = None,
    params: Mapping[str, Any] | None = None,
    threads: int = 1,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess:
    """Run rule `rule`'s script in `workdir`; its log is logs/<rule>.log there."""
    job = {
        "script": str(SCRIPTS / f"{rule}.py"),
        "rule": rule,
        "input": dict(input or {}),
        "output": dict(output or {}),
        "params": dict(params or {}),
        "threads": threads,
        "log": f"logs/{rule}.log",
    }
    environment = {key: value for key, value in os.environ.items() if key != "WORDLE_MIRROR"}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, __file__, json.dumps(job)],
        cwd=workdir,
        capture_output=True,
        text=True,
        env=environment,
        timeout=timeout,
        check=False,
    )


def _main(job: dict[str, Any]) -> None:
    """The job as the script directive runs it: `snakemake` in the script's globals."""
    import runpy
    from types import SimpleNamespace

    for files in job["output"].values():
        for path in [files] if isinstance(files, str) else files:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(job["log"]).parent.mkdir(parents=True, exist_ok=True)
    snakemake = SimpleNamespace(
        input=job["input"],
        output=job["output"],
        params=job["params"],
        threads=job["threads"],
        log=[job["log"]],
        rule=job["rule"],
    )
    runpy.run_path(job["script"], init_globals={"snakemake": snakemake}, run_name="__main__")


if __name__ == "__main__":
    _main(json.loads(sys.argv[1]))
