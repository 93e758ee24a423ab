"""A tiny package laid out as the real one, for the tests of numba's cache and compiles
(tests/kernels/test_jit.py, tests/kernels/test_compiling.py): the real jit.py and
compiling.py, a kernel calling a kernel of another module that reads a core constant,
and the same two kernels on numba's own `njit` beside them (package `plain`). It runs in
fresh processes, as a user's runs do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.fixtures import REPO

CALLEE = """from {njit} import njit


@njit(cache=True)
def callee(x):
    return x + {step}
"""
CALLER = """from {njit} import njit
from {package}.callee import callee
{scale_import}

@njit(cache=True)
def caller(x):
    return {scale} * callee(x)
"""
# Prints each caller's value for 1 and how many of its signatures numba loaded from the cache.
RUN = """import json
from plain.caller import caller as plain
from pipeline.kernels.caller import caller
kernels = {"ours": caller, "plain": plain}
values = {name: kernel(1) for name, kernel in kernels.items()}
hits = {name: sum(kernel.stats.cache_hits.values()) for name, kernel in kernels.items()}
print(json.dumps({"values": values, "hits": hits}))
"""
PACKAGES = {"pipeline.kernels": "pipeline.kernels.jit", "plain": "numba"}  # package: its njit


def write_callees(root: Path, step: int) -> None:
    for package, njit in PACKAGES.items():
        path = root / package.replace(".", "/") / "callee.py"
        path.write_text(CALLEE.format(njit=njit, step=step))


def make_package(root: Path) -> None:
    """Our caller reads its scale from a core module; the plain one has it written in."""
    for folder in ("pipeline", "pipeline/kernels", "pipeline/core", "plain"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
    for module in ("jit.py", "compiling.py"):
        source = REPO / "pipeline/kernels" / module
        (root / "pipeline/kernels" / module).write_bytes(source.read_bytes())
    (root / "pipeline/core/steps.py").write_text("SCALE = 2\n")
    ours = {"scale_import": "from pipeline.core.steps import SCALE\n", "scale": "SCALE"}
    plain = {"scale_import": "", "scale": "2"}
    for (package, njit), scale in zip(PACKAGES.items(), (ours, plain), strict=True):
        path = root / package.replace(".", "/") / "caller.py"
        path.write_text(CALLER.format(njit=njit, package=package, **scale))
    write_callees(root, 1)


def run(root: Path, **env: str) -> dict:
    """The callers' values and cache hits in a new process that imports the tiny package
    (`env`: variables added to the environment)."""
    result = run_process(root, **env)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def run_process(root: Path, script: str = RUN, **env: str) -> subprocess.CompletedProcess:
    """`script` in a new process that imports the tiny package, numba's JIT on."""
    return subprocess.run(
        [sys.executable, "-c", script], cwd=root, env=package_env(root, **env),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def package_env(root: Path, **env: str) -> dict[str, str]:
    """The environment less numba's settings (JIT on, numba's own cache places), with the
    tiny package at `root` first on the path, and `env` added."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "WORDLE_"))}
    return {**base, "PYTHONPATH": str(root), **env}
