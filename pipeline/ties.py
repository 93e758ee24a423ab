"""When two scores count as equal, so float summation order never decides a ranking.

Scores (entropies in bits, expected guesses) closer than TIE_TOLERANCE are equal; the
tie rules of each stage (a possible answer first, then the lower word_id) decide.
"""

from __future__ import annotations

import numpy as np

TIE_TOLERANCE = 1e-9


def descending_tie_groups(values: np.ndarray, tolerance: float = TIE_TOLERANCE) -> np.ndarray:
    """Tie group of each value, 0 for the highest: sorted neighbours closer than
    `tolerance` share a group, so sorting by (group, tie keys) orders near-equal values
    by the tie rules instead of by float noise."""
    values = np.asarray(values, dtype=np.float64)
    order = np.lexsort((np.arange(values.size), -values))
    ordered = values[order]
    groups = np.zeros(values.size, dtype=np.int64)
    if values.size > 1:
        groups[order[1:]] = np.cumsum(ordered[:-1] - ordered[1:] >= tolerance)
    return groups
