"""The checks of the optimal search's public arguments, and the one factory of the
context every entry point searches in (solve_opener(s), opener_bounds, StateSearch).

A module of its own so that `bounds` (which `solve` uses for a cut-off search's root)
and `solve` both use it without importing each other.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from pipeline.core.wordle import MAX_WORD_LENGTH, pattern_dtype
from pipeline.kernels.optimal_search import context
from pipeline.kernels.optimal_search.memo import MAX_REM
from pipeline.kernels.optimal_search.tuning import UNWEIGHTED, flags_without

# Longest words the search takes: every length the word index accepts.
MAX_SEARCH_LENGTH = MAX_WORD_LENGTH


def check_inputs(matrix, answer_rows, encoded, max_guesses, top_k, cutoff):
    """Validate the public arguments; return them as the arrays the kernels expect."""
    matrix = np.asarray(matrix)
    encoded = np.asarray(encoded)
    answer_rows = np.asarray(answer_rows)
    if matrix.ndim != 2:
        raise ValueError(f"matrix must be a 2-D (guesses, answers) array, not {matrix.ndim}-D")
    n_guesses, n_answers = matrix.shape
    if n_answers == 0 or n_guesses >= 1 << context.ID_BITS:
        raise ValueError(f"matrix shape {matrix.shape} is empty or has too many guesses")
    length = encoded.shape[1] if encoded.ndim == 2 else 0
    if encoded.ndim != 2 or encoded.shape[0] != n_guesses or not 1 <= length <= MAX_SEARCH_LENGTH:
        shape = f"({n_guesses}, L <= {MAX_SEARCH_LENGTH})"
        raise ValueError(f"encoded must be {shape} letter codes, not {encoded.shape}")
    if matrix.dtype != pattern_dtype(length):
        expected = f"{pattern_dtype(length)} pattern ids for {length} letters"
        raise ValueError(f"matrix must hold {expected}, not {matrix.dtype}")
    if answer_rows.shape != (n_answers,) or not np.issubdtype(answer_rows.dtype, np.integer):
        raise ValueError(f"answer_rows must be {n_answers} integer word rows")
    if answer_rows.min() < 0 or answer_rows.max() >= n_guesses:
        raise ValueError("answer_rows must be word rows of the matrix")
    if len(np.unique(answer_rows)) != n_answers:
        raise ValueError("answer_rows must not repeat a word")
    all_green = 3 ** encoded.shape[1] - 1
    if not np.all(matrix[answer_rows, np.arange(n_answers)] == all_green):
        raise ValueError("matrix does not match answer_rows: an answer must be all green on itself")
    if not 1 <= int(max_guesses) < MAX_REM:
        raise ValueError(f"max_guesses must be in 1..{MAX_REM - 1}, got {max_guesses}")
    if top_k is not None and int(top_k) < 1:
        raise ValueError(f"top_k must be None or a positive integer, got {top_k}")
    if cutoff is not None and not 1 <= int(cutoff) < context.INF:
        raise ValueError(f"cutoff must be None or a positive total, got {cutoff}")
    return (
        np.ascontiguousarray(matrix),
        answer_rows.astype(np.int32),
        np.ascontiguousarray(encoded, dtype=np.uint8),
    )


def check_weights(weights, n_answers: int, max_guesses: int) -> np.ndarray | None:
    """Validate answer weights (None: uniform); return them as int64.

    Positive integers, one per answer column, whose total times the most guesses an
    answer may take (and times 4, the largest factor of a class bound) stays below INF,
    the search's value of "no tree": beyond that a total would overflow into it."""
    if weights is None:
        return None
    weights = np.asarray(weights)
    if weights.shape != (n_answers,) or not np.issubdtype(weights.dtype, np.integer):
        raise ValueError(f"weights must be {n_answers} integers, one per answer column")
    if weights.min() < 1:
        raise ValueError(f"weights must be positive, got {int(weights.min())}")
    total = int(weights.astype(object).sum())
    largest = (context.INF - 1) // max(4, int(max_guesses))
    if total > largest:
        raise ValueError(
            f"weights total {total}: a tree's total would overflow (at most {largest} "
            f"for {max_guesses} guesses)"
        )
    return weights.astype(np.int64)


def search_context(
    matrix: np.ndarray,
    answer_rows: np.ndarray,
    encoded: np.ndarray,
    *,
    hard: bool,
    max_guesses: int,
    top_k: int | None = None,
    cutoff: int | None = None,
    off: Collection[str] = (),
    on: Collection[str] = (),
    weights: np.ndarray | None = None,
    running_cutoff: bool = False,
    deeper: int = 0,
    exact_upto: int = 0,
    most: int | None = None,
) -> context.SearchContext:
    """A search context for checked public arguments, every weights rule applied here
    and nowhere else:
    - the weights are checked (check_weights);
    - the mechanisms of tuning.UNWEIGHTED are off under weights, whatever `on` says;
    - what has no weighted form yet is refused under weights: a running cut-off (its
      totals would be compared with the uniform opener floor) and deeper bounds.
    `off`/`on` as tuning.flags_without; the rest as context.build_context."""
    matrix, answer_rows, encoded = check_inputs(
        matrix, answer_rows, encoded, max_guesses, top_k, cutoff
    )
    weights = check_weights(weights, matrix.shape[1], int(max_guesses))
    if weights is not None:
        if running_cutoff:
            raise ValueError("running_cutoff is not available with weights yet (issue 73)")
        if deeper > 0:
            raise ValueError("deeper is not available with weights yet (issue 61)")
        off = frozenset(off) | set(UNWEIGHTED)
    flags = flags_without(frozenset(off), frozenset(on))
    return context.build_context(
        matrix, answer_rows, encoded, hard, int(max_guesses), top_k, flags,
        exact_upto=exact_upto, most=most, weights=weights,
    )  # fmt: skip
