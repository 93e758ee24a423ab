"""What a daily user reads (issue 64): the legend of the columns only with --explain, in
--help and on play's first turn, one line saying so elsewhere; and, when the list leaves
one word, that the list has missed the day's answer before (history.parquet)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.analysis.history.archive import history_table, parse_history
from pipeline.artifacts.history import write_history
from pipeline.commands.assistant.text import BITS_LEGEND, EXPLAIN_HINT, RATING_LEGEND
from tests.support.assistant_fixture import ALLOWED, ANSWERS, run
from tests.support.fixtures import history_json

ONE_LEFT = ("tarse", "YYBBY")  # only heath of the answers gives it
LEGEND_START = "from: proven = the optimum after this guess"
LEGEND_END = "the share at risk"  # the legend's last words before a rating's part


def flat(text: str) -> str:
    """The text with its wrapping undone, so that a phrase is found across line breaks."""
    return " ".join(text.split())


# --------------------------------------------------------------------------- the legend


@pytest.mark.parametrize("argv", [(), ONE_LEFT, ("tarse", "BYBBG")], ids=["openers", "1", "many"])
def test_one_shot_ends_with_one_hint_line_not_the_legend(trees, capsys, argv):
    status, out, _ = run(capsys, *argv, "--data", str(trees))
    assert status == 0
    assert LEGEND_START not in out and "luck: guesses the reply saved" not in out
    assert out.splitlines().count(EXPLAIN_HINT) == 1


def test_prior_mode_has_the_hint_instead_of_its_bits_legend(trees, capsys):
    status, out, _ = run(capsys, "--mode", "prior", *ONE_LEFT, "--data", str(trees))
    assert status == 0 and BITS_LEGEND not in out and EXPLAIN_HINT in out.splitlines()
    status, out, _ = run(capsys, "--mode", "prior", *ONE_LEFT, "--data", str(trees), "--explain")
    assert status == 0 and BITS_LEGEND in out and EXPLAIN_HINT not in out


def test_explain_prints_the_legend_in_full(trees, capsys):
    status, out, _ = run(capsys, "tarse", "BYBBG", "--data", str(trees), "--explain")
    assert status == 0 and EXPLAIN_HINT not in out
    text = flat(out)
    assert f"{LEGEND_START}; policy = the exact mean" in text
    assert flat(LEGEND_END + RATING_LEGEND) in text  # a rated answer: skill, left, luck


def test_help_holds_the_whole_legend(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0
    text = flat(out)
    assert "--explain" in text and LEGEND_START in text
    assert flat(RATING_LEGEND) in text and "* certified top opener" in text
    assert BITS_LEGEND in text


def test_json_is_unchanged_by_explain(trees, capsys):
    _, plain_json, _ = run(capsys, "tarse", "BYBBG", "--data", str(trees), "--json")
    _, explained, _ = run(capsys, "tarse", "BYBBG", "--data", str(trees), "--json", "--explain")
    assert json.loads(plain_json) == json.loads(explained)
    assert LEGEND_START not in plain_json and EXPLAIN_HINT not in plain_json


def replies(lines: list[str]) -> Iterator[str]:
    yield from lines
    raise EOFError  # end of input: play leaves quietly


def test_play_shows_the_legend_on_its_first_turn_only(trees, capsys, monkeypatch):
    """The legend follows the first view once, then never again, with or without
    --explain (which play accepts, as every option); the one-shot hint never appears."""
    for explain in ((), ("--explain",)):
        game = iter(replies(["slate BBYBB", "quit"]))
        monkeypatch.setattr("builtins.input", lambda prompt="", game=game: next(game))
        status, out, err = run(capsys, "play", "--data", str(trees), "--top", "2", *explain)
        assert status == 0, err
        first, later = out.split("best openers", 1)[1].split("slate: ", 1)
        assert LEGEND_START in flat(first) and LEGEND_START not in flat(later)
        assert EXPLAIN_HINT not in out
        assert "3 of 24 answers remain" in later  # the second turn was shown


# --------------------------------------------------------------------------- one word left


def with_history(trees: Path, root: Path, played: list[str]) -> Path:
    """The fixture's edition as `tiny` under `root`, with shared/history.parquet of these
    played days (one a day from puzzle 0); the folder to pass as --data."""
    shutil.copytree(trees, root / "tiny")
    days = parse_history(history_json(played).encode(), "h.json")
    table = history_table(days, frozenset(ALLOWED), {"tiny": frozenset(ANSWERS)})
    write_history(table, root / "shared" / "history.parquet", inputs={}, until="")
    return root


def test_one_word_left_says_the_list_has_missed_answers(trees, tmp_path, capsys):
    """Two of five played days (nanny, offer: allowed, no answers) were off the list: the
    caveat gives those numbers; a list that never missed, or no history.parquet, adds
    nothing; nor does a state of more than one word."""
    root = with_history(trees, tmp_path / "missed", [*ANSWERS[:2], "nanny", ANSWERS[2], "offer"])
    status, out, _ = run(capsys, *ONE_LEFT, "--data", str(root))
    assert status == 0 and "the answer is heath" in out.splitlines()
    assert (
        "(unless the answer is off tiny's answer list, as it was on 2 of 5 played days: "
        "then the reply to heath says so, and the advice plays on over every allowed word)"
    ) in flat(out)
    status, out, _ = run(capsys, "tarse", "BYBBG", "--data", str(root))
    assert status == 0 and "unless the answer is off" not in out  # more than one left
    status, out, _ = run(capsys, *ONE_LEFT, "--data", str(root), "--json")
    assert json.loads(out)["played_answers"] == {"covered": 3, "played": 5, "until": "2021-06-23"}

    root = with_history(trees, tmp_path / "never", ANSWERS[:4])
    status, out, _ = run(capsys, *ONE_LEFT, "--data", str(root))
    assert status == 0 and "covers 4 of 4 played answers" in out
    assert "the answer is heath" in out and "unless the answer is off" not in out
    (root / "shared" / "history.parquet").unlink()
    status, out, _ = run(capsys, *ONE_LEFT, "--data", str(root))
    assert status == 0 and "the answer is heath" in out and "unless" not in out
