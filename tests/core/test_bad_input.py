"""Bad input, systematically: every malformed word list, frequency file, archive and server
gets a normalisation or a one-line error, through the scripts the rules run.

Each case runs a rule's script as Snakemake runs it (tests/support/stage_runner.py) and checks the
exit status, that the error is one line naming the user's file, the line and the problem,
the same in the rule's log, no traceback, and that nothing was written under data/derived
(nor anything under data/raw by a failed fetch). tests/workflow/test_bad_input.py takes a
case of each family through real `snakemake`, and the commands. Property tests then throw
random bytes at every parser.
"""

from __future__ import annotations

import io
import json
import subprocess
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pipeline.analysis.history.archive import parse_history
from pipeline.analysis.words.frequency import parse_frequency_counts
from pipeline.analysis.words.word_lists import parse_word_list
from pipeline.artifacts import raw
from pipeline.core.errors import InputError, PipelineError
from pipeline.core.wordle import MAX_WORD_LENGTH
from pipeline.sources.kaggle import read_archive_member
from tests.support.bad_inputs import (
    ARCHIVE_CASES,
    DAMAGES,
    FREQUENCY_CASES,
    GOOD_ALLOWED,
    GOOD_ANSWERS,
    HISTORY_CASES,
    MEMBER,
    SUMS_ONLY_FOR_INDEX_WORDS,
    WORD_LIST_CASES,
    assert_logged_once,
    assert_refused,
    fake_kagglehub,
    files_under,
    where,
)
from tests.support.servers import Behaviour, Server, drip, respond, zip_bytes
from tests.support.stage_runner import run_rule, sealed
from tests.support.workflow_helpers import COMMONNESS_FILE, EDITION

FETCH_SETTINGS = {"timeout": 60, "retries": 3, "deadline": 600}
WORDS_PATH = f"data/derived/{EDITION}/words.parquet"


def write_local_raw(workdir: Path, source: str, data: bytes) -> str:
    """data/raw/<source>.txt as the fetch step writes it for the local file my/<source>.txt."""
    path = f"data/raw/{source}.txt"
    origin = {"source": source, "kind": "local", "origin": f"my/{source}.txt"}
    raw.write_raw(data, workdir / path, provenance=origin)
    return path


def fetch(
    workdir: Path, source: str, spec: dict, *, env: dict | None = None, **settings: object
) -> subprocess.CompletedProcess:
    """The fetch_source rule's script for one source (the user's file is an input when local)."""
    local = [spec["path"]] if spec["kind"] == "local" else []
    params = {"name": source, "spec": json.dumps(spec), **FETCH_SETTINGS, **settings}
    return run_rule(
        workdir,
        "fetch_source",
        input={"local": local},
        output={"raw": sealed(f"data/raw/{source}.txt")},
        params=params,
        env=env,
    )


def assert_fetch_refused(
    workdir: Path, result: subprocess.CompletedProcess, place: str, fragment: str
) -> None:
    message = assert_refused(result, "fetch_source: ", place, fragment)
    assert_logged_once(workdir / "logs" / "fetch_source.log", message)
    assert files_under(workdir / "data") == []


def assert_local_fetch_refused(workdir: Path, source: str, name: str, case: tuple) -> None:
    """The user's local file my/<name> holding a bad `case` (content, line, fragment) is
    refused by the fetch step with one line naming it, and nothing is written."""
    content, line, fragment = case
    (workdir / "my").mkdir()
    (workdir / "my" / name).write_bytes(content)
    result = fetch(workdir, source, {"kind": "local", "path": f"my/{name}"})
    assert_fetch_refused(workdir, result, where(f"my/{name}", line), fragment)


# --- word lists ------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(WORD_LIST_CASES))
@pytest.mark.parametrize("which", ["allowed", "answers"])
def test_fetching_a_bad_local_list_names_the_users_file(tmp_path, case, which):
    assert_local_fetch_refused(tmp_path, which, "list.txt", WORD_LIST_CASES[case])


@pytest.mark.parametrize("case", sorted(WORD_LIST_CASES))
@pytest.mark.parametrize("which", ["allowed", "answers"])
def test_a_bad_list_in_data_raw_is_refused_by_the_word_index(tmp_path, case, which):
    """Behind the fetch step's check: a raw list that is bad anyway (an older fetch)."""
    content, line, fragment = WORD_LIST_CASES[case]
    lists = {"allowed": GOOD_ALLOWED, "answers": GOOD_ANSWERS, which: content}
    inputs = {name: sealed(write_local_raw(tmp_path, name, data)) for name, data in lists.items()}
    result = run_rule(
        tmp_path,
        "build_word_index",
        input=inputs,
        output={"words": sealed(f"data/derived/{EDITION}/words.parquet")},
        params={"until": ""},
    )
    shown = f"my/{which}.txt (copied to data/raw/{which}.txt)"
    message = assert_refused(result, "build_word_index: ", where(shown, line), fragment)
    assert_logged_once(tmp_path / "logs" / "build_word_index.log", message)
    assert files_under(tmp_path / "data" / "derived") == []


def test_a_10_mb_word_blames_its_own_file_as_too_long(tmp_path):
    (tmp_path / "my").mkdir()
    (tmp_path / "my" / "allowed.txt").write_bytes(b"a" * 10_000_000)
    result = fetch(tmp_path, "allowed", {"kind": "local", "path": "my/allowed.txt"})
    assert result.stderr == (
        "fetch_source: my/allowed.txt, line 1: word 'aaaaaaaaaaaaaaaaaaaaaaaa...' has "
        f"10000000 letters; words of at most {MAX_WORD_LENGTH} letters are supported\n"
    )


def test_answers_of_another_length_than_the_allowed_words(tmp_path):
    inputs = {
        "allowed": sealed(write_local_raw(tmp_path, "allowed", GOOD_ALLOWED)),
        "answers": sealed(write_local_raw(tmp_path, "answers", b"\ncigars\n")),
    }
    result = run_rule(
        tmp_path,
        "build_word_index",
        input=inputs,
        output={"words": sealed(WORDS_PATH)},
        params={"until": ""},
    )
    assert_refused(
        result,
        "build_word_index: ",
        "my/answers.txt (copied to data/raw/answers.txt), line 2",
        "word 'cigars' has 6 letters; the word list's words have 5",
    )
    assert files_under(tmp_path / "data" / "derived") == []


NORMALISED = {
    # name: (content, words read)
    "crlf": (b"Cigar\r\nrebut\r\n", ("cigar", "rebut")),
    "bom": (b"\xef\xbb\xbfcigar\nrebut\n", ("cigar", "rebut")),
    "no final newline": (b"cigar\nrebut", ("cigar", "rebut")),
    "upper case": (b"CIGAR\nReBuT\n", ("cigar", "rebut")),
    "surrounding spaces and blank lines": (b"  cigar \n\n\trebut\t\n\n", ("cigar", "rebut")),
    "duplicates": (b"cigar\nrebut\ncigar\nCIGAR\n", ("cigar", "rebut")),
    "10 letters": (b"abcdefghij\nABCDEFGHIK\n", ("abcdefghij", "abcdefghik")),
}


@pytest.mark.parametrize("case", sorted(NORMALISED))
def test_documented_normalisations(case):
    content, expected = NORMALISED[case]
    assert parse_word_list(content, "list.txt").words == expected


# --- the frequency file ------------------------------------------------------------------


def build_commonness(workdir: Path, frequency: bytes) -> subprocess.CompletedProcess:
    allowed = write_local_raw(workdir, "allowed", GOOD_ALLOWED)
    path = write_local_raw(workdir, "frequency", frequency)
    return run_rule(
        workdir,
        "build_commonness",
        input={"allowed": sealed(allowed), "frequency": sealed(path)},
        output={"commonness": sealed(str(COMMONNESS_FILE))},
        params={"n_common": 2, "width": 10},
    )


@pytest.mark.parametrize("case", sorted(FREQUENCY_CASES))
def test_bad_frequency_file_gets_a_clear_error_and_no_artifact(tmp_path, case):
    content, line, fragment = FREQUENCY_CASES[case]
    result = build_commonness(tmp_path, content)
    shown = "my/frequency.txt (copied to data/raw/frequency.txt)"
    message = assert_refused(result, "build_commonness: ", where(shown, line), fragment)
    assert_logged_once(tmp_path / "logs" / "build_commonness.log", message)
    assert files_under(tmp_path / "data" / "derived") == []


@pytest.mark.parametrize("case", sorted(set(FREQUENCY_CASES) - SUMS_ONLY_FOR_INDEX_WORDS))
def test_fetching_a_bad_frequency_file_names_the_users_file(tmp_path, case):
    assert_local_fetch_refused(tmp_path, "frequency", "freq.csv", FREQUENCY_CASES[case])


# --- the dated answers --------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(HISTORY_CASES))
def test_fetching_a_bad_history_file_names_the_users_file(tmp_path, case):
    assert_local_fetch_refused(tmp_path, "history", "days.json", HISTORY_CASES[case])


HISTORY_PIECES = st.sampled_from(
    [b"{", b"}", b",", b":", b'"', b" ", b"\n", b"[", b"]", b"5", b"null", b"\xff"]
    + [b'"2021-06-19"', b'"2021-06-20"', b'"2021-06-22"', b'"2021-6-19"', b'"2021-02-30"']
    + [b'"cigar"', b'"rebut"', b'"ci-ar"', b'"abc"', b'"K\\u212aebab"', b'""']
)


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(st.binary(max_size=80), st.lists(HISTORY_PIECES, max_size=30).map(b"".join)))
@example(data=b'{"2021-06-19": "cigar", "2021-06-20": "rebut"}')
def test_any_bytes_as_a_history_file_give_days_or_a_located_error(data):
    """Days without a gap, one word each of one length, or one line naming the file."""
    try:
        history = parse_history(data, "h.json")
    except InputError as error:
        assert error.path == "h.json" and "\n" not in str(error)
        assert error.line is None or 1 <= error.line <= data.count(b"\n") + 1
        return
    days = [day.toordinal() for day in history.dates]
    assert days == list(range(days[0], days[0] + len(days)))
    assert len({len(word) for word in history.words}) == 1
    assert all(word.isascii() and word.isalpha() and word.islower() for word in history.words)


def test_repeated_words_are_summed_with_one_warning(tmp_path):
    result = build_commonness(tmp_path, b"word,count\ncigar,5\nCigar,2\nthe,9\nCIGAR,1\nThe,1\n")
    assert result.returncode == 0, result.stderr
    log = (tmp_path / "logs" / "build_commonness.log").read_text()
    assert (
        "my/frequency.txt (copied to data/raw/frequency.txt): 1 of the words looked up appears "
        "on more than one line (case variants included); their counts were summed: cigar "
        "(3 lines, first on line 2)"
    ) in log


# --- Kaggle archives -------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(ARCHIVE_CASES))
def test_bad_kaggle_archive_is_a_clear_error(tmp_path, case):
    data, fragment = ARCHIVE_CASES[case]
    archive, env = fake_kagglehub(tmp_path, data)
    spec = {"kind": "kaggle", "dataset": "o/d", "file": "unigram_freq.csv"}
    result = fetch(tmp_path, "frequency", spec, env=env)
    message = assert_refused(result, "fetch_source: ", "source 'frequency'", fragment)
    assert str(archive) in message
    if case in DAMAGES and case != "bad central directory":
        assert f"member '{MEMBER}' of archive {archive}" in message
    assert files_under(tmp_path / "data") == []


# --- servers ---------------------------------------------------------------------------

SERVER_CASES: dict[str, tuple[Callable[[int], Behaviour], str]] = {
    # name: (behaviour given the plain-http port, fragment of the message)
    "drips a byte every 0.4 s": (
        lambda _port: drip,
        "took longer than the deadline of 1.5 s (download.deadline); nothing was written",
    ),
    "redirects to http": (
        lambda port: respond("302 Found", b"", (f"Location: http://127.0.0.1:{port}/words",)),
        "redirected to non-https http://127.0.0.1:{port}/words; refused before requesting it",
    ),
    "redirects forever": (
        lambda _port: respond("307 Temporary Redirect", b"", ("Location: /again",)),
        "redirected more than 5 times; refused",
    ),
    "redirects without a location": (
        lambda _port: respond("302 Found", b""),
        "answered HTTP 302 without a Location to redirect to",
    ),
    "not found": (lambda _port: respond("404 Not Found", b"no"), "failed with HTTP 404"),
    "serves a bad list": (
        lambda _port: respond("200 OK", "cigar\n\u212aebab\n".encode()),
        "word '\u212aebab' has characters outside a-z: U+212A KELVIN SIGN",
    ),
}


@pytest.mark.parametrize("case", sorted(SERVER_CASES))
def test_bad_server_is_a_clear_error_and_writes_nothing(
    tmp_path, https_server: Callable[[list[Behaviour]], Server], plain_listener, case
):
    behaviour, fragment = SERVER_CASES[case]
    server = https_server([behaviour(plain_listener.port)])
    started = time.monotonic()
    spec = {"kind": "url", "url": server.url}
    result = fetch(tmp_path, "allowed", spec, timeout=2, retries=2, deadline=1.5)
    place = where(server.url, 2) if case == "serves a bad list" else "source 'allowed'"
    assert_fetch_refused(tmp_path, result, place, fragment.format(port=plain_listener.port))
    assert time.monotonic() - started < 10  # the deadline held (start-up included)
    assert plain_listener.connections == 0  # no plain-http request was ever sent


# --- property tests: any bytes give a clean result or a located error -------------------

LIST_PIECES = st.sampled_from(
    [b"cigar", b"REBUT", b"\n", b"\r\n", b" ", b"\t", b"\xef\xbb\xbf", b"\xe2\x84\xaa", b"\xc4\xb0"]
    + [b"\x00", b"\xff", b"\xfe", b"a" * 11, b"-", b"1", b"\xc3\xa9", b"\xe2\x80\x8b", b"\r"]
)
ANY_BYTES = st.one_of(st.binary(max_size=300), st.lists(LIST_PIECES, max_size=30).map(b"".join))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=ANY_BYTES)
def test_any_bytes_as_a_word_list_give_words_or_a_located_error(data):
    try:
        result = parse_word_list(data, "list.txt")
    except InputError as error:
        assert error.path == "list.txt"
        assert error.line is None or 1 <= error.line <= data.count(b"\n") + 1
        assert str(error).startswith("list.txt") and "\n" not in str(error)
        return
    assert result.words and len(set(result.words)) == len(result.words)
    assert 1 <= result.length <= MAX_WORD_LENGTH
    assert all(len(word) == result.length for word in result.words)
    assert all(word.isascii() and word.isalpha() and word.islower() for word in result.words)


FREQUENCY_PIECES = st.sampled_from(
    [b"word,count\n", b"count,word\n", b"the", b"Cigar", b"cigar", b",", b"\t", b"\n", b"\r\n"]
    + [b"5", b"0", b"-", b"9223372036854775807", b"x", b" ", b"\xef\xbb\xbf", b"\xe2\x84\xaa"]
    + [b"\x00", b"\xff", b"1" * 30]
)
FREQUENCY_BYTES = st.one_of(
    st.binary(max_size=300), st.lists(FREQUENCY_PIECES, max_size=40).map(b"".join)
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=FREQUENCY_BYTES, chunk=st.integers(1, 64), keep=st.booleans())
# found by this test: a BOM, then a bad byte on line 2 (the whole file named line 1)
@example(data=b"\xef\xbb\xbf\n\x80\n", chunk=1, keep=False)
def test_any_bytes_as_a_frequency_file_give_counts_or_a_located_error(data, chunk, keep):
    kept = ["cigar", "the"] if keep else None
    chunks = [data[i : i + chunk] for i in range(0, len(data), chunk)]
    try:
        counts = parse_frequency_counts(chunks, "f.csv", kept)
    except InputError as error:
        assert error.path == "f.csv" and "\n" not in str(error)
        assert error.line is None or 1 <= error.line <= data.count(b"\n") + 1
        with pytest.raises(InputError) as whole:  # the same error, however the file is cut
            parse_frequency_counts(data, "f.csv", kept)
        assert str(whole.value) == str(error)
        return
    assert counts == parse_frequency_counts(data, "f.csv", kept)
    assert all(isinstance(n, int) and 0 <= n < 2**63 for n in counts.values())
    assert all(word and not any("A" <= c <= "Z" for c in word) for word in counts)
    assert not keep or set(counts) <= {"cigar", "the"}


def reference_counts(text: str) -> dict[str, int]:
    """The documented rules, line by line and unoptimised: the oracle for the parser."""
    rows = [(n, line.rstrip("\r")) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not rows:
        raise InputError("f.csv", "is empty")
    _, first = rows[0]
    if "\t" in first:
        separator, columns, body = "\t", (0, 1), rows
    else:
        header = [name.strip().lower() for name in first.split(",")]
        if "word" not in header or "count" not in header:
            raise InputError("f.csv", "lacks column(s)", rows[0][0])
        separator, columns, body = ",", (header.index("word"), header.index("count")), rows[1:]
    width = 2 if separator == "\t" else len(first.split(","))
    counts: dict[str, int] = {}
    for number, line in body:
        fields = line.split(separator)
        word = fields[columns[0]].strip().lower() if len(fields) == width else ""
        count = fields[columns[1]].strip() if len(fields) == width else ""
        if not word or not count.isdigit() or not count.isascii() or int(count) >= 2**63:
            raise InputError("f.csv", "bad row", number)
        counts[word] = counts.get(word, 0) + int(count)
        if counts[word] >= 2**63:
            raise InputError("f.csv", "sum too large", number)
    if not counts:
        raise InputError("f.csv", "no counts", rows[0][0])
    return counts


ROW = st.tuples(
    st.sampled_from(["the", "The", "CIGAR", " of ", "x y", "", "a,b"]),
    st.sampled_from(["1", "007", " 12 ", "-3", "2.5", "", "9223372036854775807", "x"]),
    st.sampled_from([",", "\t"]),
    st.sampled_from(["\n", "\r\n", "\n\n"]),
)


@settings(max_examples=300, deadline=None)
@given(header=st.sampled_from(["word,count\n", "Count,Word\n", ""]), rows=st.lists(ROW))
def test_the_columnar_parser_agrees_with_the_line_by_line_rules(header, rows):
    text = header + "".join(word + sep + count + end for word, count, sep, end in rows)
    try:
        expected: dict[str, int] | InputError = reference_counts(text)
    except InputError as error:
        expected = error
    try:
        counts = parse_frequency_counts(text.encode(), "f.csv")
    except InputError as error:
        assert isinstance(expected, InputError), (str(error), expected)
        assert error.line == expected.line
        return
    assert counts == expected


ARCHIVE_DATA = st.one_of(
    st.binary(max_size=400),
    st.builds(
        lambda data, changes: bytes(changes.get(i, b) for i, b in enumerate(data)),
        st.sampled_from([zip_bytes()[0], zip_bytes(zipfile.ZIP_STORED)[0]]),
        st.dictionaries(st.integers(0, 400), st.integers(0, 255), max_size=4),
    ),
    st.builds(lambda n: zip_bytes()[0][:n], st.integers(0, 400)),
)


@settings(max_examples=400, deadline=None)
@given(data=ARCHIVE_DATA)
def test_any_bytes_as_a_kaggle_archive_give_the_member_or_a_clear_error(data):
    try:
        member = read_archive_member("frequency", io.BytesIO(data), "a.zip", "unigram_freq.csv")
    except PipelineError as error:
        assert str(error).startswith("source 'frequency': ") and "a.zip" in str(error)
        assert "\n" not in str(error)
        return
    assert isinstance(member, bytes)
