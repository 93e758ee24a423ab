"""Editions whose answers are a union of sources: the sources read, and the one-line
problems of a list name, checked before any job (pipeline.plan.editions)."""

from __future__ import annotations

from pipeline.plan.editions import builtin_editions, edition_problem, edition_sources, list_sources
from tests.support.fixtures import REPO

SCHEMA = REPO / "workflow" / "schemas" / "config.schema.yaml"
URL = {"kind": "url", "url": "https://example.invalid/x"}


def config(**editions) -> dict:
    sources = ("allowed", "answers", "answers_nyt2023", "history", "frequency")
    return {"sources": {name: URL for name in sources}, "editions": editions}


def test_nyt2026_is_nyt2023_and_the_history_and_off_by_default():
    nyt2026 = builtin_editions(SCHEMA)["nyt2026"]
    assert nyt2026["enabled"] is False
    assert list_sources(nyt2026, "answers") == ["answers_nyt2023", "history"]
    assert list_sources(nyt2026, "allowed") == ["allowed"]


def test_the_sources_of_a_union_are_each_read_once():
    union = {"allowed": "allowed", "answers": ["answers_nyt2023", "history"]}
    plain = {"allowed": "allowed", "answers": "answers"}
    assert edition_sources(config(a=plain, b=union)) == [
        "allowed", "answers", "answers_nyt2023", "history", "frequency"
    ]  # fmt: skip
    assert edition_problem(config(a=plain, b=union)) is None


def test_a_bad_name_in_a_union_or_dated_answers_as_allowed_list_is_one_line():
    bad = config(a={"allowed": "allowed", "answers": ["answers", "nope"]})
    assert edition_problem(bad) == (
        "config: editions.a.answers: 'nope' is not a word list of sources (known: allowed, "
        "answers, answers_nyt2023, history)"
    )
    dated = config(a={"allowed": "history", "answers": "answers"})
    assert edition_problem(dated) == (
        "config: editions.a.allowed: 'history' holds dated answers; it cannot be an allowed list"
    )
