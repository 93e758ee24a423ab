"""Issue 62's measurement M2 (benchmarks/family_bound.py) on the real lists: the hard-mode
family test never declares infeasible an opener whose published total is finite, and it
finds the counts measured (the first level after the opener: 236 of nyt2023's 7,402
infeasible openers, 65 of nyt2022's 2,136); its second level agrees with the first."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import family_bound as fb
from benchmarks.bound_quality import read_published
from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix

LISTS = {"nyt20220830": ("answers.txt", 65), "nyt20230701": ("nyt20230701/answers.txt", 236)}


@pytest.mark.parametrize("name", sorted(LISTS))
def test_the_family_test_is_exact_and_finds_the_measured_openers(mirror, name):
    answers_file, expected = LISTS[name]
    allowed = fb.read_words(mirror / "allowed.txt")
    encoded = encode_words(fb.read_words(mirror / answers_file))
    matrix = feedback_matrix(encode_words(allowed), encoded)
    keys = fb.masked_keys(encoded)
    flagged = fb.first_level(allowed, matrix, keys)
    published = read_published(mirror / "published" / f"results_hard_{name}")
    assert [word for word in flagged if published[word] is not None] == []
    assert len(flagged) == expected
    rows = {word: i for i, word in enumerate(allowed)}
    guesses = encode_words(allowed)
    for word in flagged[:3]:  # a class that fails at once fails after any second guess
        row = rows[word]
        assert fb.infeasible_at_depth_two(row, matrix[row], matrix, guesses, keys)
    feasible = [w for w in allowed if published[w] is not None]
    for word in np.random.default_rng(62).choice(feasible, size=3, replace=False).tolist():
        row = rows[word]
        assert not fb.infeasible_at_depth_two(row, matrix[row], matrix, guesses, keys)
