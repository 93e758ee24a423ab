"""Prior mode: the answer may be any allowed word, weighted by p_common.

No exact value exists here (the optimal search counts answers uniformly), so no E is
shown: the score model's estimate (pipeline.analysis.advice) only orders the guesses,
and the report shows what is exact about each (bits, chance of winning now, candidates
expected to remain).
"""

from __future__ import annotations

import numpy as np

from pipeline.analysis.advice import distinct_guesses, ranked, score_mean_bits, score_patterns
from pipeline.commands.assistant_values import ESTIMATE, Choice, Table
from pipeline.kernels.feedback import feedback_matrix


def prior_table(advisor, state, guesses: np.ndarray, top: int) -> Table:
    """The `top` guesses of `guesses` at `state`, ordered by the estimate."""
    encoded = advisor.encoded
    if state.turns:
        first, classes = distinct_guesses(encoded[guesses], encoded[state.candidates])
        patterns = feedback_matrix(
            encoded[guesses[first]], encoded[state.candidates], engine="numpy"
        )
        scores = score_patterns(patterns, advisor.curve, advisor.n_bins, state.weights)
        bits, estimate, p_win = (getattr(scores, f)[classes] for f in ("bits", "expected", "p_win"))
    else:
        p_win = np.zeros(len(advisor.data.index.words))
        p_win[state.candidates] = state.weights
        scores = score_mean_bits(
            advisor.data.entropy_prior, p_win, state.weighted_bits, advisor.curve
        )
        bits, estimate, p_win = scores.bits[guesses], scores.expected[guesses], p_win[guesses]
    is_candidate = np.isin(guesses, state.candidates)
    order = ranked(estimate, is_candidate, best=top)
    choices = {
        int(guesses[i]): Choice(
            int(guesses[i]), float(bits[i]), float(p_win[i]), bool(is_candidate[i]), ESTIMATE
        )
        for i in order.tolist()
    }
    return Table(choices, [int(guesses[i]) for i in order.tolist()], None)


def prior_choice(advisor, state, word_id: int) -> Choice:
    """One guess at a prior-mode state: its bits and chance of winning now."""
    replies = feedback_matrix(
        advisor.encoded[[word_id]], advisor.encoded[state.candidates], engine="numpy"
    )[0]
    mass = np.bincount(replies.astype(np.int64), state.weights)
    mass = mass[mass > 0]
    in_state = np.flatnonzero(state.candidates == word_id)
    bits = float(-(mass * np.log2(mass)).sum()) + 0.0
    p_win = float(state.weights[in_state[0]]) if in_state.size else 0.0
    return Choice(word_id, bits, p_win, bool(in_state.size), ESTIMATE)
