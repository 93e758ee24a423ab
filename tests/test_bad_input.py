"""Bad input, systematically: every malformed file gets a normalisation or a clear error.

Each case runs the real command a rule runs (`wordle-pipeline ...`) and checks the exit
status, that the message names the file and line, that there is no traceback, and that
no artifact was written.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.frequency import read_frequency_counts
from pipeline.words import read_word_list, write_word_index

GOOD_ALLOWED = "cigar\nrebut\nsissy\nhumph\n"
GOOD_ANSWERS = "cigar\nsissy\n"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True
    )


WORD_LIST_CASES = {
    # name: (content, expected line, fragment of the message)
    "empty": (b"", None, "contains no words"),
    "blank lines only": (b"\n \n\t\n\r\n", None, "contains no words"),
    "wrong length": (b"cigar\nrebut\ncigars\n", 3, "has 6 letters; the word list's words have 5"),
    "mixed lengths": (b"abcde\nabcd\nabcdef\n", 2, "has 4 letters; the word list's words have 5"),
    "digits": (b"cigar\nreb4t\n", 2, "characters outside a-z"),
    "punctuation": (b"cigar\nre.ut\n", 2, "characters outside a-z"),
    "non-ascii letters": ("cigar\nnaïve\n".encode(), 2, "characters outside a-z"),
    "utf-16": ("cigar\nrebut\n".encode("utf-16"), 1, "UTF-16"),
    "binary": (bytes(range(256)), 1, "NUL byte"),
    "latin-1": ("cigar\nr\xe9but\n".encode("latin-1"), 2, "is not UTF-8 text"),
    "huge line": (b"cigar\n" + b"a" * 1_000_000 + b"\n", 2, "has 1000000 letters"),
}


@pytest.mark.parametrize("case", sorted(WORD_LIST_CASES))
@pytest.mark.parametrize("which", ["allowed", "answers"])
def test_bad_word_list_gets_a_clear_error_and_no_artifact(tmp_path, case, which):
    content, line, fragment = WORD_LIST_CASES[case]
    files = {"allowed": GOOD_ALLOWED.encode(), "answers": GOOD_ANSWERS.encode()}
    files[which] = content
    for name, data in files.items():
        (tmp_path / f"{name}.txt").write_bytes(data)
    output = tmp_path / "out" / "words.parquet"
    result = run_cli(
        "build-word-index",
        "--allowed",
        str(tmp_path / "allowed.txt"),
        "--answers",
        str(tmp_path / "answers.txt"),
        "--output",
        str(output),
    )
    assert result.returncode == 1
    where = str(tmp_path / f"{which}.txt") + ("" if line is None else f", line {line}")
    assert f"{where}: " in result.stderr
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr
    assert not output.exists()


NORMALISED = {
    # name: (content, words read)
    "crlf": (b"Cigar\r\nrebut\r\n", ("cigar", "rebut")),
    "bom": (b"\xef\xbb\xbfcigar\nrebut\n", ("cigar", "rebut")),
    "no final newline": (b"cigar\nrebut", ("cigar", "rebut")),
    "upper case": (b"CIGAR\nReBuT\n", ("cigar", "rebut")),
    "surrounding spaces and blank lines": (b"  cigar \n\n\trebut\t\n\n", ("cigar", "rebut")),
    "duplicates": (b"cigar\nrebut\ncigar\nCIGAR\n", ("cigar", "rebut")),
}


@pytest.mark.parametrize("case", sorted(NORMALISED))
def test_documented_normalisations(tmp_path, case):
    content, words = NORMALISED[case]
    path = tmp_path / "list.txt"
    path.write_bytes(content)
    assert read_word_list(path).words == words


def test_answers_absent_from_allowed_are_added_not_refused(tmp_path):
    (tmp_path / "allowed.txt").write_text("cigar\nrebut\n")
    (tmp_path / "answers.txt").write_text("sissy\n")
    write_word_index(tmp_path / "allowed.txt", tmp_path / "answers.txt", tmp_path / "w.parquet")
    assert (tmp_path / "w.parquet").exists()


FREQUENCY_CASES = {
    "empty": (b"", None, "is empty"),
    "header only": (b"word,count\n", 1, "has a header but no counts"),
    "missing count column": (b"word,freq\nthe,5\n", 1, "lacks column(s) count"),
    "missing word column": (b"token,count\nthe,5\n", 1, "lacks column(s) word"),
    "negative count": (b"word,count\nthe,5\nof,-3\n", 3, "count -3 is negative"),
    "non-numeric count": (b"word,count\nthe,many\n", 2, "is not a whole number"),
    "too many fields": (b"word,count\nthe,1,000\n", 2, "has 3 field(s), expected 2"),
    "utf-16": ("word,count\nthe,5\n".encode("utf-16"), 1, "UTF-16"),
    "binary": (b"word,count\n\x00\x01\x02", 2, "NUL byte"),
    "huge line": (b"word,count\nthe," + b"9" * 100 + b"x\n", 2, "is not a whole number"),
}


@pytest.mark.parametrize("case", sorted(FREQUENCY_CASES))
def test_bad_frequency_file_gets_a_clear_error_and_no_artifact(tmp_path, case):
    content, line, fragment = FREQUENCY_CASES[case]
    (tmp_path / "allowed.txt").write_text(GOOD_ALLOWED)
    (tmp_path / "answers.txt").write_text(GOOD_ANSWERS)
    words = tmp_path / "words.parquet"
    write_word_index(tmp_path / "allowed.txt", tmp_path / "answers.txt", words)
    frequency = tmp_path / "frequency.csv"
    frequency.write_bytes(content)
    output = tmp_path / "commonness.parquet"
    result = run_cli(
        "build-commonness",
        "--words",
        str(words),
        "--frequency",
        str(frequency),
        "--n-common",
        "2",
        "--width",
        "10",
        "--output",
        str(output),
    )
    assert result.returncode == 1
    where = str(frequency) + ("" if line is None else f", line {line}")
    assert f"{where}: " in result.stderr
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr
    assert not output.exists()


# Lines mixing valid words with every kind of junk a real file can hold.
JUNK_LINE = st.one_of(
    st.sampled_from(["cigar", "CIGAR", " rebut ", "sissy\r", "", "  ", "humph"]),
    st.text(alphabet="abcdeXYZ-1 é\t\u00a0\ufeff\x00.", max_size=8),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(JUNK_LINE, max_size=12), final_newline=st.booleans())
def test_any_word_list_is_read_cleanly_or_refused_with_a_located_error(
    tmp_path_factory, lines, final_newline
):
    path = Path(tmp_path_factory.mktemp("junk")) / "list.txt"
    path.write_text("\n".join(lines) + ("\n" if final_newline else ""), encoding="utf-8")
    try:
        result = read_word_list(path)
    except InputError as error:
        assert error.path == str(path)
        assert error.line is None or 1 <= error.line <= max(1, len(lines) + 1)
        assert str(error).startswith(str(path))
        return
    assert result.words, "an empty list must be an error, not an empty result"
    assert len(set(result.words)) == len(result.words)
    assert all(len(word) == result.length and word.isascii() for word in result.words)
    assert all(word.isalpha() and word.islower() for word in result.words)


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.text(alphabet="abcAB ,\t-", max_size=6),
            st.text(alphabet="0123456789-.,x ", max_size=6),
        ),
        max_size=8,
    )
)
def test_any_frequency_file_is_read_cleanly_or_refused_with_a_located_error(tmp_path_factory, rows):
    path = Path(tmp_path_factory.mktemp("freq")) / "frequency.csv"
    path.write_text("word,count\n" + "".join(f"{w},{c}\n" for w, c in rows), encoding="utf-8")
    try:
        counts = read_frequency_counts(path)
    except InputError as error:
        assert error.path == str(path)
        assert str(error).startswith(str(path))
        return
    assert counts and all(isinstance(n, int) and n >= 0 for n in counts.values())
    assert all(word == word.lower() and word for word in counts)
