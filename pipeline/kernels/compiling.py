"""A kernel is compiled once, whichever process needs it first; the others wait and load it.

numba compiles a kernel on its first call in a process, unless its cache holds it. Jobs
that start together (two Snakemake jobs, two xdist workers, the assistant beside a run)
would all miss the cache and compile the same kernel at once, each spending the same
CPU. Here a process that misses the cache takes a file lock beside the cache entry
(one per kernel and signature) before it compiles, and a process that finds the lock
taken waits, then loads what the first one saved. The lock is released when the entry
is saved or the compile fails; a wait longer than LOCK_WAIT compiles anyway, so a lock
can only cost time, never a result.

Two more things are counted or said here, because only here is a compile seen:
- `compile_time()`: the CPU and wall seconds a process spent compiling (or waiting for
  another's compile), which the assistant's time budget leaves out;
- `WORDLE_COMPILE_LOG=<file>`: each process that compiled appends one JSON line at exit
  (pid, command, wall and CPU seconds compiling, kernels compiled, CPU seconds in all):
  how the benchmark command splits a run's CPU into compiling and the work itself;
- `announce(...)`: a command that waits on a compile says so, once, before it starts.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator

from numba.core import caching, dispatcher, event, sigutils

__all__ = ["LOCK_WAIT", "announce", "compile_time", "install"]

LOCK_WAIT = 600.0  # seconds a process waits for another's compile before compiling itself
_POLL = 0.05


class _Held:
    """The compile locks this process holds, by (cache, argument types)."""

    def __init__(self) -> None:
        self.files: dict[tuple[int, tuple], int] = {}
        self.guard = threading.Lock()

    def take(self, key: tuple[int, tuple], path: str) -> bool:
        """Lock `path` for `key`; False when another process held it for LOCK_WAIT."""
        with self.guard:
            if key in self.files:
                return True  # a retry of a compile this process already holds
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    return False
                time.sleep(_POLL)
        with self.guard:
            self.files[key] = fd
        return True

    def release(self, key: tuple[int, tuple]) -> None:
        with self.guard:
            fd = self.files.pop(key, None)
        if fd is not None:
            os.close(fd)  # closing the file releases its lock


_held = _Held()


def _args_of(sig) -> tuple:
    args, _ = sigutils.normalize_signature(sig)
    return tuple(args)


class CompileOnceCache(caching.FunctionCache):
    """numba's per-function cache, with a miss turned into "compile, or wait for the
    process that compiles". Only the kernels of this package (claimed by the locators of
    pipeline.kernels.jit) take the lock; every other function is numba's as it was."""

    def load_overload(self, sig, target_context):
        loaded = super().load_overload(sig, target_context)
        if loaded is not None or not self._ours():
            return loaded
        key = (id(self), _args_of(sig))
        digest = hashlib.sha1(str(key[1]).encode()).hexdigest()[:16]
        lock = os.path.join(self._cache_path, f"{self._impl.filename_base}.{digest}.lock")
        started = time.perf_counter()
        try:
            os.makedirs(self._cache_path, exist_ok=True)
            if not _held.take(key, lock):
                return None  # waited long enough: compile here too
        except OSError:
            return None  # no lock where the cache cannot be written: compile, as numba does
        finally:
            _watch.seconds += time.perf_counter() - started  # waiting on a compile is one
        loaded = super().load_overload(sig, target_context)  # saved while this one waited?
        if loaded is not None:
            _held.release(key)
        return loaded

    def save_overload(self, sig, data):
        try:
            super().save_overload(sig, data)
        finally:
            _held.release((id(self), _args_of(sig)))

    def _ours(self) -> bool:
        return getattr(self._impl.locator, "compile_once", False)


class _CompileWatch(event.Listener):
    """Sees every compile: releases the lock of one that failed, counts their time (the
    outermost compiles only: a callee compiled inside its caller counts once) and tells
    the announcement that one started."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.cpu = self.seconds = 0.0  # finished compiles: process CPU and wall seconds
        self.running: tuple[float, float] | None = None  # (CPU, wall) when one started
        self.compiled = 0
        self.on_first_start: Callable[[], None] | None = None

    def on_start(self, ev) -> None:
        depth = getattr(self.local, "depth", 0)
        if depth == 0:
            if self.on_first_start is not None:
                say, self.on_first_start = self.on_first_start, None
                say()
            # numba compiles under one lock per process: one outermost compile at a time
            self.running = (time.process_time(), time.perf_counter())
        self.local.depth = depth + 1

    def on_end(self, ev) -> None:
        self.local.depth -= 1
        self.compiled += 1
        if self.local.depth == 0 and self.running is not None:
            cpu, wall = self.running
            self.running = None
            self.cpu += time.process_time() - cpu
            self.seconds += time.perf_counter() - wall
        self._release_if_failed(ev)

    def spent(self) -> tuple[float, float]:
        """(CPU, wall) seconds compiling so far, a compile under way included."""
        cpu, wall, running = self.cpu, self.seconds, self.running
        if running is not None:
            cpu += time.process_time() - running[0]
            wall += time.perf_counter() - running[1]
        return cpu, wall

    @staticmethod
    def _release_if_failed(ev) -> None:
        kernel = (ev.data or {}).get("dispatcher")
        if kernel is None:
            return
        # A compile that added no overload failed (a typing error, or numba's retry with
        # literal arguments): nothing will be saved, so its lock is released here. (The
        # event's own is_failed reads the other way round in numba 0.62-0.68.)
        args = tuple(ev.data["args"])
        if args not in kernel.overloads and getattr(kernel, "_cache", None) is not None:
            _held.release((id(kernel._cache), args))


_watch = _CompileWatch()


@contextlib.contextmanager
def announce(say: Callable[[], None]) -> Iterator[None]:
    """Within the block, `say()` is called once, when the first kernel compile starts
    (never when every kernel comes from the cache)."""
    _watch.on_first_start = say
    try:
        yield
    finally:
        _watch.on_first_start = None


def compile_time() -> tuple[float, float]:
    """(process CPU, wall) seconds this process has spent compiling kernels so far, a
    compile under way included: what a time budget leaves out."""
    return _watch.spent()


def _write_log(path: str) -> None:
    if not _watch.compiled:
        return
    record = {
        "pid": os.getpid(),
        "argv": sys.argv[:4],
        "compile_s": round(_watch.seconds, 3),
        "compile_cpu_s": round(_watch.cpu, 3),
        "compiled": _watch.compiled,
        "cpu_s": round(time.process_time(), 3),
    }
    try:
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps(record) + "\n")  # one short append: whole lines, any order
    except OSError:
        pass  # a measurement lost (a full disk, say) never fails the command it measured


def install() -> None:
    """Make every numba function's cache a CompileOnceCache, and watch the compiles."""
    dispatcher.FunctionCache = CompileOnceCache  # what Dispatcher.enable_caching makes
    event.register("numba:compile", _watch)
    log = os.environ.get("WORDLE_COMPILE_LOG")
    if log:
        atexit.register(_write_log, log)
