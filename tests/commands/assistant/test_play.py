"""`wordle-assist play` driven through a pseudo-terminal (pexpect), as a player would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from pipeline.core.wordle import pattern_string
from tests.support.assistant_fixture import built_data
from tests.support.naive import feedback

SCRIPT = Path(sys.executable).with_name("wordle-assist")
ESCAPE = "\x1b["


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    return built_data(tmp_path_factory)[1]


def colours(guess: str, secret: str) -> str:
    return pattern_string(feedback(guess, secret), 5)


def spawn(data: Path, *args: str, no_color: bool = False) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["COLUMNS"] = "100"
    if no_color:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        str(SCRIPT), ["play", "--data", str(data), "--top", "3", *args],
        env=env, encoding="utf-8", timeout=60,
    )  # fmt: skip


def finish(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return child.before


def test_a_game_in_a_terminal_with_tiles(data):
    """Guess then colours at their own prompt (emoji squares), colours on the guess's
    line (digits, letters); coloured tiles; it stops when solved and rates every guess."""
    child = spawn(data)
    child.expect("best openers")
    child.expect("guess 1> ")
    child.sendline("nanny")
    child.expect("colours of nanny> ")
    emoji = colours("nanny", "teeth").replace("B", "⬛").replace("Y", "🟨").replace("G", "🟩")
    child.sendline(emoji)
    child.expect("guess 2> ")
    board = child.before
    assert f"{ESCAPE}1;97;100m N {ESCAPE}0m" in board  # a grey tile
    assert "nanny: " in board and "answers remain" in board
    digits = colours("tarse", "teeth").translate(str.maketrans("BYG", "012"))
    child.sendline(f"tarse {digits}")
    child.expect("guess 3> ")
    assert f"{ESCAPE}1;97;42m T {ESCAPE}0m" in child.before  # a green tile
    child.sendline("teeth ggggg")
    rest = finish(child)
    assert "solved in 3 guesses" in rest
    assert "your guesses, rated" in rest and "game: solved in 3" in rest
    for word in ("nanny", "tarse", "teeth"):
        assert f"  {word}  " in rest


def test_an_answer_outside_the_list_is_played_on(data):
    """nanny is allowed but no answer: once the replies rule out every answer the session
    says so in one note, plays on over the allowed words, and the game is won."""
    child = spawn(data, no_color=True)
    child.expect("guess 1> ")
    child.sendline(f"tarse {colours('tarse', 'nanny')}")
    child.expect("guess 2> ")
    assert "note: no word" not in child.before
    child.sendline(f"mamma {colours('mamma', 'nanny')}")
    child.expect("guess 3> ")
    assert "note: no word of this edition's answer list fits these replies" in child.before
    assert "no exact E in the fallback" in child.before and "nanny" in child.before
    child.sendline("nanny ggggg")
    assert "solved in 3 guesses" in finish(child)


def test_no_color_gives_plain_tiles(data):
    child = spawn(data, no_color=True)
    child.expect("guess 1> ")
    child.sendline(f"tarse {colours('tarse', 'teeth')}")
    child.expect("guess 2> ")
    assert ESCAPE not in child.before
    assert f"TARSE  {colours('tarse', 'teeth')}" in child.before
    child.sendline("quit")
    finish(child)


def test_errors_undo_and_six_guesses(data):
    """A bad line is one error and the same prompt again; undo takes a guess back; after
    six unsolved guesses the session ends."""
    child = spawn(data)
    child.expect("guess 1> ")
    child.sendline("tar\u212ae BBBBB")
    child.expect("error: guess 1 'tar\u212ae' has characters outside a-z: U\\+212A KELVIN SIGN")
    child.expect("guess 1> ")
    child.sendline("tarse BYXBG")
    child.expect("is not a colour")
    child.expect("guess 1> ")
    child.sendline("tarse GGGGB")
    child.expect("no allowed word is consistent")
    child.expect("guess 1> ")
    child.sendline(f"abbey {colours('abbey', 'teeth')}")
    child.expect("guess 2> ")
    child.sendline("undo")
    child.expect("guess 1> ")
    for number, word in enumerate(["abbey", "nanny", "mamma", "llama", "audio", "offer"], 1):
        child.sendline(f"{word} {colours(word, 'teeth')}")
        if number < 6:
            child.expect(f"guess {number + 1}> ")
    rest = finish(child)
    assert "not solved in 6 guesses" in rest
    assert "teeth" in rest  # among the remaining answers


def test_end_of_input_leaves_quietly(data):
    child = spawn(data)
    child.expect("guess 1> ")
    child.sendeof()
    finish(child)


def test_without_a_terminal_the_output_is_plain(data):
    result = subprocess.run(
        [str(SCRIPT), "play", "--data", str(data), "--top", "2"],
        input=f"tarse {colours('tarse', 'teeth')}\nteeth GGGGG\n",
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert ESCAPE not in result.stdout
    assert "TEETH  GGGGG" in result.stdout and "solved in 2 guesses" in result.stdout


def test_a_session_can_start_from_guesses_given(data):
    child = spawn(data, "tarse", colours("tarse", "teeth"))
    child.expect("guess 2> ")
    assert "tarse: " not in child.before or "answers remain" in child.before
    child.sendline("teeth GGGGG")
    assert "solved in 2 guesses" in finish(child)
