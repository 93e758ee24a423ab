"""One stored optimal tree in memory: the one type that the `optimal` strategies play and
the assistant follows, checked in one place when it is read.

A tree is one (mode, opener) of optimal_trees.parquet: a guess per node, one child per
reply. `from_columns` takes the artifact's columns (any row order) and refuses, as a
TreeError, a tree that is not one over the word index: node ids other than 0..N-1, a
guess id outside the index or naming another word than the stored one, a root that is
not the opener, a node without a parent (or a root with one), two children for one reply.
Only numpy: the assistant's one-shot answers cannot afford numba's import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from pipeline.core.errors import PipelineError


class TreeError(PipelineError):
    """A stored tree that does not describe a game the rules allow."""


@dataclass
class OptimalTree:
    """One stored tree as arrays by node_id, and its children keyed by (node, reply).

    total: the recorded total_guesses; visited: the nodes a strategy's games reached."""

    mode: str
    opener: str
    guess: np.ndarray  # word_id to play at the node
    n_answers: np.ndarray  # answers still possible at the node
    depth: np.ndarray  # guess number of the node's guess (1 at the root)
    to_finish: np.ndarray  # guesses_to_finish: summed over the node's answers
    children: dict[tuple[int, int], int]
    total: int
    visited: set[int] = field(default_factory=set)

    @classmethod
    def from_columns(
        cls, mode: str, opener: str, columns: Mapping[str, Sequence], total: int,
        words: Sequence[str],
    ) -> OptimalTree:  # fmt: skip
        """From optimal_trees.parquet's columns of one tree (to_pydict), checked against
        the word index `words`."""
        nodes = np.asarray(columns["node_id"], dtype=np.int64)
        count = len(nodes)
        name = f"{mode}-mode tree of opener {opener!r}"
        if count == 0:
            raise TreeError(f"{name} has no nodes")
        if sorted(nodes.tolist()) != list(range(count)):
            raise TreeError(f"{name}: node ids are not 0..{count - 1}")
        ids = columns["guess_id"]
        if any(
            not 0 <= g < len(words) or words[g] != w
            for g, w in zip(ids, columns["guess"], strict=True)
        ):
            raise TreeError(f"{name}: guess ids disagree with the word index")
        arrays = {}
        for key, column in [("guess", ids), ("n_answers", columns["n_answers"]),
                            ("depth", columns["depth"]),
                            ("to_finish", columns["guesses_to_finish"])]:  # fmt: skip
            arrays[key] = np.empty(count, np.int64)
            arrays[key][nodes] = column
        if words[arrays["guess"][0]] != opener:
            raise TreeError(f"{name}: the root plays {words[arrays['guess'][0]]!r}")
        children = _children(name, nodes, columns["parent_id"], columns["pattern_id"])
        return cls(mode, opener, **arrays, children=children, total=int(total))

    def where(self, node_id: int) -> str:
        return f"{self.mode}-mode tree of opener {self.opener!r}, node {node_id}"

    def expected(self, node: int) -> float:
        """E of the node's guess: guesses_to_finish / n_answers."""
        return float(self.to_finish[node]) / float(self.n_answers[node])

    def path(self, guesses: list[int], replies: list[int]) -> list[int]:
        """The nodes where each turn was played, then where the next guess is, as long as
        the game follows the tree: it stops at the first guess other than the tree's, or
        at a reply the tree does not continue (all green)."""
        nodes = [0]
        for guess, reply in zip(guesses, replies, strict=True):
            node = nodes[-1]
            child = self.children.get((node, reply))
            if self.guess[node] != guess or child is None:
                break
            nodes.append(child)
        return nodes


def _children(name: str, nodes: np.ndarray, parents: Sequence, replies: Sequence
              ) -> dict[tuple[int, int], int]:  # fmt: skip
    """(parent, reply) -> node; the root (node 0) alone has no parent (null)."""
    children: dict[tuple[int, int], int] = {}
    for node, parent, reply in zip(nodes.tolist(), parents, replies, strict=True):
        if (parent is None) != (node == 0):
            raise TreeError(f"{name}: node {node} is misplaced")
        if parent is not None:
            if (int(parent), int(reply)) in children:
                raise TreeError(f"{name}: node {parent} has two children for reply {reply}")
            children[(int(parent), int(reply))] = node
    return children
