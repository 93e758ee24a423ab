"""Splitting kernel work over a given number of threads.

The kernels release the GIL (nogil), so plain threads run them side by side. The thread
count is always passed down from the rule's `threads`, never read from a module
constant or the environment. Work is split into contiguous ranges, each computed by one
call in a fixed order, or (take_in_threads, for items of uneven cost) taken one item at a
time, each result stored by its item: either way results never depend on the thread count.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

S = TypeVar("S")
T = TypeVar("T")


def split_ranges(n_items: int, parts: int) -> list[tuple[int, int]]:
    """[start, stop) of `parts` near-equal contiguous ranges covering range(n_items)."""
    if parts < 1:
        raise ValueError(f"parts must be at least 1, got {parts}")
    return [(i * n_items // parts, (i + 1) * n_items // parts) for i in range(parts)]


def thread_count(threads: int, n_items: int, work: int, min_work: int) -> int:
    """Threads worth using: at most `threads`, one per item, one per `min_work` of work."""
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    return max(1, min(threads, n_items, work // max(min_work, 1)))


def run_in_threads(
    run: Callable[[int, int], None],
    n_items: int,
    threads: int,
    *,
    work: int | None = None,
    min_work: int = 1,
) -> None:
    """Call run(start, stop) on contiguous ranges of range(n_items), one per thread.

    `work` (default n_items) over `min_work` bounds how many threads are worth starting;
    a small job stays on the calling thread.
    """
    parts = thread_count(threads, n_items, n_items if work is None else work, min_work)
    if parts == 1:
        if n_items:
            run(0, n_items)
        return
    with ThreadPoolExecutor(max_workers=parts) as pool:
        futures = [pool.submit(run, start, stop) for start, stop in split_ranges(n_items, parts)]
        for future in futures:
            future.result()


def map_ranges(work: Callable[[int, int], list[T]], start: int, stop: int, threads: int) -> list[T]:
    """work(a, b) on `threads` contiguous ranges of [start, stop), results concatenated in
    range order: the same list whatever the thread count."""
    parts = [(start + a, start + b) for a, b in split_ranges(stop - start, max(threads, 1))]
    if len(parts) == 1:
        return work(start, stop)
    with ThreadPoolExecutor(max_workers=len(parts)) as pool:
        futures = [pool.submit(work, a, b) for a, b in parts]
        return [item for future in futures for item in future.result()]


def take_in_threads(run: Callable[[S, int], None], n_items: int, states: Sequence[S]) -> None:
    """Call run(state, i) once for every i in range(n_items): one thread per state (its
    own buffers, say), each taking the next item as it finishes one, so that items of
    uneven cost keep every thread busy to the end. One state runs on the calling thread."""
    taken = itertools.count()  # next() on it is atomic: it runs in C, under the GIL

    def work(state: S) -> None:
        while (i := next(taken)) < n_items:
            run(state, i)

    if len(states) == 1:
        work(states[0])
        return
    with ThreadPoolExecutor(max_workers=len(states)) as pool:
        for future in [pool.submit(work, state) for state in states]:
            future.result()
