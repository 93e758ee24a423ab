"""Prior mode: the answer may be any allowed word, weighted by p_common.

No exact value exists here (the optimal search counts answers uniformly), so no E is
shown: the score model's estimate (pipeline.analysis.advice.estimate) only orders the guesses,
and the report shows what is exact about each (bits, chance of winning now, candidates
expected to remain).
"""

from __future__ import annotations

import numpy as np

from pipeline.analysis.advice.estimate import ScoreCurve, ranked, score_mean_bits
from pipeline.analysis.advice.fallback import rank_guesses
from pipeline.analysis.advice.splits import entropy_bits
from pipeline.commands.assistant.data import Data
from pipeline.commands.assistant.game import State
from pipeline.commands.assistant.values import ESTIMATE, Choice, Table
from pipeline.kernels.feedback import feedback_matrix


class PriorAdvice:
    """The guesses where no exact value exists: prior mode's, and the fallback's once the
    answer list ran out (pipeline.analysis.advice.fallback); `curve` None: the score model's
    prior curve, read when first needed."""

    def __init__(self, data: Data, *, hard: bool, curve: ScoreCurve | None) -> None:
        self.data = data
        self.hard = hard
        self.curve = curve
        self.encoded = data.index.encoded
        self.n_bins = 3**data.index.length

    def table(self, state: State, guesses: np.ndarray, top: int) -> Table:
        """The `top` guesses of `guesses` at `state`, ordered by the estimate."""
        curve = self.curve or self.data.curve(True, self.hard)
        if state.turns:
            best = rank_guesses(
                self.encoded, guesses, state.candidates, state.weights, curve, self.n_bins, top
            )
            order, bits, p_win, is_candidate = best.order, best.bits, best.p_win, best.is_candidate
        else:
            p_all = np.zeros(len(self.data.index.words))
            p_all[state.candidates] = state.weights
            scores = score_mean_bits(self.data.entropy_prior, p_all, state.weighted_bits, curve)
            is_all = np.isin(guesses, state.candidates)
            order = ranked(scores.expected[guesses], is_all, best=top)
            bits, p_win = scores.bits[guesses][order], p_all[guesses][order]
            is_candidate = is_all[order]
        words = [int(w) for w in guesses[order].tolist()]
        choices = {
            w: Choice(w, float(bits[k]), float(p_win[k]), bool(is_candidate[k]), ESTIMATE)
            for k, w in enumerate(words)
        }
        return Table(choices, words, None)

    def choice(self, state: State, word_id: int) -> Choice:
        """One guess at a prior-mode state: its bits and chance of winning now."""
        replies = feedback_matrix(
            self.encoded[[word_id]], self.encoded[state.candidates], engine="numpy"
        )[0]
        mass = np.bincount(replies.astype(np.int64), state.weights)
        mass = mass[mass > 0]
        in_state = np.flatnonzero(state.candidates == word_id)
        bits = entropy_bits(mass)
        p_win = float(state.weights[in_state[0]]) if in_state.size else 0.0
        return Choice(word_id, bits, p_win, bool(in_state.size), ESTIMATE)
