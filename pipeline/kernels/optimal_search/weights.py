"""Answer weights in the optimal search: a node's value is the least sum over its answers
of weight x guesses (issue 61's prior, integer weights so that totals stay exact).

The uniform search is params[P_WEIGHTED] 0 with the context's weights all ones. Its hot
paths (the scans, the class bounds, a node's value) test `weighted` first and use the
counts, reading no weight; off them, the tree's canonical guess (recursion.tree_guess)
and the tree builder (solve) read the ones as counts. Weights of 1 given explicitly are
a weighted search (the weighted paths, tuning.UNWEIGHTED's mechanisms off), which the
tests compare with the uniform one.

Under weights, what changes is each answer's share of a guess (its weight, not 1) and
Selby's bounds (selby: the heaviest answer of a class is the one guessed next at best);
which prunings hold is in tuning. The helpers take plain arrays, not the search
context: numba passes a context of some forty arrays by value, which costs more than
these loops.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit
from pipeline.kernels.optimal_search.context import P_WEIGHTED


@njit(cache=True, nogil=True)
def weighted(params) -> bool:
    """Whether the answers of the search with these params carry weights."""
    return params[P_WEIGHTED] != 0


@njit(cache=True, nogil=True)
def node_weight(weights, answers):
    """(total weight, heaviest weight) of the answer columns `answers`."""
    total = np.int64(0)
    heaviest = np.int64(0)
    for h in answers:
        total += weights[h]
        heaviest = max(heaviest, weights[h])
    return total, heaviest


@njit(cache=True, nogil=True)
def weigh_classes(weights, part, sizes, starts, classes, count, class_weight, heaviest):
    """class_weight[p] and heaviest[p] (the weight of its heaviest answer) of each of
    the `count` classes listed in `classes`, whose answers are part[starts[p]:][:sizes[p]]."""
    for i in range(count):
        p = classes[i]
        total = np.int64(0)
        most = np.int64(0)
        for j in range(starts[p], starts[p] + sizes[p]):
            total += weights[part[j]]
            most = max(most, weights[part[j]])
        class_weight[p] = total
        heaviest[p] = most


@njit(cache=True, nogil=True)
def heaviest_answer(answer_rows, weights, answers) -> int:
    """The word row of the heaviest answer of `answers`, the lowest row among equals: an
    optimal guess where one or two answers are left (the lowest row when uniform)."""
    best = -1
    weight = np.int64(0)
    for h in answers:
        row = answer_rows[h]
        w = weights[h]
        if w > weight or (w == weight and row < best):
            best, weight = row, w
    return best
