"""Progress of a long job in its log, at most every few seconds, from any thread."""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger(__name__)

INTERVAL = 5.0  # seconds between progress lines


class Progress:
    """Counts finished items and logs `what: done/total, rate, time left` now and then."""

    def __init__(self, what: str, total: int, interval: float = INTERVAL) -> None:
        self.what = what
        self.total = total
        self.interval = interval
        self.done = 0
        self.began = time.perf_counter()
        self.last = self.began
        self.lock = threading.Lock()
        log.info("%s: %d to do", what, total)

    def advance(self, count: int = 1) -> None:
        with self.lock:
            self.done += count
            now = time.perf_counter()
            if now - self.last < self.interval and self.done < self.total:
                return
            self.last = now
            elapsed = now - self.began
            left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
            log.info(
                "%s: %d/%d done (%.0f%%), %.1f s so far, about %.0f s left",
                self.what,
                self.done,
                self.total,
                100 * self.done / max(self.total, 1),
                elapsed,
                left,
            )
