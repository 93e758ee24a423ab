"""The dated answers: the archive's parser (one line per problem), history.until, the
union of answer sources, history.parquet, and the real archive's known counts."""

from __future__ import annotations

import datetime as dt

import pyarrow.compute as pc
import pytest

from pipeline.analysis.history.archive import (
    history_table,
    parse_history,
    played,
    played_answers,
    union_word_lists,
)
from pipeline.analysis.words.word_lists import parse_word_list
from pipeline.artifacts.history import read_history, write_history
from pipeline.artifacts.words import read_word_index
from pipeline.core.errors import ArtifactError, InputError
from pipeline.stages.build_word_index import build_word_index
from tests.support.artifact_set import write_raw_inputs
from tests.support.fixtures import history_json

GOOD = b'{"2021-06-19": "cigar", "2021-06-20": "rebut", "2021-06-21": "cigar"}'


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"2021-06-19": "cigar",', "h.json, line 1: not JSON: Expecting property name"),
        (b'["cigar"]', "h.json: expected a JSON object"),
        (b'{"2021-6-19": "cigar"}', "h.json: entry '2021-6-19': not a date of the form"),
        (b'{"2021-02-30": "cigar"}', "h.json: entry '2021-02-30': not a date of the form"),
        (
            b'{"2021-06-19": "cigar", "2021-06-20": "a", "2021-06-19": "rebut"}',
            "h.json: entry '2021-06-19': the date is given twice",
        ),
        (
            b'{"2021-06-19": "cigar", "2021-06-22": "rebut"}',
            "h.json: entry '2021-06-22': the days after 2021-06-19 up to it are missing",
        ),
        (b'{"2021-06-19": "ci-ar"}', "h.json: entry '2021-06-19': 'ci-ar' is not a word"),
        (b'{"2021-06-19": 5}', "h.json: entry '2021-06-19': '5' is not a word"),
        (b"[" * 100_000 + b"]" * 100_000, "h.json: not an archive: its JSON is nested too"),
        (b'{"a": ' * 50_000 + b"1" + b"}" * 50_000, "h.json: not an archive: its JSON is nested"),
    ],
)
def test_each_problem_is_one_line_naming_file_and_entry(data, expected):
    with pytest.raises(InputError) as error:
        parse_history(data, "h.json")
    assert str(error.value).startswith(expected)
    assert "\n" not in str(error.value)


def test_days_are_sorted_and_until_cuts_the_days_not_played_yet():
    history = parse_history(b'{"2021-06-20": "Rebut", "2021-06-19": "cigar"}', "h.json")
    assert history.dates == (dt.date(2021, 6, 19), dt.date(2021, 6, 20))
    assert history.words == ("cigar", "rebut")
    assert played(history, "2021-06-19").words == ("cigar",)
    assert played(history, "").words == ("cigar", "rebut")
    with pytest.raises(InputError, match="history.until: '2021-13-01' is not a date"):
        played(history, "2021-13-01")


def test_union_keeps_each_answer_once_in_the_order_first_met():
    listed = parse_word_list(b"rebut\nsissy\n", "answers.txt")
    days = played_answers(parse_history(GOOD, "h.json"))
    assert days.words == ("cigar", "rebut")
    union = union_word_lists([listed, days])
    assert union.words == ("rebut", "sissy", "cigar")
    assert union.path == "answers.txt + h.json"
    with pytest.raises(InputError, match="has 4-letter words"):
        union_word_lists([listed, parse_word_list(b"abcd\n", "four.txt")])


def test_table_marks_repeats_editions_and_refuses_a_word_not_allowed(tmp_path):
    history = parse_history(GOOD, "h.json")
    answers = {"a": frozenset({"cigar"}), "b": frozenset({"rebut"})}
    table = history_table(history, frozenset({"cigar", "rebut"}), answers)
    assert table["puzzle"].to_pylist() == [0, 1, 2]
    assert table["repeat"].to_pylist() == [False, False, True]
    first, second = dt.date(2021, 6, 19), dt.date(2021, 6, 20)
    assert table["first_played"].to_pylist() == [first, second, first]
    assert table["in_a"].to_pylist() == [True, False, True]
    assert table["in_b"].to_pylist() == [False, True, False]
    with pytest.raises(InputError, match=r"h.json: entry '2021-06-20': 'rebut' is not an allowed"):
        history_table(history, frozenset({"cigar"}), answers)
    path = tmp_path / "history.parquet"
    write_history(table, path, inputs={}, until="")
    assert read_history(path).to_pylist() == table.to_pylist()
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(ArtifactError):
        read_history(path)


def test_the_fixture_layout_round_trips():
    words = ["cigar", "rebut", "sissy"]
    assert parse_history(history_json(words).encode(), "h.json").words == tuple(words)


def test_the_real_archive_counts(mirror):
    """The archive's README counts: 1,934 days, 4 answers outside nyt2023's list, 73
    outside nyt2022's, 30 repeats from 2026-02-02 on; every answer an allowed guess."""
    history = parse_history((mirror / "history/wordle_solutions.json").read_bytes(), "h.json")
    lists = {
        name: frozenset(parse_word_list((mirror / path).read_bytes(), path).words)
        for name, path in [("nyt2022", "answers.txt"), ("nyt2023", "nyt20230701/answers.txt")]
    }
    allowed = frozenset(parse_word_list((mirror / "allowed.txt").read_bytes(), "a").words)
    table = history_table(history, allowed, lists)
    assert table.num_rows == 1934 and table["puzzle"][-1].as_py() == 1933
    missing = table.filter(pc.invert(table["in_nyt2023"]))
    assert missing["answer"].to_pylist() == ["loris", "kefir", "spitz", "capon"]
    assert pc.sum(pc.invert(table["in_nyt2022"])).as_py() == 73
    late = table.filter(pc.greater_equal(table["date"], dt.date(2026, 2, 2)))
    assert late.num_rows == 245 and pc.sum(late["repeat"]).as_py() == 30
    union = union_word_lists([parse_word_list((mirror / "nyt20230701/answers.txt").read_bytes(),
                                              "a"), played_answers(history)])  # fmt: skip
    assert len(union.words) == 3162


def test_the_word_index_of_a_union_and_its_errors_name_the_source_file(tmp_path):
    """build_word_index over [answers, history]: the days played up to until join the
    answers; an answer of either source that is not allowed is named in its own file."""
    sources = {
        "allowed": b"cigar\nrebut\nsissy\nhumph\n",
        "answers": b"cigar\n",
        "history": history_json(["rebut", "cigar", "humph"]).encode(),
    }
    raw = write_raw_inputs(tmp_path / "raw", sources)
    words = tmp_path / "words.parquet"
    union = [raw["answers"], raw["history"]]
    build_word_index(allowed=raw["allowed"], answers=union, words=words, until="2021-06-20")
    assert read_word_index(words).answers == ("cigar", "rebut")  # humph not played yet
    build_word_index(allowed=raw["allowed"], answers=union, words=words, until="")
    assert read_word_index(words).answers == ("cigar", "humph", "rebut")
    raw = write_raw_inputs(tmp_path / "raw", {**sources, "allowed": b"cigar\nrebut\n"})
    with pytest.raises(InputError) as error:
        build_word_index(allowed=raw["allowed"], answers=union, words=words, until="")
    assert str(error.value) == (
        f"{raw['history']}: entry '2021-06-21': 'humph' is not an allowed guess"
    )
