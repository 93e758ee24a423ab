"""Playing on when the replies rule out every answer of the list.

The NYT plays answers beyond an edition's list (loris, kefir, ... on nyt2023). When
the replies leave no candidate of the list, the game carries on as prior mode plays:
every allowed word consistent with the replies is a candidate, weighted by p_common,
and the score model's estimate (pipeline.analysis.advice.estimate) orders the guesses. One home
for the assistant (`wordle-assist` after its candidates ran out) and the history
benchmark (a strategy whose candidates ran out). No exact value exists here, so the
estimate only orders the guesses and is never shown as a number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pipeline.analysis.advice.estimate import ScoreCurve, distinct_guesses, ranked, score_patterns
from pipeline.kernels.feedback import feedback_matrix

FALLBACK_ALLOWED = "allowed"  # what --json and the history benchmark call this fallback
# The replies' engine (kernels.feedback): numpy spares one assistant answer numba's import;
# a job that plays many games, with numba loaded anyway, passes "jit" (the same ids).
ENGINE = "numpy"


@dataclass(frozen=True)
class RankedGuesses:
    """The best guesses at a state, best first: positions in the guesses given, and
    for each of those its bits, chance of winning now and whether it may be the answer."""

    order: np.ndarray
    bits: np.ndarray
    p_win: np.ndarray
    is_candidate: np.ndarray


def consistent(
    encoded: np.ndarray,
    pool: np.ndarray,
    guesses: Sequence[int],
    replies: Sequence[int],
    engine: str = ENGINE,
) -> np.ndarray:
    """The word ids of `pool` that give each of `guesses` (word ids) its reply."""
    left = np.asarray(pool, dtype=np.int64)
    for guess, reply in zip(guesses, replies, strict=True):
        got = feedback_matrix(encoded[[guess]], encoded[left], engine=engine)[0]
        left = left[got == reply]
    return left


def commonness_weights(p_common: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """The candidates' probabilities: p_common, normalised (uniform if all are 0)."""
    weights = np.asarray(p_common, dtype=np.float64)[candidates]
    total = weights.sum()
    return weights / total if total > 0 else np.full(candidates.size, 1.0 / candidates.size)


def rank_guesses(
    encoded: np.ndarray,
    guesses: np.ndarray,
    candidates: np.ndarray,
    weights: np.ndarray,
    curve: ScoreCurve,
    n_bins: int,
    top: int,
    engine: str = ENGINE,
) -> RankedGuesses:
    """The `top` best of `guesses` (word ids) against weighted `candidates`, by the
    estimate: guesses that get the same reply from every candidate are scored once."""
    first, classes = distinct_guesses(encoded[guesses], encoded[candidates])
    patterns = feedback_matrix(encoded[guesses[first]], encoded[candidates], engine=engine)
    scores = score_patterns(patterns, curve, n_bins, weights)
    bits, estimate, p_win = (getattr(scores, f)[classes] for f in ("bits", "expected", "p_win"))
    is_candidate = np.isin(guesses, candidates)
    order = ranked(estimate, is_candidate, best=top)
    return RankedGuesses(order, bits[order], p_win[order], is_candidate[order])
