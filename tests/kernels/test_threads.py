"""pipeline.kernels.threads.take_in_threads against a plain loop."""

from __future__ import annotations

import threading

import pytest

from pipeline.kernels.threads import take_in_threads


@pytest.mark.parametrize("n_states", [1, 2, 3, 9])
def test_every_item_is_taken_once_and_stored_by_index(n_states):
    n_items = 7
    results = [None] * n_items
    taken: list[int] = []
    lock = threading.Lock()

    def run(state: int, i: int) -> None:
        with lock:
            taken.append(i)
        results[i] = i * i  # the item's own result, whichever state takes it

    take_in_threads(run, n_items, list(range(n_states)))
    assert sorted(taken) == list(range(n_items))
    assert results == [i * i for i in range(n_items)]  # the plain loop's


def test_one_state_runs_on_the_calling_thread_and_errors_reach_the_caller():
    threads = set()
    take_in_threads(lambda state, i: threads.add(threading.get_ident()), 3, ["only"])
    assert threads == {threading.get_ident()}

    def fail(state: int, i: int) -> None:
        raise RuntimeError(f"item {i}")

    with pytest.raises(RuntimeError, match="item"):
        take_in_threads(fail, 4, [0, 1])
