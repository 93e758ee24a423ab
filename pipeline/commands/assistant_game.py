"""A game in progress: its turns checked against the data, the candidates before each
turn, and every guess scored by E (pipeline.analysis.advice) at each of those states.

Shared by the one-shot command and `wordle-assist play`: an `Advisor` is built once per
(data, mode) and keeps what does not depend on the turns (the opener table).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pipeline.analysis.advice import (
    GuessScores,
    Tree,
    distinct_guesses,
    ranked,
    score_mean_bits,
    score_openers,
    score_patterns,
    with_exact,
)
from pipeline.artifacts.seal import REBUILD_HINT
from pipeline.commands.assistant_data import Data
from pipeline.commands.assistant_input import check_word, parse_colours, pattern_id
from pipeline.core import hard_mode
from pipeline.core.errors import ArtifactError, PipelineError, UsageError
from pipeline.core.wordle import all_green
from pipeline.kernels.feedback import feedback_matrix

MAX_GUESSES = 6  # Wordle's
# Above this many candidates the stored matrix (read whole: ~0.1 s) beats computing
# every guess against them with the numpy engine (~16 ns a pair, 15k guesses).
STORED_FROM = 400
TABLE_CACHE = 8  # scored states kept (a session revisits them after undo)
# Where each E comes from, best evidence first (this order also breaks ties in E).
SOURCES = ("optimal", "benchmark", "model")
OPTIMAL, BENCHMARK, MODEL = range(3)


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

    @property
    def bits(self) -> float:
        return math.log2(self.candidates.size)

    @property
    def weighted_bits(self) -> float:
        w = self.weights[self.weights > 0]
        return float(-(w * np.log2(w)).sum()) + 0.0


@dataclass(frozen=True)
class Table:
    """Every guess available at a state, scored, and their order (best first)."""

    guesses: np.ndarray  # word_ids scored: every word, or the hard-mode legal ones
    scores: GuessScores
    source: np.ndarray  # index into SOURCES, per scored guess
    is_candidate: np.ndarray
    order: np.ndarray  # positions into `guesses` of the `top` best, best first

    def position(self, word_id: int) -> int:
        return int(np.searchsorted(self.guesses, word_id))


class Advisor:
    """Scores the guesses of one data folder in one mode (prior or not, hard or not)."""

    def __init__(
        self, data: Data, *, prior: bool = False, hard: bool = False, top: int = 10
    ) -> None:
        self.data = data
        self.top = max(top, 1)  # how many of each table are ranked
        self.prior = prior
        self.hard = hard
        self.curve = data.curve(prior, hard)
        index = data.index
        self.encoded = index.encoded
        self.n_bins = 3**index.length
        self.green = all_green(index.length)
        self.pool = np.arange(len(index.words)) if prior else index.answer_rows.astype(np.int64)
        self._counts = hard_mode.letter_counts(self.encoded) if hard else None
        self._tables: dict[tuple, Table] = {}
        self._matrix: np.ndarray | None = None  # the stored guess x answer matrix, once read

    # --- turns -------------------------------------------------------------------------

    def turn(self, number: int, word: str, colours: str) -> Turn:
        """One checked turn: the word is in the index, the colours fit it."""
        word = check_word(number, word)
        word_id = self.data.index.word_id(word)
        if word_id is None:
            index = self.data.index
            raise UsageError(
                f"guess {number} {word!r} is not in the word list ({len(index.words)} "
                f"{index.length}-letter words)"
            )
        letters = parse_colours(number, word, colours, self.data.index.length)
        return Turn(word_id, word, pattern_id(letters), letters)

    def check_legal(self, turns: list[Turn], turn: Turn) -> None:
        """A UsageError unless `turn` may follow `turns`: the game is not over, and in
        hard mode the guess keeps every revealed hint."""
        number = len(turns) + 1
        if turns and turns[-1].pattern_id == self.green:
            raise UsageError(f"guess {number} {turn.word!r} comes after the game was solved")
        if number > MAX_GUESSES:
            raise UsageError(f"guess {number} {turn.word!r}: Wordle allows {MAX_GUESSES} guesses")
        if self.hard and turns:
            problem = hard_mode.violation(self.encoded[turn.word_id], self.rule(turns))
            if problem:
                raise UsageError(
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
        """The state before each turn and after the last; a PipelineError (exit 1) when
        no candidate fits the replies."""
        tree = None
        if turns and not self.prior:
            tree = self.data.tree(self.hard, turns[0].word_id)
        path = tree.path([t.word_id for t in turns], [t.pattern_id for t in turns]) if tree else []
        proven = bool(tree) and self.data.optimal_openers(self.hard)[turns[0].word_id][1]
        candidates = self.pool
        result = []
        for k in range(len(turns) + 1):
            if k:
                turn = turns[k - 1]
                replies = feedback_matrix(
                    self.encoded[[turn.word_id]], self.encoded[candidates], engine="numpy"
                )[0]
                candidates = candidates[replies == turn.pattern_id]
                if candidates.size == 0:
                    raise self._inconsistent(turns[:k])
            weights = self.data.p_common[candidates] if self.prior else np.ones(candidates.size)
            node = (tree, path[k], proven) if tree is not None and k < len(path) else None
            result.append(State(tuple(turns[:k]), candidates, weights / weights.sum(), node))
        return result

    def _inconsistent(self, turns: list[Turn]) -> PipelineError:
        played = ", ".join(f"{turn.word} {turn.colours}" for turn in turns)
        where = "allowed word" if self.prior else "answer"
        hint = "" if self.prior else " (or try --mode prior)"
        return PipelineError(f"no {where} is consistent with {played}: check the colours{hint}")

    # --- tables ------------------------------------------------------------------------

    def table(self, state: State) -> Table:
        """Every available guess at `state`, scored and ranked by E."""
        key = tuple((t.word_id, t.pattern_id) for t in state.turns)
        if key not in self._tables:
            if len(self._tables) >= TABLE_CACHE:  # keep the opener table
                del self._tables[next(k for k in self._tables if k)]
            self._tables[key] = self._scored(state) if key else self._opener_table(state)
        return self._tables[key]

    def _scored(self, state: State) -> Table:
        """A state after some turns: every available guess against its candidates."""
        guesses = np.arange(len(self.data.index.words))
        if self.hard:
            guesses = guesses[
                hard_mode.legal_mask(self.encoded, self.rule(state.turns), self._counts)
            ]
        first, classes = distinct_guesses(self.encoded[guesses], self.encoded[state.candidates])
        patterns = self._patterns(guesses[first], state.candidates)
        weights = state.weights if self.prior else None
        scores = score_patterns(patterns, self.curve, self.n_bins, weights)
        scores = GuessScores(*(getattr(scores, f)[classes] for f in ("bits", "expected", "p_win")))
        exact_ids, exact_values, floor = np.empty(0, np.int64), np.empty(0), None
        if state.node is not None:
            tree, node, proven = state.node
            exact_ids = np.searchsorted(guesses, [tree.guess[node]])
            exact_values = np.array([tree.expected(node)])
            floor = exact_values[0] if proven else None
        expected, exact = with_exact(scores.expected, exact_ids, exact_values, floor)
        source = np.where(exact, OPTIMAL, MODEL)
        return self._finish(guesses, scores, expected, source, state)

    def _patterns(self, guesses: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """Replies of `guesses` x `candidates` (word_ids): from the stored guess x answer
        matrix once it is read (play) or when reading it is cheaper than computing,
        else computed by the numpy engine."""
        if not self.prior and (self._matrix is not None or candidates.size > STORED_FROM):
            if self._matrix is None:
                self._matrix = self.data.answer_matrix()
            columns = np.searchsorted(self.data.index.answer_rows, candidates)
            return self._matrix[np.ix_(guesses, columns)]
        return feedback_matrix(self.encoded[guesses], self.encoded[candidates], engine="numpy")

    def preload(self) -> None:
        """Read the stored matrix now (a session's start-up), so turns only index it."""
        if not self.prior and self._matrix is None:
            self._matrix = self.data.answer_matrix()

    def _opener_table(self, state: State) -> Table:
        """Before the first guess: E from the stored trees, else the opener benchmark,
        else the score model over the stored reply distribution (answers mode); in prior
        mode from the stored entropy_prior (score_mean_bits)."""
        n_words = len(self.data.index.words)
        guesses = np.arange(n_words)
        if self.prior:
            p_win = np.zeros(n_words)
            p_win[state.candidates] = state.weights
            scores = score_mean_bits(
                self.data.entropy_prior, p_win, state.weighted_bits, self.curve
            )
            source = np.full(n_words, MODEL)
            return self._finish(guesses, scores, scores.expected, source, state)
        index = self.data.index
        sizes = self.data.bucket_sizes()
        try:
            scores = score_openers(sizes, self.data.buckets, index.is_answer, self.curve)
        except ValueError as error:  # sealed, yet not what entropy.parquet describes
            where = self.data.folder / "pattern_distribution.parquet"
            raise ArtifactError(f"{where}: {error}; {REBUILD_HINT}") from None
        expected, source = scores.expected.copy(), np.full(n_words, MODEL)
        stored = [(BENCHMARK, self.data.benchmark_means(self.hard))]
        stored.append(
            (OPTIMAL, {k: v[0] for k, v in (self.data.optimal_openers(self.hard) or {}).items()})
        )
        for code, values in stored:
            ids = np.array(sorted(values), dtype=np.int64)
            expected[ids] = [values[i] for i in ids.tolist()]
            source[ids] = code
        return self._finish(guesses, scores, expected, source, state)

    def _finish(
        self,
        guesses: np.ndarray,
        scores: GuessScores,
        expected: np.ndarray,
        source: np.ndarray,
        state: State,
    ) -> Table:
        is_candidate = np.isin(guesses, state.candidates)
        scores = GuessScores(scores.bits, expected, scores.p_win)
        order = ranked(expected, is_candidate, source, best=self.top)
        return Table(guesses, scores, source, is_candidate, order)
