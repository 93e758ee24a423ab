"""The optimal stage's plan (analysis.optimal.edition_plan, pipeline.plan.optimal_stage): top,
certify and openers resolved once; K always counts the word index's words; the jobs chosen
against brute-force references."""

from __future__ import annotations

import pyarrow as pa
import pytest

from pipeline.analysis.optimal.edition_plan import OptimalPlan, top_count
from pipeline.artifacts import optimal as store
from pipeline.core.errors import PipelineError
from pipeline.plan import optimal_stage
from tests.support.config_check import checked_config

WORDS = ["aback", "blunt", "cigar", "dwell", "eerie", "focal", "gamer"]


def plan(**settings) -> OptimalPlan:
    return OptimalPlan.of({"top": 2, "certify": True, "openers": [], "modes": ["normal", "hard"]}
                          | settings)  # fmt: skip


def test_top_count_is_a_number_or_every_word():
    assert top_count(3, 7) == 3
    assert top_count("all", 7) == 7
    assert plan(top="all").count(len(WORDS)) == len(WORDS)


def test_each_rounds_openers_are_dealt_by_rank_over_as_few_jobs_as_hold_them():
    jobs = [("normal", w) for w in WORDS] + [("hard", w) for w in WORDS[:2]]
    assert optimal_stage.batches(jobs, 3) == {
        ("normal", "aback+dwell+gamer"): ["aback", "dwell", "gamer"],
        ("normal", "blunt+eerie"): ["blunt", "eerie"],
        ("normal", "cigar+focal"): ["cigar", "focal"],
        ("hard", "aback+blunt"): ["aback", "blunt"],
    }
    one_each = optimal_stage.batches(jobs, 1)  # each job named by its one opener
    assert one_each[("normal", "gamer")] == ["gamer"] and len(one_each) == len(jobs)
    every = optimal_stage.batches(jobs, 100)
    assert every == {("normal", "+".join(WORDS)): WORDS, ("hard", "aback+blunt"): WORDS[:2]}
    assert optimal_stage.batches([], 3) == {}
    for (_, name), openers in every.items():  # the name alone gives the job's openers
        assert optimal_stage.batch_openers(name) == openers


def test_the_first_jobs_are_the_top_of_the_ranking_then_the_named_openers_in_every_mode():
    ranking = ["cigar", "aback", "gamer", "blunt", "rebut"]
    chosen = plan(top=1, certify=False, openers=["blunt", "aback"]).first_jobs(ranking)
    assert chosen == [(mode, word) for mode in ("normal", "hard")
                      for word in ("cigar", "blunt", "aback")]  # fmt: skip
    assert plan(top="all", modes=["hard"]).first_jobs(ranking) == [("hard", w) for w in ranking]


def test_a_certified_list_proves_twice_its_size_first():
    """With certify the top 2K of the ranking come first (capped at every word)."""
    ranking = ["cigar", "aback", "gamer", "blunt", "rebut"]
    chosen = plan(top=1, openers=["rebut"], modes=["normal"]).first_jobs(ranking)
    assert chosen == [("normal", word) for word in ("cigar", "aback", "rebut")]
    assert plan(top=3, modes=["hard"]).first_jobs(ranking) == [("hard", w) for w in ranking]


@pytest.mark.parametrize(
    ("settings", "key"), [({"top": 8}, "top"), ({"openers": ["xyzzy"]}, "openers")]
)
def test_a_top_above_the_words_or_an_unknown_opener_is_a_config_error(settings, key):
    with pytest.raises(PipelineError, match=f"^config: optimal.{key}: "):
        plan(**settings).check(WORDS)
    plan().check(WORDS)  # the default plan is fine


def bounds_table(bounds: dict[str, int | None]) -> dict[str, list]:
    return {
        "opener_id": [WORDS.index(w) for w in bounds],
        "opener": list(bounds),
        "second_level_bound": list(bounds.values()),
    }


def reference_next(bounds: dict[str, int | None], proven: set[str], k: int) -> list[str]:
    """The k unproven openers of lowest bound, ties by word id, by sorting every pair."""
    pairs = sorted(
        (b, WORDS.index(w), w) for w, b in bounds.items() if b is not None and w not in proven
    )
    return [w for _, _, w in pairs[:k]]


def test_the_next_openers_are_the_lowest_bounded_unproven_ones():
    bounds = {
        "gamer": 30,
        "focal": 25,
        "eerie": None,
        "dwell": 25,
        "cigar": 20,
        "aback": 21,
        "blunt": 40,
    }
    proven = {"cigar"}
    for top in (1, 2, 3, "all"):
        k = top_count(top, len(WORDS))
        chosen = plan(top=top).next_openers(bounds_table(bounds), proven, len(WORDS))
        assert chosen == reference_next(bounds, proven, k)
    assert plan(top=2).next_openers(bounds_table(bounds), proven, len(WORDS)) == ["aback", "dwell"]
    assert plan(certify=False).next_openers(bounds_table(bounds), proven, len(WORDS)) == []
    # a bound at or above the bound pass's cap cannot make the top K: never proven
    table = bounds_table(bounds)
    assert plan(top=3).next_openers(table, proven, len(WORDS), 25) == ["aback"]
    assert plan(top=3).next_openers(table, proven, len(WORDS), 26) == ["aback", "dwell", "focal"]


def test_next_jobs_read_the_merged_bounds_of_a_mode(tmp_path):
    bounds = {"aback": 21, "blunt": 40, "cigar": 20, "dwell": 25}
    table = pa.table({"mode": ["hard"] * len(bounds), **bounds_table(bounds),
                      "partition_bound": list(bounds.values())})  # fmt: skip
    table = table.select(store.BOUNDS_SCHEMA.names)
    path = tmp_path / "bounds-hard.parquet"
    table = pa.Table.from_pylist(table.to_pylist(), schema=store.BOUNDS_SCHEMA)
    store.write_bounds(table, path, inputs={}, settings={})
    jobs = [("normal", "aback"), ("hard", "cigar")]
    assert optimal_stage.next_jobs(plan(), "hard", path, jobs, len(WORDS)) == [
        ("hard", "aback"),
        ("hard", "dwell"),
    ]
    store.write_bounds(table, path, inputs={}, settings={"cap": 25})  # merge_bounds keeps it
    assert optimal_stage.next_jobs(plan(), "hard", path, jobs, len(WORDS)) == [("hard", "aback")]
    assert optimal_stage.screen_jobs(plan(), 2) == [
        ("normal", 0),
        ("normal", 1),
        ("hard", 0),
        ("hard", 1),
    ]
    assert optimal_stage.screen_jobs(plan(certify=False), 2) == []


def test_an_edition_resolves_its_own_values_over_the_config():
    config = checked_config({"editions": {"nyt2022": {"optimal": {"top": 3, "certify": False}}}})
    own, shared = (
        optimal_stage.optimal_plan(config, "nyt2022"),
        optimal_stage.optimal_plan(config, "orig"),
    )
    schema = config["optimal"]
    assert (own.top, own.certify, own.modes) == (3, False, tuple(schema["modes"]))
    assert (shared.top, shared.certify) == (schema["top"], schema["certify"]) == (20, True)
    error = PipelineError('config: optimal.top: 9 is not in 1..8 (the allowed words), nor "all"')
    assert optimal_stage.edition_error(config, "nyt2022", error).startswith(
        "config: editions.nyt2022.optimal.top: 9"
    )
    assert optimal_stage.edition_error(config, "orig", error).startswith("config: optimal.top: 9")
    assert optimal_stage.edition_error(config, "orig", PipelineError("x: bad")) == "wordle: x: bad"
