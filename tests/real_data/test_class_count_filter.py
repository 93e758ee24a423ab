"""Issue 62's measurement M1 (benchmarks/class_count_filter.py): the class-count upper
bound holds for every guess on real classes, against the exact count, and is often
tight; repeated-letter guesses get the trivial bound n."""

from __future__ import annotations

import numpy as np

from benchmarks import class_count_filter as ccf
from benchmarks.family_bound import read_words
from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix


def test_the_bound_is_never_below_the_exact_class_count(mirror):
    allowed = read_words(mirror / "allowed.txt")
    guesses = encode_words(allowed)
    rows = {word: i for i, word in enumerate(allowed)}
    answers = np.array([rows[w] for w in read_words(mirror / "nyt20230701/answers.txt")])
    matrix = feedback_matrix(guesses, guesses[answers])
    tight = 0
    for opener in ("tarse", "crane", "fuzzy"):
        row = matrix[rows[opener]]
        for reply in np.unique(row).tolist()[:40]:
            members = np.flatnonzero(row == reply)
            exact = ccf.class_counts(matrix[:, members])
            bound = ccf.class_count_bound(guesses, guesses[answers[members]])
            assert np.all(exact <= bound), (opener, reply)
            tight += int(np.sum((exact == bound) & (bound < len(members))))
    assert tight > 1000
    one = guesses[[rows["geese"]]]
    assert ccf.class_count_bound(one, guesses[answers[:50]]).tolist() == [50]
