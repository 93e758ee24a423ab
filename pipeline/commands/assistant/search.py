"""The guesses of a state valued from the stored reply matrix: what the matrix tells of a
guess at once (`StoredReplies`), and the optimal search entered at the state, whose jobs
run within the answer's budget (`GuessSearch`, pipeline.commands.assistant.budget).

numba is imported only when a state needs the search (after the first guess).
"""

from __future__ import annotations

import sys
from dataclasses import replace

import numpy as np

from pipeline.commands.assistant.budget import NOT_DONE, Valuer
from pipeline.commands.assistant.data import Data
from pipeline.commands.assistant.game import Rules, State
from pipeline.commands.assistant.values import (
    Choice,
    Table,
    from_value,
    split_stats,
    stored,
    unvalued,
    useful,
)
from pipeline.core.wordle import MAX_GUESSES, all_green

INF_VALUE = 1 << 29  # pipeline.kernels.optimal_search.context.INF (checked by a test)


def _candidate_set(state: State) -> set[int]:
    return set(state.candidates.tolist())


class StoredReplies:
    """The stored guess x answer matrix, read once when first needed, and what it tells
    of a guess without the search: its split of the candidates, with a stored total when
    one is known, and the guesses by their bits when the search is busy."""

    def __init__(self, data: Data, prior: bool) -> None:
        self.data = data
        self.prior = prior
        self.green = all_green(data.index.length)
        self.n_bins = 3**data.index.length
        self.matrix: np.ndarray | None = None  # the stored guess x answer matrix, once read

    def load(self) -> None:
        """Read the matrix now (prior mode has none), so turns only index it."""
        if not self.prior and self.matrix is None:
            self.matrix = self.data.answer_matrix()

    def replies(self, guess: int, candidates: np.ndarray) -> np.ndarray:
        """The reply to `guess` of each candidate (word_ids), from the stored matrix."""
        self.load()
        return self.matrix[guess, np.searchsorted(self.data.index.answer_rows, candidates)]

    def columns(self, state: State) -> np.ndarray:
        return np.searchsorted(self.data.index.answer_rows, state.candidates)

    def split_choice(self, state: State, word_id: int) -> Choice:
        """A guess's split of the candidates, without a value."""
        replies = self.replies(word_id, state.candidates)
        choice = split_stats(replies, self.green, word_id in _candidate_set(state))
        return replace(choice, word_id=word_id)

    def stored_choice(self, state: State, word_id: int, total: int | None, proven: bool):
        """A guess valued by a stored total (a tree's, or a stored opener's)."""
        choice = self.split_choice(state, word_id)
        return stored(choice, total, state.candidates.size, proven)

    def quick_order(self, state: State, guesses: np.ndarray, limit: int) -> list[int]:
        """When the search is busy past the budget: the legal `guesses` by their bits over
        the candidates (entropy.parquet's before the first guess), candidates first among
        equals; a block of rows at a time, so that a large state costs no memory."""
        if not state.turns:
            bits = self.data.entropy_answers[guesses]
        else:
            columns = self.columns(state)
            blocks = np.array_split(guesses, max(1, guesses.size // 1024))
            bits = np.concatenate([self._bits(self.matrix[b][:, columns]) for b in blocks])
        outside = ~np.isin(guesses, state.candidates)
        return guesses[np.lexsort((guesses, outside, -np.round(bits, 9)))[:limit]].tolist()

    def _bits(self, replies: np.ndarray) -> np.ndarray:
        """The entropy of each row's replies (a block of guesses over the candidates)."""
        rows, n = replies.shape
        flat = replies.astype(np.int64) + np.arange(rows)[:, None] * self.n_bins
        share = np.bincount(flat.ravel(), minlength=rows * self.n_bins).reshape(rows, -1) / n
        logs = np.log2(share, out=np.zeros_like(share), where=share > 0)
        return -(share * logs).sum(axis=1)


def say_compiling() -> None:
    """The one line a first answer after an install or an update shows while it waits."""
    sys.stderr.write(
        "wordle-assist: compiling the search once, after an install or an update "
        "(about a minute; it does not count against --budget)...\n"
    )
    sys.stderr.flush()


class GuessSearch:
    """The search entered at a state (pipeline.analysis.advice.guess_values), built once per
    policy; each of its jobs runs within the answer's budget or is shown not valued."""

    def __init__(
        self, stored: StoredReplies, rules: Rules, valuer: Valuer, *, top: int, policy=None
    ) -> None:
        """policy: the search's Policy (pipeline.analysis.advice.guess_values.POLICY by default)."""
        self.stored = stored
        self.rules = rules
        self.valuer = valuer
        self.top = top
        self.policy = policy
        self._searches: dict = {}  # Policy -> StateSearch, made when first needed

    def engine(self):
        """The search over the stored matrix (numba: imported only when a state needs it)."""
        from pipeline.analysis.advice.guess_values import POLICY
        from pipeline.kernels.compiling import announce
        from pipeline.kernels.optimal_search import StateSearch

        policy = self.policy or POLICY
        if policy not in self._searches:
            self.stored.load()
            index = self.stored.data.index
            self._searches[policy] = StateSearch(
                self.stored.matrix, index.answer_rows, self.rules.encoded, hard=self.rules.hard,
                policy=policy, max_guesses=MAX_GUESSES, replies=self.stored.data.buckets,
            )  # fmt: skip
            # here, not in a budgeted job: a kernel compiled on a first run must get to
            # numba's cache even when the budget ends and the answer exits first (the
            # budget leaves the compiling out: budget.clock)
            with announce(say_compiling):
                self._searches[policy].warm()
            self.valuer.start()  # loaded: the search gets at least a tenth of the budget
        return self._searches[policy]

    def table(self, state: State) -> Table:
        """The search's best guess at the state and its first options, each valued (one
        job each, within the budget); the stored tree's guess with its proven value where
        the game is on one."""
        search, turns, columns = self.engine(), list(state.key), self.stored.columns(state)
        exact = search.exact(columns.size)
        limit = max(self.top, search.policy.top_k) + 2 if exact else search.policy.top_k
        options = self.valuer.get(
            ("options", state.key), lambda: search.options(turns, columns, limit).tolist()
        )
        if options is NOT_DONE:
            options = self.stored.quick_order(state, self.rules.legal(state), limit)
        # a state searched in full: its proof first (cut-offs make it the cheapest job);
        # a policy state: its options one by one, after which its best is a memo look-up
        best = self._best(search, state) if exact else NOT_DONE
        tree_guess = None if state.node is None else int(state.node[0].guess[state.node[1]])
        choices = {}
        for guess in options:
            if guess != tree_guess:
                choices[guess] = self.valued(state, guess)
        if not exact:
            best = self._best(search, state)
        value = INF_VALUE if best is NOT_DONE else best[0]
        if best is not NOT_DONE and best[1] >= 0 and best[1] not in choices:
            choices[best[1]] = self.valued(state, best[1])
        if tree_guess is not None:
            tree, node, proven = state.node
            value = int(tree.to_finish[node])
            choices[tree_guess] = self.stored.stored_choice(state, tree_guess, value, proven)
        complete = best is not NOT_DONE and all(c.valued for c in choices.values())
        ranked = useful(list(choices.values()))
        order = [c.word_id for c in ranked][: 1 if state.candidates.size == 1 else self.top]
        return Table(choices, order, value if value < INF_VALUE else None, complete)

    def _best(self, search, state: State):
        """(the state's value, its best guess) from the search, or NOT_DONE."""
        turns, columns = list(state.key), self.stored.columns(state)
        return self.valuer.get(("best", state.key), lambda: search.best(turns, columns))

    def valued(self, state: State, guess: int) -> Choice:
        """One guess, valued by the search within the budget, or marked not valued."""
        search = self.engine()
        value = self.valuer.get(
            ("value", state.key, guess), lambda: self._value(search, state, guess)
        )
        if value is NOT_DONE:
            return unvalued(self.stored.split_choice(state, guess))
        return from_value(value)

    def _value(self, search, state: State, guess: int):
        from pipeline.analysis.advice.guess_values import guess_value

        columns = self.stored.columns(state)
        replies = self.stored.replies(guess, state.candidates)
        is_candidate = guess in _candidate_set(state)
        return guess_value(
            search, list(state.key), columns, guess, replies, self.stored.green, is_candidate
        )
