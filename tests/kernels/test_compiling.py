"""Each kernel is compiled once, whichever process needs it first (pipeline/kernels/compiling.py),
and under NUMBA_CACHE_DIR every copy of the same source shares that one compile
(pipeline/kernels/jit.py). Run on the tiny package of tests/support/tiny_package.py, in
fresh processes, as the workflow's jobs and the test workers run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.support.tiny_package import make_package, package_env, run, write_callees

# Our caller alone (numba's own `plain` kernels do not take the lock), called once a
# file `go` exists, so that processes started together call it at the same moment.
TOGETHER = """import json, os, sys, time
from pipeline.kernels.caller import caller
print("ready", flush=True)
while not os.path.exists("go"):
    time.sleep(0.01)
value = caller(1)
print(json.dumps({"value": value, "hits": sum(caller.stats.cache_hits.values())}))
"""
# A call that cannot compile (a string plus an int), twice, then one that can.
FAILS = """import sys
from pipeline.kernels.caller import caller
for _ in range(2):
    try:
        caller("a")
    except Exception as error:
        print(type(error).__name__, flush=True)
print(caller(1), flush=True)
sys.stdin.read()  # held open until the test is done with it
"""


def compile_log(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_processes_started_together_compile_a_kernel_once(tmp_path: Path):
    make_package(tmp_path / "package")
    log = tmp_path / "compiles.jsonl"
    env = package_env(tmp_path / "package", WORDLE_COMPILE_LOG=str(log))
    processes = [
        subprocess.Popen([sys.executable, "-c", TOGETHER], cwd=tmp_path / "package", env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]  # fmt: skip
    try:
        for process in processes:
            assert process.stdout.readline().strip() == "ready", process.stderr.read()
        (tmp_path / "package" / "go").touch()
        results = [json.loads(process.communicate(timeout=120)[0]) for process in processes]
    finally:
        for process in processes:
            process.kill()
    assert [result["value"] for result in results] == [4, 4, 4]
    compiled = compile_log(log)
    assert len(compiled) == 1, compiled  # one process compiled; the others loaded its work
    assert compiled[0]["compiled"] == 2  # the caller and its callee
    assert sorted(result["hits"] for result in results) == [0, 1, 1]


def test_copies_of_one_source_share_one_compile_under_numba_cache_dir(tmp_path: Path):
    cache = tmp_path / "cache"
    for copy in ("first", "second", "edited"):
        make_package(tmp_path / copy)
    write_callees(tmp_path / "edited", 2)
    log = tmp_path / "compiles.jsonl"
    env = {"NUMBA_CACHE_DIR": str(cache), "WORDLE_COMPILE_LOG": str(log)}

    assert run(tmp_path / "first", **env)["hits"]["ours"] == 0
    second = run(tmp_path / "second", **env)  # another path, the same source
    assert second == {"values": {"ours": 4, "plain": 4}, "hits": {"ours": 1, "plain": 0}}
    edited = run(tmp_path / "edited", **env)  # other source: compiled into its own folder
    assert edited["values"]["ours"] == 6 and edited["hits"]["ours"] == 0
    assert run(tmp_path / "first", **env)["hits"]["ours"] == 1  # not overwritten by it
    versions = sorted(path.name for path in cache.glob("wordle-pipeline-*"))
    assert len(versions) == 2
    assert all((cache / name / "kernels").is_dir() for name in versions)
    shutil.rmtree(tmp_path / "first" / "pipeline" / "kernels" / "__pycache__", True)
    assert not list((tmp_path / "second").rglob("*.nbi"))  # nothing in the tree


def test_a_failed_compile_releases_its_lock(tmp_path: Path):
    make_package(tmp_path)
    env = package_env(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", FAILS], cwd=tmp_path, env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        lines = [holder.stdout.readline().strip() for _ in range(3)]
        assert lines == ["TypingError", "TypingError", "4"]  # its own retry did not wait
        started = time.monotonic()
        other = subprocess.run([sys.executable, "-c", FAILS], cwd=tmp_path, env=env,
                               input="", capture_output=True, text=True, timeout=120)  # fmt: skip
        assert other.stdout.split() == ["TypingError", "TypingError", "4"], other.stderr
        assert time.monotonic() - started < 60  # no wait for a lock the holder still kept
    finally:
        holder.kill()
