"""The `optimal` and `optimal_hard` strategies: a stored proven-optimal tree, played.

A tree (one (mode, opener) of optimal_trees.parquet) is a guess per node and one child
per reply. Played against every answer, each game follows the child whose reply equals
the true feedback (computed here from the pattern matrix, never taken from the tree), so
every answer's guess count is the depth of the node where it turns all green.

The tree is data, so it is checked while it is played, and a tree that disagrees with the
rules is a TreeError (the stage names the file), never a wrong number: an answer whose
reply has no child (the tree does not cover it), a node whose stored answer count or depth
is not what the game reached, a stored reply that no answer gets, or a total that is not
the one recorded.
"""

from __future__ import annotations

from collections.abc import Callable

from pipeline.analysis.benchmark.game_state import Game, GameData, Node
from pipeline.analysis.benchmark.strategies import Strategy
from pipeline.analysis.optimal.tree import OptimalTree, TreeError
from pipeline.core.wordle import MAX_GUESSES

# (mode, opener word or None for the best proven opener of the mode) -> the stored tree,
# None when the search proved that no tree wins every answer within its guesses
TreeLookup = Callable[[str, str | None], OptimalTree | None]


class OptimalTreeStrategy(Strategy):
    """Play a stored tree: state = the tree node the game is at."""

    def __init__(self, data: GameData, tree: OptimalTree) -> None:
        super().__init__(data, int(tree.guess[0]))
        self.tree = tree

    def initial_state(self) -> int:
        return 0

    def guess(self, node: Node) -> int:
        tree, at = self.tree, node.state
        if tree.n_answers[at] != len(node.answers) or tree.depth[at] != node.turn:
            raise TreeError(
                f"{tree.where(at)}: stored for {tree.n_answers[at]} answers at guess "
                f"{tree.depth[at]}, but {len(node.answers)} answers reach it at guess {node.turn}"
            )
        tree.visited.add(at)
        return int(tree.guess[at])

    def child_state(self, node: Node, guess: int, pattern: int) -> int:
        child = self.tree.children.get((node.state, pattern))
        if child is None:
            answer = self.data.words[self.data.answer_rows[node.answers[0]]]
            raise TreeError(
                f"{self.tree.where(node.state)}: no child for reply {pattern} to "
                f"{self.data.words[guess]!r}, which answers such as {answer!r} get: the tree "
                "does not cover every answer"
            )
        return child


def check_played(tree: OptimalTree, games: list[Game]) -> None:
    """Every stored node was reached (else a stored reply is one no answer gets), every game
    won within six guesses, and the total equals the recorded total_guesses."""
    unreached = sorted(set(range(len(tree.guess))) - tree.visited)
    if unreached:
        raise TreeError(
            f"{tree.where(unreached[0])}: no answer reaches it (a stored reply that is not the "
            f"true feedback); {len(unreached)} such node(s)"
        )
    lost = [game.answer for game in games if not game.finished or len(game.guesses) > MAX_GUESSES]
    if lost:
        raise TreeError(f"{tree.where(0)}: {len(lost)} answer(s) not won within six guesses")
    total = sum(len(game.guesses) for game in games)
    if total != tree.total:
        raise TreeError(f"{tree.where(0)}: played total {total} but recorded {tree.total}")
