"""Array helpers for the assistant's numpy-only paths.

np.unique imports numpy.ma on its first call (numpy 2.x checks for masked arrays): some
15-20 ms of a one-shot answer that must stay under half a second. `distinct` does the
same by one stable sort.
"""

from __future__ import annotations

import numpy as np


def distinct(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the distinct values of a 1-D array in increasing order, the index of each one's
    first occurrence, the position in the distinct values of every entry): what
    np.unique(keys, return_index=True, return_inverse=True) returns."""
    keys = np.asarray(keys).ravel()
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.empty(keys.size, dtype=bool)
    starts[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    inverse = np.empty(keys.size, dtype=np.intp)
    inverse[order] = np.cumsum(starts) - 1
    return ordered[starts], order[starts], inverse
