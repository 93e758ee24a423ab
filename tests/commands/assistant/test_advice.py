"""pipeline.analysis.advice.estimate against the definitions written out
(tests.support.naive_advice)."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.analysis.advice import estimate
from pipeline.analysis.optimal.tree import OptimalTree
from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix
from tests.support.naive import feedback, ranks_with_ties
from tests.support.naive_advice import curve, expected_guesses

WORDS = sorted(
    {
        "abbey", "abide", "added", "adieu", "aloft", "arise", "aroma", "array", "atoll",
        "audio", "awake", "eerie", "eater", "erase", "geese", "greet", "irate", "lever",
        "llama", "mamma", "nanny", "offer", "otter", "ozone", "raise", "ratio", "rebut",
        "salet", "sissy", "slate", "speed", "steel", "tarse", "teeth", "tiare", "trace",
    }
)  # fmt: skip
POINTS = [(1.0, 1.5), (1.585, 1.76), (2.2, 1.9), (3.1, 2.1), (4.5, 2.4), (6.0, 2.7)]
CURVE = estimate.ScoreCurve.from_bins(
    np.array([0.0] + [x for x, _ in POINTS]), np.array([1.08] + [y for _, y in POINTS]), "test"
)


@pytest.mark.parametrize("bits", [0.0, 0.3, 1.0, 1.2, 1.585, 2.0, 4.5, 5.9, 6.0, 7.5, 11.2])
def test_curve_is_linear_between_centres_anchored_and_extended(bits):
    assert CURVE(bits) == pytest.approx(curve(POINTS, bits), abs=1e-12)
    assert CURVE(0.0) == 1.0  # one candidate left: guessed at once, whatever the bin says


def _naive_table(candidates, weights):
    return [expected_guesses(g, candidates, weights, POINTS) for g in WORDS]


CASES = [
    WORDS,
    ["abide", "aroma", "mamma", "otter", "rebut", "speed", "steel", "teeth"],
    ["geese", "eerie", "greet", "lever"],
    ["llama", "mamma"],
    ["nanny"],
]


@pytest.mark.parametrize("candidates", CASES)
@pytest.mark.parametrize("weighted", [False, True])
def test_score_patterns_equals_the_definition(candidates, weighted):
    rng = np.random.default_rng(len(candidates))
    weights = rng.random(len(candidates)) + 0.01 if weighted else None
    patterns = feedback_matrix(encode_words(WORDS), encode_words(candidates), engine="numpy")
    scores = estimate.score_patterns(patterns, CURVE, 243, weights)
    naive = np.array(_naive_table(candidates, None if weights is None else list(weights)))
    np.testing.assert_allclose(scores.bits, naive[:, 0], atol=1e-12)
    np.testing.assert_allclose(scores.expected, naive[:, 1], atol=1e-12)
    np.testing.assert_allclose(scores.p_win, naive[:, 2], atol=1e-12)
    assert not np.any(np.signbit(scores.bits))  # never -0.00


def test_blocks_give_the_same_scores(monkeypatch):
    patterns = feedback_matrix(encode_words(WORDS), encode_words(CASES[1]), engine="numpy")
    whole = estimate.score_patterns(patterns, CURVE, 243, np.arange(1.0, 9.0))
    monkeypatch.setattr(estimate, "BLOCK_ELEMENTS", 3 * 8)  # three rows a block
    blocks = estimate.score_patterns(patterns, CURVE, 243, np.arange(1.0, 9.0))
    for field in ("bits", "expected", "p_win"):
        np.testing.assert_array_equal(getattr(whole, field), getattr(blocks, field))


def test_mean_bits_form():
    entropy, p_win = np.array([2.0, 1.0, 0.5]), np.array([0.0, 0.25, 0.5])
    scores = estimate.score_mean_bits(entropy, p_win, 3.0, CURVE)
    expected = [pw + (1 - pw) * (1 + curve(POINTS, max(3.0 - h, 0))) for h, pw in zip(
        entropy, p_win, strict=True)]  # fmt: skip
    np.testing.assert_allclose(scores.expected, expected, atol=1e-12)


def test_ranked_is_the_tie_rule_and_best_k_is_its_head():
    rng = np.random.default_rng(3)
    expected = np.round(rng.random(300) * 4, 1) + rng.choice([0, 4e-10, 8e-10, 2e-9], 300)
    candidate = rng.random(300) < 0.3
    evidence = rng.integers(0, 3, 300)
    full = estimate.ranked(expected, candidate, evidence)
    naive = ranks_with_ties(
        list(expected), higher_is_better=False, tolerance=1e-9,
        keys=[list(evidence), list(~candidate)],
    )  # fmt: skip
    assert full.tolist() == naive
    for best in (1, 2, 7, 50, 299, 300, 400):
        assert estimate.ranked(expected, candidate, evidence, best=best).tolist() == naive[:best]


@pytest.mark.parametrize("candidates", CASES[1:])
def test_distinct_guesses_share_their_replies(candidates):
    guesses, answers = encode_words(WORDS), encode_words(candidates)
    first, classes = estimate.distinct_guesses(guesses, answers)
    patterns = feedback_matrix(guesses, answers, engine="numpy")
    assert np.array_equal(patterns[first][classes], patterns)
    # members of a class are interchangeable, and words that are candidates stand alone
    for word in candidates:
        i = WORDS.index(word) if word in WORDS else None
        if i is not None:
            assert np.count_nonzero(classes == classes[i]) == 1


def test_tree_path_follows_guesses_and_replies():
    # root 0 plays word 5; reply 7 leads to node 1 (plays word 9), reply 8 to node 2
    words = [f"w{i}" for i in range(10)]
    columns = {
        "node_id": [0, 1, 2, 3],
        "parent_id": [None, 0, 0, 1],
        "pattern_id": [None, 7, 8, 3],
        "guess_id": [5, 9, 4, 2],
        "guess": ["w5", "w9", "w4", "w2"],
        "n_answers": [10, 6, 3, 2],
        "depth": [1, 2, 2, 3],
        "guesses_to_finish": [25, 14, 5, 3],
    }
    tree = OptimalTree.from_columns("normal", "w5", columns, 25, words)
    assert tree.path([], []) == [0]
    assert tree.path([5], [7]) == [0, 1]
    assert tree.path([5, 9], [7, 3]) == [0, 1, 3]
    assert tree.path([5, 4], [7, 3]) == [0, 1]  # left the tree at turn 2
    assert tree.path([6], [7]) == [0]  # another opener
    assert tree.path([5], [242]) == [0]  # solved: no node follows
    assert tree.expected(1) == pytest.approx(14 / 6)


def test_naive_feedback_is_the_one_used():
    assert (
        feedback("tarse", "teeth")
        == feedback_matrix(encode_words(["tarse"]), encode_words(["teeth"]), engine="numpy")[0, 0]
    )
