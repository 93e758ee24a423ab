"""The best guess of one node of a game: the node's answers scored by every guess.

The strategies' shared arithmetic, each choice by the tie rule of pipeline.core.ties (the
lowest score, then a possible answer, then the lower word_id):
- `best_by_partition` scores every given row exactly (entropy, most parts, minimax);
- `greedy_entropy_guess` finds the same entropy choice over every word with the pruned
  second-guess search (`count_search`, built once per GameData);
- `two_step_sums` gives each guess its sum of best second-guess scores, the two-step
  look-ahead's exact integer form.
"""

from __future__ import annotations

import numpy as np

from pipeline.analysis.benchmark.game_state import GameData
from pipeline.core.ties import best_position
from pipeline.kernels.opener_search import CountSearch
from pipeline.kernels.partition import bucket_layout, fixed_stats


def pick(rows: np.ndarray, scores: np.ndarray, tolerance: float, preferred: np.ndarray) -> int:
    """The tie rule on candidate rows: lowest score, then a preferred row, then the lowest
    word_id (`rows` ascending)."""
    return int(
        rows[best_position(scores, higher_is_better=False, keys=[~preferred], tolerance=tolerance)]
    )


def node_stats(
    data: GameData, rows: np.ndarray, answers: np.ndarray, *, stop_at_perfect: bool = False
):
    """(S, buckets, largest bucket) of guess rows over a node's answer columns."""
    return fixed_stats(
        data.matrix, data.matrix_f, rows, answers, data.table,
        threads=data.threads, stop_at_perfect=stop_at_perfect,
    )  # fmt: skip


def count_search(data: GameData) -> CountSearch:
    """The second-guess search over the data's matrix (built once per data)."""
    cache = data.caches.setdefault("search", {})
    if "search" not in cache:
        cache["search"] = CountSearch(data.matrix, data.answer_rows, data.encoded, table=data.table)
    return cache["search"]


def two_step_sums(data: GameData, guesses: list[int], answers: np.ndarray) -> np.ndarray:
    """T(g) = sum over g's buckets b of min over every guess g2 of S(g2 | b), per guess g:
    the two-step entropy is log2 n - T / (n * scale)."""
    search = count_search(data)
    totals = np.empty(len(guesses), dtype=np.int64)
    for i, guess in enumerate(guesses):
        order, starts, _ = bucket_layout(data.matrix[guess, answers])
        totals[i] = int(search.winners(answers[order], starts).best_s.sum())
    return totals


def greedy_entropy_guess(data: GameData, answers: np.ndarray) -> int:
    """best_by_partition's entropy guess over every word, by the second-guess search: the
    same rule, but the letter-group bound rules most words out before their replies are
    read (the opener benchmark's games: about 3.5 times faster on today's lists)."""
    if len(answers) <= 2:
        return int(data.answer_rows[answers[0]])
    found = count_search(data).winners(answers, np.array([0, len(answers)], dtype=np.int64))
    return int(found.winners[0])


def best_by_partition(data: GameData, rows: np.ndarray, answers: np.ndarray, criterion: str) -> int:
    """Best guess among `rows` over the answer columns `answers` by entropy, most parts or
    minimax, with the tie rule. A possible answer that splits the answers into singletons
    is best by every criterion, so those are tried first."""
    cand_rows = data.answer_rows[answers]
    if len(answers) <= 2:
        return int(cand_rows[0])
    _, parts, _ = node_stats(data, cand_rows, answers, stop_at_perfect=True)
    perfect = np.flatnonzero(parts == len(answers))
    if perfect.size:
        return int(cand_rows[perfect[0]])
    # no possible answer splits perfectly, so the first perfect row (in word order) wins
    s, parts, largest = node_stats(data, rows, answers, stop_at_perfect=True)
    perfect = np.flatnonzero(parts == len(answers))
    if perfect.size:
        return int(rows[perfect[0]])
    preferred = np.zeros(len(data.words), dtype=bool)
    preferred[cand_rows] = True
    if criterion == "entropy":
        return pick(rows, s, data.tolerance(len(answers)), preferred[rows])
    if criterion == "parts":
        return pick(rows, -parts, 0, preferred[rows])
    return pick(rows, largest, 0, preferred[rows])
