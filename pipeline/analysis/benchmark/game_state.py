"""What every strategy reads (GameData) and what a player knows before a guess (Node)."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pipeline.core.errors import PipelineError
from pipeline.core.ties import TIE_TOLERANCE
from pipeline.core.wordle import all_green, encode_words
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.partition import FixedPoint, fixed_point

# word_id of the opener -> {reply -> word_id of the stored best second guess}
SecondGuessTable = Callable[[int], dict[int, int]]


@dataclass
class GameData:
    """The words, the guess x answer matrix, weights, stored rankings and thread count."""

    words: tuple[str, ...]
    answer_rows: np.ndarray  # word_id of each answer (column order)
    matrix: np.ndarray  # (G, A) pattern ids, rows guesses, columns answers
    p_common: np.ndarray  # (G,) prior weight of each word
    threads: int = 1
    opener_ranking: list[int] | None = None  # stored two-step ranking, best first
    second_guesses: SecondGuessTable | None = None  # stored second guesses
    # (mode, opener or None: the best proven) -> the stored optimal tree
    # (pipeline.analysis.optimal.tree.OptimalTree); None when no tree is stored
    optimal_trees: Callable[[str, str | None], Any] | None = None
    encoded: np.ndarray = field(init=False)
    # the same [guess, answer] matrix in column-major memory order: a node's answer
    # columns are then contiguous reads; indexing is unchanged
    matrix_f: np.ndarray = field(init=False)
    table: FixedPoint = field(init=False)
    green: int = field(init=False)
    caches: dict[str, dict] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        n_words, n_answers = self.matrix.shape
        if n_words != len(self.words) or n_answers != len(self.answer_rows):
            raise PipelineError(
                f"pattern matrix is {n_words} x {n_answers} but the word index has "
                f"{len(self.words)} guesses and {len(self.answer_rows)} answers"
            )
        self.answer_rows = np.asarray(self.answer_rows, dtype=np.int64)
        self.matrix = np.ascontiguousarray(self.matrix)
        self.matrix_f = np.asfortranarray(self.matrix)
        self.encoded = encode_words(self.words)
        self.green = all_green(self.length)
        self.table = fixed_point(n_answers)

    @property
    def length(self) -> int:
        return len(self.words[0])

    @classmethod
    def from_words(
        cls, words: Sequence[str], answers: Sequence[str], p_common: np.ndarray | None = None
    ) -> GameData:
        """Small in-memory data (tests): words sorted, answers among them."""
        words = tuple(sorted(set(words) | set(answers)))
        rows = np.array(sorted(words.index(a) for a in set(answers)), dtype=np.int64)
        encoded = encode_words(words)
        matrix = feedback_matrix(encoded, encoded[rows])
        weights = np.ones(len(words)) if p_common is None else np.asarray(p_common, float)
        return cls(words, rows, matrix, weights)

    def tolerance(self, n: int) -> int:
        """The tie tolerance (bits) as an integer S difference over n uniform answers."""
        return self.table.tolerance(n, TIE_TOLERANCE)

    def word_id(self, word: str) -> int:
        """word_id of a word, or a PipelineError naming it."""
        position = bisect.bisect_left(self.words, word)  # words are sorted
        if position >= len(self.words) or self.words[position] != word:
            raise PipelineError(f"opener {word!r} is not an allowed word")
        return position


@dataclass
class Node:
    """What the player knows before a guess: turn number (1-based), the answers still
    consistent with the feedback, the guesses and replies so far, strategy state."""

    turn: int
    answers: np.ndarray  # answer ids (columns), ascending
    guesses: tuple[int, ...] = ()  # word_ids guessed so far
    patterns: tuple[int, ...] = ()  # the replies they got
    sizes: tuple[int, ...] = ()  # number of remaining answers before each earlier guess
    state: Any = None


@dataclass(frozen=True)
class Game:
    """One game: the answer (answer id), guesses (word_ids), replies, remaining answers
    before each guess, and whether the answer was guessed within max_turns."""

    answer: int
    guesses: tuple[int, ...]
    patterns: tuple[int, ...]
    candidates: tuple[int, ...]
    finished: bool
