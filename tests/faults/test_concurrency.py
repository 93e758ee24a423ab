"""Concurrent use (issue 64): a reader racing a writer of one artifact, readers during a
real rebuild, and two real `snakemake` runs in one folder.

How a file is replaced: the writer writes a temporary file beside it and renames it onto
the name (pipeline.core.files.atomic_path), then writes the seal the same way
(pipeline.artifacts.seal.write_seal): file first, then seal. A reader never sees part of a
file, only a whole old or a whole new one; between the two renames it sees the new file
with the old seal, which it reports as damaged, in one line. Snakemake deletes a job's
outputs, seals included, before the job starts, so during a rebuild a reader sees the old
file, no file ("missing"), the new file without its seal ("has no seal") or the new file
sealed; the new file with the old seal only when a file is rewritten outside Snakemake.
A Parquet reader checks the file against its seal, then opens it by name again: in that
instant it may read a newer whole version than the one it checked, never part of one.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.artifacts import parquet
from pipeline.core.errors import ArtifactError
from tests.faults import race
from tests.support.fixtures import REPO
from tests.support.workflow_helpers import (
    VERIFY,
    artifact_files,
    clone_checkout,
    fixture_env,
    snakemake,
    snakemake_command,
)


def start_rebuild(checkout: Path) -> subprocess.Popen:
    """A real run that rebuilds REBUILT_RULE's output and what is built from it, in its
    own session (so a failing test can end it and its jobs); its stderr is kept."""
    return subprocess.Popen(
        snakemake_command(checkout, "--forcerun", REBUILT_RULE),
        cwd=checkout,
        env=fixture_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def test_a_reader_racing_a_rewriter_reads_a_whole_sealed_version_or_one_line(tmp_path):
    """A reader process (this one) reads the artifact through its checked reader while
    another process rewrites it, until the race has shown every outcome: whole A, whole B
    and a read that fell between a file and its seal. Every read is a whole version; every
    refusal is one ArtifactError line naming the file as damaged, never torn Parquet
    (which a writer that wrote in place would give) nor another exception."""
    path = tmp_path / "derived" / "table.parquet"
    stop = tmp_path / "stop"
    expected = {name: race.version(name).column("x") for name in "AB"}
    race.write(path, "A")
    writer = subprocess.Popen(
        [sys.executable, "-m", "tests.faults.race", str(path), str(stop)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    seen = {"A": 0, "B": 0}
    refusals: list[str] = []
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and not (min(seen.values()) >= 20 and refusals):
            assert writer.poll() is None, "the rewriter stopped"
            try:
                table = parquet.read_table(path, race.SCHEMA)
            except ArtifactError as error:
                refusals.append(str(error))
                continue
            got = table.column("x")
            matches = [name for name, want in expected.items() if got.equals(want)]
            assert len(matches) == 1, "a read that is neither version: a mix"
            seen[matches[0]] += 1
    finally:
        stop.touch()
        writes = int(writer.communicate(timeout=60)[0])
    assert writer.returncode == 0
    assert writes > 2
    assert min(seen.values()) >= 20, seen  # both versions were read whole...
    assert refusals, "no read fell between a file and its seal: the race did not happen"
    damaged = (
        f"{path}: damaged or replaced (its sha256 differs from its seal table.parquet.seal.json);"
        " run snakemake again to rebuild it"
    )
    assert set(refusals) == {damaged}  # ...and each refusal is this one line


# The artifacts a one-shot answer reads, rewritten by this rebuild: the score model (prior
# mode's estimate) and everything the benchmark summary feeds, the descriptor included.
REBUILT_RULE = "summarize_benchmarks"
ASSIST = [sys.executable, "-m", "pipeline.commands.assistant", "--data", "data/derived"]
READERS = {
    "verify": [*VERIFY, "data/derived/datapackage.json"],
    "assist prior": [*ASSIST, "--mode", "prior", "serve", "BGYBB"],
    "assist": [*ASSIST, "serve", "BYBBB"],  # the fallback: ordered by the score model
}


@contextlib.contextmanager
def ended_on_failure(run: subprocess.Popen) -> Iterator[None]:
    """A failed check ends the Snakemake run `run` (started in a session of its own) and
    every job of it, instead of waiting for it."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        raise


def untitled(answer: str) -> str:
    """An answer as the assistant gives it without the descriptor (datapackage.json, which
    holds the editions' titles): the edition named by its folder only."""
    first, rest = answer.split("\n", 1)
    return re.sub(r"^edition: (\w+): [^;]*;", r"edition: \1;", first) + "\n" + rest


def read(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=fixture_env())


def refusal_problem(name: str, result: subprocess.CompletedProcess) -> str | None:
    """What is wrong with a refused read (exit 1), or None: each line names a file."""
    if "Traceback" in result.stdout + result.stderr:
        return "a traceback"
    lines = result.stderr.splitlines()
    if name == "verify":
        named = [line for line in lines if not re.fullmatch(r"ERROR: \d+ problem\(s\) found", line)]
        if not named or not all(line.startswith("ERROR: data/derived/") for line in named):
            return f"lines that name no file: {lines}"
        return None
    if len(lines) != 1 or not lines[0].startswith("wordle-assist: data/derived/"):
        return f"not one line naming a file: {lines}"
    return None


@pytest.mark.slow
def test_readers_during_a_rebuild_see_the_old_or_the_new_files_or_one_line(
    built_checkout, tmp_path
):
    """verify and two one-shot answers, run again and again while Snakemake rebuilds what
    they read (the same bytes again): each gives the answer of the built folder, or stops
    with one line per file it cannot use; afterwards the folder is a clean build's."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    before = {name: read(command, checkout) for name, command in READERS.items()}
    for name, result in before.items():
        assert result.returncode == 0, (name, result.stderr)
    rebuild = start_rebuild(checkout)
    outcomes: dict[str, list[str]] = {name: [] for name in READERS}
    with ended_on_failure(rebuild):
        while rebuild.poll() is None:
            for name, command in READERS.items():
                result = read(command, checkout)
                if result.returncode == 0 and result.stdout == before[name].stdout:
                    outcomes[name].append("the built answer")
                elif result.returncode == 0:  # the descriptor (the titles) being rebuilt
                    assert result.stdout == untitled(before[name].stdout), f"{name}: another"
                    outcomes[name].append("the built answer, without the edition's title")
                else:
                    assert result.returncode == 1, (name, result.stderr)
                    assert refusal_problem(name, result) is None, (name, result.stderr)
                    outcomes[name].append(result.stderr.splitlines()[0])
    stderr = rebuild.communicate(timeout=600)[1]
    assert rebuild.returncode == 0, stderr
    print(json.dumps({name: collections.Counter(runs) for name, runs in outcomes.items()}))
    assert sum(map(len, outcomes.values())) >= 6, outcomes  # the readers ran during it
    assert any(o != "the built answer" for runs in outcomes.values() for o in runs), outcomes
    assert artifact_files(checkout) == artifact_files(built_checkout)
    for name, command in READERS.items():
        assert read(command, checkout).stdout == before[name].stdout, name


LOCKED = "Error: Directory cannot be locked."
# When the first run deletes a file while the second is still building its job graph,
# before it comes to the lock:
VANISHED = "It could be that a concurrent process has deleted it while Snakemake was running."
# When the first run ends between the second's lock check and its lock write: Snakemake's
# own race (persistence/file.py removes the whole locks folder on unlock), harmless to the
# first run, which has finished by then.
UNLOCKED_UNDER_IT = "/.snakemake/locks/0.input.lock'"


@pytest.mark.slow
def test_a_second_snakemake_stops_and_the_first_run_is_unharmed(built_checkout, tmp_path):
    """While one run rebuilds, a second plain `snakemake` is started in the same folder,
    again and again: each stops with Snakemake's own message (the lock, or a file the
    first run deleted under it) and changes nothing; the first run ends as a clean build,
    and `verify` passes."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    first = start_rebuild(checkout)
    locks = checkout / ".snakemake" / "locks"
    with ended_on_failure(first):
        deadline = time.monotonic() + 120
        while not (locks.is_dir() and any(locks.iterdir())):
            assert first.poll() is None, "the first run ended before it took the lock"
            assert time.monotonic() < deadline, "the first run never took the lock"
            time.sleep(0.02)
        seconds, messages = [], []
        while first.poll() is None:
            start = time.monotonic()
            second = snakemake(checkout, check=False, timeout=120)
            if second.returncode == 0 and "Nothing to be done" in second.stdout + second.stderr:
                break  # it came to the lock after the first run had let it go, all done
            seconds.append(time.monotonic() - start)
            printed = second.stdout + second.stderr
            if UNLOCKED_UNDER_IT in printed and first.wait(timeout=60) == 0:
                break
            assert second.returncode == 1, printed
            assert LOCKED in printed or VANISHED in printed, printed
            assert "wordle:" not in printed  # it moved nothing aside
            messages.append(LOCKED if LOCKED in printed else VANISHED)
    stderr = first.communicate(timeout=600)[1]
    assert first.returncode == 0, stderr
    print(json.dumps({"second runs": messages, "seconds": [round(t, 1) for t in seconds]}))
    assert messages, "no second run was started while the first ran"
    assert max(seconds) < 60, seconds  # it stopped, it did not run or wait for the first
    assert artifact_files(checkout) == artifact_files(built_checkout)
    leftovers = [p for p in (checkout / "data").rglob(".*") if p.name != ".gitkeep"]
    assert leftovers == []
    verified = subprocess.run(
        [*VERIFY, "data/derived/datapackage.json"], cwd=checkout, capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stderr
