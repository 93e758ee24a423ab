"""pipeline.analysis.openers.entropy_maps and the tie rule: a hand-worked example and references.

The hand-worked example is small enough to check every number by hand; it also pins that
rows are guesses and columns answers (a transposed read gives other numbers).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from pipeline.analysis.openers.entropy_maps import (
    answer_stats,
    distribution_table,
    entropy_table,
    square_stats_streamed,
)
from pipeline.analysis.openers.pattern_spelling import spelled_patterns
from pipeline.core import ties
from pipeline.core.ties import best_position, rank_order, ranks, tie_groups
from pipeline.core.word_index import WordIndex
from pipeline.core.wordle import encode_words, parse_pattern
from pipeline.kernels.feedback import feedback_matrix
from tests.support.naive import TIE, entropy_bits, feedback, ranks_with_ties, tie_rule_ranks

# Three-letter words (the length comes from the data). Answers: bed, bee, dad, ebb.
HAND_WORDS = ["bed", "bee", "boa", "dad", "ebb", "fig"]
HAND_ANSWERS = ["bed", "bee", "dad", "ebb"]
# p_common of each word: binary fractions summing to exactly 1.
HAND_P = [0.25, 0.125, 0.125, 0.25, 0.125, 0.125]
# Feedback of each guess (row) against every word (column), worked out by the rules. Not
# symmetric: boa's row has buckets 2+1+1+1+1, its column 2+1+2+1 (a transposed read shows).
HAND_SQUARE = {
    #       bed    bee    boa    dad    ebb    fig
    "bed": ["GGG", "GGB", "GBB", "BBG", "YYB", "BBB"],
    "bee": ["GGB", "GGG", "GBB", "BBB", "YYB", "BBB"],
    "boa": ["GBB", "GBB", "GGG", "BBY", "YBB", "BBB"],
    "dad": ["BBG", "BBB", "BYB", "GGG", "BBB", "BBB"],
    "ebb": ["YYB", "YYB", "BYB", "BBB", "GGG", "BBB"],
    "fig": ["BBB", "BBB", "BBB", "BBB", "BBB", "GGG"],
}
# Buckets over the answers (columns bed, bee, dad, ebb), by word: sizes of each pattern.
HAND_ANSWER_BUCKETS = {
    "bed": [1, 1, 1, 1],  # GGG GGB BBG YYB
    "bee": [1, 1, 1, 1],  # GGB GGG BBB YYB
    "boa": [2, 1, 1],  # GBB{bed,bee} BBY YBB
    "dad": [1, 2, 1],  # BBG BBB{bee,ebb} GGG
    "ebb": [2, 1, 1],  # YYB{bed,bee} BBB GGG
    "fig": [4],  # BBB
}
# Buckets over all six words, as p_common sums (prior) and counts (allowed).
HAND_PRIOR_BUCKETS = {
    "bed": [0.25, 0.125, 0.125, 0.25, 0.125, 0.125],  # all different
    "bee": [0.25, 0.125, 0.125, 0.375, 0.125],  # GGB GGG GBB BBB{dad,fig} YYB
    "boa": [0.375, 0.125, 0.25, 0.125, 0.125],  # GBB{bed,bee} GGG BBY YBB BBB
    "dad": [0.25, 0.375, 0.125, 0.25],  # BBG BBB{bee,ebb,fig} BYB GGG
    "ebb": [0.375, 0.125, 0.375, 0.125],  # YYB{bed,bee} BYB BBB{dad,fig} GGG
    "fig": [0.875, 0.125],  # BBB GGG
}
HAND_ALLOWED_BUCKETS = {
    "bed": [1, 1, 1, 1, 1, 1],
    "bee": [1, 1, 1, 2, 1],
    "boa": [2, 1, 1, 1, 1],
    "dad": [1, 3, 1, 1],
    "ebb": [2, 1, 2, 1],
    "fig": [5, 1],
}
# pattern_distribution rows: (word_id, word, pattern_id, pattern, count); ids: B0 Y1 G2,
# position 0 least significant: YBB 1, GBB 2, YYB 1 + 3 = 4, GGB 2 + 6 = 8, BBY 9,
# BBG 18, GGG 26.
HAND_DISTRIBUTION = [
    (0, "bed", 4, "YYB", 1),
    (0, "bed", 8, "GGB", 1),
    (0, "bed", 18, "BBG", 1),
    (0, "bed", 26, "GGG", 1),
    (1, "bee", 0, "BBB", 1),
    (1, "bee", 4, "YYB", 1),
    (1, "bee", 8, "GGB", 1),
    (1, "bee", 26, "GGG", 1),
    (2, "boa", 1, "YBB", 1),
    (2, "boa", 2, "GBB", 2),
    (2, "boa", 9, "BBY", 1),
    (3, "dad", 0, "BBB", 2),
    (3, "dad", 18, "BBG", 1),
    (3, "dad", 26, "GGG", 1),
    (4, "ebb", 0, "BBB", 1),
    (4, "ebb", 4, "YYB", 2),
    (4, "ebb", 26, "GGG", 1),
    (5, "fig", 0, "BBB", 4),
]


def hand_index() -> WordIndex:
    is_answer = np.array([w in HAND_ANSWERS for w in HAND_WORDS])
    return WordIndex(tuple(HAND_WORDS), is_answer, np.flatnonzero(is_answer).astype(np.int64))


def chunks_of(matrix: np.ndarray, rows: int):
    """(start, stop, rows) chunks, as PatternMatrix.iter_chunks gives them."""
    return [
        (a, min(a + rows, len(matrix)), matrix[a : a + rows]) for a in range(0, len(matrix), rows)
    ]


def hand_analysis() -> dict:
    """Everything the analysis computes for the hand-worked example."""
    index = hand_index()
    encoded = encode_words(HAND_WORDS)
    matrix = feedback_matrix(encoded, encoded[index.answer_rows])
    answers = answer_stats(chunks_of(matrix, 4), 6, 3, threads=1)
    allowed, prior = square_stats_streamed(encoded, np.array(HAND_P), threads=1)
    return {
        "index": index,
        "encoded": encoded,
        "answers": answers,
        "allowed": allowed,
        "prior": prior,
        "table": entropy_table(index, np.array(HAND_P), answers, prior, allowed),
        "distribution": distribution_table(HAND_WORDS, answers, 4),
    }


@pytest.fixture(scope="module")
def hand() -> dict:
    return hand_analysis()


def test_hand_example_patterns_are_what_the_rules_say(hand):
    square = feedback_matrix(hand["encoded"], hand["encoded"])
    for g, (guess, row) in enumerate(HAND_SQUARE.items()):
        for a, (answer, expected) in enumerate(zip(HAND_WORDS, row, strict=True)):
            assert feedback(guess, answer) == parse_pattern(expected), (guess, answer)
            assert square[g, a] == parse_pattern(expected), (guess, answer)


def test_hand_example_entropy_table(hand):
    rows = hand["table"].to_pylist()
    assert [row["word"] for row in rows] == HAND_WORDS
    assert [row["word_id"] for row in rows] == list(range(6))
    assert [row["is_answer"] for row in rows] == [w in HAND_ANSWERS for w in HAND_WORDS]
    assert [row["p_common"] for row in rows] == HAND_P
    for row in rows:
        word = row["word"]
        sizes = HAND_ANSWER_BUCKETS[word]
        assert row["entropy_answers"] == pytest.approx(entropy_bits(sizes), abs=1e-12), word
        assert row["entropy_prior"] == pytest.approx(
            entropy_bits(HAND_PRIOR_BUCKETS[word]), abs=1e-12
        )
        assert row["entropy_allowed"] == pytest.approx(
            entropy_bits(HAND_ALLOWED_BUCKETS[word]), abs=1e-12
        )
        assert row["buckets"] == len(sizes)
        assert row["largest_bucket"] == max(sizes)
        assert row["expected_remaining"] == pytest.approx(sum(n * n for n in sizes) / 4)
    # Worked by hand: bed/bee 2 bits, boa/dad/ebb 1.5, fig 0; bed's prior 2.5 exactly.
    by_word = {row["word"]: row for row in rows}
    assert by_word["bed"]["entropy_answers"] == pytest.approx(2.0)
    assert by_word["dad"]["entropy_answers"] == pytest.approx(1.5)
    assert by_word["fig"]["entropy_answers"] == 0.0
    assert by_word["fig"]["expected_remaining"] == 4.0
    assert by_word["bed"]["entropy_prior"] == pytest.approx(2.5)
    assert by_word["bed"]["entropy_allowed"] == pytest.approx(math.log2(6))
    # Ties go to the lower word_id: bed before bee, then boa, dad, ebb (all 1.5 bits).
    assert [by_word[w]["rank_answers"] for w in HAND_WORDS] == [1, 2, 3, 4, 5, 6]
    # Prior: bed 2.5 > bee = boa 2.16 > dad 1.91 > ebb 1.81 > fig 0.54.
    assert [by_word[w]["rank_prior"] for w in HAND_WORDS] == [1, 2, 3, 4, 5, 6]
    # Allowed: bed 2.58 > bee = boa 2.25 > ebb 1.92 > dad 1.79 > fig 0.65.
    assert [by_word[w]["rank_allowed"] for w in HAND_WORDS] == [1, 2, 3, 5, 4, 6]
    # Reading boa's column instead of its row would give 2+1+2+1, i.e. ebb's 1.92 bits.
    column = [HAND_SQUARE[guess][HAND_WORDS.index("boa")] for guess in HAND_WORDS]
    assert sorted(Counter(column).values()) == [1, 1, 2, 2]
    assert entropy_bits([2, 1, 2, 1]) != pytest.approx(by_word["boa"]["entropy_allowed"])


def test_hand_example_distribution(hand):
    table = hand["distribution"]
    rows = [
        (r["word_id"], r["word"], r["pattern_id"], r["pattern"], r["count"])
        for r in table.to_pylist()
    ]
    assert rows == HAND_DISTRIBUTION
    assert table["probability"].to_pylist() == [count / 4 for *_, count in HAND_DISTRIBUTION]


def test_streamed_square_pass_reports_its_steps(monkeypatch):
    from pipeline.analysis.openers import entropy_maps

    monkeypatch.setattr(entropy_maps, "SQUARE_STEP_ROWS", 4)
    encoded = encode_words(HAND_WORDS)
    steps: list[int] = []
    uniform, weighted = square_stats_streamed(encoded, np.array(HAND_P), 1, steps.append)
    assert steps == [4, 2]
    assert uniform.tolist() == pytest.approx(
        [entropy_bits(HAND_ALLOWED_BUCKETS[w]) for w in HAND_WORDS]
    )
    assert weighted.tolist() == pytest.approx(
        [entropy_bits(HAND_PRIOR_BUCKETS[w]) for w in HAND_WORDS]
    )


def test_answer_stats_do_not_depend_on_the_chunking(hand):
    encoded = hand["encoded"]
    matrix = feedback_matrix(encoded, encoded[hand["index"].answer_rows])
    for rows in (1, 2, 5):
        other = answer_stats(chunks_of(matrix, rows), 6, 3, threads=1)
        for name in ("entropy", "buckets", "largest", "expected"):
            assert np.array_equal(getattr(other, name), getattr(hand["answers"], name))
        assert distribution_table(HAND_WORDS, other, 4).equals(hand["distribution"])


def test_spelled_patterns_spell_each_id():
    ids = np.array([26, 0, 4, 26, 9], dtype=np.int64)
    assert spelled_patterns(ids, 3).to_pylist() == ["GGG", "BBB", "YYB", "GGG", "BBY"]


# --- the tie rule (pipeline.core.ties), by which every ranking is decided -------------------


def test_ranks_treat_near_equal_values_as_ties():
    values = np.array([1.0, 2.0, 2.0 + 1e-12, 2.0 - 1e-12, 3.0, 2.0 + 1e-6])
    assert ranks(values, higher_is_better=True).tolist() == [6, 3, 4, 5, 1, 2]
    assert ranks(values, higher_is_better=True, tolerance=0).tolist() == [6, 4, 3, 5, 1, 2]
    assert ranks(values, higher_is_better=True).dtype == np.int32
    assert ranks(-values, higher_is_better=False).tolist() == [6, 3, 4, 5, 1, 2]


def test_groups_are_anchored_at_their_best():
    """1.0, 1 - 0.6e-9 and 1 - 1.2e-9 make two groups: a chain of near-ties never links
    scores further apart than the tolerance."""
    scores = np.array([1.0 - 1.2e-9, 1.0, 1.0 - 0.6e-9])
    assert tie_groups(scores, higher_is_better=True).tolist() == [1, 0, 0]
    assert ranks(scores, higher_is_better=True).tolist() == [3, 1, 2]
    # integer (fixed-point) scores are compared exactly, with an integer tolerance
    big = np.array([2**62, 2**62 - 1, 2**62 - 3], dtype=np.int64)
    assert tie_groups(big, higher_is_better=True, tolerance=1).tolist() == [0, 0, 1]


def test_keys_break_ties_before_word_id():
    scores = np.array([5.0, 5.0, 4.0, 5.0 + 1e-10])
    outside = np.array([True, False, False, True])  # "is not a candidate": False first
    assert rank_order(scores, higher_is_better=True, keys=[outside]).tolist() == [1, 0, 3, 2]
    assert best_position(scores, higher_is_better=True, keys=[outside]) == 1
    assert best_position(scores, higher_is_better=True) == 0
    with pytest.raises(ValueError, match="no scores"):
        best_position(np.array([]), higher_is_better=True)


def test_tie_rule_equals_its_definition_on_crowded_scores():
    rng = np.random.default_rng(5)
    for _ in range(50):
        # scores on a grid of 0.4e-9: many near-ties, chains longer than the tolerance
        scores = 1.0 + rng.integers(0, 12, 40) * 0.4e-9
        keys = rng.integers(0, 2, 40)
        for higher in (True, False):
            expected = ranks_with_ties(scores.tolist(), higher_is_better=higher, keys=[keys])
            got = rank_order(scores, higher_is_better=higher, keys=[keys])
            assert got.tolist() == expected
            assert best_position(scores, higher_is_better=higher, keys=[keys]) == expected[0]
        assert ranks(scores, higher_is_better=True).tolist() == tie_rule_ranks(scores.tolist())
    assert ties.TIE_TOLERANCE == TIE  # the references use the same tolerance
