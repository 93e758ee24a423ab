"""A game in progress: its turns checked against the word list and Wordle's rules
(`Rules`), and the candidates left before each turn (`Candidates`).

The bottom of the assistant's game logic: the guesses worth showing at each state are
valued above it (pipeline.commands.assistant.advisor), which says which numbers it keeps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pipeline.analysis.advice.fallback import commonness_weights, consistent
from pipeline.analysis.advice.splits import entropy_bits
from pipeline.analysis.optimal.tree import OptimalTree
from pipeline.commands.assistant.data import Data
from pipeline.commands.assistant.input import (
    NoCandidateError,
    TurnError,
    check_word,
    parse_colours,
    pattern_id,
)
from pipeline.core import hard_mode
from pipeline.core.wordle import MAX_GUESSES, all_green


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
    node: tuple[OptimalTree, int, bool] | None  # (tree, node, proven) when the game is on a tree
    fallback: bool = False  # the answer list ran out: every consistent allowed word, weighted

    @property
    def bits(self) -> float:
        return math.log2(self.candidates.size)

    @property
    def weighted_bits(self) -> float:
        return entropy_bits(self.weights[self.weights > 0])

    @property
    def key(self) -> tuple:
        return tuple((t.word_id, t.pattern_id) for t in self.turns)


class Rules:
    """Which turns a game of one word list may have: a word of the list, colours that fit
    it, no guess after the game is over, and in hard mode every revealed hint kept."""

    def __init__(self, data: Data, hard: bool) -> None:
        self.data = data
        self.hard = hard
        self.encoded = data.index.encoded
        self.green = all_green(data.index.length)
        self._counts = hard_mode.letter_counts(self.encoded) if hard else None

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

    def legal(self, state: State) -> np.ndarray:
        """The word_ids that may be guessed at `state` (in hard mode, those keeping every
        hint)."""
        guesses = np.arange(len(self.data.index.words))
        if self.hard and state.turns:
            guesses = guesses[
                hard_mode.legal_mask(self.encoded, self.rule(state.turns), self._counts)
            ]
        return guesses


class Candidates:
    """What is left before each turn: the answers (prior mode: every allowed word,
    weighted by p_common) consistent with the replies so far, and where the game follows
    a stored optimal tree."""

    def __init__(self, data: Data, *, prior: bool, hard: bool) -> None:
        self.data = data
        self.prior = prior
        self.hard = hard
        self.encoded = data.index.encoded
        index = data.index
        self.pool = np.arange(len(index.words)) if prior else index.answer_rows.astype(np.int64)

    def states(self, turns: list[Turn]) -> list[State]:
        """The state before each turn and after the last. When the replies rule out every
        answer of the list, the game plays on over every allowed word consistent with
        them, weighted by p_common (pipeline.analysis.advice.fallback); a NoCandidateError (exit
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
