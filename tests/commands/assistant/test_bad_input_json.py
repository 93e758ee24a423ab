"""Bad input to `wordle-assist --json`: every family of error is one JSON document on
stdout (kind, the stderr line, the exit status), the same exit status and the same one
line on stderr as without --json. Beside tests/core/test_bad_input.py (the pipeline's bad
input); the assistant's own error lines are checked in
tests/commands/assistant/test_command_line.py.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pipeline.commands.assistant.cli import main
from tests.commands.assistant.test_artifacts import damage
from tests.support.assistant_fixture import run

SOLVED_THEN_MORE = ["tarse", "GGGGG", "slate", "BBBBB"]
CASES = [
    # (argv, kind, exit status, a fragment of the line)
    (["--bogus"], "usage", 2, "unrecognized arguments: --bogus (see wordle-assist --help)"),
    (["--top"], "usage", 2, "argument --top: expected one argument"),
    (["--top", "0"], "usage", 2, "argument --top: expected a positive whole number, got '0'"),
    (["--mode", "hard"], "usage", 2, "argument --mode: invalid choice: 'hard'"),
    (["--edition", "nope"], "usage", 2, "--edition nope: no such edition in"),
    (["play"], "usage", 2, "--json is for one answer, not for play"),
    (["tarse"], "input", 2, "give each guess followed by its colours"),
    (["tarse", "BYBBX"], "input", 2, "'X' at position 5 is not a colour"),
    (["tarse", "BYBB"], "input", 2, "must have 5 letters, not 4"),
    (["", "BBBBB"], "input", 2, "guess 1 is empty"),
    (["tar\u212ae", "BBBBB"], "input", 2, "U+212A KELVIN SIGN at position 4"),
    (["zzzzz", "BBBBB"], "input", 2, "guess 1 'zzzzz' is not in the word list"),
    (SOLVED_THEN_MORE, "input", 2, "guess 2 'slate' comes after the game was solved"),
    (["nanny", "BBBBB"] * 7, "input", 2, "Wordle allows 6 guesses"),
    (["--hard", "tarse", "GBBBB", "eerie", "BBBBB"], "input", 2, "not allowed in hard mode"),
    (["tarse", "GGGGB"], "inconsistent", 1, "no allowed word is consistent with tarse GGGGB"),
]


def assert_json_error(status: int, out: str, err: str, kind: str, code: int, fragment: str):
    """One line on stderr holding `fragment`; stdout is one document saying the same."""
    assert status == code
    assert len(err.splitlines()) == 1 and err.startswith("wordle-assist: "), err
    assert fragment in err, err
    assert json.loads(out) == {
        "error": {"kind": kind, "message": err.rstrip("\n"), "exit_code": code}
    }


@pytest.mark.parametrize(("argv", "kind", "code", "fragment"), CASES)
def test_every_error_is_a_json_document(plain, capsys, argv, kind, code, fragment):
    status, out, err = run(capsys, "--json", *argv, "--data", str(plain))
    assert_json_error(status, out, err, kind, code, fragment)
    if argv != ["play"]:  # without --json: the same line and status, nothing on stdout
        assert run(capsys, *argv, "--data", str(plain)) == (status, "", err)


@pytest.mark.parametrize(
    ("victim", "how", "fragment"),
    [
        ("words.parquet", "delete", "words.parquet is missing: run the pipeline"),
        ("words.parquet", "truncate", "words.parquet: damaged or replaced"),
        ("entropy.parquet.seal.json", "delete", "entropy.parquet: has no seal"),
        ("patterns/chunk-0001.npy.zst", "flip", "chunk-0001.npy.zst: chunk 1 is altered"),
    ],
)
def test_missing_or_damaged_data_is_a_json_document(plain, tmp_path, capsys, victim, how, fragment):
    copy = tmp_path / "derived"
    shutil.copytree(plain, copy)
    damage(copy / victim, how)
    status, out, err = run(capsys, "nanny", "BBBBB", "--json", "--data", str(copy))
    assert_json_error(status, out, err, "data", 1, fragment)


def test_no_data_folder_and_an_abbreviated_option(tmp_path, capsys):
    status, out, err = run(capsys, "--js", "--data", str(tmp_path / "nowhere"))
    assert_json_error(status, out, err, "data", 1, "nowhere: no such folder of artifacts")
    status, out, err = run(capsys, "--json=yes", "--data", str(tmp_path))
    fragment = "argument --json: ignored explicit argument 'yes'"
    assert_json_error(status, out, err, "usage", 2, fragment)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--edition", "nope"], "--edition nope: no such edition in"),
        (["--top"], "argument --top: expected one argument"),
    ],
)
def test_the_console_script_answers_in_json(plain, argv, fragment):
    """The installed script, in a process of its own: argparse's own exit path too."""
    script = Path(sys.executable).with_name("wordle-assist")
    result = subprocess.run(
        [str(script), "--json", *argv, "--data", str(plain)],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert "Traceback" not in result.stderr
    assert_json_error(result.returncode, result.stdout, result.stderr, "usage", 2, fragment)


TOKENS = ["--json", "--js", "--top", "--list", "--mode", "prior", "--hard", "--edition"]
TOKENS += ["--data", "play", "tarse", "BYBBG", "0", "-1", "=", "--", "\u212a", "\U0001f7e9"]


@settings(max_examples=200, deadline=None)
@given(argv=st.lists(st.sampled_from(TOKENS) | st.text(max_size=6), max_size=7))
@example(argv=["play", "-:", "\x85"])  # a line break (NEL) in an unrecognized argument
def test_any_command_line_with_json_gives_one_document(argv):
    """Whatever follows --json, stdout is one JSON error document that says what stderr
    says (the data folder does not exist, so nothing succeeds), or --help/--version."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["--data", "/nonexistent/wordle", "--json", *argv])
    if status == 0:  # --help or --version, perhaps abbreviated
        assert any(a.startswith(("-h", "--he", "--v")) for a in argv), out.getvalue()
        return
    document = json.loads(out.getvalue())
    line = err.getvalue()
    assert len(line.splitlines()) == 1 and "Traceback" not in line
    assert document == {
        "error": {
            "kind": document["error"]["kind"],
            "message": line.rstrip("\n"),
            "exit_code": status,
        }
    }
    assert (document["error"]["kind"], status) in {
        ("usage", 2),
        ("input", 2),
        ("data", 1),
        ("inconsistent", 1),
    }


@pytest.mark.parametrize("mode", [[], ["--hard"]])
def test_a_missing_optional_file_changes_the_answer_not_the_time(trees, tmp_path, mode):
    """Without optimal_openers.parquet (optional) the console script still answers within
    its budget, in a process of its own that ends without waiting for the search it left
    running: one JSON document, each guess proven or marked not valued in time, with no E."""
    from pipeline.artifacts import optimal
    from tests.commands.assistant.test_budget import TINY, UNVALUED, colours

    copy = tmp_path / "derived"
    shutil.copytree(trees, copy)
    for path in (copy / optimal.OPENERS_FILE, copy / f"{optimal.OPENERS_FILE}.seal.json"):
        path.unlink()
    script = Path(sys.executable).with_name("wordle-assist")
    turns = ["slate", colours("slate", "crate")]
    result = subprocess.run(
        [str(script), "--json", *mode, *turns, "--budget", TINY, "--data", str(copy)],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    suggestions = json.loads(result.stdout)["suggestions"]
    unvalued = [row for row in suggestions if not row["valued"]]
    assert unvalued and all(
        row["evidence"] == UNVALUED and row["expected_guesses"] is None for row in unvalued
    )
    assert all(row["evidence"] == "proven" for row in suggestions if row["valued"])
