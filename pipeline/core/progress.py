"""Progress of a long job in its log, at most every few seconds, from any thread."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

INTERVAL = 5.0  # seconds between progress lines


class Progress:
    """Counts finished items and logs `what: done/total, rate, time left` now and then.

    `note` (a cutoff, say) ends every line and may change as the job goes. Used as a
    context manager it also logs from a watcher thread while no item finishes, so a job
    busy in one long kernel call (kernels release the GIL) still shows it is alive."""

    def __init__(
        self,
        what: str,
        total: int,
        interval: float = INTERVAL,
        note: str = "",
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.what = what
        self.total = total
        self.interval = interval
        self.note = note
        self.clock = clock
        self.done = 0
        self.began = clock()
        self.last = self.began
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.watcher: threading.Thread | None = None
        log.info("%s: %d to do%s", what, total, self._suffix())

    def advance(self, count: int = 1) -> None:
        with self.lock:
            self.done += count
            now = self.clock()
            if now - self.last < self.interval and self.done < self.total:
                return
            self._log(now)

    def __enter__(self) -> Progress:
        self.watcher = threading.Thread(target=self._watch, name="progress", daemon=True)
        self.watcher.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.watcher is not None:
            self.watcher.join()

    def _watch(self) -> None:
        """A line whenever `interval` passed without one (at most 2 intervals apart)."""
        while not self.stop.wait(self.interval):
            with self.lock:
                now = self.clock()
                if now - self.last >= self.interval:
                    self._log(now)

    def _log(self, now: float) -> None:
        """One line (the lock held)."""
        self.last = now
        elapsed = now - self.began
        left = (
            f"about {elapsed / self.done * (self.total - self.done):.0f} s left"
            if self.done
            else "time left unknown"
        )
        log.info(
            "%s: %d/%d done (%.0f%%), %.1f s so far, %s%s",
            self.what,
            self.done,
            self.total,
            100 * self.done / max(self.total, 1),
            elapsed,
            left,
            self._suffix(),
        )

    def _suffix(self) -> str:
        return f", {self.note}" if self.note else ""
