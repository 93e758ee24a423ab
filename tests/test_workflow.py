"""The Snakemake workflow end to end on a fixture mirror: outputs, rebuilds, errors, lint."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml

from pipeline.matrix import PatternStoreError, load_pattern_matrix
from pipeline.patterns import encode_words, feedback_matrix
from tests.conftest import FIXTURE_ALLOWED, FIXTURE_ANSWERS, REPO, write_fixture_mirror

pytestmark = pytest.mark.slow

SNAKEMAKE = [sys.executable, "-m", "snakemake"]

# The fixture lists are unpinned stand-ins for the real sources (merged over config.yaml).
FIXTURE_CONFIG = {
    "mirror": "mirror",
    "sources": {
        "allowed": {
            "kind": "url",
            "url": "https://example.invalid/allowed.txt",
            "sha256": "",
            "mirror_path": "allowed.txt",
        },
        "answers": {
            "kind": "url",
            "url": "https://example.invalid/answers.txt",
            "sha256": "",
            "mirror_path": "answers.txt",
        },
        "frequency": {
            "kind": "kaggle",
            "dataset": "owner/dataset",
            "file": "unigram_freq.csv",
            "sha256": "",
            "mirror_path": "unigram_freq.csv",
        },
    },
    "commonness": {"n_common": 5, "width": 10},
    "patterns": {"chunk_rows": 7},
}


def snakemake_command(workdir: Path, *args: str) -> list[str]:
    """The command that runs the repository's workflow in `workdir` with the fixture config."""
    return [
        *SNAKEMAKE,
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--workflow-profile",
        str(REPO / "workflow" / "profiles" / "default"),
        "--configfile",
        str(workdir / "test-config.yaml"),
        "--cores",
        "2",
        *args,
    ]


def fixture_env() -> dict[str, str]:
    """The environment, less a WORDLE_MIRROR that would override the fixture's mirror."""
    return {key: value for key, value in os.environ.items() if key != "WORDLE_MIRROR"}


def snakemake(workdir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run the workflow; fail the test with Snakemake's output unless it succeeds."""
    result = subprocess.run(
        snakemake_command(workdir, *args),
        capture_output=True,
        text=True,
        env=fixture_env(),
        check=False,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"snakemake failed:\n{result.stdout}\n{result.stderr}")
    return result


def planned_jobs(workdir: Path) -> dict[str, int]:
    """Rule name -> job count of a dry run ({} when nothing is to be done)."""
    output = snakemake(workdir, "--dry-run").stdout
    if "Nothing to be done" in output:
        return {}
    table = output.split("Job stats:", 1)[1]
    rows = re.findall(r"^(\w+)\s+(\d+)$", table.split("\n\n", 1)[0], flags=re.MULTILINE)
    return {rule: int(count) for rule, count in rows if rule not in ("total", "all")}


def make_workdir(path: Path, **overrides) -> Path:
    config = json.loads(json.dumps(FIXTURE_CONFIG))
    config.update(overrides)
    path.mkdir(parents=True, exist_ok=True)
    write_fixture_mirror(path / "mirror")
    (path / "config.yaml").write_text((REPO / "config.yaml").read_text())
    (path / "test-config.yaml").write_text(yaml.safe_dump(config))
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """One complete run on the fixture, shared by the read-only checks below."""
    workdir = make_workdir(tmp_path_factory.mktemp("built"))
    snakemake(workdir)
    return workdir


def test_run_builds_every_artifact(built):
    derived = built / "data" / "derived"
    words = pl.read_parquet(derived / "words.parquet")
    expected_words = sorted(set(FIXTURE_ALLOWED) | set(FIXTURE_ANSWERS))
    assert words["word"].to_list() == expected_words
    assert words["is_answer"].sum() == len(FIXTURE_ANSWERS)
    commonness = pl.read_parquet(derived / "commonness.parquet")
    assert commonness["word"].to_list() == expected_words
    model = commonness.filter(pl.col("word") == "model").row(0, named=True)
    assert model["count"] == 125000  # "model" + "Model"
    assert model["frequency_rank"] == 1
    matrix = load_pattern_matrix(derived / "patterns" / "index.json", derived / "words.parquet")
    answers = sorted(FIXTURE_ANSWERS)
    assert matrix.shape == (len(expected_words), len(answers))
    assert len(matrix.chunks) == 3  # 21 words at 7 rows per chunk
    expected = feedback_matrix(encode_words(expected_words), encode_words(answers))
    assert np.array_equal(matrix.full(), expected)
    provenance = json.loads((built / "data" / "raw" / "allowed.provenance.json").read_text())
    assert provenance["read_from"] == "mirror"
    assert provenance["bytes"] == len("\n".join(FIXTURE_ALLOWED))
    for rule in ("fetch_source", "build_word_index", "build_commonness", "compute_pattern_chunk"):
        assert any((built / "logs" / rule).iterdir()), f"{rule} wrote no log"


def test_second_run_has_nothing_to_do(built):
    assert planned_jobs(built) == {}


def test_touched_but_identical_files_rebuild_nothing(built):
    for path in [*(built / "mirror").iterdir(), *(built / "data" / "raw").iterdir()]:
        os.utime(path)
    assert planned_jobs(built) == {}


def test_changed_frequency_rebuilds_commonness_only(tmp_path):
    workdir = make_workdir(tmp_path)
    snakemake(workdir)
    with open(workdir / "mirror" / "unigram_freq.csv", "a") as handle:
        handle.write("sissy,999999\n")
    jobs = planned_jobs(workdir)
    assert jobs["fetch_source"] == 1 and jobs["build_commonness"] == 1
    # what reads p_common follows; nothing built from the word lists alone does
    assert {"compute_entropy", "rank_prior_openers", "play_benchmarks"} <= set(jobs)
    assert not {"build_word_index", "compute_pattern_chunk", "rank_opener_part"} & set(jobs)
    snakemake(workdir)
    commonness = pl.read_parquet(workdir / "data" / "derived" / "commonness.parquet")
    assert commonness.filter(pl.col("word") == "sissy")["count"].item() == 999999 + 300


def test_changed_word_list_rebuilds_everything_downstream(tmp_path):
    workdir = make_workdir(tmp_path)
    snakemake(workdir)
    with open(workdir / "mirror" / "allowed.txt", "a") as handle:
        handle.write("\nzebra")
    jobs = planned_jobs(workdir)
    # Chunk, index, entropy and opener jobs join once the word index checkpoint has run
    # and says how many chunks there are.
    assert {"fetch_source", "build_word_index", "build_commonness", "build_manifest"} <= set(jobs)
    assert jobs["fetch_source"] == 1
    snakemake(workdir)
    words = pl.read_parquet(workdir / "data" / "derived" / "words.parquet")
    assert "zebra" in words["word"].to_list()
    index = json.loads((workdir / "data/derived/patterns/index.json").read_text())
    assert index["shape"] == [22, len(FIXTURE_ANSWERS)]
    assert len(index["chunks"]) == 4
    entropy = pl.read_parquet(workdir / "data" / "derived" / "entropy.parquet")
    assert "zebra" in entropy["word"].to_list()


def test_switching_source_in_config_rebuilds(built):
    config = yaml.safe_load((built / "test-config.yaml").read_text())
    config["sources"]["answers"]["mirror_path"] = "allowed.txt"
    (built / "alt-config.yaml").write_text(yaml.safe_dump(config))
    result = snakemake(built, "--dry-run", "--configfile", str(built / "alt-config.yaml"))
    assert "fetch_source" in result.stdout and "build_word_index" in result.stdout


def test_bad_word_list_fails_with_a_clear_message_and_no_artifact(tmp_path):
    workdir = make_workdir(tmp_path)
    (workdir / "mirror" / "answers.txt").write_text("cigar\nreb7t\n")
    result = snakemake(workdir, check=False)
    assert result.returncode != 0
    log = (workdir / "logs" / "build_word_index" / "words.log").read_text()
    assert "data/raw/answers.txt, line 2: word 'reb7t' has characters outside a-z" in log
    assert "Traceback" not in log
    assert not (workdir / "data" / "derived" / "words.parquet").exists()


def test_pinned_checksum_mismatch_writes_nothing(tmp_path):
    workdir = make_workdir(tmp_path)
    config = yaml.safe_load((workdir / "test-config.yaml").read_text())
    config["sources"]["allowed"]["sha256"] = "0" * 64
    (workdir / "test-config.yaml").write_text(yaml.safe_dump(config))
    result = snakemake(workdir, check=False)
    assert result.returncode != 0
    log = (workdir / "logs" / "fetch_source" / "allowed.log").read_text()
    assert "sha256 mismatch" in log and "0" * 64 in log
    assert not (workdir / "data" / "raw" / "allowed.txt").exists()


def test_no_network_and_no_mirror_names_the_option(tmp_path):
    workdir = make_workdir(tmp_path, mirror="")
    config = yaml.safe_load((workdir / "test-config.yaml").read_text())
    config["download"] = {"timeout": 2, "retries": 0}
    (workdir / "test-config.yaml").write_text(yaml.safe_dump(config))
    result = snakemake(workdir, "data/raw/allowed.txt", check=False)
    assert result.returncode != 0
    logs = "".join(path.read_text() for path in (workdir / "logs" / "fetch_source").iterdir())
    assert "WORDLE_MIRROR" in logs and "mirror" in logs
    assert "Traceback" not in logs


def test_invalid_config_is_rejected_before_any_job(tmp_path):
    workdir = make_workdir(tmp_path, patterns={"chunk_rows": 0})
    result = snakemake(workdir, check=False)
    assert result.returncode != 0
    assert "chunk_rows" in result.stdout + result.stderr
    assert not (workdir / "data").exists()


def test_lint_reports_only_the_documented_exception():
    result = subprocess.run(
        [*SNAKEMAKE, "--lint", "--snakefile", str(REPO / "Snakefile")],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    report = result.stdout + result.stderr
    linted = re.findall(r"^Lints for (rule \w+|snakefile \S+)", report, flags=re.MULTILINE)
    titles = set(re.findall(r"^\s+\* (.+?):?$", report, flags=re.MULTILINE))
    # Explained in the README: rules run the installed `pipeline` package of the
    # environment that runs Snakemake, so a per-rule conda environment does not apply.
    assert titles == {"Specify a conda environment or container for each rule."}
    assert all(item.startswith("rule ") for item in linted), linted


def test_manifest_lists_and_verifies_every_artifact(built, tmp_path):
    derived = built / "data" / "derived"
    manifest = json.loads((derived / "manifest.json").read_text())
    on_disk = {
        path.relative_to(derived).as_posix()
        for path in derived.rglob("*")
        if path.is_file() and path.name not in ("manifest.json", ".gitkeep")
    }
    assert set(manifest["artifacts"]) == on_disk
    words = manifest["artifacts"]["words.parquet"]
    assert words["rows"] == len(set(FIXTURE_ALLOWED) | set(FIXTURE_ANSWERS))
    assert [column["name"] for column in words["schema"]] == [
        "word_id",
        "word",
        "is_answer",
        "answer_id",
    ]
    assert all(column["description"] for column in words["schema"])
    assert set(manifest["raw_inputs"]) == {"allowed", "answers", "frequency"}
    assert "mirror" not in manifest["config"]
    assert manifest["config"]["commonness"] == {"n_common": 5, "width": 10}

    copy = tmp_path / "derived"
    shutil.copytree(derived, copy)
    verify = [sys.executable, "-m", "pipeline.cli", "verify", str(copy / "manifest.json")]
    assert subprocess.run(verify, capture_output=True, check=False).returncode == 0
    chunk = copy / "patterns" / "chunk-0001.npy.zst"
    data = bytearray(chunk.read_bytes())
    data[len(data) // 2] ^= 0xFF
    chunk.write_bytes(bytes(data))
    (copy / "commonness.parquet").unlink()
    result = subprocess.run(verify, capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert f"{chunk}: altered (sha256 differs from the manifest)" in result.stderr
    assert f"{copy / 'commonness.parquet'}: missing" in result.stderr
    assert "Traceback" not in result.stderr


def test_two_clean_runs_give_identical_manifests(built, tmp_path):
    other = make_workdir(tmp_path / "again")
    snakemake(other)
    first = (built / "data" / "derived" / "manifest.json").read_bytes()
    assert (other / "data" / "derived" / "manifest.json").read_bytes() == first


def test_cluster_executor_runs_every_job_as_its_own_process(tmp_path, built):
    """cluster-generic with a local submit script: jobs share nothing but files."""
    workdir = make_workdir(tmp_path)
    snakemake(
        workdir,
        "--executor",
        "cluster-generic",
        "--cluster-generic-submit-cmd",
        str(REPO / "tests" / "cluster" / "submit.sh"),
        "--jobs",
        "4",
        "--seconds-between-status-checks",
        "1",
    )
    derived, reference = workdir / "data" / "derived", built / "data" / "derived"
    assert (derived / "manifest.json").read_bytes() == (reference / "manifest.json").read_bytes()
    log = (workdir / "logs" / "compute_pattern_chunk" / "patterns-0000.log").read_text()
    assert "chunk 0: rows 0-6" in log


@pytest.mark.parametrize("damage", ["flip", "truncate", "delete"])
@pytest.mark.parametrize("victim", ["patterns/chunk-0001.npy.zst", "commonness.parquet"])
def test_damaged_artifact_is_named_and_a_rerun_repairs_it(tmp_path, damage, victim):
    workdir = make_workdir(tmp_path)
    snakemake(workdir)
    derived = workdir / "data" / "derived"
    original = (derived / "manifest.json").read_bytes()
    words_mtime = (derived / "words.parquet").stat().st_mtime_ns
    path = derived / victim
    data = path.read_bytes()
    if damage == "flip":
        path.write_bytes(data[:100] + bytes([data[100] ^ 0x01]) + data[101:])
    elif damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    else:
        path.unlink()
    if victim.startswith("patterns/"):
        matrix = load_pattern_matrix(derived / "patterns" / "index.json")
        with pytest.raises(PatternStoreError, match=re.escape(str(path))):
            matrix.full()
    verify = [sys.executable, "-m", "pipeline.cli", "verify", str(derived / "manifest.json")]
    result = subprocess.run([*verify, "--remove-damaged"], capture_output=True, text=True)
    assert result.returncode == 1
    assert str(path) in result.stderr
    assert not path.exists()
    snakemake(workdir)
    assert (derived / "manifest.json").read_bytes() == original
    assert (derived / "words.parquet").stat().st_mtime_ns == words_mtime


def _kill_when(workdir: Path, marker: Path, timeout: float = 120) -> None:
    """Start the workflow and SIGKILL it (all its processes) once `marker` appears."""
    process = subprocess.Popen(
        snakemake_command(workdir),
        env=fixture_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + timeout
    while not marker.exists():
        assert process.poll() is None, "the workflow ended before the stage was reached"
        assert time.monotonic() < deadline, f"{marker} never appeared"
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    # A hard kill leaves Snakemake's lock behind; the README tells operators to unlock.
    snakemake(workdir, "--unlock")


def test_killed_runs_resume_to_identical_artifacts(built, tmp_path):
    workdir = make_workdir(tmp_path)
    logs = workdir / "logs"
    _kill_when(workdir, logs / "compute_pattern_chunk")
    _kill_when(workdir, logs / "compute_entropy")
    snakemake(workdir)
    derived, reference = workdir / "data" / "derived", built / "data" / "derived"
    assert (derived / "manifest.json").read_bytes() == (reference / "manifest.json").read_bytes()
    leftovers = [path for path in derived.rglob(".*") if path.name != ".gitkeep"]
    assert leftovers == []
    problems = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "verify", str(derived / "manifest.json")],
        check=False,
    )
    assert problems.returncode == 0


def readme_examples() -> list[tuple[str, str]]:
    """(language, code) of every fenced block in the README's section on other tools."""
    text = (REPO / "README.md").read_text()
    section = text.split("## Using the artifacts from other tools", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(python|sql)\n(.*?)```", section, flags=re.DOTALL)


def test_readme_has_polars_and_duckdb_examples():
    languages = [language for language, _ in readme_examples()]
    assert languages.count("python") >= 2 and languages.count("sql") >= 2


@pytest.mark.parametrize("number", range(len(readme_examples())))
def test_readme_example_runs_as_written(built, number):
    import duckdb

    language, code = readme_examples()[number]
    cwd = os.getcwd()
    os.chdir(built)
    try:
        if language == "python":
            exec(compile(code, f"README example {number}", "exec"), {})
        else:
            rows = duckdb.sql(code).fetchall()
            assert rows, "the query returned no rows"
    finally:
        os.chdir(cwd)
