"""The coverage gate's kernel pass (docs/development.md#coverage) runs these tests with
numba's JIT off (NUMBA_DISABLE_JIT=1), as plain Python that coverage can see. A few need
the compiled kernels: they are skipped in that pass, each with its reason."""

from __future__ import annotations

import os

import pytest

# test name (or a part of its parametrized id) -> why it cannot run interpreted
NEEDS_THE_JIT = {
    "test_jit.py": "it checks numba's compiled-code cache",
    "prefetch": "the prefetch intrinsic has no pure-Python form",
    "alone_equals_brute_force[all-": "every mechanism on includes the prefetch intrinsic",
    "layouts_and_blocks": "some layouts prefetch (an intrinsic with no pure-Python form)",
    "other_word_lengths": "the count search prefetches (an intrinsic with no pure-Python form)",
    "pruning_alone": "with pruning off the search takes hours interpreted",
    "fixed_stats_same_for_any_thread_count": "the size at which two threads run takes 30 s "
    "interpreted (the other fixed_stats tests run the same kernel lines)",
}
# The real lists (`mirror` tests) take hours interpreted: the pass deselects them by mark.


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get("NUMBA_DISABLE_JIT", "0") == "0":
        return
    for item in items:
        for part, reason in NEEDS_THE_JIT.items():
            if part in item.nodeid and "tests/kernels/" in item.nodeid:
                item.add_marker(pytest.mark.skip(reason=f"JIT off: {reason}"))
                break
