"""The assistant's time budget (pipeline.commands.assistant.budget): a state the search
cannot value within --budget shows what is proven and marks every other guess as not
valued in time, with no E, in the text and in --json; the budget never changes a value
that is shown. A tiny budget stands for a state too large to value in time."""

from __future__ import annotations

import io
import json
import re
import threading
import time

import pytest

from pipeline.commands.assistant.advisor import Advisor
from pipeline.commands.assistant.budget import NOT_DONE, Valuer
from pipeline.commands.assistant.data import load
from pipeline.commands.assistant.play import Session
from pipeline.core.wordle import pattern_string
from pipeline.kernels.jit import njit
from tests.support.assistant_fixture import run
from tests.support.naive import feedback

TINY = "0.000001"  # CPU seconds: no search job finishes within it
UNVALUED = "not valued in time"


def colours(guess: str, secret: str) -> str:
    return pattern_string(feedback(guess, secret), 5)


def spin(seconds: float) -> str:
    """A job that keeps a core busy for `seconds` of CPU, as a kernel does."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return "done"


def test_a_job_past_the_budget_is_not_done_and_finishes_in_the_background():
    valuer = Valuer(0.05)
    valuer.start()
    assert valuer.get("slow", lambda: spin(0.4)) is NOT_DONE
    assert valuer.expired
    assert valuer.get("other", lambda: "quick") is NOT_DONE  # the answer's budget is spent
    valuer.start()  # the next answer (a turn of play): the slow job goes on meanwhile
    deadline = time.monotonic() + 30
    while valuer.get("slow", lambda: spin(0.4)) is NOT_DONE and time.monotonic() < deadline:
        valuer.start()
    assert valuer.get("slow", lambda: spin(0.4)) == "done"
    assert valuer.get("other", lambda: "quick") == "quick"


def fresh_kernel_job() -> int:
    """A job that compiles a kernel no cache holds (defined anew on every call), as a
    first answer after an install compiles the search, then runs it."""

    def count_below(n):
        total = 0
        for i in range(n):
            for j in range(i):
                if (i * j) % 7 == 3:
                    total += 1
        return total

    return njit(count_below)(40)  # numba imported before the budget started


def test_compiling_does_not_count_against_the_budget():
    from pipeline.kernels.compiling import compile_time

    before = compile_time()
    valuer = Valuer(0.02)  # far less than any compile takes
    valuer.start()
    assert valuer.get("compiles", fresh_kernel_job) == 96  # not NOT_DONE: done in time
    cpu, wall = (after - first for after, first in zip(compile_time(), before, strict=True))
    assert cpu > 0.02 and wall > 0.02  # it did compile, for longer than the budget
    assert valuer.get("spins", lambda: spin(0.4)) is NOT_DONE  # the work itself still counts


def test_without_a_budget_jobs_run_at_once_and_errors_reach_the_caller():
    valuer = Valuer(None)
    valuer.start()
    assert valuer.get("a", lambda: threading.current_thread().name) == "MainThread"
    budgeted = Valuer(30.0)
    budgeted.start()
    with pytest.raises(ZeroDivisionError):
        budgeted.get("b", lambda: 1 / 0)


def test_a_state_not_valued_in_time_shows_no_e_in_text_and_json(plain, capsys):
    turns = ["tarse", colours("tarse", "otter")]  # 3 candidates left
    # The kernels loaded first: a compile is left out of the budget, and a search this
    # small then finishes before the waiting thread next holds the GIL (a few ms), so the
    # answer that compiles would be valued in full (a cold cache, as after a kernel edit).
    run(capsys, "salet", colours("salet", "otter"), "--data", str(plain))
    code, text, _ = run(capsys, *turns, "--budget", TINY, "--data", str(plain))
    assert code == 0
    suggestion = r" +\d+  [a-z]{5}  +(-|\d\.\d{4})  "
    rows = [line.split() for line in text.splitlines() if re.match(suggestion, line)]
    assert len(rows) > 1 and all(row[2] == "-" and " ".join(row[3:7]) == UNVALUED for row in rows)
    assert "tarse  " + colours("tarse", "otter") + "  unvalued" in text  # its rating too
    assert "did not finish within its budget (1e-06 s of CPU, --budget)" in " ".join(text.split())
    code, out, _ = run(capsys, *turns, "--budget", TINY, "--json", "--data", str(plain))
    document = json.loads(out)
    assert len(document["suggestions"]) > 1
    for row in document["suggestions"] + [document["turns"][0]["played"]]:
        assert row["valued"] is False and row["evidence"] == UNVALUED
        assert row["expected_guesses"] is None and row["lower_bound"] is None
        assert row["wins_all_within_6"] is None
    assert document["turns"][0]["skill"] is None and document["turns"][0]["luck"] is None
    code, out, _ = run(capsys, *turns, "--json", "--data", str(plain))
    assert all(row["valued"] for row in json.loads(out)["suggestions"])  # the default: all


def test_what_is_proven_is_shown_within_any_budget(trees, capsys):
    """On a stored optimal tree the tree's guess keeps its proven E; the rest are marked."""
    turns = ["slate", colours("slate", "crate")]
    _, out, _ = run(capsys, *turns, "--json", "--data", str(trees))
    full = {row["guess"]: row for row in json.loads(out)["suggestions"]}
    _, out, _ = run(capsys, *turns, "--json", "--budget", TINY, "--data", str(trees))
    document = json.loads(out)
    valued = [row for row in document["suggestions"] if row["valued"]]
    assert len(valued) == 1 and valued[0]["evidence"] == "proven"
    assert valued[0] == full[valued[0]["guess"]]  # the same E as without a budget
    assert document["turns"][0]["played"]["evidence"] == "proven"  # the stored opener's


def test_play_turns_keep_to_the_budget_and_pick_up_values_later(plain):
    advisor = Advisor(load(plain), budget=float(TINY))
    advisor.preload(search=True)
    session = Session(advisor)
    report = session.play("tarse", colours("tarse", "slate"))
    assert report.suggestions and not any(row.valued for row in report.suggestions)
    advisor.valuer.budget = 30.0  # the player reads; the next look waits for the search
    full = session.undo() and session.play("tarse", colours("tarse", "slate"))
    assert full.suggestions and all(row.valued for row in full.suggestions)
    unlimited = Session(Advisor(load(plain))).play("tarse", colours("tarse", "slate"))
    assert full.suggestions == unlimited.suggestions


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_a_bad_budget_is_one_usage_line(plain, capsys, value):
    code, out, err = run(capsys, "--budget", value, "--data", str(plain))
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"wordle-assist: error: argument --budget: expected a positive number of seconds, "
        f"got {value!r} (see wordle-assist --help)"
    ]


@pytest.mark.parametrize("value", ["1e10", "1e300"])
def test_a_huge_budget_is_no_limit_in_either_mode_and_in_play(plain, capsys, monkeypatch, value):
    """Past threading.TIMEOUT_MAX (about 9.2e9 s) a wait is refused by Python; a budget
    that large is no limit, and answers as a generous one does."""
    turns = ["tarse", colours("tarse", "otter")]
    for mode in ([], ["--hard"]):
        code, out, err = run(capsys, *turns, *mode, "--budget", value, "--data", str(plain))
        assert (code, err) == (0, "") and UNVALUED not in out
        assert (code, out, err) == run(
            capsys, *turns, *mode, "--budget", "1000", "--data", str(plain)
        )
    monkeypatch.setattr("sys.stdin", io.StringIO(" ".join(turns) + "\n"))
    code, out, err = run(capsys, "play", "--budget", value, "--data", str(plain))
    assert code == 0 and "Traceback" not in err and UNVALUED not in out
    assert "otter" in out  # the 3 candidates left are listed
