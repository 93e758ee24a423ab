"""Opener bounds on the real lists, against Alex Selby's published optimum of each opener.

PUBLISHED holds, for the 2,309-answer list, the totals of a spread of openers (the best
three and every 500th line after the 250th) from his results files `results_easy_nyt20220830`
and `results_hard_nyt20220830` (github.com/alex1770/wordle, MIT licence); None: no tree
wins every answer within six guesses in hard mode. Every bound must be at most the
published total, and a bound that proves infeasibility must agree with him.
"""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.kernels.optimal_search.bounds import opener_bounds
from pipeline.kernels.optimal_search.context import INF
from tests.support.optimal_reference import real_lists

PUBLISHED = {
    "hard": {
        "agars": None,
        "baffs": 8953,
        "clews": 8467,
        "dippy": 8886,
        "eland": 8220,
        "ethal": 8397,
        "fasts": None,
        "funks": 8692,
        "grout": 8372,
        "hamza": 9055,
        "iglus": 8583,
        "isled": 8345,
        "laevo": 8558,
        "larch": None,
        "least": 8104,
        "lyard": 8421,
        "muxed": 8793,
        "pegma": 8512,
        "pervo": 8534,
        "piney": 8445,
        "pooty": 8756,
        "reast": 8112,
        "resat": None,
        "salet": 8097,
        "shuck": 8636,
        "sours": 8721,
        "sutra": 8316,
        "topee": 8489,
        "torii": 8609,
        "varix": 8834,
        "vughs": None,
        "wharf": 8663,
        "wrate": 8276,
    },
    "normal": {
        "abled": 8198,
        "anglo": 8217,
        "arsey": 8108,
        "bizzo": 9011,
        "blech": 8269,
        "boxen": 8491,
        "canon": 8421,
        "djinn": 8791,
        "dryly": 8611,
        "gnash": 8235,
        "goles": 8157,
        "knack": 8654,
        "mamil": 8465,
        "mence": 8303,
        "mogas": 8322,
        "patch": 8178,
        "pitsu": 8252,
        "ponga": 8285,
        "pyoid": 8340,
        "quibs": 8711,
        "reams": 8132,
        "reast": 7896,
        "salet": 7894,
        "salon": 8018,
        "segue": 8400,
        "staws": 8576,
        "stobs": 8545,
        "talak": 8441,
        "tarse": 7883,
        "thugs": 8359,
        "urite": 8073,
        "wombs": 8515,
        "wyles": 8379,
    },
}


@pytest.mark.mirror
@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_bounds_are_at_most_the_published_optimum(mirror, mode):
    w, _ = real_lists(mirror)
    published = PUBLISHED[mode]
    rows = np.array([w.words.index(word) for word in published])
    first, second = opener_bounds(w.matrix, w.answer_rows, w.encoded, rows, hard=mode == "hard")
    for word, low, high in zip(published, first, second, strict=True):
        total = published[word]
        assert low <= high, word
        if high >= INF:
            assert total is None, word
        elif total is not None:
            assert high <= total, (word, high, total)
    # the best openers' bounds are close: within 2 % of their totals
    best = min(published, key=lambda word: published[word] or INF)
    assert second[list(published).index(best)] >= 0.98 * published[best]
