"""A game in progress: its turns checked against the data, the candidates before each
turn, and at each of those states the guesses worth showing, each with a number the
assistant keeps (pipeline.commands.assistant.values says which numbers).

Shared by the one-shot command and `wordle-assist play`: an `Advisor` is built once per
(data, mode) and keeps what does not depend on the turns (the search's memo, the tables
of states seen).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from pipeline.analysis.advice import Tree
from pipeline.analysis.fallback import commonness_weights, consistent
from pipeline.commands.assistant.budget import NOT_DONE, Valuer
from pipeline.commands.assistant.data import Data
from pipeline.commands.assistant.input import (
    NoCandidateError,
    TurnError,
    check_word,
    parse_colours,
    pattern_id,
)
from pipeline.commands.assistant.prior import prior_choice, prior_table
from pipeline.commands.assistant.values import (
    PROVEN,
    Choice,
    Table,
    from_value,
    split_stats,
    stored,
    unvalued,
    useful,
)
from pipeline.core import hard_mode
from pipeline.core.wordle import all_green

MAX_GUESSES = 6  # Wordle's
INF_VALUE = 1 << 29  # pipeline.kernels.optimal_search.context.INF (checked by a test)
TABLE_CACHE = 16  # valued states kept (a session revisits them after undo)


@dataclass(frozen=True)
class Turn:
    word_id: int
    word: str
    pattern_id: int
    colours: str  # B/Y/G letters


@dataclass(frozen=True)
class State:
    """What the player knows before a guess: the turns so far and the candidates left."""

    turns: tuple[Turn, ...]
    candidates: np.ndarray  # word_ids, ascending
    weights: np.ndarray  # probability of each candidate (sums to 1)
    node: tuple[Tree, int, bool] | None  # (tree, node, proven) when the game is on a tree
    fallback: bool = False  # the answer list ran out: every consistent allowed word, weighted

    @property
    def bits(self) -> float:
        return math.log2(self.candidates.size)

    @property
    def weighted_bits(self) -> float:
        w = self.weights[self.weights > 0]
        return float(-(w * np.log2(w)).sum()) + 0.0

    @property
    def key(self) -> tuple:
        return tuple((t.word_id, t.pattern_id) for t in self.turns)


class Advisor:
    """The guesses of one data folder in one mode (prior or not, hard or not), valued."""

    def __init__(
        self, data: Data, *, prior: bool = False, hard: bool = False, top: int = 10, policy=None,
        budget: float | None = None,
    ) -> None:  # fmt: skip
        """policy: the search's Policy (pipeline.analysis.guess_values.POLICY by default);
        budget: CPU seconds an answer waits for the search (assistant_budget; None: all)."""
        self.data = data
        self.valuer = Valuer(budget)
        self.policy = policy
        self.top = max(top, 1)  # how many of each table are ranked
        self.prior = prior
        self.hard = hard
        self.curve = data.curve(prior, hard) if prior else None
        index = data.index
        self.encoded = index.encoded
        self.n_bins = 3**index.length
        self.green = all_green(index.length)
        self.pool = np.arange(len(index.words)) if prior else index.answer_rows.astype(np.int64)
        self._counts = hard_mode.letter_counts(self.encoded) if hard else None
        self._tables: dict[tuple, Table] = {}
        self._matrix: np.ndarray | None = None  # the stored guess x answer matrix, once read
        self._searches: dict = {}  # Policy -> StateSearch, made when first needed

    # --- turns -------------------------------------------------------------------------

    def turn(self, number: int, word: str, colours: str) -> Turn:
        """One checked turn: the word is in the index, the colours fit it."""
        word = check_word(number, word)
        word_id = self.data.index.word_id(word)
        if word_id is None:
            index = self.data.index
            raise TurnError(
                f"guess {number} {word!r} is not in the word list ({len(index.words)} "
                f"{index.length}-letter words)"
            )
        letters = parse_colours(number, word, colours, self.data.index.length)
        return Turn(word_id, word, pattern_id(letters), letters)

    def check_legal(self, turns: list[Turn], turn: Turn) -> None:
        """A TurnError unless `turn` may follow `turns`: the game is not over, and in
        hard mode the guess keeps every revealed hint."""
        number = len(turns) + 1
        if turns and turns[-1].pattern_id == self.green:
            raise TurnError(f"guess {number} {turn.word!r} comes after the game was solved")
        if number > MAX_GUESSES:
            raise TurnError(f"guess {number} {turn.word!r}: Wordle allows {MAX_GUESSES} guesses")
        if self.hard and turns:
            problem = hard_mode.violation(self.encoded[turn.word_id], self.rule(turns))
            if problem:
                raise TurnError(
                    f"guess {number} {turn.word!r} is not allowed in hard mode: {problem}"
                )

    def turns(self, pairs: list[tuple[str, str]]) -> list[Turn]:
        result: list[Turn] = []
        for number, (word, colours) in enumerate(pairs, 1):
            turn = self.turn(number, word, colours)
            self.check_legal(result, turn)
            result.append(turn)
        return result

    def rule(self, turns: list[Turn] | tuple[Turn, ...]) -> hard_mode.Requirements:
        ids = [t.word_id for t in turns]
        colours = hard_mode.pattern_colours([t.pattern_id for t in turns], self.encoded.shape[1])
        return hard_mode.requirements(self.encoded[ids], colours)

    # --- states ------------------------------------------------------------------------

    def states(self, turns: list[Turn]) -> list[State]:
        """The state before each turn and after the last. When the replies rule out every
        answer of the list, the game plays on over every allowed word consistent with
        them, weighted by p_common (pipeline.analysis.fallback); a NoCandidateError (exit
        1) when even those are ruled out."""
        tree = None
        if turns and not self.prior:
            tree = self.data.tree(self.hard, turns[0].word_id)
        path = tree.path([t.word_id for t in turns], [t.pattern_id for t in turns]) if tree else []
        proven = bool(tree) and self.data.optimal_openers(self.hard)[turns[0].word_id].proven
        candidates, fallback = self.pool, False
        result = []
        for k in range(len(turns) + 1):
            if k:
                turn = turns[k - 1]
                candidates = consistent(self.encoded, candidates, [turn.word_id], [turn.pattern_id])
                if candidates.size == 0 and not self.prior and not fallback:
                    fallback = True
                    everyone = np.arange(len(self.data.index.words))
                    candidates = consistent(
                        self.encoded, everyone, [t.word_id for t in turns[:k]],
                        [t.pattern_id for t in turns[:k]],
                    )  # fmt: skip
                if candidates.size == 0:
                    raise self._inconsistent(turns[:k])
            if self.prior or fallback:
                weights = commonness_weights(self.data.p_common, candidates)
            else:
                weights = np.full(candidates.size, 1.0 / candidates.size)
            node = (tree, path[k], proven) if tree is not None and k < len(path) else None
            node = None if fallback else node
            result.append(State(tuple(turns[:k]), candidates, weights, node, fallback))
        return result

    def _inconsistent(self, turns: list[Turn]) -> NoCandidateError:
        played = ", ".join(f"{turn.word} {turn.colours}" for turn in turns)
        return NoCandidateError(f"no allowed word is consistent with {played}: check the colours")

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
            return prior_table(self, state, self._legal(state), self.top)
        if not state.turns:
            openers = self._stored_openers(state)
            if openers is not None:
                return openers
        return self._searched(state)

    def _legal(self, state: State) -> np.ndarray:
        guesses = np.arange(len(self.data.index.words))
        if self.hard and state.turns:
            guesses = guesses[
                hard_mode.legal_mask(self.encoded, self.rule(state.turns), self._counts)
            ]
        return guesses

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
            choice = self._stored_choice(state, word_id, row.total, True)
            choices[word_id] = replace(choice, certified=row.top_rank is not None)
        order = list(choices)
        return Table(choices, order, proven[0][1].total if n else None)

    def _stored_choice(self, state: State, word_id: int, total: int | None, proven: bool):
        choice = self._split_choice(state, word_id)
        return stored(choice, total, state.candidates.size, proven)

    def _split_choice(self, state: State, word_id: int) -> Choice:
        """A guess's split of the candidates, without a value."""
        replies = self.replies(word_id, state.candidates)
        choice = split_stats(replies, self.green, word_id in self._candidate_set(state))
        return replace(choice, word_id=word_id)

    def _candidate_set(self, state: State) -> set[int]:
        return set(state.candidates.tolist())

    def _searched(self, state: State) -> Table:
        """The search entered at the state: its best guess and its first options, each
        valued (one job each, within the budget); the stored tree's guess with its proven
        value where the game is on one."""
        search, turns, columns = self._search(), list(state.key), self._columns(state)
        exact = search.exact(columns.size)
        limit = max(self.top, search.policy.top_k) + 2 if exact else search.policy.top_k
        options = self.valuer.get(
            ("options", state.key), lambda: search.options(turns, columns, limit).tolist()
        )
        if options is NOT_DONE:
            options = self._quick_order(state, limit)
        # a state searched in full: its proof first (cut-offs make it the cheapest job);
        # a policy state: its options one by one, after which its best is a memo look-up
        best = self._best(search, state) if exact else NOT_DONE
        tree_guess = self._tree_guess(state)
        choices = {}
        for guess in options:
            if guess != tree_guess:
                choices[guess] = self._valued(search, state, guess)
        if not exact:
            best = self._best(search, state)
        value = INF_VALUE if best is NOT_DONE else best[0]
        if best is not NOT_DONE and best[1] >= 0 and best[1] not in choices:
            choices[best[1]] = self._valued(search, state, best[1])
        if tree_guess is not None:
            tree, node, proven = state.node
            value = int(tree.to_finish[node])
            choices[tree_guess] = self._stored_choice(state, tree_guess, value, proven)
        complete = best is not NOT_DONE and all(c.valued for c in choices.values())
        ranked = useful(list(choices.values()))
        order = [c.word_id for c in ranked][: 1 if state.candidates.size == 1 else self.top]
        return Table(choices, order, value if value < INF_VALUE else None, complete)

    def _best(self, search, state: State):
        """(the state's value, its best guess) from the search, or NOT_DONE."""
        turns, columns = list(state.key), self._columns(state)
        return self.valuer.get(("best", state.key), lambda: search.best(turns, columns))

    def _valued(self, search, state: State, guess: int) -> Choice:
        """One guess, valued by the search within the budget, or marked not valued."""
        value = self.valuer.get(
            ("value", state.key, guess), lambda: self._value(search, state, guess)
        )
        if value is NOT_DONE:
            return unvalued(self._split_choice(state, guess))
        return from_value(value)

    def _quick_order(self, state: State, limit: int) -> list[int]:
        """When the search is busy past the budget: the legal guesses by their bits over
        the candidates (entropy.parquet's before the first guess), candidates first among
        equals; a block of rows at a time, so that a large state costs no memory."""
        guesses = self._legal(state)
        if not state.turns:
            bits = self.data.entropy_answers[guesses]
        else:
            columns = self._columns(state)
            blocks = np.array_split(guesses, max(1, guesses.size // 1024))
            bits = np.concatenate([self._bits(self._matrix[b][:, columns]) for b in blocks])
        outside = ~np.isin(guesses, state.candidates)
        return guesses[np.lexsort((guesses, outside, -np.round(bits, 9)))[:limit]].tolist()

    def _bits(self, replies: np.ndarray) -> np.ndarray:
        """The entropy of each row's replies (a block of guesses over the candidates)."""
        rows, n = replies.shape
        flat = replies.astype(np.int64) + np.arange(rows)[:, None] * self.n_bins
        share = np.bincount(flat.ravel(), minlength=rows * self.n_bins).reshape(rows, -1) / n
        logs = np.log2(share, out=np.zeros_like(share), where=share > 0)
        return -(share * logs).sum(axis=1)

    def _tree_guess(self, state: State) -> int | None:
        if state.node is None:
            return None
        tree, node, _ = state.node
        return int(tree.guess[node])

    def _value(self, search, state: State, guess: int):
        from pipeline.analysis.guess_values import guess_value

        columns = self._columns(state)
        replies = self.replies(guess, state.candidates)
        is_candidate = guess in self._candidate_set(state)
        return guess_value(
            search, list(state.key), columns, guess, replies, self.green, is_candidate
        )

    def choice(self, state: State, word_id: int) -> Choice:
        """The guess `word_id` at `state`, valued as the table values its own guesses."""
        table = self.table(state)
        if word_id in table.choices:
            return table.choices[word_id]
        if self.prior or state.fallback:
            choice = prior_choice(self, state, word_id)
        else:
            row = None if state.turns else (self.data.optimal_openers(self.hard) or {}).get(word_id)
            if row is not None and row.proven and row.total is not None:
                choice = self._stored_choice(state, word_id, row.total, True)
            else:  # searched; an opener proven to have no tree keeps that evidence
                choice = self._valued(self._search(), state, word_id)
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

    # --- the search ----------------------------------------------------------------------

    def _columns(self, state: State) -> np.ndarray:
        return np.searchsorted(self.data.index.answer_rows, state.candidates)

    def replies(self, guess: int, candidates: np.ndarray) -> np.ndarray:
        """The reply to `guess` of each candidate (word_ids), from the stored matrix."""
        self.preload()
        return self._matrix[guess, np.searchsorted(self.data.index.answer_rows, candidates)]

    def _search(self):
        """The search over the stored matrix (numba: imported only when a state needs it)."""
        from pipeline.analysis.guess_values import POLICY
        from pipeline.kernels.optimal_search.state_search import StateSearch

        policy = self.policy or POLICY
        if policy not in self._searches:
            self.preload()
            index = self.data.index
            self._searches[policy] = StateSearch(
                self._matrix, index.answer_rows, self.encoded, hard=self.hard, policy=policy,
                max_guesses=MAX_GUESSES, replies=self.data.buckets,
            )  # fmt: skip
            # here, not in a budgeted job: a kernel compiled on a first run must get to
            # numba's cache even when the budget ends and the answer exits first
            self._searches[policy].warm()
            self.valuer.start()  # loaded: the search gets at least a tenth of the budget
        return self._searches[policy]

    def preload(self, search: bool = False) -> None:
        """Read the stored matrix now, so turns only index it; search: also build the
        search and load its kernels (a session's start-up)."""
        if not self.prior and self._matrix is None:
            self._matrix = self.data.answer_matrix()
        if search and not self.prior:
            self._search()
