"""`wordle-pipeline verify` checks everything it can see: the descriptor against its own
seal first, then its shape, every resource, and every other file of the folder.

Each case damages a private copy of the fixture's whole artifact set (built in-process by
the stage functions) the way a hostile or careless user would, and runs the real command.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from pipeline.artifacts import seal
from pipeline.artifacts.package_check import verify_datapackage
from tests.support.artifact_set import EDITION, copy_artifact_set, shared_artifact_set

VERIFY = [sys.executable, "-m", "pipeline.commands.pipeline_cli", "verify"]


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    return shared_artifact_set(tmp_path_factory, "fixture")


@pytest.fixture
def derived(artifacts, tmp_path) -> Path:
    """A private copy of the fixture's data/derived (with data/raw beside it)."""
    return copy_artifact_set(artifacts, tmp_path / "copy").manifest.parent


def verify(descriptor: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*VERIFY, str(descriptor), *extra], capture_output=True, text=True, check=False
    )


def edit_descriptor(derived: Path, change: Callable[[dict], None]) -> Path:
    """Rewrite datapackage.json with `change` applied (its seal is left as it was)."""
    path = derived / "datapackage.json"
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
    return path


def reseal(path: Path) -> None:
    """Make the descriptor's seal agree with its bytes again, as a careful forger would."""
    where = seal.seal_path(path)
    document = json.loads(where.read_text())
    document["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    document["bytes"] = path.stat().st_size
    where.write_text(json.dumps(document))


def test_an_intact_folder_passes_with_its_count(derived):
    result = verify(derived / "datapackage.json")
    resources = json.loads((derived / "datapackage.json").read_text())["resources"]
    size = sum((derived / r["path"]).stat().st_size for r in resources)
    parquet = [r for r in resources if r["format"] == "parquet"]
    assert parquet and all("bytes" not in r and r["hash"] for r in parquet)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == (
        f"checked {len(resources)} artifacts ({size:,} bytes) against "
        f"{derived / 'datapackage.json'}: all match, and nothing else is there\n"
    )


def test_a_byte_flipped_inside_the_descriptor_fails_its_seal(derived):
    path = derived / "datapackage.json"
    text = path.read_text()
    position = text.index('"title": "Wordle strategy data"') + len('"title": "W')
    path.write_text(text[:position] + "X" + text[position + 1 :])
    json.loads(path.read_text())  # still valid JSON: only the seal can tell
    result = verify(path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"ERROR: {path}: altered since it was written (its sha256 differs from its seal "
        f"{seal.seal_path(path)})"
    ]


@pytest.mark.parametrize(
    "change",
    ["drop a damaged resource", "no resources", "one path twice"],
)
def test_a_descriptor_edited_without_its_seal_is_refused_and_removes_nothing(derived, change):
    victim = derived / EDITION / "entropy.parquet"
    before = victim.read_bytes()

    def edit(document: dict) -> None:
        resources = document["resources"]
        if change == "drop a damaged resource":
            resources[:] = [r for r in resources if r["path"] != f"{EDITION}/entropy.parquet"]
            victim.write_bytes(b"damaged")
        elif change == "no resources":
            resources.clear()
        else:
            twin = dict(resources[0], hash="sha256:" + "0" * 64)
            resources.append(twin)

    path = edit_descriptor(derived, edit)
    result = verify(path, "--remove-damaged")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "altered since it was written" in lines[0], lines
    assert path.is_file() and victim.is_file()
    if change != "drop a damaged resource":
        assert victim.read_bytes() == before


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ("drop a resource", "lists 2"),  # the count is checked, not only the seal's hash
        ("no resources", "lists no resources"),
        ("one path twice", "lists 'shared/allowed/commonness.parquet' twice"),
    ],
)
def test_a_descriptor_resealed_by_hand_is_still_checked(derived, change, fragment):
    def edit(document: dict) -> None:
        resources = document["resources"]
        if change == "drop a resource":
            resources[:] = [r for r in resources if r["path"] != f"{EDITION}/entropy.parquet"]
        elif change == "no resources":
            resources.clear()
        else:
            resources.append(dict(resources[0], hash="sha256:" + "0" * 64))

    path = edit_descriptor(derived, edit)
    reseal(path)
    result = verify(path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ERROR: {path}: "), lines
    if change == "drop a resource":
        count = len(json.loads(path.read_text())["resources"])
        assert f"lists {count} resources where its seal recorded {count + 1}" in lines[0]
        assert f"(missing: {EDITION}/entropy.parquet)" in lines[0]
    else:
        assert fragment in lines[0]


def test_foreign_files_are_named_one_line_each_and_never_removed(derived):
    evil = derived / "evil.parquet"
    chunk = derived / EDITION / "patterns" / "chunk-0099.npy.zst"
    moved = derived / EDITION / "entropy.parquet.damaged"
    for path in (evil, chunk, moved):
        path.write_bytes(b"not ours")
    result = verify(derived / "datapackage.json", "--remove-damaged")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"WARNING: {moved}: left by repair (not part of the package): move it to "
        f"{derived.parent / 'repair' / derived.name / EDITION / 'entropy.parquet'} or delete it",
        f"ERROR: {evil}: foreign (not in the descriptor)",
        f"ERROR: {chunk}: foreign (not in the descriptor)",
        "ERROR: 2 problem(s) found",
    ]
    assert result.stdout.startswith("checked ") and result.stdout.endswith(": 2 problem(s)\n")
    assert all(path.read_bytes() == b"not ours" for path in (evil, chunk, moved))
    assert (derived / "datapackage.json").is_file()


def test_a_file_left_by_an_older_repair_is_a_warning_not_a_failure(derived):
    """An older version's repair left `<artifact>.damaged` beside the rebuilt artifact:
    the artifacts are correct and the leftover is not part of the package, so verify
    passes and names it. A `.damaged` name that is no resource's stays foreign."""
    left = derived / EDITION / "entropy.parquet.damaged"
    left.write_bytes(b"the old damaged copy")
    result = verify(derived / "datapackage.json")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"WARNING: {left}: left by repair (not part of the package): move it to "
        f"{derived.parent / 'repair' / derived.name / EDITION / 'entropy.parquet'} or delete it"
    ]
    assert result.stdout.endswith(": all match; 1 file(s) left by repair (see the warnings)\n")
    assert left.read_bytes() == b"the old damaged copy"
    (derived / "evil.damaged").write_bytes(b"x")
    result = verify(derived / "datapackage.json")
    assert result.returncode == 1 and f"ERROR: {derived / 'evil.damaged'}: foreign" in result.stderr


def test_damaged_and_foreign_files_are_all_reported(derived):
    (derived / EDITION / "entropy.parquet").unlink()
    (derived / "stray.txt").write_text("x")
    problems = verify_datapackage(derived / "datapackage.json")
    assert problems == [
        f"{derived / EDITION / 'entropy.parquet'}: missing",
        f"{derived / 'stray.txt'}: foreign (not in the descriptor)",
    ]


def test_a_descriptor_without_its_seal_is_a_problem(derived):
    seal.seal_path(derived / "datapackage.json").unlink()
    problems = verify_datapackage(derived / "datapackage.json")
    assert problems == [
        f"{derived / 'datapackage.json'}: has no seal, so it cannot be checked itself"
    ]


def test_a_release_copy_of_the_descriptor_is_checked_against_the_folders_seal(derived, tmp_path):
    """The release publishes datapackage-TAG.json beside the bundle; checked against the
    unpacked folder, the seal inside the folder vouches for it."""
    copy = tmp_path / "datapackage-v1.json"
    shutil.copyfile(derived / "datapackage.json", copy)
    assert verify(copy, "--directory", str(derived)).returncode == 0
    copy.write_text(copy.read_text().replace("Wordle strategy data", "Wordle strategy dato"))
    result = verify(copy, "--directory", str(derived))
    assert result.returncode == 1 and "altered since it was written" in result.stderr


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"resources": [{"path": "a", "bytes": 1e999, "hash": "x"}]}', "lacks its bytes"),
        (b'{"resources": [{"path": "a", "bytes": ' + b"9" * 5000 + b"}]}", "is not a data"),
        (b'{"resources": [{"path": ["a"], "bytes": 1, "hash": "x"}]}', "without a path"),
        (b'{"resources": [{"path": "a\\\\..\\\\..\\\\b", "bytes": 1, "hash": "x"}]}', "outside"),
        (b'{"resources": null}', "no `resources` list"),
        (b'{"resources": []}', "lists no resources"),
    ],
)
def test_a_malformed_descriptor_of_any_shape_is_one_line(tmp_path, content, fragment):
    path = tmp_path / "datapackage.json"
    path.write_bytes(content)
    result = verify(path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ERROR: {path}: "), lines
    assert fragment in lines[0]


def test_a_deeply_nested_seal_is_one_line(derived):
    seal.seal_path(derived / "datapackage.json").write_bytes(b"[" * 100_000)
    result = verify(derived / "datapackage.json")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "damaged seal" in lines[0], lines


def test_the_command_tells_its_version_and_help_in_plain_words():
    import pipeline

    result = subprocess.run([*VERIFY[:-1], "--version"], capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (0, f"wordle-pipeline {pipeline.__version__}\n")
    for argv in (["--help"], ["verify", "--help"]):
        result = subprocess.run([*VERIFY[:-1], *argv], capture_output=True, text=True)
        assert result.returncode == 0 and result.stdout.startswith("usage: wordle-pipeline")
        assert "`" not in result.stdout and "PipelineError" not in result.stdout


def test_folders_of_editions_the_descriptor_does_not_list_are_named_not_counted(derived):
    """Disabling an edition removes none of its files: its folder, and the shared folder
    of an allowed list no enabled edition names, stay outside the package."""
    shutil.copytree(derived / EDITION, derived / "older")
    shutil.copytree(derived / "shared" / "allowed", derived / "shared" / "older_list")
    (derived / "loose").mkdir()
    (derived / "loose" / "entropy.parquet").write_bytes(b"not ours")
    result = verify(derived / "datapackage.json")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"INFO: {derived / 'older'}: a folder the descriptor does not list; not checked",
        f"INFO: {derived / 'shared' / 'older_list'}: a folder the descriptor does not list; "
        "not checked",
        f"ERROR: {derived / 'loose' / 'entropy.parquet'}: foreign (not in the descriptor)",
        "ERROR: 1 problem(s) found",
    ]


def test_verify_prints_the_totals_of_the_files_it_checked(derived, monkeypatch, capsys):
    """During a rebuild a file may be out of place for an instant and back by the time
    the check reads it: the printed totals are those of what the check read (once they
    were sized apart, before the check, and came out smaller)."""
    from pipeline.artifacts import package_check
    from pipeline.commands.pipeline_cli import main

    descriptor = derived / "datapackage.json"
    resources = json.loads(descriptor.read_text())["resources"]
    paths = sorted(derived / resource["path"] for resource in resources)
    total = sum(path.stat().st_size for path in paths)
    away = paths[-1]  # checked last: out of place until the check begins
    moved = away.with_name(away.name + ".moving")
    away.rename(moved)
    hash_file = package_check.sha256_file

    def back_in_place(path):
        if moved.exists():
            moved.rename(away)  # the rebuild puts it back while the check runs
        return hash_file(path)

    monkeypatch.setattr(package_check, "sha256_file", back_in_place)
    assert main(["verify", str(descriptor)]) == 0
    line = capsys.readouterr().out
    assert f"checked {len(resources)} artifacts ({total:,} bytes)" in line, line
    assert line.rstrip().endswith("all match, and nothing else is there")
