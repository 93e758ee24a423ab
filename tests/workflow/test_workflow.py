"""The Snakemake workflow end to end on the fixture: outputs, reruns, errors, lint."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from pipeline.artifacts.history import read_history
from pipeline.artifacts.patterns import PatternMatrix
from pipeline.artifacts.raw import read_provenance
from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix
from tests.support.fixtures import (
    FIXTURE_ALLOWED,
    FIXTURE_ANSWERS,
    FIXTURE_HISTORY,
    FIXTURE_UNTIL,
    REPO,
)
from tests.support.workflow_helpers import (
    COMMONNESS_FILE,
    EDITION,
    FIXTURE_CONFIG,
    OPTIMAL_STAGE,
    SNAKEMAKE,
    VERIFY,
    artifact_files,
    built_from,
    clone_checkout,
    fixture_env,
    long_lines,
    make_checkout,
    planned_jobs,
    read_config,
    snakemake,
    snakemake_command,
    write_config,
)


def test_run_builds_every_artifact(built_checkout):
    derived = built_checkout / "data" / "derived"
    words = pl.read_parquet(derived / EDITION / "words.parquet")
    expected_words = sorted(set(FIXTURE_ALLOWED) | set(FIXTURE_ANSWERS))
    assert words["word"].to_list() == expected_words
    assert words["is_answer"].sum() == len(FIXTURE_ANSWERS)
    commonness = pl.read_parquet(built_checkout / COMMONNESS_FILE)
    model = commonness.filter(pl.col("word") == "model").row(0, named=True)
    assert model["count"] == 125000  # "model" + "Model"
    assert model["frequency_rank"] == 1
    matrix = PatternMatrix(derived / EDITION / "patterns" / "index.json")
    answers = sorted(FIXTURE_ANSWERS)
    assert matrix.shape == (len(expected_words), len(answers))
    assert len(matrix.chunks) == 3  # 21 words at 7 rows per chunk
    expected = feedback_matrix(encode_words(expected_words), encode_words(answers))
    assert np.array_equal(matrix.full(), expected)
    # The edition's answers are [answers, history]: history.until cuts the last day.
    history = read_history(derived / "shared" / "history.parquet")
    assert history["answer"].to_pylist() == FIXTURE_HISTORY[:-1]
    assert history["date"][-1].as_py().isoformat() == FIXTURE_UNTIL
    assert history["repeat"].to_pylist() == [False] * 4 + [True]
    assert all(history[f"in_{EDITION}"].to_pylist())
    provenance = read_provenance(built_checkout / "data" / "raw" / "allowed.txt")
    assert provenance["read_from"] == "mirror"
    assert provenance["bytes"] == len("\n".join(FIXTURE_ALLOWED))
    for rule in ("fetch_source", "build_word_index", "build_commonness", "compute_pattern_chunk"):
        assert any((built_checkout / "logs" / rule).iterdir()), f"{rule} wrote no log"
        assert any((built_checkout / "logs" / "benchmarks" / rule).iterdir()), (
            f"{rule}: no benchmark"
        )


def test_second_run_has_nothing_to_do(built_checkout):
    assert planned_jobs(built_checkout) == {}


def test_touched_but_identical_files_rebuild_nothing(built_checkout, tmp_path):
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    for path in [*(checkout / "mirror").iterdir(), *(checkout / "data" / "raw").iterdir()]:
        os.utime(path)
    assert planned_jobs(checkout) == {}


def test_changed_frequency_rebuilds_what_reads_p_common(built_checkout, tmp_path):
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    config = read_config(checkout)
    config["sources"]["frequency"]["mirror_path"] = "other_freq.csv"
    write_config(checkout, config)
    text = (checkout / "mirror" / "unigram_freq.csv").read_text() + "sissy,999999\n"
    (checkout / "mirror" / "other_freq.csv").write_text(text)
    jobs = planned_jobs(checkout)
    assert jobs["fetch_source"] == 1 and jobs["build_commonness"] == 1
    assert {"compute_entropy", "rank_prior_openers", "play_strategy"} <= set(jobs)
    assert not {"build_word_index", "compute_pattern_chunk", "rank_opener_part"} & set(jobs)
    snakemake(checkout)
    commonness = pl.read_parquet(checkout / COMMONNESS_FILE)
    assert commonness.filter(pl.col("word") == "sissy")["count"].item() == 999999 + 300


def test_changed_word_list_rebuilds_everything_downstream(built_checkout, tmp_path):
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    config = read_config(checkout)
    config["sources"]["allowed"]["mirror_path"] = "allowed2.txt"
    write_config(checkout, config)
    (checkout / "mirror" / "allowed2.txt").write_text("\n".join([*FIXTURE_ALLOWED, "zebra"]))
    jobs = planned_jobs(checkout)
    assert {"fetch_source", "build_word_index", "build_commonness", "build_datapackage"} <= set(
        jobs
    )
    snakemake(checkout)
    index = json.loads((checkout / f"data/derived/{EDITION}/patterns/index.json").read_text())
    assert index["shape"] == [22, len(FIXTURE_ANSWERS)]
    assert len(index["chunks"]) == 4
    entropy = pl.read_parquet(checkout / "data" / "derived" / EDITION / "entropy.parquet")
    assert "zebra" in entropy["word"].to_list()


def test_mirror_file_changes_rerun_nothing(built_checkout, tmp_path):
    """Where bytes come from is not a param: an unpinned mirror file that changed later
    is not refetched (the source entry did not change)."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    with open(checkout / "mirror" / "unigram_freq.csv", "a") as handle:
        handle.write("sissy,5\n")
    assert planned_jobs(checkout) == {}


def test_later_commands_without_the_mirror_change_nothing(built_checkout, tmp_path):
    """Built with the mirror, then README commands without it on a machine with no
    network: nothing under data/ changes except what was forced."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    config = read_config(checkout)
    config["mirror"] = ""
    write_config(checkout, config)
    before = artifact_files(checkout)
    plots = [f"draw_{name}" for name in ("guess_distribution", "opener_benchmark")]
    plots += [f"draw_{name}" for name in ("score_model", "entropy_vs_commonness")]
    snakemake(checkout, "--forcerun", *plots, cores=1)
    snakemake(checkout, "--report", "report.html", cores=1)
    after = artifact_files(checkout)
    changed = {name for name in before if before[name] != after.get(name)}
    assert changed <= {name for name in before if name.startswith("derived/plots/")}
    assert set(after) == set(before)
    assert (checkout / "report.html").stat().st_size > 10_000


def test_switching_source_in_config_rebuilds(built_checkout):
    config = read_config(built_checkout)
    config["sources"]["answers"]["mirror_path"] = "allowed.txt"
    (built_checkout / "alt-config.yaml").write_text(json.dumps(config))
    jobs = planned_jobs(built_checkout, "--configfile", "alt-config.yaml")
    (built_checkout / "alt-config.yaml").unlink()
    assert jobs["fetch_source"] == 1 and "build_word_index" in jobs


def test_bad_word_list_fails_with_a_clear_message_and_no_artifact(tmp_path):
    """The fetch step checks the list, so the error names the file the user knows."""
    checkout = make_checkout(tmp_path / "c")
    (checkout / "mirror" / "answers.txt").write_text("cigar\nreb7t\n")
    result = snakemake(checkout, check=False)
    assert result.returncode != 0
    log = (checkout / "logs" / "fetch_source" / "answers.log").read_text()
    assert "mirror/answers.txt, line 2: word 'reb7t' has characters outside a-z" in log
    assert "Traceback" not in log
    assert not (checkout / "data" / "raw" / "answers.txt").exists()
    assert not (checkout / "data" / "derived" / EDITION / "words.parquet").exists()


def test_pinned_checksum_mismatch_writes_nothing(tmp_path):
    checkout = make_checkout(tmp_path / "c")
    config = read_config(checkout)
    config["sources"]["allowed"]["sha256"] = "0" * 64
    write_config(checkout, config)
    result = snakemake(checkout, check=False)
    assert result.returncode != 0
    log = (checkout / "logs" / "fetch_source" / "allowed.log").read_text()
    assert "sha256 mismatch" in log and "0" * 64 in log
    assert not (checkout / "data" / "raw" / "allowed.txt").exists()


def test_no_network_and_no_mirror_names_the_option(tmp_path):
    checkout = make_checkout(tmp_path / "c", mirror="", download={"timeout": 2, "retries": 0})
    result = snakemake(checkout, "data/raw/allowed.txt", check=False)
    assert result.returncode != 0
    logs = "".join(path.read_text() for path in (checkout / "logs" / "fetch_source").iterdir())
    assert "WORDLE_MIRROR" in logs and "mirror" in logs
    assert "Traceback" not in logs


def test_invalid_config_is_rejected_before_any_job(tmp_path):
    checkout = make_checkout(tmp_path / "c", patterns={"chunk_rows": 0})
    result = snakemake(checkout, check=False)
    assert result.returncode != 0
    assert "chunk_rows" in result.stdout + result.stderr
    assert not (checkout / "data").exists()


def test_lint_reports_only_the_documented_exception(built_checkout):
    result = subprocess.run(
        [*SNAKEMAKE, "--lint", "--configfile", "test-config.yaml"],
        cwd=built_checkout,
        capture_output=True,
        text=True,
        check=False,
        env=fixture_env(),
    )
    report = result.stdout + result.stderr
    linted = re.findall(r"^Lints for (rule \w+|snakefile \S+)", report, flags=re.MULTILINE)
    titles = set(re.findall(r"^\s+\* (.+?):?$", report, flags=re.MULTILINE))
    # Explained in docs/operating.md: rules run the installed `pipeline` package of the
    # environment that runs Snakemake, so a per-rule conda environment does not apply.
    assert titles == {"Specify a conda environment or container for each rule."}
    assert all(item.startswith("rule ") for item in linted), linted


def test_the_data_package_lists_describes_and_verifies_every_artifact(built_checkout, tmp_path):
    derived = built_checkout / "data" / "derived"
    descriptor = json.loads((derived / "datapackage.json").read_text())
    on_disk = {
        path.relative_to(derived).as_posix()
        for path in derived.rglob("*")
        if path.is_file()
        and not path.name.endswith(".seal.json")
        and path.name not in ("datapackage.json", ".gitkeep")
    }
    resources = {resource["path"]: resource for resource in descriptor["resources"]}
    assert set(resources) == on_disk
    assert list(resources)[0] == "shared/allowed/commonness.parquet"
    assert list(resources)[-4:] == [  # the artifacts in order, then what describes them
        "tables/editions.html",
        "schema.sql",
        "README.md",
        f"{EDITION}/croissant.json",
    ]
    words = resources[f"{EDITION}/words.parquet"]
    assert words["rows"] == len(set(FIXTURE_ALLOWED) | set(FIXTURE_ANSWERS))
    fields = words["schema"]["fields"]
    assert [field["name"] for field in fields] == ["word_id", "word", "is_answer", "answer_id"]
    assert [field["type"] for field in fields] == ["integer", "string", "boolean", "integer"]
    assert all(field["description"] for field in fields)
    assert resources[f"{EDITION}/plots/score-model.png"]["mediatype"] == "image/png"
    assert [license["name"] for license in descriptor["licenses"]] == ["MIT"]
    assert len(descriptor["sources"]) == 4
    extra = descriptor["wordle_pipeline"]
    assert set(extra["raw_inputs"]) == {"allowed", "answers", "frequency", "history"}
    assert list(resources)[1] == "shared/history.parquet"
    history_fields = resources["shared/history.parquet"]["schema"]["fields"]
    assert [field["name"] for field in history_fields][-1] == f"in_{EDITION}"
    assert "mirror" not in extra["config"]
    assert extra["editions"] == [
        {
            "name": EDITION,
            "title": "the tiny test fixture",
            "path": EDITION,
            "allowed": "allowed",
            "answers": ["answers", "history"],
        }
    ]
    assert extra["config"]["commonness"] == {"n_common": 5, "width": 10}

    copy = clone_checkout(built_checkout, tmp_path / "c") / "data" / "derived"
    verify = [*VERIFY, str(copy / "datapackage.json")]
    assert subprocess.run(verify, capture_output=True, check=False).returncode == 0
    chunk = copy / EDITION / "patterns" / "chunk-0001.npy.zst"
    data = bytearray(chunk.read_bytes())
    data[len(data) // 2] ^= 0xFF
    chunk.write_bytes(bytes(data))
    (copy / "shared" / "allowed" / "commonness.parquet").unlink()
    result = subprocess.run(verify, capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert f"{chunk}: altered (sha256 differs from the descriptor)" in result.stderr
    assert f"{copy / 'shared' / 'allowed' / 'commonness.parquet'}: missing" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_data_package_is_valid_by_the_standards_own_validator(built_checkout):
    """frictionless (the Data Package reference library) accepts the descriptor against
    the Data Package profile, every resource and every table schema included."""
    from frictionless import Package

    path = built_checkout / "data" / "derived" / "datapackage.json"
    descriptor = json.loads(path.read_text())
    report = Package.validate_descriptor(descriptor)
    assert report.valid, report.flatten(["type", "note"])
    package = Package.from_descriptor(str(path))
    assert [r.path for r in package.resources] == [r["path"] for r in descriptor["resources"]]
    broken = json.loads(path.read_text())
    broken["resources"][0]["schema"]["fields"][0]["type"] = "no such type"
    assert not Package.validate_descriptor(broken).valid


MERGED_FROM_PARTS = [
    "openers.parquet", "second_guesses.parquet", "benchmark_games.parquet",
    "benchmark_summary.parquet", "score_model.parquet", "optimal_openers.parquet",
    "optimal_trees.parquet",
]  # fmt: skip


def without_parts(seal_text: bytes) -> dict:
    """A merged file's seal less the parts it names (they depend on the split)."""
    document = json.loads(seal_text)
    inputs = document["inputs"]
    document["inputs"] = {k: v for k, v in inputs.items() if not k.startswith("part_")}
    return document


def test_two_clean_runs_give_identical_artifacts_whatever_the_split(built_checkout, tmp_path):
    """The second clean run splits the work otherwise (one opener job, not two; three
    opener-benchmark jobs, not one; one opener per solve_optimal job, not all of a round;
    two screen parts, not one) and runs on one core: other work files, but every raw
    input, artifact and the descriptor are the same bytes. Only the seals of the files
    merged from parts differ, in the parts they name. It and its dry run print no line
    over LONGEST_LINE characters."""
    optimal = {**FIXTURE_CONFIG["optimal"], "openers_per_job": 1, "screen_parts": 2}
    other = make_checkout(
        tmp_path / "split-otherwise", openers={"parts": 1}, solver={"openers_per_job": 20},
        optimal=optimal,
    )  # fmt: skip
    dry_run = snakemake(other, "--dry-run", cores=1)
    run = snakemake(other, cores=1)
    for printed in (dry_run, run):  # one short line per job, no file lists
        assert long_lines(printed) == []
        assert "Shell command" not in printed.stderr + printed.stdout
        assert "pipeline/__init__.py" not in printed.stderr + printed.stdout
    parts = f"data/work/{EDITION}/opener_parts"
    work = sorted(path.name for path in (other / parts).glob("*.parquet"))
    assert work == ["answers-0.parquet"]  # the prior part is the allowed list's
    assert len(list((built_checkout / parts).glob("answers-*.parquet"))) == 2
    solved = f"data/work/{EDITION}/optimal"
    jobs = [len(list((c / solved).glob("*/*.summary.parquet"))) for c in (other, built_checkout)]
    assert jobs[0] > jobs[1]  # one job per opener against one per mode and round
    mine, theirs = artifact_files(other), artifact_files(built_checkout)
    published = {name for name in theirs if not name.startswith("work/")}
    assert {name for name in mine if not name.startswith("work/")} == published
    merged_seals = {f"derived/{EDITION}/{name}.seal.json" for name in MERGED_FROM_PARTS}
    assert merged_seals <= published
    for name in sorted(published - merged_seals):
        assert mine[name] == theirs[name], name
    for name in sorted(merged_seals):
        assert mine[name] != theirs[name], name  # other parts...
        assert without_parts(mine[name]) == without_parts(theirs[name]), name  # ...only


def test_cluster_executor_runs_every_job_as_its_own_process(built_checkout, tmp_path):
    """cluster-generic with a local submit script: jobs share nothing but files. The run
    starts from a copy of the shared build that keeps only the optimal stage's tables and
    every file they are built from (test_slurm.py builds those through SLURM, each job a
    process of its own), so every other rule runs here, and its files come back as the
    local run's bytes."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    data = checkout / "data"
    stage = [name.removeprefix("data/") for name in OPTIMAL_STAGE]
    kept = set(stage).union(*(built_from(data, name) for name in stage))
    removed = [
        path
        for path in sorted(data.rglob("*"))
        if path.is_file()
        and path.relative_to(data).as_posix().removesuffix(".seal.json") not in kept
        and path.relative_to(data).parts[0] != "raw"
    ]
    assert {"datapackage.json", "README.md"} <= {path.name for path in removed}
    for path in removed:
        path.unlink()
    submit = Path(__file__).parents[1] / "support" / "cluster" / "submit.sh"
    result = snakemake(
        checkout,
        "--executor",
        "cluster-generic",
        "--cluster-generic-submit-cmd",
        str(submit),
        "--jobs",
        "4",
        "--seconds-between-status-checks",
        "1",
    )
    ran = set(re.findall(r"\(Rule: (\w+)\)", result.stdout + result.stderr))
    assert {"play_strategy", "summarize_benchmarks", "build_datapackage"} <= ran
    assert not {"solve_optimal", "screen_openers", "bound_openers"} & ran
    assert artifact_files(checkout) == artifact_files(built_checkout)


def _kill_when(checkout: Path, marker: Path, timeout: float = 180) -> None:
    """Start the workflow and SIGKILL it (all its processes) once `marker` appears."""
    process = subprocess.Popen(
        snakemake_command(checkout),
        cwd=checkout,
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
    # A hard kill leaves Snakemake's lock behind; docs/operating.md tells operators to unlock.
    snakemake(checkout, "--unlock")


def test_killed_runs_resume_to_identical_artifacts(built_checkout, tmp_path):
    checkout = make_checkout(tmp_path / "c")
    logs = checkout / "logs"
    _kill_when(checkout, logs / "compute_pattern_chunk")
    _kill_when(checkout, logs / "compute_entropy")
    snakemake(checkout)
    assert artifact_files(checkout) == artifact_files(built_checkout)
    derived = checkout / "data" / "derived"
    leftovers = [path for path in derived.rglob(".*") if path.name != ".gitkeep"]
    assert leftovers == []
    assert subprocess.run([*VERIFY, str(derived / "datapackage.json")]).returncode == 0


# The documents whose Python and SQL blocks must run as written on the artifacts.
QUERY_DOCUMENTS = (REPO / "README.md", REPO / "docs" / "using-the-data.md")


def examples_of(document: Path) -> list[tuple[str, str]]:
    """(language, code) of every Python and SQL block of `document`."""
    return re.findall(r"```(python|sql)\n(.*?)```", document.read_text(), flags=re.DOTALL)


def query_examples() -> list[tuple[str, str]]:
    """The README's first query and every example of the guide to other tools."""
    return [example for document in QUERY_DOCUMENTS for example in examples_of(document)]


def test_the_documents_have_polars_and_duckdb_examples():
    first_look = [language for language, _ in examples_of(QUERY_DOCUMENTS[0])]
    guide = [language for language, _ in examples_of(QUERY_DOCUMENTS[1])]
    assert first_look and set(first_look) <= {"python", "sql"}
    assert guide.count("python") >= 2 and guide.count("sql") >= 2


@pytest.mark.parametrize("number", range(len(query_examples())))
def test_documented_query_runs_as_written(built_checkout, number):
    import duckdb

    language, code = query_examples()[number]
    # the examples name a default edition; the fixture's artifacts are EDITION's
    code = re.sub(r"data/derived/nyt20\d\d/", f"data/derived/{EDITION}/", code)
    cwd = os.getcwd()
    os.chdir(built_checkout)
    try:
        if language == "python":
            exec(compile(code, f"documented example {number}", "exec"), {})
        else:
            rows = duckdb.sql(code).fetchall()
            assert rows, "the query returned no rows"
    finally:
        os.chdir(cwd)
