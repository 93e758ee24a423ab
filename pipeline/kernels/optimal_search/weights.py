"""Answer weights in the optimal search: a node's value is the least sum over its answers
of weight x guesses (issue 61's prior, integer weights so that totals stay exact).

Uniform has one representation: params[P_WEIGHTED] 0, with an empty weights array (the
context holds none). No kernel reads a weight then: each reads them through one of the
three ideas below, which give the counts instead. Weights of 1 given explicitly are a
weighted search (the weighted paths, tuning.UNWEIGHTED's mechanisms off), which the tests
compare with the uniform one.

The three ideas weights change, each named once:
1. A class's share of a guess (class_share): what the class adds to the guess's total
   for the guess itself, its weight (uniform: its size). Every bound of a class is that
   share plus what its subtree needs beyond it.
2. A node's total (node_total): (total weight, heaviest weight) of its answers (uniform:
   (n, 1)); with it, Selby's bounds take their weighted forms (selby: the heaviest answer
   of a class is the one guessed next at best), and heaviest_answer is the guess where
   one or two answers are left.
3. A guess's stats at a node (classes, the sum of squares, the weight guessed right, its
   bound): uniform scans compute them inline from the class counts; under weights they
   come from a pass of their own before a scan (scan.weighted_stats, scan.weigh_guesses),
   so the scans' inner loops stay those of the uniform search.
Which prunings hold under weights is in tuning. The helpers take plain arrays, not the
search context: numba passes a context of some forty arrays by value, which costs more
than these loops.
"""

from __future__ import annotations

import numpy as np

from pipeline.kernels.jit import njit
from pipeline.kernels.optimal_search.context import P_WEIGHTED


@njit(cache=True, nogil=True)
def weighted(params) -> bool:
    """Whether the answers of the search with these params carry weights."""
    return params[P_WEIGHTED] != 0


@njit(cache=True, nogil=True, inline="always")
def class_share(params, class_weight, size):
    """Idea 1: a class's share of a guess, its weight (class_weight, from weigh_classes),
    or under uniform its `size`."""
    return class_weight if weighted(params) else np.int64(size)


@njit(cache=True, nogil=True)
def node_total(params, weights, answers):
    """Idea 2: (total weight, heaviest weight) of the answer columns `answers`; under
    uniform (n, 1), reading no weight."""
    if weighted(params):
        return node_weight(weights, answers)
    return np.int64(answers.shape[0]), np.int64(1)


@njit(cache=True, nogil=True)
def node_weight(weights, answers):
    """(total weight, heaviest weight) of the answer columns `answers` (weighted only)."""
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
def heaviest_answer(params, answer_rows, weights, answers) -> int:
    """The word row of the heaviest answer of `answers`, the lowest row among equals: an
    optimal guess where one or two answers are left (the lowest row when uniform)."""
    best = -1
    weight = np.int64(0)
    uniform = not weighted(params)
    for h in answers:
        row = answer_rows[h]
        w = np.int64(1) if uniform else weights[h]
        if w > weight or (w == weight and row < best):
            best, weight = row, w
    return best
