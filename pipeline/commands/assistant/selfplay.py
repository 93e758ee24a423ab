"""The assistant's advice played against every answer, as a player who follows it plays.

`play_advice` walks the game tree the advice makes from an opener: at each state the
player plays the first suggestion (`Advisor.table(state).order[0]`); states are shared by
every answer that reaches them, so each is valued once. The tests check with it that
every shown E is kept; the benchmark prints what it gives on the real lists.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline.commands.assistant.advisor import Advisor
from pipeline.commands.assistant.game import Turn
from pipeline.core.wordle import MAX_GUESSES, pattern_string


@dataclass
class Played:
    """What following the advice from one opener gave, over every answer."""

    shown: float | None  # the E the assistant shows for the opener before the first guess
    shown_total: int | None
    guesses: dict[str, int] = field(default_factory=dict)  # answer -> guesses used
    lost: list[str] = field(default_factory=list)  # answers not won within six guesses
    # states where the advice claimed a sure win (a table value) and still lost an answer
    broken: list[tuple[str, ...]] = field(default_factory=list)
    states: int = 0

    @property
    def total(self) -> int:
        return sum(self.guesses.values())


def play_advice(advisor: Advisor, opener: str) -> Played:
    """Play `opener`, then the first suggestion at every state, against every answer."""
    index = advisor.data.index
    root = advisor.states([])[0]
    choice = advisor.choice(root, index.word_id(opener))
    total = None if choice.expected is None else round(choice.expected * root.candidates.size)
    played = Played(choice.expected, total)
    _follow(advisor, [], index.word_id(opener), played)
    return played


def _follow(advisor: Advisor, turns: list[Turn], guess: int, played: Played) -> None:
    """Play `guess` after `turns`, then recurse into every reply's state."""
    index = advisor.data.index
    state = advisor.states(turns)[-1]
    replies = advisor.replies(guess, state.candidates)
    depth = len(turns) + 1
    for reply in np.unique(replies).tolist():
        left = state.candidates[replies == reply]
        colours = pattern_string(reply, index.length)
        turn = Turn(guess, index.words[guess], reply, colours)
        if reply == advisor.green:
            played.guesses[index.words[guess]] = depth
            if depth > MAX_GUESSES:
                played.lost.append(index.words[guess])
            continue
        if depth >= MAX_GUESSES:
            played.lost.extend(index.words[w] for w in left)
            continue
        after = advisor.states([*turns, turn])[-1]
        table = advisor.table(after)
        played.states += 1
        lost_before = len(played.lost)
        _follow(advisor, [*turns, turn], table.order[0], played)
        if table.value is not None and len(played.lost) > lost_before:
            played.broken.append(tuple(t.word for t in [*turns, turn]))
