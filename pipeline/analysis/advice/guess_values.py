"""What a guess is worth at a game state, exactly: the numbers the assistant shows.

The value of guess g at a state of n equally likely candidates is the total number of
guesses over the candidates, g included, when the player plays g and then the
assistant's advice at every later state (pipeline.kernels.optimal_search.state_search:
the proven optimum wherever few enough candidates are left, the assistant's own policy
elsewhere). E = total / n is therefore what a player who follows the advice gets on
average, never less than the true optimum. It is `proven` (the optimum after g) when
every reply leaves a state the search solves in full.

A reply that leaves a state with no win in the guesses left puts its candidates at risk:
`at_risk` is their share, and such a guess has no E (total None). The risk is always
proven: the policy finds a winning guess wherever one exists (state_search).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.analysis.advice.splits import reply_split, win_chance
from pipeline.kernels.optimal_search import INF, Policy, StateSearch, guess_bound

# The assistant's policy: a state of at most 60 candidates is solved in full (proven),
# a larger one plays the best of its first 10 guesses in the search's order. Measured on
# this machine (nyt2022 / nyt2023, 2,309 / 3,158 answers): after crane, adieu, stare or
# salet, every reply's state valued in 0.03-0.9 s of CPU at 60 (2.5-14.5 s at 100 on
# nyt2023); the policy's totals after those openers are within 0-6 guesses of the proven
# optima (crane 7902 and 8131, the optima; adieu 8346, stare 7951 normal).
POLICY = Policy(exact_upto=60, top_k=10)

Turns = list[tuple[int, int]]  # (guess row, reply id) of each turn played


@dataclass(frozen=True)
class GuessValue:
    """One guess at a state of n candidates (uniform)."""

    guess: int  # word row
    n: int
    total: int | None  # guesses over the n candidates, this one included; None: at risk
    proven: bool  # the total is the optimum after this guess (a risk is always proven)
    at_risk: float  # share of the candidates whose reply leaves no sure win in time
    lower_bound: int  # Selby's guess bound (pipeline.kernels.optimal_search.selby)
    classes: int  # replies the guess can get
    bits: float  # entropy of its split of the candidates
    p_win: float  # probability that it is the answer
    expected_left: float  # candidates expected to remain after it (sum c^2 / n)

    @property
    def expected(self) -> float | None:
        """E: mean guesses to finish, this one included; None when at risk."""
        return None if self.total is None else self.total / self.n

    @property
    def wins_all(self) -> bool:
        return self.total is not None


def reply_values(
    search: StateSearch, turns: Turns, columns: np.ndarray, guess: int, replies: np.ndarray,
    green: int,
) -> list[tuple[int, np.ndarray, int]]:  # fmt: skip
    """(reply, the columns it leaves, their value from the next turn on) for each reply
    of `guess` other than all green."""
    result = []
    for reply in np.flatnonzero(np.bincount(replies.astype(np.int64))).tolist():
        if reply == green:
            continue
        left = columns[replies == reply]
        result.append((reply, left, search.value([*turns, (guess, reply)], left)))
    return result


def guess_value(
    search: StateSearch, turns: Turns, columns: np.ndarray, guess: int, replies: np.ndarray,
    green: int, is_candidate: bool,
) -> GuessValue:  # fmt: skip
    """The value of `guess` at the state (turns, columns); replies: its reply to each."""
    n = columns.size
    split = reply_split(replies)
    bound = int(guess_bound(n, split.ids.size, int(np.any(split.ids == green))))
    total = search.value(turns, columns, guess)
    others = split.sizes[split.ids != green]
    proven = bool(others.size == 0 or search.exact(int(others.max())))
    at_risk = 0.0
    if total >= INF:
        lost = [
            left.size
            for _, left, value in reply_values(search, turns, columns, guess, replies, green)
            if value >= INF
        ]
        at_risk, proven = sum(lost) / n, True
    return GuessValue(
        guess, n, None if total >= INF else total, proven, at_risk, bound, int(split.ids.size),
        split.bits, win_chance(is_candidate, n), split.expected_left,
    )  # fmt: skip
