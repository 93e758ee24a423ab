"""Small helpers shared by the analysis tables."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from pipeline.core.wordle import spell_patterns


def spelled_patterns(pattern_ids: np.ndarray, length: int) -> pa.Array:
    """B/Y/G strings of many reply ids (each distinct id spelled once)."""
    spellings, inverse = spell_patterns(pattern_ids, length)
    return pa.array(spellings, pa.string()).take(pa.array(inverse))
