"""Optimal Wordle decision trees for a given opener, proven by exhaustive search (numba).

`solve_opener` finds, for a fixed first guess, the decision tree of minimum total guesses
over the answer list (answers uniform, or weighted by `weights`: the least sum of
weight x guesses; the winning guess counts, at most `max_guesses` guesses per answer),
in normal mode or NYT hard mode, and returns it with its proof
status; `solve_openers` does several openers with one shared memo. The search kernel
lives in `recursion` (design notes there; after Alex Selby's wordle.cpp). `top_k`
restricts every node to its top_k guesses by the search order: much faster, and the
result is the total of a real tree, so an upper bound (proven=False). `cutoff` stops as
soon as the optimum is proven to be at least that (for ranking openers). `off` names
pruning mechanisms to switch off (tuning.MECHANISMS), `on` those off by default to
switch on (tuning.DEFAULT_OFF): the same result, faster or slower.

Tree layout (flat arrays, one row per guess played, depth-first, children by pattern id):
node_id (= row), parent_id (-1 at the root), pattern (the reply leading here; -1 at the
root), guess (word row), n_answers (answers still possible here), depth (1 at the root).
The all-green reply is not a row: an answer is solved at the node whose guess it is, and
every answer reaches exactly one such node, so total = n_answers.sum(). At each node the
guess is the lowest word row among the optimal ones (top_k: the first optimal guess in
the search order), so equal inputs give equal trees.
"""

from __future__ import annotations

import time
from collections import namedtuple
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from pipeline.core.wordle import ALPHABET_SIZE, MAX_GUESSES, encode_words
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.optimal_search import context, recursion
from pipeline.kernels.optimal_search.bounds import opener_floor
from pipeline.kernels.optimal_search.hard_state import child_state, filter_allowed
from pipeline.kernels.optimal_search.inputs import search_context
from pipeline.kernels.optimal_search.memo import clear_memo
from pipeline.kernels.optimal_search.selby import weighted_class_bound
from pipeline.kernels.optimal_search.weights import heaviest_answer, node_total

TREE_FIELDS = ("node_id", "parent_id", "pattern", "guess", "n_answers", "depth")
WordLists = namedtuple("WordLists", ["words", "encoded", "matrix", "answer_rows"])


def prepare_lists(allowed: list[str], answers: list[str]) -> WordLists:
    """Words in pipeline order (sorted union), their codes, the (G, A) matrix, answer rows."""
    words = sorted(set(allowed) | set(answers))
    encoded = encode_words(words)
    row_of = {word: row for row, word in enumerate(words)}
    answer_rows = np.array([row_of[word] for word in sorted(set(answers))], dtype=np.int64)
    return WordLists(words, encoded, feedback_matrix(encoded, encoded[answer_rows]), answer_rows)


@dataclass(frozen=True, eq=False)
class OptimalResult:
    """The best tree found for one opener, and what is proven about it.

    total: guesses summed over all answers by the returned tree; None when there is no
    tree (none fits in max_guesses, or the cutoff was reached; `reason` says which).
    proven: total is the exact optimum, or (total None) no tree fits at all.
    lower_bound <= optimum <= upper_bound (= total); lower_bound is None when proven
    infeasible. counts[i]: answers solved with i + 1 guesses; deepest: the most guesses
    any answer needs; nodes: search nodes entered; seconds: CPU seconds of the call.
    Under weights the totals are sums of weight x guesses, and answer_weight (0: uniform)
    is the weight of all answers, what a total is divided by for the mean.
    """

    opener: int
    hard: bool
    max_guesses: int
    top_k: int | None
    total: int | None
    proven: bool
    lower_bound: int | None
    upper_bound: int | None
    counts: tuple[int, ...]
    deepest: int | None
    nodes: int
    reason: str | None
    seconds: float
    node_id: np.ndarray
    parent_id: np.ndarray
    pattern: np.ndarray
    guess: np.ndarray
    n_answers: np.ndarray
    depth: np.ndarray
    answer_weight: int = 0

    @property
    def mean(self) -> float | None:
        """Average guesses per answer (under weights, the weighted mean)."""
        if self.total is None:
            return None
        return self.total / (self.answer_weight or int(sum(self.counts)))


def solve_opener(
    matrix: np.ndarray,
    answer_rows: np.ndarray,
    encoded: np.ndarray,
    opener: int,
    *,
    hard: bool,
    max_guesses: int = MAX_GUESSES,
    top_k: int | None = None,
    cutoff: int | None = None,
    off: Collection[str] = (),
    on: Collection[str] = (),
    weights: np.ndarray | None = None,
) -> OptimalResult:
    """Best decision tree starting with word row `opener` (exhaustive unless top_k is set).

    matrix: (G, A) pattern_dtype ids, rows guesses; answer_rows[j]: word row of answer j;
    encoded: (G, L) letter codes (hard mode reads letters). Answers count uniformly, or
    by `weights` (positive integers, one per answer column): the total is then the sum of
    weight x guesses, and the mechanisms of tuning.UNWEIGHTED are off.
    cutoff: only totals below it matter (ranking openers against a known total): once the
    optimum is proven >= cutoff the search stops, with that bound and no tree (its root's
    classes start from the opener bounds' second-level floors, weighted under weights).
    """
    options = {"hard": hard, "max_guesses": max_guesses, "top_k": top_k, "cutoff": cutoff}
    options["off"], options["on"], options["weights"] = off, on, weights
    return next(solve_openers(matrix, answer_rows, encoded, [opener], **options))


def solve_openers(
    matrix: np.ndarray,
    answer_rows: np.ndarray,
    encoded: np.ndarray,
    openers: Iterable[int],
    *,
    hard: bool,
    max_guesses: int = MAX_GUESSES,
    top_k: int | None = None,
    cutoff: int | None = None,
    running_cutoff: bool = False,
    independent: bool = False,
    off: Collection[str] = (),
    on: Collection[str] = (),
    weights: np.ndarray | None = None,
) -> Iterator[OptimalResult]:
    """solve_opener for each opener in turn, sharing one memo: node values do not depend on
    the opener, so later openers reuse earlier work (a batch on a cluster node, say).

    running_cutoff: search each opener only below (best total so far) + 1 (and cutoff), so
    an opener that neither beats nor ties the best so far costs just its refutation;
    refused under weights (inputs.search_context applies every weights rule).
    independent: empty the memo before each opener, so that every result (its bound when
    cut off, its node count) depends on the opener alone, not on the batch it is in.
    """
    started = time.process_time()
    ctx = search_context(
        matrix, answer_rows, encoded, hard=hard, max_guesses=max_guesses, top_k=top_k,
        cutoff=cutoff, off=off, on=on, weights=weights, running_cutoff=running_cutoff,
    )  # fmt: skip
    matrix, encoded = ctx.m, ctx.letters
    limit = context.INF if cutoff is None else int(cutoff)
    for opener in openers:
        if not 0 <= int(opener) < matrix.shape[0]:
            raise ValueError(f"opener must be a word row in 0..{matrix.shape[0] - 1}, got {opener}")
        if independent:
            clear_memo(ctx.memo)
        result = solve_one(ctx, matrix, encoded, int(opener), limit, started)
        if running_cutoff and result.total is not None:
            limit = min(limit, result.total + 1)
        started = time.process_time()
        yield result


def solve_one(ctx, matrix, encoded, opener, beta, started) -> OptimalResult:
    """Search one opener below beta with a built context; the tree if one is found."""
    ctx.stats[:] = 0
    n_answers = matrix.shape[1]
    floored = beta < context.INF and not ctx.params[context.P_TOPK]
    if floored:  # the root's classes start from their second-level bounds (recursion),
        # and its search reuses the partition opener_floor leaves at depth 0
        opener_floor(ctx, opener, beta)
        ctx.floors[:] = ctx.cls_lb[0]
        ctx.params[context.P_FLOORED] = opener
    ctx.part[-1, :n_answers] = np.arange(n_answers, dtype=np.int32)
    try:
        value = int(recursion.search_entry(ctx, 0, n_answers, beta, opener))
    finally:
        ctx.params[context.P_FLOORED] = -1
    weights = ctx.weights if ctx.params[context.P_WEIGHTED] else None
    static = root_bound(matrix, opener, 3 ** encoded.shape[1] - 1, weights)
    answer_weight = 0 if weights is None else int(weights.sum())
    max_guesses = int(ctx.params[context.P_MAXG])
    top_k = int(ctx.params[context.P_TOPK]) or None
    hard = bool(ctx.params[context.P_HARD])
    settings = {"opener": opener, "hard": hard, "max_guesses": max_guesses, "top_k": top_k}
    nodes = int(ctx.stats[context.S_NODES])
    if value >= beta:
        if value >= context.INF:
            mode = "hard" if hard else "normal"
            reason = f"no tree wins every answer within {max_guesses} guesses in {mode} mode"
            low = None
        else:
            reason = f"the optimum is at least {value}, not below the cutoff {beta}"
            low = value
        if top_k:
            reason += f" (searching only the top {top_k} guesses per node: not a proof)"
            low = static
        empty = np.zeros(0, dtype=np.int64)
        return OptimalResult(
            **settings, total=None, proven=not top_k and low is None, lower_bound=low,
            upper_bound=None, counts=(0,) * max_guesses, deepest=None, nodes=nodes,
            reason=reason, seconds=time.process_time() - started,
            **dict.fromkeys(TREE_FIELDS, empty), answer_weight=answer_weight,
        )  # fmt: skip
    tree, counts, weighed = _extract_tree(ctx, matrix, opener, hard, canonical=not top_k)
    if weighed != value:
        raise AssertionError(f"extracted tree totals {weighed}, search {value}")
    return OptimalResult(
        **settings, total=value, proven=not top_k, lower_bound=static if top_k else value,
        upper_bound=value, counts=counts, deepest=max(i + 1 for i, c in enumerate(counts) if c),
        nodes=nodes, reason=None, seconds=time.process_time() - started, **tree,
        answer_weight=answer_weight,
    )  # fmt: skip


def root_bound(
    matrix: np.ndarray, opener: int, all_green: int, weights: np.ndarray | None = None
) -> int:
    """Static lower bound of an opener's total: selby.class_bound summed over its classes
    (without the max-replies refinement, which needs the search's context); under
    weights (one per answer column) weighted_class_bound."""
    replies = matrix[opener].astype(np.int64)
    sizes = np.bincount(replies, minlength=all_green + 1)
    if weights is None:
        totals, heaviest = sizes, np.ones_like(sizes)
    else:
        totals = np.bincount(replies, weights=weights, minlength=all_green + 1).astype(np.int64)
        heaviest = np.zeros_like(sizes)
        np.maximum.at(heaviest, replies, weights)
    return sum(
        weighted_class_bound(int(size), int(totals[r]), int(heaviest[r]), r == all_green,
                             context.INF)
        for r, size in enumerate(sizes.tolist())
        if size > 0
    )  # fmt: skip


def _extract_tree(ctx, matrix, opener, hard, canonical) -> tuple[dict, tuple[int, ...], int]:
    """Walk the solved tree depth-first; each node re-asks the (memoised) search. Also
    the tree's total: the weight of the answers through each node, summed."""
    n_answers = matrix.shape[1]
    all_green = int(ctx.params[context.P_ALLGREEN])
    length = ctx.letters.shape[1]
    rows = []
    solved = [0] * int(ctx.params[context.P_MAXG])
    root = (-1, -1, 0, np.arange(n_answers, dtype=np.int32), ctx.allowed[0].copy(),
            np.full(length, -1, np.int32), np.zeros(ALPHABET_SIZE, np.int32))  # fmt: skip
    stack = [root]
    total = 0
    while stack:
        parent, pattern, depth, answers, allowed, green, mins = stack.pop()
        guess = opener if depth == 0 else _node_guess(ctx, depth, answers, allowed, green, mins,
                                                      canonical)  # fmt: skip
        node = len(rows)
        rows.append((node, parent, pattern, guess, len(answers), depth + 1))
        total += int(node_total(ctx.params, ctx.weights, answers)[0])
        replies = matrix[guess, answers]
        children = []
        for reply in np.unique(replies):
            if reply == all_green:
                solved[depth] += 1
                continue
            child = [node, int(reply), depth + 1, answers[replies == reply], allowed, green, mins]
            if hard:
                child[4:] = _child_constraints(ctx, allowed, green, mins, guess, int(reply))
            children.append(tuple(child))
        stack.extend(reversed(children))
    table = np.array(rows, dtype=np.int64).reshape(-1, len(TREE_FIELDS))
    tree = {name: table[:, i].copy() for i, name in enumerate(TREE_FIELDS)}
    return tree, tuple(solved), total


def _node_guess(ctx, depth, answers, allowed, green, mins, canonical) -> int:
    """The guess the tree plays at an inner node (see the module docstring for which)."""
    if len(answers) <= 2:  # guess an answer, the heavier (the lower row of two alike)
        return int(heaviest_answer(ctx.params, ctx.answer_rows, ctx.weights, answers))
    ctx.part[-1, : len(answers)] = answers
    ctx.allowed[depth, : len(allowed)] = allowed
    ctx.n_allowed[depth] = len(allowed)
    ctx.green[depth] = green
    ctx.mins[depth] = mins
    guess = int(recursion.tree_guess(ctx, depth, len(answers), canonical))
    if guess < 0:
        raise AssertionError(f"no optimal guess at a solved node (depth {depth})")
    return guess


def _child_constraints(ctx, allowed, green, mins, guess, reply):
    """Hard mode: (allowed guesses, green, mins) after `guess` got `reply`."""
    greens = np.stack([green, green])
    counts = np.stack([mins, mins])
    child_state(greens, counts, 0, ctx.letters, ctx.digits, guess, reply)
    out = np.empty_like(allowed)
    kept = filter_allowed(allowed, ctx.packed, greens[1], counts[1], out)
    return out[:kept].copy(), greens[1].copy(), counts[1].copy()
