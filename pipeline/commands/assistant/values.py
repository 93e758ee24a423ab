"""The guesses the assistant shows at a state, each with a number it keeps.

Answer-list mode: every E is exact (pipeline.analysis.advice.guess_values): a stored proven
optimal tree where the game follows one, the certified top openers (or the other proven
ones) before the first guess, and otherwise the search entered at the state, proven
where few candidates are left and the assistant's own policy elsewhere. Prior mode
(every allowed word, weighted by p_common) has no exact value: the score model's estimate
only orders its guesses, and no E is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from pipeline.analysis.advice.splits import reply_split, win_chance

PROVEN, POLICY, ESTIMATE = "proven", "policy", "estimate"
UNVALUED = "not valued in time"  # the search did not finish within the budget: no E


@dataclass(frozen=True)
class Choice:
    """One guess at a state, as the report shows it."""

    word_id: int
    bits: float
    p_win: float
    is_candidate: bool
    evidence: str  # PROVEN, POLICY, ESTIMATE (prior mode: an order, not a number), UNVALUED
    expected: float | None = None  # E; None when at risk, or in prior mode
    lower_bound: float | None = None  # a proven lower bound of E after this guess
    wins_all: bool | None = None  # every candidate won within the guesses left
    at_risk: float | None = None  # share of candidates left without a sure win
    expected_left: float | None = None  # candidates expected to remain after it
    certified: bool = False  # one of the certified top openers

    @property
    def valued(self) -> bool:
        """False for a guess the search did not value within the budget."""
        return self.evidence != UNVALUED


@dataclass
class Table:
    """The guesses evaluated at a state by word_id, and the suggested ones, best first."""

    choices: dict[int, Choice]
    order: list[int]
    value: int | None  # the state's value under the advice: total guesses from here on
    # (None: no sure win, not valued in time, or prior mode)
    complete: bool = True  # every guess listed is valued (False: the budget ran out)

    def best(self) -> Choice:
        return self.choices[self.order[0]]


def from_value(value, evidence_proven: bool | None = None) -> Choice:
    """A Choice from a pipeline.analysis.advice.guess_values.GuessValue."""
    proven = value.proven if evidence_proven is None else evidence_proven
    return Choice(
        word_id=value.guess,
        bits=value.bits,
        p_win=value.p_win,
        is_candidate=value.p_win > 0,
        expected=value.expected,
        evidence=PROVEN if proven else POLICY,
        lower_bound=value.lower_bound / value.n,
        wins_all=value.wins_all,
        at_risk=value.at_risk,
        expected_left=value.expected_left,
    )


def stored(choice: Choice, total: int | None, n: int, proven: bool) -> Choice:
    """`choice` with a stored total (a proven tree's) in place of its value."""
    if total is None:
        return replace(choice, expected=None, wins_all=False, evidence=PROVEN if proven else POLICY)
    return replace(
        choice, expected=total / n, wins_all=True, at_risk=0.0,
        evidence=PROVEN if proven else POLICY, lower_bound=total / n if proven else None,
    )  # fmt: skip


def split_stats(replies: np.ndarray, green: int, is_candidate: bool) -> Choice:
    """A Choice without a value yet: the split of the candidates by one guess's replies."""
    split = reply_split(replies)
    p_win = win_chance(is_candidate, replies.size)
    return Choice(-1, split.bits, p_win, is_candidate, POLICY, expected_left=split.expected_left)


def unvalued(choice: Choice) -> Choice:
    """`choice` (its split only) as a guess not valued in time: no E, no claim."""
    return replace(choice, evidence=UNVALUED, expected=None, lower_bound=None, wins_all=None,
                   at_risk=None)  # fmt: skip


def rank_key(choice: Choice) -> tuple:
    """Best first: wins every candidate in time, not valued in time (in the order given),
    at risk; then lower E (lower share at risk), proven before policy, a possible answer,
    word order."""
    if not choice.valued:  # a stable sort keeps them in the search's order
        return (1, 0.0, False, False, 0)
    group = 0 if choice.wins_all else 2
    measure = choice.expected if choice.expected is not None else (choice.at_risk or 0.0)
    return (group, round(measure, 9), choice.evidence != PROVEN, not choice.is_candidate,
            choice.word_id)  # fmt: skip


def useful(choices: list[Choice]) -> list[Choice]:
    """`choices` ranked, without a guess that cannot help: a non-candidate when a
    candidate ranked above it splits the candidates at least as finely (as many bits)."""
    kept: list[Choice] = []
    for choice in sorted(choices, key=rank_key):
        if (
            choice.valued
            and not choice.is_candidate
            and any(k.is_candidate and k.bits >= choice.bits - 1e-12 for k in kept)
        ):
            continue
        kept.append(choice)
    return kept
