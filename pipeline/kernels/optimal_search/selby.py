"""Alex Selby's two lower bounds of a decision tree's total, the one home of each.

From his wordle.cpp (github.com/alex1770/wordle, MIT licence) and his write-up
("The best strategies for Wordle", sites.google.com/view/alexselby/wordle/wordle-1).
Both count the guesses summed over the answers of a node, the winning guess included.
Small njit functions: the search kernels inline them (LLVM), and Python callers (the
assistant's numbers, the static root bound) call the same code.
"""

from __future__ import annotations

from pipeline.kernels.jit import njit


@njit(cache=True, nogil=True)
def guess_bound(n: int, k: int, hit: int) -> int:
    """Selby's bound of playing a guess at a node of n answers: 3n - k - hit.

    The guess splits the n answers into k classes (replies); hit = 1 when the guess is
    one of them (its class, all green, is won by this guess). Every answer takes this
    guess, and each other class of c answers at least 2c - 1 more (one answer guessed
    next, the others at least two more each): n + sum (2c - 1) = 3n - k - hit. Exact
    when every class has at most two answers.
    """
    return weighted_guess_bound(n, k, hit)


@njit(cache=True, nogil=True)
def weighted_guess_bound(total: int, heaviest_sum: int, hit_weight: int) -> int:
    """guess_bound under answer weights (each answer a positive integer weight, the total
    the sum of weight x guesses), at a node of weight `total`: heaviest_sum is the sum
    over the guess's classes of each class's heaviest answer (the one guessed next at
    best), hit_weight the weight of the guess itself if it is an answer there. Weights
    of 1 give guess_bound's counts back (n, k, hit)."""
    return 3 * total - heaviest_sum - hit_weight


@njit(cache=True, nogil=True)
def class_bound(c: int, final: bool, max_replies: int) -> int:
    """Selby's bound of a class of c answers after a guess, that guess included: 1 for
    the all-green class (final), 2 for a singleton, 5 for a pair, and for c >= 3
    c + the least guess bound of its node, whose next guess has k <= min(c, max_replies)
    classes and hit <= 1: 3c - 1, plus c - max_replies when that is positive.
    max_replies >= c (context.INF when unknown) leaves that refinement out.
    """
    return weighted_class_bound(c, c, 1, final, max_replies)


@njit(cache=True, nogil=True)
def weighted_class_bound(c: int, total: int, heaviest: int, final: bool, max_replies: int) -> int:
    """class_bound for a class of c answers of weight `total`, the heaviest `heaviest`
    (positive integer weights; with weights of 1, total = c and heaviest = 1 give
    class_bound's 1, 2, 5 and 3c - 1 + max(0, c - max_replies)).

    The class pays this guess (total); its next guess splits it into at most
    k = min(c, max_replies) classes, so by guess_bound it costs at least
    3 total - (the k heaviest weights) - heaviest more, and the k heaviest weigh at most
    min(total, k x heaviest): 4 total - min(total, k heaviest) - heaviest in all. For
    c <= 2 the class's exact cost instead: 2 total for one answer, 3 total - heaviest
    for two (the heavier guessed next; either answer splits a pair).
    """
    if final:
        return total
    if c == 1:
        return 2 * total
    if c == 2:  # exact whatever max_replies says: either answer splits the pair
        return 3 * total - heaviest
    k = min(c, max_replies)
    return 4 * total - min(total, k * heaviest) - heaviest
