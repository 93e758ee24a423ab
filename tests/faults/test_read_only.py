"""A read-only data folder (issue 64), as a system-wide install, a container or a shared
cluster folder gives: a read-only bind mount as root (file modes do not stop root),
`chmod -R a-w` otherwise (tests.faults.mechanisms.read_only).

The readers work there, with the answers they give on a writable copy; a run that must
write there stops before its first job, or says which file, in one line.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.faults.mechanisms import read_only
from tests.support.workflow_helpers import (
    VERIFY,
    artifact_files,
    clone_checkout,
    fixture_env,
    snakemake_command,
)

pytestmark = pytest.mark.slow  # they read (or run) the fixture build

VICTIM = "tiny/plots/guess-distribution.png"  # what draw_guess_distribution draws
ASSIST = [sys.executable, "-m", "pipeline.commands.assistant", "--data", "data/derived"]
# One-shot answers that read every kind of artifact: the descriptor (the edition's
# title), the history (the coverage line), the stored openers and trees, the pattern
# matrix and the ratings, the score model (prior mode, and the fallback past the answer
# list: serve BYBBB fits no answer), in normal and hard mode.
QUESTIONS = [
    [],
    ["serve", "BGYBB"],
    ["serve", "BGYBB", "--json"],
    ["serve", "BYBBB"],
    ["--mode", "prior", "serve", "BGYBB"],
    ["--hard", "grade", "BBGBY"],
]


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """`command` in `cwd`, without a WORDLE_MIRROR that would override the fixture's."""
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, check=False, env=fixture_env()
    )


@pytest.fixture
def data_copy(built_checkout, tmp_path) -> Path:
    """A folder holding a copy of the fixture build's data/derived (what a user downloads
    or is given), as `data/derived` below it."""
    shutil.copytree(built_checkout / "data" / "derived", tmp_path / "copy" / "data" / "derived")
    return tmp_path / "copy"


def test_verify_and_the_assistant_work_on_a_read_only_folder(data_copy):
    writable = {}  # the answers on the same folder, writable
    for question in QUESTIONS:
        answer = run([*ASSIST, *question], data_copy)
        assert answer.returncode == 0, answer.stderr
        writable[tuple(question)] = answer
    with read_only(data_copy) as prefix:
        verified = run([*prefix, *VERIFY, "data/derived/datapackage.json"], data_copy)
        assert verified.returncode == 0, verified.stderr
        assert verified.stdout.endswith("all match, and nothing else is there\n")
        for question in QUESTIONS:
            answer = run([*prefix, *ASSIST, *question], data_copy)
            expected = writable[tuple(question)]
            assert (answer.returncode, answer.stdout, answer.stderr) == (
                0,
                expected.stdout,
                expected.stderr,
            ), question


def test_removing_damaged_files_in_a_read_only_folder_is_one_line_and_removes_nothing(
    data_copy,
):
    """verify --remove-damaged: removing the damaged file fails, in one line naming it,
    and nothing is removed (the descriptor neither)."""
    victim = data_copy / "data" / "derived" / "tiny" / "entropy.parquet"
    data = bytearray(victim.read_bytes())
    data[60] ^= 0x04
    victim.write_bytes(bytes(data))
    before = sorted(p.relative_to(data_copy) for p in data_copy.rglob("*"))
    with read_only(data_copy) as prefix:
        command = [*prefix, *VERIFY, "--remove-damaged", "data/derived/datapackage.json"]
        result = run(command, data_copy)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stderr.splitlines()
    assert lines[-1].startswith("ERROR: data/derived/tiny/entropy.parquet: ")
    assert "Read-only file system" in lines[-1] or "Permission denied" in lines[-1]
    assert sorted(p.relative_to(data_copy) for p in data_copy.rglob("*")) == before


def test_a_run_that_must_replace_files_in_a_read_only_folder_stops_before_any_job(
    built_checkout, tmp_path
):
    """Snakemake's own check: the outputs a run would replace are write-protected; it
    names the rule and the files, and runs nothing."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    with read_only(checkout / "data") as prefix:
        command = snakemake_command(checkout, "--forcerun", "draw_guess_distribution")
        result = run([*prefix, *command], checkout)
    printed = result.stdout + result.stderr
    assert result.returncode == 1
    # Snakemake names the first job it checks of those the run needs (in no fixed order):
    # the forced one, or the data package built from its output.
    named = re.search(r"Write-protected output files for rule (\w+):", printed)
    assert named is not None and named[1] in ("draw_guess_distribution", "build_datapackage")
    output = {"draw_guess_distribution": VICTIM, "build_datapackage": "datapackage.json"}
    assert f"        data/derived/{output[named[1]]}\n" in printed  # among its files
    assert "Traceback" not in printed
    assert re.search(r"^Job \d+: ", printed, flags=re.MULTILINE) is None  # no job started
    assert artifact_files(checkout) == artifact_files(built_checkout)


@pytest.mark.parametrize("deleted", ["the file", "the file and what is built from it"])
def test_a_run_that_must_add_files_to_a_read_only_folder_stops_with_one_line(
    built_checkout, tmp_path, deleted
):
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    derived = checkout / "data" / "derived"
    names = [VICTIM]
    if deleted != "the file":  # the descriptor's outputs too: nothing left to move aside
        names += ["datapackage.json", "schema.sql", "README.md", "tiny/croissant.json"]
    for name in names:
        (derived / name).unlink()
        (derived / f"{name}.seal.json").unlink()
    with read_only(checkout / "data") as prefix:
        result = run([*prefix, *snakemake_command(checkout)], checkout)
    printed = result.stdout + result.stderr
    assert result.returncode == 1
    # No stack: neither a traceback nor Snakemake's report of an error in the Snakefile
    # ("OSError in file .../Snakefile, line 47:" and the frames below it).
    assert "Traceback" not in printed
    assert "Error in file " not in printed
    assert re.search(r'^\s*File "', printed, flags=re.MULTILINE) is None
    stop = re.findall(r"^wordle: data.*read-only.*$", printed, flags=re.MULTILINE | re.IGNORECASE)
    assert len(stop) == 1 and stop[0].endswith("or run in a writable copy of the checkout")
    assert re.search(r"^Job \d+: ", printed, flags=re.MULTILINE) is None  # no job started
    assert not any((checkout / ".snakemake" / "locks").glob("*"))  # the next run may start
    gone = {f"derived/{name}{suffix}" for name in names for suffix in ("", ".seal.json")}
    built = artifact_files(built_checkout)
    assert artifact_files(checkout) == {k: v for k, v in built.items() if k not in gone}
