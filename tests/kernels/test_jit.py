"""Compiled kernels are reused only while the source they were compiled from is unchanged
(pipeline/kernels/jit.py), a callee in another module or a core constant included.

A tiny package laid out as the real one (tests/support/tiny_package.py) runs in fresh
processes, as a user's runs do, while the test edits it. Beside it, the same two kernels
on numba's own `njit` show the stale value numba alone returns, so the test fails without
the mechanism."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from tests.support.tiny_package import make_package, run, run_process, write_callees


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
