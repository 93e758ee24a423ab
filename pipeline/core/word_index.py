"""The word index as every layer sees it: guesses in row order, answers in column order."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class WordIndex:
    """Rows of every matrix are `words` (word_id order); columns are `answer_rows`."""

    words: tuple[str, ...]
    is_answer: np.ndarray  # bool per word_id
    answer_rows: np.ndarray  # int64 word_id of each answer, in answer_id (column) order

    @property
    def length(self) -> int:
        return len(self.words[0])

    @property
    def answers(self) -> tuple[str, ...]:
        return tuple(self.words[row] for row in self.answer_rows)

    @cached_property
    def encoded(self) -> np.ndarray:
        """(G, L) letter codes of every word, in word_id order."""
        from pipeline.core.wordle import encode_words

        return encode_words(self.words)

    def word_id(self, word: str) -> int | None:
        """Row of `word`, or None when it is not in the index (words are sorted)."""
        position = bisect.bisect_left(self.words, word)
        if position < len(self.words) and self.words[position] == word:
            return position
        return None

    def column_rows(self, columns: str) -> np.ndarray:
        """The word_id of every matrix column: the answers, or all guesses (square matrix)."""
        if columns == "answers":
            return self.answer_rows
        if columns == "guesses":
            return np.arange(len(self.words), dtype=np.int64)
        raise ValueError(f"matrix columns must be 'answers' or 'guesses', got {columns!r}")
