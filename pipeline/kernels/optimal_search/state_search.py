"""The optimal search entered at a game state: the assistant's proofs and its own policy.

A state is the turns played (guess rows and their replies) and the answers still possible.
`StateSearch` enters the search kernel there (the node the optimal stage's search would
reach by the same turns: the same hard-mode state, the same guesses allowed, one per group
that splits the answers alike) and returns node values: the least total of guesses over
the answers, this guess included, within the guesses left (INF when none fits).

Its `exact_upto` and `top_k` define the policy the values belong to: a node of at most
`exact_upto` answers is searched in full (its value is the proven optimum), a larger one
tries only its first `top_k` guesses in the search's order (Selby's heuristic), each
followed by the same policy. A node's value depends only on the node, so the value of a
guess at a state is exactly what a player gets who plays it and then, at every later
state, the guess of least value among the policy's options (`options`): the assistant's
own advice. One context (and memo) serves a whole session; values are never approximate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.core.wordle import MAX_GUESSES
from pipeline.kernels.optimal_search import context, recursion
from pipeline.kernels.optimal_search.context import INF
from pipeline.kernels.optimal_search.hard_state import child_state, filter_allowed
from pipeline.kernels.optimal_search.inputs import search_context
from pipeline.kernels.optimal_search.partition import distinct_guesses
from pipeline.kernels.optimal_search.scan import order_keys


@dataclass(frozen=True)
class Policy:
    """Which nodes are searched in full (at most exact_upto answers) and how many guesses a
    larger node tries (top_k, in the search's order)."""

    exact_upto: int
    top_k: int

    def __post_init__(self) -> None:
        if self.exact_upto < 0 or self.top_k < 1:
            raise ValueError(f"a policy needs exact_upto >= 0 and top_k >= 1, not {self}")


class StateSearch:
    """Node values at game states, for one (guess x answer matrix, mode, policy)."""

    def __init__(
        self,
        matrix: np.ndarray,
        answer_rows: np.ndarray,
        encoded: np.ndarray,
        *,
        hard: bool,
        policy: Policy,
        max_guesses: int = MAX_GUESSES,
        replies: np.ndarray | None = None,
    ) -> None:
        """replies: the number of distinct replies of each guess over all answers, when
        known (the word index's entropy table holds it); else counted here."""
        self.hard = hard
        self.policy = policy
        self.max_guesses = int(max_guesses)
        most = None
        if replies is not None:
            guesses = len(matrix)
            if np.shape(replies) != (guesses,):
                raise ValueError(f"replies must hold one count per guess ({guesses})")
            most = int(np.max(replies))
        self._ctx = search_context(
            matrix, answer_rows, encoded, hard=hard, max_guesses=self.max_guesses,
            top_k=policy.top_k, exact_upto=policy.exact_upto, most=most,
        )  # fmt: skip
        self.n_answers = self._ctx.m.shape[1]

    def warm(self) -> None:
        """Load the compiled kernels now (numba's cache, about 0.3 s; compiled once when
        not cached), by valuing a state of the first three answers and ordering its
        guesses."""
        answers = np.arange(min(3, self.n_answers))
        self.best([], answers)
        self.options([], answers, 1)

    def exact(self, n: int) -> bool:
        """Whether a node of n answers is searched in full (its value is proven)."""
        return n <= self.policy.exact_upto

    def _enter(self, turns: list[tuple[int, int]], answers: np.ndarray) -> tuple[int, int]:
        """Set up the entry node; (its depth, its number of answers)."""
        ctx = self._ctx
        depth = len(turns)
        answers = np.asarray(answers, dtype=np.int32)
        n = answers.size
        if depth >= self.max_guesses or n == 0:
            raise ValueError(f"no state to search: {depth} turns, {n} answers")
        if np.any(np.diff(answers) <= 0) or answers.min() < 0:
            raise ValueError("answers must be distinct column ids, ascending")
        if answers.max() >= self.n_answers:
            raise ValueError(f"answers must be column ids below {self.n_answers}")
        ctx.green[0] = -1
        ctx.mins[0] = 0
        for i, (guess, reply) in enumerate(turns):
            child_state(ctx.green, ctx.mins, i, ctx.letters, ctx.digits, int(guess), int(reply))
        source = np.arange(ctx.m.shape[0], dtype=np.int32)
        out = ctx.allowed[depth]
        if self.hard:
            kept = filter_allowed(source, ctx.packed, ctx.green[depth], ctx.mins[depth], out)
            source = out[:kept].copy()
        present = np.bitwise_or.reduce(ctx.answer_letters[answers])
        ctx.seen_generation[0] += 1
        ctx.n_allowed[depth] = distinct_guesses(
            source, ctx.letters, np.int64(present), ctx.seen, ctx.seen_generation[0], out
        )
        ctx.part[-1, :n] = answers
        return depth, n

    def allowed(self, turns: list[tuple[int, int]], answers: np.ndarray) -> np.ndarray:
        """The guess rows the search considers at the state: the legal ones (hard mode),
        the lowest row of each group that splits the answers alike."""
        depth, _ = self._enter(turns, answers)
        return self._ctx.allowed[depth, : self._ctx.n_allowed[depth]].astype(np.int64)

    def value(self, turns: list[tuple[int, int]], answers: np.ndarray, guess: int = -1) -> int:
        """The node's value (guess -1: the policy's best) or that of playing `guess` there
        and then following the policy; INF when it cannot win every answer in time."""
        if len(turns) >= self.max_guesses:
            return INF
        depth, n = self._enter(turns, answers)
        value = int(recursion.search_entry(self._ctx, depth, n, INF, int(guess)))
        return min(value, INF)

    def best(self, turns: list[tuple[int, int]], answers: np.ndarray) -> tuple[int, int]:
        """(the node's value, a guess row that achieves it; -1 when the value is INF)."""
        if len(turns) >= self.max_guesses:
            return INF, -1
        depth, n = self._enter(turns, answers)
        self._ctx.best[depth] = -1
        value = min(int(recursion.search_entry(self._ctx, depth, n, INF, -1)), INF)
        return value, int(self._ctx.best[depth]) if value < INF else -1

    def options(self, turns: list[tuple[int, int]], answers: np.ndarray, limit: int) -> np.ndarray:
        """The first `limit` guesses of the search's order at the state (Selby's heuristic,
        2 * sum c^2 + n * bound, ties by row; a guess that splits nothing is left out).
        At a node the policy does not search in full, its first top_k are its options."""
        depth, n = self._enter(turns, answers)
        ctx = self._ctx
        allowed = ctx.allowed[depth, : ctx.n_allowed[depth]]
        keys = order_keys(ctx, depth, ctx.part[-1, :n], allowed)
        return (np.sort(keys)[:limit] & context.ID_MASK).astype(np.int64)
