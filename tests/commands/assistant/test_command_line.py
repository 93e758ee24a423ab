"""wordle-assist's command line on the assistant's small artifact set: colour spellings,
one-line errors with their exit codes, the data folder, wrapped lists, a closed pipe,
--version and --help, and what the one-shot path imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.artifacts import optimal
from pipeline.commands.assistant import data as assistant_data
from tests.support.assistant_fixture import ANSWERS, consistent, run

# --------------------------------------------------------------------------- input


@pytest.mark.parametrize(
    "colours", ["BYBBG", "byBbg", "01002", "⬛🟨⬛⬛🟩", "⬜🟨⬜⬜🟩", "⬛️🟨️⬛️⬛️🟩️", "⬛🟦⬛⬛🟧"]
)
def test_every_colour_spelling_means_the_same(plain, capsys, colours):
    status, out, _ = run(capsys, "tarse", colours, "--data", str(plain), "--json")
    assert status == 0
    assert json.loads(out)["turns"][0]["colours"] == "BYBBG"


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["tarse"], 2, "give each guess followed by its colours (e.g. tarse BYBBG): 'tarse' has"),
        (["tarse", "BYBBG", "slate"], 2, "'slate' has no colours"),
        (["tarse", "BYXBG"], 2, "colours 'BYXBG' of guess 1 ('tarse'): 'X' at position 3 is not"),
        (["tarse", "BY🟥BG"], 2, "'🟥' (U+1F7E5 LARGE RED SQUARE) at position 3 is not a colour"),
        (["tarse", "BYBB"], 2, "colours 'BYBB' of guess 1 ('tarse') must have 5 letters, not 4"),
        (["tarse", "BYBBG", "zzzzz", "BBBBB"], 2, "guess 2 'zzzzz' is not in the word list"),
        (
            ["tar\u212ae", "BBBBB"],
            2,
            "guess 1 'tar\u212ae' has characters outside a-z: U+212A KELVIN SIGN at position 4",
        ),
        (["tarse", "GGGGG", "slate", "BBBBB"], 2, "guess 2 'slate' comes after the game was"),
        (["--top", "0"], 2, "argument --top: expected a positive whole number, got '0'"),
        (["--mode", "hard"], 2, "argument --mode: invalid choice: 'hard'"),
        (
            ["tarse", "GGGGB"],
            1,
            "no allowed word is consistent with tarse GGGGB: check the colours",
        ),
        (
            ["--mode", "prior", "nanny", "BBBBB", "slate", "GGGGG"],
            1,
            "no allowed word is consistent with nanny BBBBB, slate GGGGG",
        ),
    ],
)
def test_errors_are_one_line_with_their_exit_code(plain, capsys, argv, status, message):
    code, out, err = run(capsys, *argv, "--data", str(plain))
    assert (code, out) == (status, "")
    assert message in err, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("wordle-assist: ")


def test_a_line_break_in_a_users_value_stays_on_the_error_line(capsys, tmp_path):
    """U+0085 (NEL) and U+2028 split a line for str.splitlines: the data folder's name
    reaches the message, not through argparse, and is written escaped."""
    folder = tmp_path / "no\x85such\u2028folder"
    code, out, err = run(capsys, "tarse", "BYBBG", "--data", str(folder), "--json")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "no\\x85such\\u2028folder: no such folder of artifacts" in err
    assert json.loads(out)["error"]["message"] == err.strip()


def test_a_kelvin_sign_is_never_folded_to_k(plain, capsys):
    assert "\u212a".lower() == "k"  # what folding would do
    code, _, err = run(capsys, "tar\u212ae", "BBBBB", "--data", str(plain))
    assert code == 2 and "U+212A KELVIN SIGN" in err


def test_more_than_six_guesses_is_refused(plain, capsys):
    turns = ["nanny", "BBBBB"] * 7
    code, _, err = run(capsys, *turns, "--data", str(plain))
    assert code == 2 and "Wordle allows 6 guesses" in err


# --------------------------------------------------------------------------- data, output


def test_data_folder_from_option_environment_or_current_folder(plain, tmp_path, monkeypatch):
    monkeypatch.delenv("WORDLE_DATA", raising=False)
    assert assistant_data.data_folder(plain) == plain
    monkeypatch.setenv("WORDLE_DATA", str(plain))
    assert assistant_data.data_folder(None) == plain
    monkeypatch.delenv("WORDLE_DATA")
    (tmp_path / "data" / "derived").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert assistant_data.data_folder(None) == Path("data/derived")
    monkeypatch.chdir(tmp_path / "data")
    beside = assistant_data.PROJECT / "data" / "derived"
    assert assistant_data.data_folder(None) == beside


def test_environment_variable_from_another_folder(plain, tmp_path):
    env = dict(os.environ, WORDLE_DATA=str(plain))
    result = subprocess.run(
        [sys.executable, "-m", "pipeline.commands.assistant", "--top", "2"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "best openers" in result.stdout


def test_missing_folder_and_missing_optimal_files(plain, tmp_path, capsys):
    code, _, err = run(capsys, "--data", str(tmp_path / "nowhere"))
    assert code == 1 and "nowhere: no such folder of artifacts" in err
    code, out, _ = run(capsys, "nanny", "BBBBB", "--data", str(plain))
    assert code == 0 and "note: no optimal openers are stored" in out.replace("\n", " ")


def test_list_wraps_to_the_terminal_width(plain, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    code, out, _ = run(capsys, "nanny", "BBBBB", "--list", "100", "--data", str(plain))
    remaining = consistent(sorted(ANSWERS), [("nanny", "BBBBB")])
    assert len(remaining) > 8
    start = next(i for i, line in enumerate(out.splitlines()) if line.startswith("remaining:"))
    block = []
    for line in out.splitlines()[start:]:
        if not (line.startswith("remaining:") or line.startswith("  ")):
            break
        block.append(line)
    assert len(block) > 1 and all(len(line) <= 40 for line in block)
    assert " ".join(block).replace("remaining:", "").replace(",", " ").split() == remaining


def test_closed_pipe_ends_quietly(plain):
    script = Path(sys.executable).with_name("wordle-assist")
    command = f"set -o pipefail; '{script}' --top 40 --data '{plain}' | head -1"
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr  # no error: the status stays 0
    assert result.stdout.startswith("candidates:")
    assert "Traceback" not in result.stderr and "BrokenPipeError" not in result.stderr


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("3", "3")])
def test_console_script_asks_for_one_blas_thread(given, expected):
    """The script's entry module sets OPENBLAS_NUM_THREADS before numpy loads, unless the
    user set it."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    script = "pipeline.commands.assistant.script"
    code = f"import os, {script}; print(os.environ['OPENBLAS_NUM_THREADS'])"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout.strip() == expected


def test_version_and_help(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("wordle-assist ")
    code, out, _ = run(capsys, "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "E is the mean number of guesses to finish, this guess included" in text
    assert '"proven" is the optimum after the guess' in text and '"policy" is the exact' in text


ONE_SHOTS = [
    (("--mode", "answers"), True),  # the opener list: the stored certified openers
    (("--mode", "prior"), True),
    (("--mode", "prior", "slate", "BBYBB"), True),  # prior mode never searches
    (("--mode", "answers", "slate", "BBYBB"), False),  # a state after a guess: searched
]


@pytest.mark.parametrize(("argv", "light"), ONE_SHOTS)
@pytest.mark.parametrize("with_trees", [False, True])
def test_one_shot_imports_only_what_it_needs(folders, argv, light, with_trees):
    """numba's import costs about 0.3 s, pandas' (which pyarrow pulls in when it is
    installed) 0.3 s, pyarrow.compute's 30 ms (needed only to read stored openers and
    trees), importlib.metadata's 40 ms (needed only for --version and --json), numpy.ma's
    15 ms (np.unique's import): the opener list and prior mode need none of them; a state
    after a guess in answer-list mode needs numba (the search; numba imports
    importlib.metadata and numpy.ma itself), and nothing else."""
    heavy = ("numba", "pandas", "pyarrow.dataset", "importlib.metadata", "numpy.ma")
    heavy += ("pyarrow.compute",) * (not with_trees)
    code = (
        "import atexit, sys\n"
        f"atexit.register(lambda: print(sorted(m for m in {heavy!r} if sys.modules.get(m))))\n"
        "from pipeline.commands.assistant.cli import cli\n"
        f"sys.argv = ['wordle-assist', *{argv!r}, '--data', {str(folders[with_trees])!r}]\n"
        "cli()\n"
    )
    if not with_trees and argv == ("--mode", "answers"):
        pytest.skip("without stored openers the opener list is searched")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    searched = "['importlib.metadata', 'numba', 'numpy.ma']"
    assert result.stdout.splitlines()[-1] == ("[]" if light else searched)


def test_optimal_file_names_are_the_artifacts(plain):
    assert assistant_data.OPTIMAL_OPENERS_FILE == optimal.OPENERS_FILE
    assert assistant_data.OPTIMAL_TREES_FILE == optimal.TREES_FILE
