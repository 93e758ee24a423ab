"""The weights' three ideas (pipeline/kernels/optimal_search/weights.py) and uniform's one
representation: under uniform the context holds no weights, and each idea gives the
counts without reading one; under weights, the weights' sums and maxima."""

from __future__ import annotations

import numpy as np

from pipeline.kernels.optimal_search.context import P_WEIGHTED
from pipeline.kernels.optimal_search.inputs import search_context
from pipeline.kernels.optimal_search.weights import class_share, heaviest_answer, node_total
from tests.support.optimal_reference import lists

UNIFORM = np.zeros(11, dtype=np.int64)
WEIGHTED = np.zeros(11, dtype=np.int64)
WEIGHTED[P_WEIGHTED] = 1
NO_WEIGHTS = np.zeros(0, dtype=np.int64)


def test_a_uniform_context_holds_no_weights_and_a_weighted_one_its_own():
    w = lists("random")
    n_answers = len(w.answer_rows)
    uniform = search_context(w.matrix, w.answer_rows, w.encoded, hard=False, max_guesses=6)
    assert uniform.params[P_WEIGHTED] == 0 and uniform.weights.shape == (0,)
    given = np.arange(1, n_answers + 1)
    weighted = search_context(
        w.matrix, w.answer_rows, w.encoded, hard=False, max_guesses=6, weights=given
    )
    assert weighted.params[P_WEIGHTED] == 1 and weighted.weights.tolist() == given.tolist()
    ones = search_context(
        w.matrix,
        w.answer_rows,
        w.encoded,
        hard=False,
        max_guesses=6,
        weights=np.ones(n_answers, np.int64),
    )
    assert ones.params[P_WEIGHTED] == 1  # weights of 1, given, are a weighted search


def test_a_class_share_is_its_size_or_its_weight():
    assert class_share(UNIFORM, np.int64(17), 3) == 3
    assert class_share(WEIGHTED, np.int64(17), 3) == 17


def test_a_node_total_is_its_count_or_its_weights_sum_and_heaviest():
    answers = np.array([4, 0, 2], dtype=np.int32)
    weights = np.array([5, 1, 9, 1, 2], dtype=np.int64)
    assert tuple(node_total(UNIFORM, NO_WEIGHTS, answers)) == (3, 1)
    assert tuple(node_total(WEIGHTED, weights, answers)) == (5 + 9 + 2, 9)


def test_the_heaviest_answer_is_the_lowest_row_among_the_heaviest():
    rows = np.array([30, 10, 20, 5, 40], dtype=np.int64)  # answer column -> word row
    answers = np.array([4, 0, 2], dtype=np.int32)
    assert heaviest_answer(UNIFORM, rows, NO_WEIGHTS, answers) == 20  # the lowest row
    weights = np.array([5, 1, 9, 1, 2], dtype=np.int64)
    assert heaviest_answer(WEIGHTED, rows, weights, answers) == 20
    weights[0] = 9  # a tie: rows 30 and 20 weigh 9 each
    assert heaviest_answer(WEIGHTED, rows, weights, answers) == 20
    weights[4] = 10
    assert heaviest_answer(WEIGHTED, rows, weights, answers) == 40
