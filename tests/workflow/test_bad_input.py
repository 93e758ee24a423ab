"""Bad input through the real commands users run: `snakemake` (a case of each family of
tests/core/test_bad_input.py, input functions and checkpoints included; config values are in
tests/workflow/test_bad_config.py), `wordle-pipeline verify` and `wordle-assist`.

Each refusal is one line naming the user's file, the line or value and the problem, with
exit status 1 for bad data and 2 for a bad command line, no traceback, and nothing written
under data/derived.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.artifacts import seal
from pipeline.artifacts.package_check import verify_datapackage
from pipeline.commands.assistant.cli import split_turns
from pipeline.core.errors import PipelineError, UsageError
from tests.support.bad_inputs import (
    ARCHIVE_CASES,
    FREQUENCY_CASES,
    WORD_LIST_CASES,
    fake_kagglehub,
    files_under,
)
from tests.support.workflow_helpers import (
    COMMONNESS_FILE,
    EDITION,
    FIXTURE_CONFIG,
    clone_checkout,
    fixture_env,
    make_checkout,
    read_config,
    snakemake,
    snakemake_command,
)

# --- a case of each family through snakemake --------------------------------------------


def assert_job_refused(result: subprocess.CompletedProcess, line: str) -> None:
    """Snakemake failed, the job said `line` once (its log is shown again in Snakemake's
    report), and nothing anywhere is a traceback."""
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    # The job's stderr and Snakemake's share the terminal: Snakemake writes "Finished
    # jobid: 3 (Rule: ...)" and its newline apart, so a job's line can land between them
    # (seen once on a loaded machine). The line counts wherever a line ends with it.
    said = [text for text in result.stderr.splitlines() if text.endswith(line)]
    assert len(said) == 1, result.stderr
    assert said[0] == line or said[0].startswith("Finished jobid:"), said[0]


def local_sources(**files: str) -> dict:
    """Source entries of the fixture, with these sources read from local files."""
    config = json.loads(json.dumps(FIXTURE_CONFIG["sources"]))
    config.update({name: {"kind": "local", "path": path} for name, path in files.items()})
    return config


def test_a_bad_local_word_list_through_snakemake(tmp_path):
    content, line, fragment = WORD_LIST_CASES["kelvin sign (lower() gives k)"]
    checkout = make_checkout(tmp_path / "c", sources=local_sources(allowed="my/allowed.txt"))
    (checkout / "my").mkdir()
    (checkout / "my" / "allowed.txt").write_bytes(content)
    result = snakemake(checkout, check=False)
    assert_job_refused(result, f"fetch_source: my/allowed.txt, line {line}: {fragment}")
    assert files_under(checkout / "data" / "derived") == []
    assert not (checkout / "data" / "raw" / "allowed.txt").exists()


def test_21_letter_words_stop_at_the_fetch_before_any_compute(tmp_path):
    checkout = make_checkout(tmp_path / "c")
    (checkout / "mirror" / "allowed.txt").write_text(
        "abcdefghijklmnopqrstu\nbcdefghijklmnopqrstuv\n"
    )
    result = snakemake(checkout, check=False)
    assert_job_refused(
        result,
        "fetch_source: mirror/allowed.txt, line 1: word 'abcdefghijklmnopqrstu' has 21 "
        "letters; words of at most 10 letters are supported",
    )
    assert files_under(checkout / "data" / "derived") == []


def test_a_bad_frequency_row_through_snakemake(tmp_path):
    content, line, fragment = FREQUENCY_CASES["count beyond int64"]
    checkout = make_checkout(tmp_path / "c")
    (checkout / "mirror" / "unigram_freq.csv").write_bytes(content)
    result = snakemake(checkout, check=False)
    assert_job_refused(result, f"fetch_source: mirror/unigram_freq.csv, line {line}: {fragment}")
    assert not (checkout / COMMONNESS_FILE).exists()
    assert not (checkout / "data" / "raw" / "frequency.txt").exists()


def test_a_damaged_kaggle_archive_through_snakemake(tmp_path):
    data, fragment = ARCHIVE_CASES["bad crc"]
    checkout = make_checkout(tmp_path / "c", mirror="")
    config = read_config(checkout)
    config["sources"] = local_sources(
        allowed="mirror/allowed.txt",
        answers="mirror/answers.txt",
        history="mirror/history/wordle_solutions.json",
    )
    (checkout / "test-config.yaml").write_text(yaml.safe_dump(config))
    archive, env = fake_kagglehub(checkout, data)
    result = run_snakemake(checkout, env)
    errors = [line for line in result.stderr.splitlines() if line.startswith("fetch_source: ")]
    assert len(errors) == 1 and fragment in errors[0] and str(archive) in errors[0]
    assert result.returncode == 1 and "Traceback" not in result.stdout + result.stderr
    # the word index may be built from the good lists meanwhile; nothing that reads counts is
    assert not (checkout / COMMONNESS_FILE).exists()
    assert not (checkout / "data" / "raw" / "frequency.txt").exists()


def run_snakemake(checkout: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """snakemake in `checkout` with these variables added to the environment."""
    return subprocess.run(
        snakemake_command(checkout),
        cwd=checkout,
        capture_output=True,
        text=True,
        env={**fixture_env(), **env},
        check=False,
    )


def test_a_damaged_word_index_read_by_an_input_function_is_one_line(tmp_path):
    """words.parquet is sealed (so not moved aside up front) but no Parquet: the checkpoint's
    input functions read it while Snakemake builds the job graph."""
    checkout = make_checkout(tmp_path / "c")
    snakemake(checkout, f"data/derived/{EDITION}/words.parquet")
    words = checkout / "data" / "derived" / EDITION / "words.parquet"
    recorded = seal.read_seal(words)
    words.write_bytes(b"PAR1 not a parquet file PAR1")
    seal.write_seal(words, settings=recorded.settings)
    result = snakemake(checkout, check=False)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    last = result.stderr.splitlines()[-1]
    where = f"data/derived/{EDITION}/words.parquet"
    assert last.startswith(f"wordle: {where}: cannot be read as Parquet (")
    assert last.endswith(
        f"; moved it to data/repair/derived/{EDITION}/words.parquet: run snakemake again"
    )
    assert not words.exists()
    assert "build_word_index" in snakemake(checkout, "--dry-run").stdout


# --- wordle-pipeline verify -------------------------------------------------------------

VERIFY = [sys.executable, "-m", "pipeline.commands.pipeline_cli"]
NOT_A_PACKAGE = "is not a data package descriptor"
MANIFEST_CASES = {
    # name: (descriptor bytes, fragment of the one ERROR line)
    "not json": (b"{resources", f"{NOT_A_PACKAGE} (Expecting property name"),
    "not utf-8": (b"\xff\xfe{}", f"{NOT_A_PACKAGE} ("),
    "a list": (b"[1, 2]", f"{NOT_A_PACKAGE} (no `resources` list)"),
    "resources an object": (b'{"resources": {}}', f"{NOT_A_PACKAGE} (no `resources` list)"),
    "resource without a path": (
        b'{"resources": [{"bytes": 3}]}',
        "lists a resource without a path",
    ),
    "resource without hash": (
        b'{"resources": [{"path": "words.parquet", "bytes": 3}]}',
        "resource 'words.parquet' lacks its bytes or hash",
    ),
    "bytes as text": (
        b'{"resources": [{"path": "words.parquet", "bytes": "3", "hash": "sha256:x"}]}',
        "resource 'words.parquet' lacks its bytes or hash",
    ),
    "path outside its folder": (
        b'{"resources": [{"path": "../victim.txt", "bytes": 1, "hash": "sha256:x"}]}',
        "lists '../victim.txt', a path outside its folder; refused",
    ),
    "absolute path": (
        b'{"resources": [{"path": "/etc/hostname", "bytes": 1, "hash": "sha256:x"}]}',
        "lists '/etc/hostname', a path outside its folder; refused",
    ),
}


@pytest.mark.parametrize("case", sorted(MANIFEST_CASES))
def test_a_bad_descriptor_is_one_line_and_removes_nothing(tmp_path, case):
    content, fragment = MANIFEST_CASES[case]
    folder = tmp_path / "derived"
    folder.mkdir()
    (folder / "datapackage.json").write_bytes(content)
    (tmp_path / "victim.txt").write_text("keep me")
    result = subprocess.run(
        [*VERIFY, "verify", str(folder / "datapackage.json"), "--remove-damaged"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ERROR: {folder / 'datapackage.json'}: ")
    assert fragment in lines[0]
    assert (tmp_path / "victim.txt").read_text() == "keep me"


@pytest.mark.parametrize(
    ("arguments", "status", "line"),
    [
        (
            ["verify", "missing.json"],
            1,
            "ERROR: missing.json: the data package descriptor is missing",
        ),
        (["verify", "."], 1, "ERROR: .: cannot be read (Is a directory)"),
        (  # a line break (NEL) in the user's path is written escaped
            ["verify", "a\x85b.json"],
            1,
            "ERROR: a\\x85b.json: the data package descriptor is missing",
        ),
        ([], 2, "wordle-pipeline: error: the following arguments are required: COMMAND"),
        (["check"], 2, "wordle-pipeline: error: argument COMMAND: invalid choice: 'check'"),
        (["verify"], 2, "wordle-pipeline verify: error: the following arguments are required"),
        (["verify", "m.json", "--frobnicate"], 2, "wordle-pipeline: error: unrecognized"),
    ],
)
def test_a_bad_verify_command_line_is_one_line(tmp_path, arguments, status, line):
    result = subprocess.run(
        [*VERIFY, *arguments], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == status
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(line)
    assert "Traceback" not in result.stderr


# --- wordle-assist ----------------------------------------------------------------------

ASSIST = [sys.executable, "-m", "pipeline.commands.assistant"]
ASSIST_CASES = {
    # name: (arguments, exit status, the one line on stderr after "wordle-assist: ")
    "kelvin sign": (
        ["\u212aebab", "BBBBB"],
        2,
        "error: guess 1 '\u212aebab' has characters outside a-z: U+212A KELVIN SIGN at position 1",
    ),
    "accented letter": (
        ["cigar", "BBBBB", "caf\u00e9s", "BBBBB"],
        2,
        "error: guess 2 'caf\u00e9s' has characters outside a-z: U+00E9 LATIN SMALL LETTER E "
        "WITH ACUTE at position 4",
    ),
    "guess without colours": (["cigar"], 2, "error: give each guess followed by its colours"),
    "bad colours": (
        ["cigar", "BXBBB"],
        2,
        "error: colours 'BXBBB' of guess 1 ('cigar'): 'X' at position 2 is not a colour",
    ),
    "colours of another length": (["cigar", "BB"], 2, "error: colours 'BB' of guess 1"),
    "unknown word": (["zzzzz", "BBBBB"], 2, "error: guess 1 'zzzzz' is not in the word list"),
    "top not a number": (["--top", "abc"], 2, "error: argument --top: expected a positive"),
    "top zero": (["--top", "0"], 2, "error: argument --top: expected a positive whole number"),
    "budget zero": (["--budget", "0"], 2, "error: argument --budget: expected a positive"),
    "budget not a number": (["--budget", "nan"], 2, "error: argument --budget: expected a"),
    "unknown mode": (["--mode", "hard"], 2, "error: argument --mode: invalid choice: 'hard'"),
    "unknown option": (["--frobnicate"], 2, "error: unrecognized arguments: --frobnicate"),
    "no consistent word": (["cigar", "GGGGB"], 1, "no allowed word is consistent with cigar GGGGB"),
    "no data folder": (["--data", "nowhere"], 1, "nowhere: no such folder of artifacts"),
}


@pytest.mark.parametrize("case", sorted(ASSIST_CASES))
def test_a_bad_assistant_command_line_is_one_line(built_checkout, case):
    arguments, status, line = ASSIST_CASES[case]
    result = subprocess.run(
        [*ASSIST, *arguments], cwd=built_checkout, capture_output=True, text=True, check=False
    )
    assert result.returncode == status
    assert result.stderr.splitlines() == [result.stderr.rstrip("\n")]
    assert result.stderr.startswith(f"wordle-assist: {line}"), result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("damage", ["words.parquet altered", "entropy.parquet missing"])
def test_damaged_artifacts_are_one_line_for_the_assistant(built_checkout, tmp_path, damage):
    derived = clone_checkout(built_checkout, tmp_path / "c") / "data" / "derived"
    if damage == "words.parquet altered":
        (derived / EDITION / "words.parquet").write_bytes(b"PAR1")
    else:
        (derived / EDITION / "entropy.parquet").unlink()
    result = subprocess.run([*ASSIST], cwd=derived.parents[1], capture_output=True, text=True)
    assert result.returncode == 1 and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("wordle-assist: data/derived/")
    assert "Traceback" not in result.stderr


def test_a_reader_that_stops_early_is_no_error(built_checkout):
    """`wordle-assist --top 3000 | head -1`: the pipe closes before the answer is written."""
    process = subprocess.Popen(
        [*ASSIST, "--top", "3000"],
        cwd=built_checkout,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()  # the reader is gone before the assistant has read its data
    stderr = process.stderr.read()
    assert process.wait(timeout=60) == 0
    assert stderr == b""


def test_head_in_a_shell_pipeline(built_checkout):
    result = subprocess.run(
        f"{sys.executable} -m pipeline.commands.assistant --top 3000 | head -1",
        shell=True,
        cwd=built_checkout,
        capture_output=True,
        text=True,
        check=False,
    )
    # history.until keeps 5 days of the fixture's archive, all answers of the edition
    assert result.stdout == "edition: tiny: the tiny test fixture; covers 5 of 5 played answers\n"
    assert result.stderr == ""


# --- property tests: any input gives a clean answer or one clear line --------------------


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_as_a_descriptor_give_problems_or_one_line(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("manifest")
    (folder / "datapackage.json").write_bytes(data)
    try:
        problems = verify_datapackage(folder / "datapackage.json")
    except PipelineError as error:
        assert "\n" not in str(error) and str(error).startswith(str(folder / "datapackage.json"))
        return
    assert isinstance(problems, list)


@settings(max_examples=300, deadline=None)
@given(arguments=st.lists(st.text(max_size=8), max_size=6))
def test_any_guesses_give_turns_or_a_usage_error(arguments):
    try:
        pairs = split_turns(arguments)
    except UsageError as error:
        assert "\n" not in str(error)
        return
    assert all(word.isascii() and word.isalpha() and word.islower() for word, _ in pairs)
