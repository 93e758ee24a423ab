"""Progress lines of long jobs: done, total and the cutoff at least every interval, from
the items that finish and, while none does, from the watcher thread."""

from __future__ import annotations

import logging
import re
import time

import numpy as np

from pipeline.core.progress import Progress
from pipeline.kernels.optimal_search.bounds import opener_bounds
from tests.support.optimal_reference import CASES, lists

LINE = re.compile(r"(.+): (\d+)/(\d+) done \((\d+)%\), ([\d.]+) s so far, (.+), cutoff (\w+)$")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def lines(caplog) -> list[tuple[str, ...]]:
    return [m.groups() for r in caplog.records if (m := LINE.match(r.getMessage()))]


def test_a_line_once_the_interval_has_passed_and_at_the_end(caplog):
    caplog.set_level(logging.INFO, logger="pipeline.core.progress")
    clock = Clock()
    progress = Progress("bounds", 4, interval=30, note="cutoff 7985", clock=clock)
    assert caplog.records[-1].getMessage() == "bounds: 4 to do, cutoff 7985"
    clock.now += 29
    progress.advance()
    assert lines(caplog) == []  # under 30 s: no line yet
    clock.now += 2
    progress.advance()
    progress.note = "cutoff 7984"  # a running cutoff shows in the next line
    clock.now += 1
    progress.advance(2)  # the last items: a line whatever the time
    assert lines(caplog) == [
        ("bounds", "2", "4", "50", "31.0", "about 31 s left", "7985"),
        ("bounds", "4", "4", "100", "32.0", "about 0 s left", "7984"),
    ]


def test_the_watcher_logs_while_no_item_finishes(caplog):
    caplog.set_level(logging.INFO, logger="pipeline.core.progress")
    with Progress("tarse", 1, interval=0.02, note="cutoff None"):
        deadline = time.perf_counter() + 10
        while len(lines(caplog)) < 2 and time.perf_counter() < deadline:
            time.sleep(0.01)  # one long kernel call, say
    found = lines(caplog)
    assert len(found) >= 2
    assert set(found) >= {("tarse", "0", "1", "0", found[0][4], "time left unknown", "None")}
    count = len(caplog.records)
    time.sleep(0.1)
    assert len(caplog.records) == count  # the watcher stopped with the block


def test_opener_bounds_reports_each_opener_once():
    w = lists(sorted(CASES)[0])
    reports = []
    opener_bounds(
        w.matrix, w.answer_rows, w.encoded, np.arange(len(w.words)), hard=False,
        on_done=reports.append,
    )  # fmt: skip
    assert reports == [1] * len(w.words)
