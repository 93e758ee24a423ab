"""How one guess splits the candidates by its replies: the statistics the assistant shows.

The one home of a guess's bits (the entropy of its split, Shannon's measure as in
3Blue1Brown's "Solving Wordle using information theory"), the candidates expected to
remain after it and its chance to win now. numpy only (the assistant imports it without
the kernels); the batch forms over many guesses are pipeline.kernels.partition's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ReplySplit:
    """One guess's replies over n equally likely candidates."""

    ids: np.ndarray  # the reply ids that occur, ascending
    sizes: np.ndarray  # candidates per reply id
    bits: float  # entropy of the split
    expected_left: float  # candidates expected to remain: sum c^2 / n


def entropy_bits(shares: np.ndarray) -> float:
    """-sum p log2 p over the positive shares p of a split (or of a state's weights);
    + 0.0 so that a sure split reads 0.0, never -0.0."""
    return float(-(shares * np.log2(shares)).sum()) + 0.0


def reply_split(replies: np.ndarray) -> ReplySplit:
    """The split of n = replies.size uniform candidates by their replies to one guess."""
    counts = np.bincount(replies.astype(np.int64))
    ids = np.flatnonzero(counts)
    sizes = counts[ids]
    n = replies.size
    left = float((sizes.astype(np.float64) ** 2).sum() / n)
    return ReplySplit(ids, sizes, entropy_bits(sizes / n), left)


def win_chance(is_candidate: bool, n: int) -> float:
    """The chance that a guess wins now at a state of n equally likely candidates."""
    return float(is_candidate) / n
