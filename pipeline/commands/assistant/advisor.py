"""The assistant's advice: at each state of a game, the guesses worth showing, each with
a number the assistant keeps (pipeline.commands.assistant.values says which numbers).

Shared by the one-shot command and `wordle-assist play`: an `Advisor` is built once per
(data, mode) and keeps what does not depend on the turns (the search's memo, the tables
of states seen). It asks its parts: the game's rules and candidates (game), the stored
replies and the search (search), and the estimate where no exact value exists (prior).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline.commands.assistant.budget import Valuer
from pipeline.commands.assistant.data import Data
from pipeline.commands.assistant.game import Candidates, Rules, State, Turn
from pipeline.commands.assistant.prior import PriorAdvice
from pipeline.commands.assistant.search import GuessSearch, StoredReplies
from pipeline.commands.assistant.values import PROVEN, Choice, Table
from pipeline.core import hard_mode
from pipeline.core.wordle import MAX_GUESSES

TABLE_CACHE = 16  # valued states kept (a session revisits them after undo)


class Advisor:
    """The guesses of one data folder in one mode (prior or not, hard or not), valued."""

    def __init__(
        self, data: Data, *, prior: bool = False, hard: bool = False, top: int = 10, policy=None,
        budget: float | None = None,
    ) -> None:  # fmt: skip
        """policy: the search's Policy (pipeline.analysis.advice.guess_values.POLICY by default);
        budget: CPU seconds an answer waits for the search (assistant.budget; None: all)."""
        self.data = data
        self.valuer = Valuer(budget)
        self.top = max(top, 1)  # how many of each table are ranked
        self.prior = prior
        self.hard = hard
        curve = data.curve(prior, hard) if prior else None
        self.estimates = PriorAdvice(data, hard=hard, curve=curve)
        self.rules = Rules(data, hard)
        self.candidates = Candidates(data, prior=prior, hard=hard)
        self.stored = StoredReplies(data, prior)
        self.search = GuessSearch(self.stored, self.rules, self.valuer, top=self.top, policy=policy)
        self.encoded, self.green = self.rules.encoded, self.rules.green
        self.pool = self.candidates.pool
        self._tables: dict[tuple, Table] = {}

    # --- the game's parts, as callers ask them -------------------------------------------

    def turn(self, number: int, word: str, colours: str) -> Turn:
        return self.rules.turn(number, word, colours)

    def check_legal(self, turns: list[Turn], turn: Turn) -> None:
        self.rules.check_legal(turns, turn)

    def turns(self, pairs: list[tuple[str, str]]) -> list[Turn]:
        return self.rules.turns(pairs)

    def rule(self, turns: list[Turn] | tuple[Turn, ...]) -> hard_mode.Requirements:
        return self.rules.rule(turns)

    def states(self, turns: list[Turn]) -> list[State]:
        return self.candidates.states(turns)

    def replies(self, guess: int, candidates: np.ndarray) -> np.ndarray:
        return self.stored.replies(guess, candidates)

    def preload(self, search: bool = False) -> None:
        """Read the stored matrix now, so turns only index it; search: also build the
        search and load its kernels (a session's start-up)."""
        self.stored.load()
        if search and not self.prior:
            self.search.engine()

    # --- tables ------------------------------------------------------------------------

    def table(self, state: State) -> Table:
        """The guesses worth showing at `state`, valued, best first (a table left
        incomplete by the budget is made again when next asked)."""
        key = state.key
        if key in self._tables:
            return self._tables[key]
        table = self._table(state)
        if table.complete:
            if len(self._tables) >= TABLE_CACHE:
                del self._tables[next(iter(self._tables))]
            self._tables[key] = table
        return table

    def _table(self, state: State) -> Table:
        if self.prior or state.fallback:
            return self.estimates.table(state, self.rules.legal(state), self.top)
        if not state.turns:
            openers = self._stored_openers(state)
            if openers is not None:
                return openers
        return self.search.table(state)

    def _stored_openers(self, state: State) -> Table | None:
        """Before the first guess: the certified top openers in order, then the other
        proven ones by E; None when no opener is stored with a total."""
        stored_rows = self.data.optimal_openers(self.hard) or {}
        proven = [(w, s) for w, s in stored_rows.items() if s.proven and s.total is not None]
        if not proven:
            return None
        proven.sort(key=lambda item: (item[1].top_rank is None, item[1].total, item[0]))
        n = state.candidates.size
        choices = {}
        for word_id, row in proven[: self.top]:
            choice = self.stored.stored_choice(state, word_id, row.total, True)
            choices[word_id] = replace(choice, certified=row.top_rank is not None)
        order = list(choices)
        return Table(choices, order, proven[0][1].total if n else None)

    def choice(self, state: State, word_id: int) -> Choice:
        """The guess `word_id` at `state`, valued as the table values its own guesses."""
        table = self.table(state)
        if word_id in table.choices:
            return table.choices[word_id]
        if self.prior or state.fallback:
            choice = self.estimates.choice(state, word_id)
        else:
            row = None if state.turns else (self.data.optimal_openers(self.hard) or {}).get(word_id)
            if row is not None and row.proven and row.total is not None:
                choice = self.stored.stored_choice(state, word_id, row.total, True)
            else:  # searched; an opener proven to have no tree keeps that evidence
                choice = self.search.valued(state, word_id)
                if row is not None and row.proven and choice.valued:
                    choice = replace(choice, evidence=PROVEN)
        if choice.valued:
            table.choices[word_id] = choice
        return choice

    def value_after(self, state: State) -> float | None:
        """Mean guesses still needed at `state` under the advice (0 once solved)."""
        if state.turns and state.turns[-1].pattern_id == self.green:
            return 0.0
        if self.prior or state.fallback or len(state.turns) >= MAX_GUESSES:
            return None
        value = self.table(state).value
        return None if value is None else value / state.candidates.size
