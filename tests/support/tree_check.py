"""Independent check of a decision tree from `solve_opener` (plain Python and numpy).

Nothing here uses the search or the pattern matrix: replies are recomputed from the letters
with a direct implementation of Wordle's rule, and the hard-mode rule is checked on every
node against all constraints of its path. `check_tree` raises ValueError on the first
violation and otherwise returns the tree's total, recomputed answer by answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import numpy as np

from pipeline.kernels.optimal_search import TREE_FIELDS


def reply(guess: str, answer: str) -> int:
    """Wordle's pattern id (sum c_i 3**i; 0 grey, 1 yellow, 2 green): greens first, then
    left to right a letter is yellow while the answer has unmatched copies of it."""
    colours = [2 if g == a else 0 for g, a in zip(guess, answer, strict=True)]
    unmatched = Counter(a for a, c in zip(answer, colours, strict=True) if c == 0)
    for i, letter in enumerate(guess):
        if colours[i] == 0 and unmatched[letter] > 0:
            colours[i] = 1
            unmatched[letter] -= 1
    return sum(c * 3**i for i, c in enumerate(colours))


def obeys_hard_rule(word: str, history: list[tuple[str, int]]) -> bool:
    """NYT hard mode: greens kept in place, revealed letters present as often as revealed."""
    for guess, pattern in history:
        colours = [(pattern // 3**i) % 3 for i in range(len(guess))]
        revealed = Counter(g for g, c in zip(guess, colours, strict=True) if c > 0)
        if any(c == 2 and word[i] != guess[i] for i, c in enumerate(colours)):
            return False
        if any(word.count(letter) < times for letter, times in revealed.items()):
            return False
    return True


def check_tree(tree, words, answers, *, hard: bool, max_guesses: int, weights=None) -> int:
    """Validate `tree` (an OptimalResult or a mapping of TREE_FIELDS arrays); return its total.

    words: every word, indexed by word row; answers: the answer words (each must be in
    words); weights: positive integers, one per answer (default 1 each), so that the
    total is the sum of weight x guesses over the answers (a prior's numerator).
    Checks: rows are a tree in depth-first order rooted at row 0; each answer, following
    the true replies, meets a node whose guess is itself (the all-green end) at depth
    <= max_guesses; n_answers counts the answers through each node; children have
    distinct, non-all-green patterns; in hard mode every guess obeys its path's constraints.
    """
    arrays = {name: np.asarray(_field(tree, name), dtype=np.int64) for name in TREE_FIELDS}
    n_nodes = len(arrays["node_id"])
    if n_nodes == 0 or any(len(a) != n_nodes for a in arrays.values()):
        raise ValueError("a tree needs at least one row and equal-length arrays")
    node_id, parent, pattern, guess, size, depth = (arrays[name] for name in TREE_FIELDS)
    if not np.array_equal(node_id, np.arange(n_nodes)):
        raise ValueError("node_id must be 0..n-1 in row order")
    if parent[0] != -1 or pattern[0] != -1 or depth[0] != 1:
        raise ValueError("row 0 must be the root: parent -1, pattern -1, depth 1")
    all_green = 3 ** len(words[0]) - 1
    children: dict[tuple[int, int], int] = {}
    for node in range(1, n_nodes):
        up = int(parent[node])
        if not 0 <= up < node or depth[node] != depth[up] + 1:
            raise ValueError(f"node {node}: parent {up} must come first, one level up")
        if not 0 <= pattern[node] < all_green or (up, int(pattern[node])) in children:
            raise ValueError(f"node {node}: pattern {pattern[node]} is all green or repeated")
        children[(up, int(pattern[node]))] = node
    if depth.max() > max_guesses:
        raise ValueError(f"a node at depth {depth.max()} exceeds {max_guesses} guesses")
    if hard:
        _check_hard(words, guess, parent, pattern)
    weights = [1] * len(answers) if weights is None else [int(w) for w in weights]
    if len(weights) != len(answers) or min(weights, default=1) <= 0:
        raise ValueError("weights must be positive integers, one per answer")
    passes = np.zeros(n_nodes, dtype=np.int64)
    total = 0
    for answer, weight in zip(answers, weights, strict=True):
        node = 0
        while True:
            passes[node] += 1
            r = reply(words[guess[node]], answer)
            if r == all_green:
                total += weight * int(depth[node])
                break
            if (node, r) not in children:
                raise ValueError(f"answer {answer!r}: node {node} has no child for reply {r}")
            node = children[(node, r)]
    if not np.array_equal(passes, size) or passes.min() == 0:
        raise ValueError("n_answers must count the answers reaching each node (at least one)")
    return total


def _check_hard(words, guess, parent, pattern) -> None:
    """Every guess obeys the constraints of all (guess, reply) pairs above it."""
    history: list[list[tuple[str, int]]] = [[]]
    for node in range(1, len(guess)):
        up = int(parent[node])
        history.append(history[up] + [(words[guess[up]], int(pattern[node]))])
    for node in range(len(guess)):
        if not obeys_hard_rule(words[guess[node]], history[node]):
            raise ValueError(f"node {node}: {words[guess[node]]!r} breaks the hard-mode rule")


def _field(tree, name: str):
    return tree[name] if isinstance(tree, Mapping) else getattr(tree, name)


def check_cutoff_result(result, full, expected: float, cutoff: int) -> None:
    """What a search under `cutoff` must give (solve_opener's result), against the same
    search without it (`full`) and the brute-force optimum (`expected`, inf where no tree
    fits): below the cutoff the optimum and the full search's tree; at or above it a
    bound between the cutoff and the optimum, or no tree, proven, where none fits."""
    if expected < cutoff:
        assert result.total == expected and result.proven
        for name in TREE_FIELDS:
            assert np.array_equal(getattr(result, name), getattr(full, name))
    elif result.lower_bound is None:
        assert expected == float("inf") and result.proven and result.total is None
    else:
        assert result.total is None and not result.proven
        assert cutoff <= result.lower_bound <= expected
