"""Bad config values through `snakemake`: every one stops the run before the first job,
as one line naming the key and the value (plus at most a hint line), exit status 1.

The schema (workflow/schemas/config.schema.yaml) types and bounds every value, each solver
strategy's parameters included; pipeline.plan.config_checks phrases its verdict. A property
test throws random values at it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pipeline.plan.config_checks import config_problem
from tests.support.fixtures import FIXTURE_ALLOWED
from tests.support.workflow_helpers import EDITION, make_checkout, snakemake

SCHEMA = Path(__file__).resolve().parents[2] / "workflow" / "schemas" / "config.schema.yaml"


def strategies(*entries: dict) -> dict:
    return {"solver": {"strategies": list(entries)}}


# --- the config: every bad value stops snakemake before any job, as one line -------------

CONFIG_CASES = {
    # name: (config entries, the one line Snakemake ends with, after "config: ")
    "top_n not a number": (
        strategies({"name": "two_step", "top_n": "abc"}),
        "solver.strategies[0].top_n: 'abc' is not of type 'integer'",
    ),
    "top_n null": (
        strategies({"name": "two_step", "top_n": None}),
        "solver.strategies[0].top_n: None is not of type 'integer'",
    ),
    "top_n zero": (
        strategies({"name": "two_step", "top_n": 0}),
        "solver.strategies[0].top_n: 0 is less than the minimum of 1",
    ),
    "top_n true": (
        strategies({"name": "two_step", "top_n": True}),
        "solver.strategies[0].top_n: True is not of type 'integer'",
    ),
    "top_n a fraction": (
        strategies({"name": "two_step", "top_n": 2.5}),
        "solver.strategies[0].top_n: 2.5 is not of type 'integer'",
    ),
    "bits_ref not a number": (
        strategies({"name": "greedy_entropy"}, {"name": "commonness", "bits_ref": "lots"}),
        "solver.strategies[1].bits_ref: 'lots' is not of type 'number'",
    ),
    "bits_ref zero": (
        strategies({"name": "commonness", "bits_ref": 0}),
        "solver.strategies[0].bits_ref: 0 is less than or equal to the minimum of 0",
    ),
    "guesses_ref negative": (
        strategies({"name": "commonness", "guesses_ref": -1}),
        "solver.strategies[0].guesses_ref: -1 is less than the minimum of 0",
    ),
    "top not a number": (
        strategies({"name": "opener_benchmark", "top": "ten"}),
        "solver.strategies[0].top: 'ten' is not of type 'integer'",
    ),
    "pool not a choice": (
        strategies({"name": "letter_frequency", "pool": "everything"}),
        "solver.strategies[0].pool: 'everything' is not one of ['candidates', 'allowed']",
    ),
    "unknown parameter": (
        strategies({"name": "greedy_entropy", "depth": 2}),
        "solver.strategies[0].depth: unknown key (allowed here: label, name, opener)",
    ),
    "parameter of another strategy": (
        strategies({"name": "opener_benchmark", "opener": "tarse"}),
        "solver.strategies[0].opener: unknown key (allowed here: label, name, pool, top)",
    ),
    "opener not a word": (
        strategies({"name": "minimax", "opener": 5}),
        "solver.strategies[0].opener: 5 is not of type 'string', 'null'",
    ),
    "opener in capitals": (
        strategies({"name": "minimax", "opener": "TARSE"}),
        "solver.strategies[0].opener: 'TARSE' does not match '^[a-z]+$'",
    ),
    "opener too long": (
        strategies({"name": "minimax", "opener": "abcdefghijk"}),
        "solver.strategies[0].opener: 'abcdefghijk' is too long",
    ),
    "empty label": (
        strategies({"name": "minimax", "label": ""}),
        "solver.strategies[0].label: '' should be non-empty",
    ),
    "unknown strategy": (
        strategies({"name": "random"}),
        "solver.strategies[0].name: 'random' is not one of ['greedy_entropy'",
    ),
    "strategy without name": (
        strategies({"top_n": 3}),
        "solver.strategies[0].name: is required here but missing",
    ),
    "no strategies": (strategies(), "solver.strategies: [] should be non-empty"),
    "optimal top zero": ({"optimal": {"top": 0}}, "optimal.top: 0 is less than the minimum of 1"),
    "optimal top negative": (
        {"optimal": {"top": -2}},
        "optimal.top: -2 is less than the minimum of 1",
    ),
    "optimal top a word": (
        {"optimal": {"top": "many"}},
        "optimal.top: 'many' is not valid under any of the given schemas",
    ),
    "optimal openers_top, the old name": (
        {"optimal": {"openers_top": 5}},
        "optimal.openers_top: unknown key (allowed here: certify, certify_all, max_guesses,",
    ),
    "deadline zero": (
        {"download": {"deadline": 0}},
        "download.deadline: 0 is less than or equal to the minimum of 0",
    ),
    "retries a fraction": (
        {"download": {"retries": 1.5}},
        "download.retries: 1.5 is not of type 'integer'",
    ),
    "local source without path": (
        {"sources": {"allowed": {"kind": "local"}}},
        "sources.allowed.path: is required here but missing",
    ),
    "plain http source": (
        {"sources": {"allowed": {"kind": "url", "url": "http://example.com/words"}}},
        "sources.allowed.url: 'http://example.com/words' does not match '^https://[^/]'",
    ),
    "sha256 not hex": (
        {"sources": {"allowed": {"kind": "local", "path": "x", "sha256": "abc"}}},
        "sources.allowed.sha256: 'abc' does not match",
    ),
    "unknown source kind": (
        {"sources": {"allowed": {"kind": "ftp"}}},
        "sources.allowed.kind: 'ftp' is not one of ['url', 'kaggle', 'local']",
    ),
    "chunk_rows zero": (
        {"patterns": {"chunk_rows": 0}},
        "patterns.chunk_rows: 0 is less than the minimum of 1",
    ),
    "zstd level too high": (
        {"patterns": {"zstd_level": 23}},
        "patterns.zstd_level: 23 is greater than the maximum of 22",
    ),
    "n_common not a number": (
        {"commonness": {"n_common": "many"}},
        "commonness.n_common: 'many' is not of type 'integer'",
    ),
    "a literature optimum (gone: the gaps are to the pipeline's own)": (
        {"solver": {"optimum": {"mean": 3.4, "total": 7883}}},
        "solver.optimum: unknown key (allowed here: bin_bits, max_turns, openers_per_job, "
        "strategies)",
    ),
    "optimal_hard with a parameter it does not take": (
        strategies({"name": "optimal_hard", "top": 3}),
        "solver.strategies[0].top: unknown key (allowed here: label, name, opener)",
    ),
    "two strategies under one label": (
        strategies({"name": "minimax"}, {"name": "greedy_entropy", "label": "minimax"}),
        "solver.strategies[1]: label 'minimax' is taken by solver.strategies[0]; give one of "
        "them another label",
    ),
    "unknown optimal mode": (
        {"optimal": {"modes": ["normal", "easy"]}},
        "optimal.modes[1]: 'easy' is not one of ['normal', 'hard']",
    ),
    "a strategy playing a mode that is not solved": (
        {"optimal": {"modes": ["normal"]}},
        "optimal.modes: ['normal'] has no 'hard', which solver.strategies[",
    ),
    "optimal top neither a number nor all": (
        {"optimal": {"top": "many"}},
        "optimal.top: 'many' is not valid under any of the given schemas",
    ),
    "optimal max_guesses above six": (
        {"optimal": {"max_guesses": 7}},
        "optimal.max_guesses: 7 is greater than the maximum of 6",
    ),
    "unknown top-level key": (
        {"solvr": {}},
        "solvr: unknown key (allowed here: commonness, download, editions, history, mirror, "
        "openers, optimal, patterns, solver, sources)",
    ),
}


def assert_config_refused(result: subprocess.CompletedProcess, expected: str) -> None:
    """Status 1 and Snakemake's last words: `config: <key>: <problem>`, maybe one hint."""
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stderr.splitlines()
    if lines[-1].startswith("hint: "):
        lines.pop()
    assert lines[-1].startswith(f"config: {expected}"), result.stderr
    assert sum(line.startswith("config: ") for line in result.stderr.splitlines()) == 1


@pytest.mark.parametrize("case", sorted(CONFIG_CASES))
def test_bad_config_value_stops_snakemake_before_any_job(tmp_path, case):
    entries, expected = CONFIG_CASES[case]
    checkout = make_checkout(tmp_path / "c", **entries)
    assert_config_refused(snakemake(checkout, "--dry-run", check=False), expected)
    assert not (checkout / "data").exists() and not (checkout / "logs").exists()


def test_a_value_on_the_command_line_is_named_with_a_hint(tmp_path):
    """--config gives nested values as text (Snakemake reads them with YAML's BaseLoader)."""
    checkout = make_checkout(tmp_path / "c")
    result = snakemake(checkout, "-n", "--config", "download={deadline: 5}", check=False)
    assert_config_refused(result, "download.deadline: '5' is not of type 'number'")
    assert result.stderr.splitlines()[-1] == (
        "hint: values nested in --config are read as text; set this key in a config file "
        "(--configfile) instead"
    )
    result = snakemake(checkout, "-n", "--config", "solver={strategies: [{name: x}]}", check=False)
    assert_config_refused(result, "solver.strategies[0].name: 'x' is not one of")
    assert result.stderr.splitlines()[-1] == (
        "hint: name: The strategy. (every key: workflow/schemas/config.schema.yaml)"
    )


def test_a_local_source_that_is_no_file_is_named_by_its_key(tmp_path):
    checkout = make_checkout(
        tmp_path / "c", sources={"allowed": {"kind": "local", "path": "my/allowed.txt"}}
    )
    result = snakemake(checkout, "--dry-run", check=False)
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "config: sources.allowed.path: my/allowed.txt is not a file"
    )
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("editions", "expected"),
    [
        (
            {EDITION: {"allowed": "allowed", "answers": "nowhere"}},
            f"config: editions.{EDITION}.answers: 'nowhere' is not a word list of sources "
            "(known: allowed, answers, history, answers_nyt2023, allowed_orig, answers_orig)",
        ),
        (
            {EDITION: {"enabled": False}},
            "config: editions: no edition is enabled; set enabled: true on one",
        ),
        (
            {"Tiny": {"allowed": "allowed", "answers": "answers"}},
            "config: editions.Tiny: is not a valid name (lower-case a-z, digits and _, a "
            "letter first)",
        ),
        (
            {"shared": {"allowed": "allowed", "answers": "answers"}},
            "config: editions.shared: is a reserved name; choose another",
        ),
    ],
    ids=["unknown list", "none enabled", "bad name", "reserved name"],
)
def test_bad_editions_stop_before_any_job_with_one_line(tmp_path, editions, expected):
    checkout = make_checkout(tmp_path / "c")
    config = read_yaml(checkout / "test-config.yaml")
    for name, entry in editions.items():
        config["editions"].setdefault(name, {}).update(entry)
    (checkout / "test-config.yaml").write_text(json.dumps(config))
    result = snakemake(checkout, "--dry-run", check=False)
    assert result.returncode == 1
    assert config_lines(result) == [expected]
    assert "Traceback" not in result.stdout + result.stderr
    assert not (checkout / "data").exists() and not (checkout / "logs").exists()


def test_an_edition_defined_twice_in_one_file_is_named_with_its_line(tmp_path):
    checkout = make_checkout(tmp_path / "c")
    text = (checkout / "test-config.yaml").read_text()
    twice = "editions:\n  again: {allowed: allowed, answers: answers}\n"
    twice += "  again: {allowed: allowed, answers: answers, enabled: false}\n"
    (checkout / "twice.yaml").write_text(twice)
    result = snakemake(
        checkout, "--dry-run", "--configfile", "test-config.yaml", "twice.yaml", check=False
    )
    assert result.returncode == 1, result.stderr
    assert config_lines(result) == [
        "config: twice.yaml: line 3: edition 'again' is defined twice; give each edition its "
        "own name"
    ]
    assert text == (checkout / "test-config.yaml").read_text()


def checkout_with_local_answers(tmp_path: Path, name: str, text: str) -> Path:
    """A fixture checkout whose answer list is the local file `name` holding `text`."""
    checkout = make_checkout(tmp_path / "c")
    (checkout / name).write_text(text)
    config = read_yaml(checkout / "test-config.yaml")
    config["sources"]["answers"] = {"kind": "local", "path": name}
    (checkout / "test-config.yaml").write_text(json.dumps(config))
    return checkout


def test_an_empty_local_list_stops_before_any_job(tmp_path):
    checkout = checkout_with_local_answers(tmp_path, "empty.txt", "\n  \n")
    result = snakemake(checkout, "--dry-run", check=False)
    assert result.returncode == 1
    assert config_lines(result) == ["config: sources.answers.path: empty.txt holds no words"]
    assert not (checkout / "data").exists()


def test_an_answer_missing_from_the_allowed_list_fails_its_index_job_with_one_line(tmp_path):
    checkout = checkout_with_local_answers(tmp_path, "my-answers.txt", "cigar\nzzzzz\n")
    result = snakemake(checkout, f"data/derived/{EDITION}/words.parquet", check=False)
    assert result.returncode != 0
    log = (checkout / "logs" / "build_word_index" / EDITION / "words.log").read_text()
    assert (
        "my-answers.txt (copied to data/raw/answers.txt), line 2: 'zzzzz' is not in the "
        "allowed list"
    ) in log
    assert "Traceback" not in log
    assert not (checkout / "data" / "derived" / EDITION / "words.parquet").exists()


def read_yaml(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


def config_lines(result: subprocess.CompletedProcess) -> list[str]:
    """The lines of Snakemake's output that name a config problem."""
    return [line for line in result.stderr.splitlines() if line.startswith("config: ")]


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
STRATEGY = st.dictionaries(
    st.sampled_from(["name", "label", "opener", "top_n", "pool", "bits_ref", "top", "x"]),
    JSON | st.sampled_from(["two_step", "commonness", "opener_benchmark", "minimax"]),
)
CONFIG = st.dictionaries(
    st.sampled_from(["mirror", "sources", "download", "patterns", "commonness", "x"]), JSON
) | st.builds(lambda entries: strategies(*entries), st.lists(STRATEGY, max_size=3))


@settings(max_examples=300, deadline=None)
@given(config=CONFIG)
@example(config={"sources": {"\n": None}})  # found by this test in CI: a key with a newline
def test_any_config_is_valid_or_one_line_naming_the_key(config):
    message = config_problem(config, SCHEMA)
    if message is None:
        return
    lines = message.split("\n")
    assert lines[0].startswith("config: ") and len(lines) <= 2
    assert len(lines) == 1 or lines[1].startswith("hint: ")


@pytest.mark.parametrize(
    ("key", "shown"), [("\n", "sources['\\n']"), ("\t x", "sources['\\t x']"), ("", "sources['']")]
)
def test_a_key_that_is_not_printable_is_quoted(key, shown):
    message = config_problem({"sources": {key: None}}, SCHEMA)
    assert (
        message.split("\n")[0]
        == f"config: {shown}: is not a valid name (lower-case a-z, digits and _, a letter first)"
    )


def test_the_shipped_config_is_valid():
    config = yaml.safe_load((SCHEMA.parents[2] / "config.yaml").read_text()) or {}
    assert config_problem(config, SCHEMA) is None


def test_a_top_list_longer_than_the_word_index_stops_before_any_search(tmp_path):
    """optimal.top is checked where the word index is first read, like opener names."""
    checkout = make_checkout(tmp_path / "c", optimal={"top": 500})
    result = snakemake(checkout, check=False)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    refused = [line for line in result.stderr.splitlines() if line.startswith("config: ")]
    assert refused[0] == (
        f"config: optimal.top: 500 is not in 1..{len(set(FIXTURE_ALLOWED))} (the allowed "
        'words), nor "all"'
    )
    assert not (checkout / "data" / "derived" / EDITION / "openers.parquet").exists()


def test_an_optimal_opener_not_in_the_word_index_stops_before_any_search(tmp_path):
    """Opener names are known good only once the word index exists: the input function
    that lists the optimal jobs checks them there, before the ranking or any search. In
    the run that builds the index Snakemake adds its own lines after ours (it stops while
    it updates the job graph); in a later run ours is the last line."""
    checkout = make_checkout(tmp_path / "c", optimal={"openers": ["cigar", "xyzzy"]})
    expected = "config: optimal.openers: 'xyzzy' is not a word of the word index"
    for _ in range(2):
        result = snakemake(checkout, check=False)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stdout + result.stderr
        lines = result.stderr.splitlines()
        assert [line for line in lines if line.startswith("config: ")][0].startswith(expected)
        assert (checkout / "data" / "derived" / EDITION / "words.parquet").is_file()
        assert not (checkout / "data" / "work" / "optimal").exists()
        assert not (checkout / "data" / "derived" / EDITION / "openers.parquet").exists()
    assert lines[-1].startswith(expected), result.stderr
