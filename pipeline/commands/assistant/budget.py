"""The assistant's time budget: an answer never waits in silence for the search.

The search kernel cannot be interrupted, and one guess of a large state (or of the first
turn, without stored openers) can take minutes. So every search job (the options of a
state, its best guess, the value of one guess) runs on one worker thread (the kernels
release the GIL), and the answer waits for each only until its budget of CPU seconds is
spent; what is not done by then is shown as not valued in time, never as a guess. A job
left running carries on in the background: `play` uses its result at a later turn, a
one-shot answer exits without it. Jobs of the newest answer run before older ones.

Without a budget (None) every job runs at once in the caller's thread: the advice is
then valued in full, as the self-play tests and the benchmark's promise need.

Compiling a kernel (the first answer after an install or an update) is left out of the
budget (`clock`): the first answer is the same as the next.
"""

from __future__ import annotations

import itertools
import queue
import sys
import threading
import time
from collections.abc import Callable, Hashable

NOT_DONE = object()  # what `get` returns for a job that did not finish in time
# On a machine whose cores other work shares, the worker gets less than a core: an answer
# also stops waiting after this many times its budget of wall time.
WALL_FACTOR = 3.0
_running = [0]  # search jobs running on any worker now


def clock() -> tuple[float, float]:
    """(CPU, wall) seconds of this process that a budget counts: all but the time spent
    compiling kernels (pipeline.kernels.compiling). Nothing compiled before numba is
    imported, and a prior-mode answer never imports it, so it is not imported here."""
    cpu, wall = time.process_time(), time.monotonic()
    compiling = sys.modules.get("pipeline.kernels.compiling")
    if compiling is not None:
        compile_cpu, compile_wall = compiling.compile_time()
        cpu, wall = cpu - compile_cpu, wall - compile_wall
    return cpu, wall


def busy() -> bool:
    """Whether a search job is still running (its answer stopped waiting for it)."""
    return _running[0] > 0


class Valuer:
    """Search jobs, each run once and remembered under its key, within a CPU budget."""

    def __init__(self, budget: float | None) -> None:
        """budget: CPU seconds an answer may take (None: no limit), counted from its
        start, or from `origin` (a `clock()` reading) when one is set."""
        self.budget = budget
        self.origin: tuple[float, float] | None = None
        self.expired = False  # the last answer left something not valued in time
        self._results: dict[Hashable, tuple[bool, object]] = {}  # key -> (ok, result)
        self._deadline = self._wall_deadline = 0.0
        self._generation = 0
        self._order = itertools.count()
        self._jobs: queue.PriorityQueue = queue.PriorityQueue()
        self._done = threading.Condition()
        self._worker: threading.Thread | None = None

    def start(self) -> None:
        """A new answer (or its search, once loaded): its jobs go before older ones, and
        it waits until its budget from its origin (else from now) is spent, but always
        a tenth of the budget from now (when loading took the rest)."""
        self._generation += 1
        self.expired = False
        if self.budget is not None:
            cpu, wall = clock()
            cpu_origin, wall_origin = self.origin or (cpu, wall)
            least = 0.1 * self.budget
            self._deadline = max(cpu_origin + self.budget, cpu + least)
            self._wall_deadline = max(wall_origin + WALL_FACTOR * self.budget, wall + least)

    def get(self, key: Hashable, job: Callable[[], object]) -> object:
        """job()'s result, remembered under `key`; NOT_DONE when the budget ends first."""
        if key not in self._results:
            if self.budget is None:
                self._results[key] = (True, job())
            else:
                self._submit(key, job)
                self._wait(key)
        if key not in self._results:
            self.expired = True
            return NOT_DONE
        ok, result = self._results[key]
        if not ok:
            raise result  # the job's own error, raised where the answer needs it
        return result

    def _submit(self, key: Hashable, job: Callable[[], object]) -> None:
        with self._done:
            self._jobs.put((-self._generation, next(self._order), key, job))
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="valuer", daemon=True)
                self._worker.start()

    def _wait(self, key: Hashable) -> None:
        """Until the job of `key` is done or the budget is spent. The budget counts this
        process's CPU, which is the worker's while this thread waits (and WALL_FACTOR
        times as much wall time)."""
        with self._done:
            while key not in self._results and not self.expired:
                cpu, wall = clock()
                left = self._deadline - cpu
                if left <= 0 or wall >= self._wall_deadline:
                    self.expired = True
                    return
                # threading refuses a timeout past TIMEOUT_MAX (--budget 1e10): such a
                # budget is no limit in practice, so the wait is capped, not refused.
                self._done.wait(min(left, threading.TIMEOUT_MAX))

    def _work(self) -> None:
        """The worker: the most urgent job first; a job already done is skipped. It ends
        when no job is left (a new one starts another), so that nothing holds on to a
        finished session's search."""
        while True:
            with self._done:
                if self._jobs.empty():
                    self._worker = None
                    return
                _, _, key, job = self._jobs.get_nowait()
            if key in self._results:
                continue
            _running[0] += 1
            try:
                outcome = (True, job())
            except Exception as error:  # noqa: BLE001 (handed to the thread that asks)
                outcome = (False, error)
            finally:
                _running[0] -= 1
            with self._done:
                self._results[key] = outcome
                self._done.notify_all()
