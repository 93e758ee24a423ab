"""pipeline.analysis.openers.two_step: two-step opener rankings against brute force from the
rules."""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pyarrow as pa
import pytest

from pipeline.analysis.openers.tables import (
    FIGURE_COLUMNS,
    opener_figures,
    opener_ranks,
    part_table,
    rank_parts,
    second_guess_rows,
)
from pipeline.analysis.openers.two_step import PriorSearch, answer_second_guesses, part_openers
from pipeline.analysis.words.commonness import commonness_table
from pipeline.core.ties import ranks
from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix
from pipeline.kernels.opener_search.count_search import CountSearch
from pipeline.kernels.partition import float_stats
from tests.support.artifact_set import OPENER_ANSWERS, OPENER_COUNTS, OPENER_GUESSES
from tests.support.naive import brute_force_openers, guess_entropy, rank_by_total

PRIOR_TOP_K = 6
CUTS = [0, 7, 30]  # answers-mode parts start at these word_ids


def small_lists() -> dict:
    """The opener tests' words, answers, p_common (the commonness stage's, n_common 20),
    and their matrices."""
    words = sorted(set(OPENER_GUESSES + OPENER_ANSWERS))
    answers = sorted(OPENER_ANSWERS)
    encoded = encode_words(words)
    answer_rows = np.array([words.index(a) for a in answers], dtype=np.int64)
    p_common = commonness_table(words, OPENER_COUNTS, 20, 10)["p_common"].to_numpy()
    return {
        "words": words,
        "answers": answers,
        "encoded": encoded,
        "answer_rows": answer_rows,
        "matrix": feedback_matrix(encoded, encoded[answer_rows]),
        "p_common": p_common,
    }


def small_rankings(small: dict) -> dict:
    """Parts (answers mode in three ranges, prior mode for the top openers by
    entropy_prior) and their merge, as the stages make them."""
    words, encoded = small["words"], small["encoded"]
    search = CountSearch(small["matrix"], small["answer_rows"], encoded)
    results = [answer_second_guesses(search, opener) for opener in range(len(words))]
    cuts = [*CUTS, len(words)]
    parts = [
        part_table("answers", words, results[a:b]) for a, b in zip(cuts[:-1], cuts[1:], strict=True)
    ]
    prior = float_stats(feedback_matrix(encoded, encoded), weights=small["p_common"]).entropy
    top = np.argsort(ranks(prior, higher_is_better=True), kind="stable")[:PRIOR_TOP_K]
    search = PriorSearch(encoded, small["p_common"])
    prior_results = [search.second_guesses(int(o)) for o in sorted(top)]
    parts.append(part_table("prior", words, prior_results))
    openers, second = merge_parts(parts, words)
    return {
        "results": results,
        "prior_results": prior_results,
        "prior_top": [words[o] for o in top],
        "parts": parts,
        "openers": openers.to_pylist(),
        "second": second.to_pylist(),
        "tables": (openers, second),
    }


def merge_parts(parts: list[pa.Table], words: list[str]) -> tuple[pa.Table, pa.Table]:
    """openers.parquet's and second_guesses.parquet's rows, as their stages make them."""
    return rank_parts(parts, words), second_guess_rows(parts, words)


@pytest.fixture(scope="module")
def small() -> dict:
    return small_lists()


@pytest.fixture(scope="module")
def ranked(small) -> dict:
    return small_rankings(small)


def check_against_reference(reference: dict, opener_rows: list, second_rows: list) -> None:
    by_opener: dict[str, dict] = defaultdict(dict)
    for row in second_rows:
        by_opener[row["opener"]][row["pattern_id"]] = row
    for row in opener_rows:
        expected = reference[row["word"]]
        assert row["h1"] == pytest.approx(expected["h1"], abs=1e-9)
        assert row["h2_expected"] == pytest.approx(expected["h2"], abs=1e-9)
        assert row["two_step_total"] == pytest.approx(expected["total"], abs=1e-9)
        assert row["expected_left_after_two"] == pytest.approx(expected["left"], abs=1e-9)
        assert row["p_solved_by_two"] == pytest.approx(expected["solved"], abs=1e-12)
        assert row["n_buckets"] == len(expected["rows"])
        got = by_opener[row["word"]]
        assert sorted(got) == sorted(expected["rows"])
        for pattern, (size, q, second, score, is_candidate) in expected["rows"].items():
            actual = got[pattern]
            assert actual["bucket_size"] == size
            assert actual["bucket_probability"] == pytest.approx(q, abs=1e-12)
            assert (actual["second_guess"], actual["second_is_candidate"]) == (
                second,
                is_candidate,
            ), (row["word"], actual["pattern"])
            assert actual["second_entropy"] == pytest.approx(score, abs=1e-9)


def test_answers_mode_matches_brute_force_including_ties(small, ranked):
    weight = {a: 1.0 for a in small["answers"]}
    reference = brute_force_openers(small["words"], small["answers"], weight, small["words"])
    # The word list really exercises both tie rules.
    assert reference["_ties"]["candidate_beats_earlier_word"] > 0
    assert reference["_ties"]["earlier_word_among_non_candidates"] > 0
    rows = [r for r in ranked["openers"] if r["mode"] == "answers"]
    second = [r for r in ranked["second"] if r["mode"] == "answers"]
    assert sorted(r["word"] for r in rows) == small["words"]
    check_against_reference(reference, rows, second)
    # Ranks: by two_step_total, ties (within 1e-9) by word_id; the table is in rank order.
    assert [r["word"] for r in rows] == rank_by_total(small["words"], reference, small["words"])
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))


def test_prior_mode_matches_brute_force(small, ranked):
    words = small["words"]
    weight = dict(zip(words, small["p_common"].tolist(), strict=True))
    # entropy_prior over every allowed word, computed here from the rules: the top K.
    prior = [guess_entropy(o, words, weight) for o in words]
    top = sorted(words, key=lambda w: (-prior[words.index(w)], words.index(w)))[:PRIOR_TOP_K]
    assert sorted(ranked["prior_top"]) == sorted(top)
    reference = brute_force_openers(words, words, weight, top)
    rows = [r for r in ranked["openers"] if r["mode"] == "prior"]
    assert sorted(r["word"] for r in rows) == sorted(top)
    for row in rows:
        assert row["h1"] == pytest.approx(prior[words.index(row["word"])], abs=1e-9)
    second = [r for r in ranked["second"] if r["mode"] == "prior"]
    check_against_reference(reference, rows, second)
    assert [r["word"] for r in rows] == rank_by_total(top, reference, words)


def test_parts_repeat_their_openers_figures(small, ranked):
    part = ranked["parts"][1]
    assert part.num_rows == sum(len(r.pattern_ids) for r in ranked["results"][7:30])
    rows = part.to_pylist()
    for result in ranked["results"][7:30]:
        figures = opener_figures(result)
        mine = [r for r in rows if r["opener_id"] == result.opener]
        assert [r["pattern_id"] for r in mine] == result.pattern_ids.tolist()
        assert {r["two_step_total"] for r in mine} == {figures["two_step_total"]}
        assert {r["n_buckets"] for r in mine} == {len(mine)}
        assert all(r["opener"] == small["words"][result.opener] for r in mine)
        assert figures["two_step_total"] == figures["h1"] + figures["h2_expected"]
    assert part.schema.field("pattern_id").type == pa.int32()


def test_merge_does_not_depend_on_the_order_of_the_parts(small, ranked):
    parts = list(ranked["parts"])
    random.Random(3).shuffle(parts)
    openers, second = merge_parts(parts, small["words"])
    assert openers.equals(ranked["tables"][0])
    assert second.equals(ranked["tables"][1])


@pytest.mark.parametrize("merge", [rank_parts, second_guess_rows])
def test_merge_refuses_gaps_duplicates_and_unknown_modes(small, ranked, merge):
    parts = ranked["parts"]
    with pytest.raises(ValueError, match="cover"):
        merge([parts[0], parts[2], parts[3]], small["words"])
    with pytest.raises(ValueError, match="is in two parts"):
        merge([*parts, parts[1]], small["words"])
    odd = parts[3].set_column(0, "mode", pa.array(["hard"] * parts[3].num_rows, pa.string()))
    with pytest.raises(ValueError, match="unknown modes"):
        merge([*parts[:3], odd], small["words"])
    # the prior mode alone is fine (it never covers every opener)
    assert set(merge([parts[3]], small["words"])["mode"].to_pylist()) == {"prior"}


def test_the_ranking_reads_only_the_figure_columns(small, ranked):
    """rank_parts on the columns its stage reads gives the table made from whole parts."""
    figures = [part.select(FIGURE_COLUMNS) for part in ranked["parts"]]
    assert rank_parts(figures, small["words"]).equals(ranked["tables"][0])


def test_rank_openers_uses_the_tie_rule_in_word_order():
    totals = np.array([3.0, 5.0, 5.0 + 1e-10, 4.0, 5.0 - 1e-10])
    word_ids = np.array([9, 4, 7, 1, 2])  # not in word_id order
    # 5.0 + 1e-10 opens the best group; all three 5.0s are tied: word_ids 2, 4, 7.
    assert opener_ranks(totals, word_ids).tolist() == [5, 2, 3, 4, 1]


def test_a_single_guess_and_answer():
    encoded = encode_words(["cigar"])
    search = CountSearch(feedback_matrix(encoded, encoded), np.array([0]), encoded)
    figures = opener_figures(answer_second_guesses(search, 0))
    assert (figures["h1"], figures["h2_expected"], figures["p_solved_by_two"]) == (0.0, 0.0, 1.0)
    assert figures["expected_left_after_two"] == 0.0
    assert figures["n_buckets"] == 1
    result = PriorSearch(encoded, np.ones(1)).second_guesses(0)
    assert opener_figures(result)["p_solved_by_two"] == 1.0


@pytest.mark.parametrize(("n_words", "parts"), [(56, 3), (10, 4), (3, 5), (1, 1), (14855, 16)])
def test_parts_deal_out_every_word_once(n_words, parts):
    dealt = [part_openers(n_words, number, parts).tolist() for number in range(parts)]
    assert sorted(w for part in dealt for w in part) == list(range(n_words))
    sizes = [len(part) for part in dealt]
    assert max(sizes) - min(sizes) <= 1
    assert dealt[0][:2] == [0, parts][: len(dealt[0])]
    with pytest.raises(ValueError, match=f"part {parts} does not exist among {parts} parts"):
        part_openers(n_words, parts, parts)
