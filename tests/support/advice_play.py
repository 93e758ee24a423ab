"""The Advisor on word lists without built artifacts (no stored openers or trees), and
the self-play of its advice (pipeline.commands.assistant.selfplay)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pipeline.commands.assistant.data import Data
from pipeline.commands.assistant.selfplay import Played, play_advice
from pipeline.core.word_index import WordIndex
from pipeline.kernels.optimal_search import prepare_lists


class InMemoryData(Data):
    """Data for the Advisor from two word lists: the matrix computed, nothing stored."""

    @classmethod
    def from_lists(cls, allowed: list[str], answers: list[str]) -> InMemoryData:
        lists = prepare_lists(allowed, answers)
        is_answer = np.zeros(len(lists.words), dtype=bool)
        is_answer[lists.answer_rows] = True
        index = WordIndex(tuple(lists.words), is_answer, lists.answer_rows)
        replies = np.array([np.unique(row).size for row in lists.matrix])
        ones = np.ones(len(lists.words))
        data = cls(Path("/nonexistent/wordle-data"), index, ones, ones, ones, replies)
        data._cache["matrix"] = lists.matrix
        return data

    def answer_matrix(self) -> np.ndarray:
        return self._cache["matrix"]


__all__ = ["InMemoryData", "Played", "play_advice"]
