"""The mirror is looked in first, as pip looks in --find-links: a missing mirror folder or
file is one warning line, then the real source is fetched; pinned checksums apply either
way. A mirror that is not a folder, or a copy that cannot be read or has other bytes than
the pinned ones, stays a one-line error naming it.

Network sources are throwaway servers on 127.0.0.1 (tests/support/servers.py). The last test runs
the README's first command's pipeline part (the fetches) with the mirror variable naming a
missing folder, as on a fresh clone with no ../shared beside it.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from pipeline.artifacts.raw import read_provenance
from pipeline.core.errors import PipelineError
from pipeline.core.files import sha256_bytes
from pipeline.sources.fetch import MIRROR_ENV, read_source
from tests.support.bad_inputs import assert_logged_once, assert_refused, files_under
from tests.support.servers import Behaviour, Server, respond
from tests.support.stage_runner import run_rule, sealed
from tests.support.workflow_helpers import (
    fixture_env,
    make_checkout,
    planned_jobs,
    read_config,
    snakemake_command,
    write_config,
)

WORDS = b"cigar\nrebut\nsissy\n"
WORDS_SHA = sha256_bytes(WORDS)
SERVED = b"humph\nblush\n"  # what the network gives: other bytes than the mirror's copy


@pytest.fixture(autouse=True)
def _no_env_mirror(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests decide the mirror themselves; a developer's WORDLE_MIRROR must not leak in."""
    monkeypatch.delenv(MIRROR_ENV, raising=False)


@pytest.fixture
def local_mirror(tmp_path: Path) -> Path:
    folder = tmp_path / "mirror"
    (folder / "lists").mkdir(parents=True)
    (folder / "lists" / "allowed.txt").write_bytes(WORDS)
    return folder


def read(
    name: str, spec: dict, local_mirror: Path, warnings: list[str], **options: object
) -> bytes:
    """read_source with short waits and no retries; warnings are collected. Bytes only,
    after checking the provenance says where they were read from."""
    data, record = read_source(
        name,
        spec,
        mirror=local_mirror,
        timeout=2,
        retries=0,
        deadline=30,
        warn=warnings.append,
        **options,
    )
    origin = spec.get("url", f"kaggle:{spec.get('dataset')}/{spec.get('file')}")
    assert record["origin"] == origin and record["sha256"] == sha256_bytes(data)
    from_mirror = record["read_from"] == "mirror"
    assert record["mirror_path"] == (spec["mirror_path"] if from_mirror else None)
    return data


# --- a mirror without the source's copy: one warning, then the network -----------------

NO_COPY = {
    # name: (mirror folder relative to tmp_path, mirror_path, the warning after the source)
    "missing folder": ("gone", "lists/allowed.txt", "mirror folder {mirror} does not exist"),
    "folder below a file": (
        "mirror/lists/allowed.txt/sub",
        "lists/allowed.txt",
        "mirror folder {mirror} does not exist",
    ),
    "missing file": ("mirror", "lists/answers.txt", "'lists/answers.txt' not found in {where}"),
    "file below a file": (
        "mirror",
        "lists/allowed.txt/more.txt",
        "'lists/allowed.txt/more.txt' not found in {where}",
    ),
    "no mirror_path": ("mirror", "", "no mirror_path names its file in {where}"),
}


@pytest.mark.parametrize("case", sorted(NO_COPY))
@pytest.mark.parametrize("pinned", [True, False])
def test_a_mirror_without_the_copy_warns_once_and_downloads(
    tmp_path: Path,
    local_mirror: Path,
    https_server: Callable[[list[Behaviour]], Server],
    case: str,
    pinned: bool,
) -> None:
    folder, mirror_path, fragment = NO_COPY[case]
    server = https_server([respond("200 OK", SERVED)])
    spec = {"kind": "url", "url": server.url, "mirror_path": mirror_path}
    if pinned:
        spec["sha256"] = sha256_bytes(SERVED)
    warnings: list[str] = []
    data = read("allowed", spec, tmp_path / folder, warnings)
    assert data == SERVED and server.attempts == 1
    where = f"mirror folder {tmp_path / 'mirror'}"
    said = fragment.format(mirror=tmp_path / folder, where=where)
    assert warnings == [f"source 'allowed': {said}; fetching {server.url} instead"]


def test_the_pinned_sha256_applies_to_the_download_too(
    tmp_path: Path, https_server: Callable[[list[Behaviour]], Server]
) -> None:
    server = https_server([respond("200 OK", SERVED)])
    spec = {"kind": "url", "url": server.url, "sha256": WORDS_SHA, "mirror_path": "allowed.txt"}
    warnings: list[str] = []
    with pytest.raises(PipelineError) as info:
        read("allowed", spec, tmp_path / "gone", warnings)
    assert str(info.value) == (
        f"source 'allowed': sha256 mismatch for data read from {server.url}: expected "
        f"{WORDS_SHA}, got {sha256_bytes(SERVED)} ({len(SERVED)} bytes); nothing was written"
    )
    assert len(warnings) == 1 and "does not exist" in warnings[0]


def test_a_kaggle_source_without_a_mirror_copy_is_downloaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kagglehub

    cached = tmp_path / "kcache" / "unigram_freq.csv"
    cached.parent.mkdir()
    cached.write_bytes(b"word,count\nthe,5\n")
    monkeypatch.setattr(kagglehub, "dataset_download", lambda *_, **__: str(cached))
    spec = {"kind": "kaggle", "dataset": "o/d", "file": "unigram_freq.csv"}
    spec["mirror_path"] = "unigram_freq.csv"
    warnings: list[str] = []
    assert read("frequency", spec, tmp_path / "gone", warnings) == cached.read_bytes()
    assert warnings == [
        f"source 'frequency': mirror folder {tmp_path / 'gone'} does not exist; "
        "fetching file 'unigram_freq.csv' of Kaggle dataset 'o/d' instead"
    ]


def test_the_warning_is_logged_when_no_one_asks_for_it(
    tmp_path: Path,
    https_server: Callable[[list[Behaviour]], Server],
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = https_server([respond("200 OK", SERVED)])
    spec = {"kind": "url", "url": server.url, "mirror_path": "allowed.txt"}
    options = {"timeout": 2, "retries": 0, "deadline": 30}
    data, _ = read_source("allowed", spec, mirror=tmp_path / "gone", **options)
    assert data == SERVED
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == [
        f"source 'allowed': mirror folder {tmp_path / 'gone'} does not exist; "
        f"fetching {server.url} instead"
    ]


def test_a_mirror_copy_is_read_without_the_network(local_mirror: Path) -> None:
    spec = {"kind": "url", "url": "https://example.invalid/w", "mirror_path": "lists/allowed.txt"}
    warnings: list[str] = []
    assert read("allowed", {**spec, "sha256": WORDS_SHA}, local_mirror, warnings) == WORDS
    assert warnings == []


# --- mistakes to fix stay errors, and nothing is downloaded ----------------------------


def test_mirror_mistakes_are_one_line_errors(tmp_path: Path, local_mirror: Path) -> None:
    spec = {"kind": "url", "url": "https://example.invalid/w", "mirror_path": "lists"}
    not_a_folder = local_mirror / "lists" / "allowed.txt"
    cases = [
        # (mirror, spec, the whole message after "source 'allowed': ")
        (
            not_a_folder,
            spec,
            f"mirror {not_a_folder} is not a folder (check the config key `mirror` and the "
            f"environment variable {MIRROR_ENV})",
        ),
        (
            local_mirror,
            spec,
            f"cannot read mirror file {local_mirror / 'lists'}: [Errno 21] Is a directory: "
            f"'{local_mirror / 'lists'}'",
        ),
        (
            local_mirror,
            {**spec, "mirror_path": "lists/allowed.txt", "sha256": "0" * 64},
            f"sha256 mismatch for data read from mirror file {not_a_folder}: expected "
            f"{'0' * 64}, got {WORDS_SHA} ({len(WORDS)} bytes); nothing was written",
        ),
    ]
    for folder, entry, message in cases:
        warnings: list[str] = []
        with pytest.raises(PipelineError) as info:
            read("allowed", entry, folder, warnings)
        assert str(info.value) == f"source 'allowed': {message}"
        assert warnings == []


# --- the fetch job: the warning in its log and on stderr, or one error line ------------

FETCH_SETTINGS = {"timeout": 2, "retries": 0, "deadline": 30}


def fetch(workdir: Path, spec: dict, local_mirror: str) -> subprocess.CompletedProcess:
    """The fetch_source rule's script for source `allowed`, WORDLE_MIRROR set to `mirror`."""
    params = {"name": "allowed", "spec": json.dumps(spec), **FETCH_SETTINGS}
    output = {"raw": sealed("data/raw/allowed.txt")}
    env = {MIRROR_ENV: local_mirror}
    files = {"input": {"local": []}, "output": output}
    return run_rule(workdir, "fetch_source", **files, params=params, env=env)


def test_the_fetch_job_warns_on_stderr_and_in_its_log_then_downloads(
    tmp_path: Path, https_server: Callable[[list[Behaviour]], Server]
) -> None:
    allowed = b"cigar\nrebut\n"
    server = https_server([respond("200 OK", allowed)])
    spec = {"kind": "url", "url": server.url, "sha256": sha256_bytes(allowed)}
    result = fetch(tmp_path, {**spec, "mirror_path": "allowed.txt"}, "../shared/wordle-data")
    assert result.returncode == 0, result.stderr
    warning = (
        "source 'allowed': mirror folder ../shared/wordle-data does not exist; "
        f"fetching {server.url} instead"
    )
    assert result.stderr.splitlines() == [f"fetch_source: warning: {warning}"]
    log = (tmp_path / "logs" / "fetch_source.log").read_text()
    logged = [line for line in log.splitlines() if " WARNING " in line]
    assert len(logged) == 1 and logged[0].endswith(f" pipeline.stages.fetch_source: {warning}")
    assert log.count(warning) == 1 and "Traceback" not in log
    assert (tmp_path / "data" / "raw" / "allowed.txt").read_bytes() == allowed
    record = read_provenance(tmp_path / "data" / "raw" / "allowed.txt")
    assert record["read_from"] == "network" and record["verified"] is True


def test_the_fetch_job_refuses_a_mirror_copy_with_other_bytes(tmp_path: Path) -> None:
    (tmp_path / "mirror").mkdir()
    (tmp_path / "mirror" / "allowed.txt").write_bytes(WORDS)
    spec = {"kind": "url", "url": "https://example.invalid/w", "mirror_path": "allowed.txt"}
    result = fetch(tmp_path, {**spec, "sha256": "0" * 64}, "mirror")
    message = assert_refused(
        result,
        "fetch_source: ",
        "source 'allowed'",
        "sha256 mismatch for data read from mirror file mirror/allowed.txt: expected",
    )
    assert_logged_once(tmp_path / "logs" / "fetch_source.log", message)
    assert files_under(tmp_path / "data") == []


# --- the README's first command on a fresh clone: no ../shared beside it ----------------


@pytest.mark.slow
def test_first_command_fetches_the_real_sources_when_the_mirror_is_missing(
    tmp_path: Path, https_server: Callable[[list[Behaviour]], Server]
) -> None:
    """The fetches of the first command, WORDLE_MIRROR naming a folder that does not exist
    and the sources on local servers: one warning per source, the served bytes in
    data/raw. Where the bytes came from never reruns anything: with the mirror there
    (holding the same bytes), nothing is to be done."""
    checkout = make_checkout(tmp_path / "c")
    local_mirror = checkout / "mirror"  # the fixture copies, served by the "real" sources
    config = read_config(checkout)
    served: dict[str, tuple[Server, bytes]] = {}
    files = {"allowed": "allowed.txt", "answers": "answers.txt", "frequency": "unigram_freq.csv"}
    for name, file in files.items():
        data = (local_mirror / file).read_bytes()
        served[name] = (https_server([respond("200 OK", data)]), data)
    for name, (server, data) in served.items():
        pin = sha256_bytes(data) if name != "frequency" else ""  # frequency: not pinned
        entry = {"kind": "url", "url": server.url, "sha256": pin, "mirror_path": f"{name}.x"}
        config["sources"][name] = entry
    write_config(checkout, config)
    raw = [f"data/raw/{name}.txt" for name in served]
    result = subprocess.run(
        snakemake_command(checkout, *raw),
        cwd=checkout,
        capture_output=True,
        text=True,
        env={**fixture_env(), MIRROR_ENV: "../shared/wordle-data"},
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    for name, (server, data) in served.items():
        assert (checkout / "data" / "raw" / f"{name}.txt").read_bytes() == data
        assert read_provenance(checkout / "data" / "raw" / f"{name}.txt")["read_from"] == "network"
        warning = (
            f"fetch_source: warning: source {name!r}: mirror folder ../shared/wordle-data "
            f"does not exist; fetching {server.url} instead"
        )
        # Snakemake's own output shares stderr: a job's line may follow its text on a line
        said = [line for line in result.stderr.splitlines() if line.endswith(warning)]
        assert len(said) == 1, result.stderr
        assert server.attempts == 1
    for name in served:  # the mirror now holds every copy, under the configured names
        (local_mirror / f"{name}.x").write_bytes(served[name][1])
    assert planned_jobs(checkout, *raw) == {}
