"""Compiled kernels are reused only while the source they were compiled from is unchanged
(pipeline/kernels/jit.py), a callee in another module or a core constant included.

A tiny package laid out as the real one (the real jit.py, a kernel calling a kernel of
another module that reads a core constant) runs in fresh processes, as a user's runs do,
while the test edits it. Beside it, the same two kernels on numba's own `njit` show the
stale value numba alone returns, so the test fails without the mechanism."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

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
    (root / "pipeline/kernels/jit.py").write_bytes((REPO / "pipeline/kernels/jit.py").read_bytes())
    (root / "pipeline/core/steps.py").write_text("SCALE = 2\n")
    ours = {"scale_import": "from pipeline.core.steps import SCALE\n", "scale": "SCALE"}
    plain = {"scale_import": "", "scale": "2"}
    for (package, njit), scale in zip(PACKAGES.items(), (ours, plain), strict=True):
        path = root / package.replace(".", "/") / "caller.py"
        path.write_text(CALLER.format(njit=njit, package=package, **scale))
    write_callees(root, 1)


def run(root: Path) -> dict:
    """The callers' values and cache hits in a new process that imports the tiny package."""
    result = run_process(root)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def run_process(root: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}  # JIT on
    env["PYTHONPATH"] = str(root)
    return subprocess.run(
        [sys.executable, "-c", RUN], cwd=root, env=env, capture_output=True, text=True
    )


def test_a_kernel_is_recompiled_when_a_kernel_it_calls_changes(tmp_path):
    make_package(tmp_path)
    first = run(tmp_path)
    assert first == {"values": {"ours": 4, "plain": 4}, "hits": {"ours": 0, "plain": 0}}
    again = run(tmp_path)  # nothing changed: both load their compiled code
    assert again == {"values": {"ours": 4, "plain": 4}, "hits": {"ours": 1, "plain": 1}}

    write_callees(tmp_path, 2)  # the callees' modules alone
    edited = run(tmp_path)
    assert edited["values"] == {"ours": 6, "plain": 4}  # numba alone keeps the old callee
    assert edited["hits"]["ours"] == 0

    (tmp_path / "pipeline/core/steps.py").write_text("SCALE = 5\n")  # a core constant alone
    assert run(tmp_path)["values"]["ours"] == 15


def cut_to_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def foreign_index(path: Path) -> None:
    """An index as another numba version writes it: its version first, then its own data."""
    path.write_bytes(pickle.dumps("0.1.0") + b"\x80\x05not this numba's index")


@pytest.mark.parametrize(
    ("suffix", "damage"), [(".nbi", cut_to_half), (".nbc", cut_to_half), (".nbi", foreign_index)]
)
def test_a_damaged_cache_is_recompiled_with_one_warning_at_most(tmp_path, suffix, damage):
    make_package(tmp_path)
    assert run(tmp_path)["values"]["ours"] == 4
    cache = tmp_path / "pipeline/kernels/__pycache__"
    files = sorted(cache.glob(f"*{suffix}"))
    assert files  # the real cache files numba wrote, cut or replaced below
    for path in files:
        damage(path)
    result = run_process(tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout)["values"]["ours"] == 4  # the same answer, recompiled
    warnings = result.stderr.splitlines()
    assert len(warnings) <= 1 and "Traceback" not in result.stderr
    if damage is cut_to_half:
        assert warnings and "cache file" in warnings[0] and "recompiling" in warnings[0]
        assert str(cache) in warnings[0]
    again = run(tmp_path)  # the entries were written anew and are used again
    assert again["values"]["ours"] == 4 and again["hits"]["ours"] == 1
