"""A bound, solve or screen job killed part-way (a real SIGKILL, as the memory limit sends, or
a SIGTERM, as a scheduler sends at the end of a job's time) resumes from its resume log:
only the openers it had not finished are computed again, and its output has the bytes of
an uncut run (pipeline.core.resume)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.core.resume import ResumeLog, resume_path
from pipeline.stages.bound_openers import bound_openers
from pipeline.stages.screen_openers import screen_openers
from pipeline.stages.solve_optimal import solve_optimal
from tests.support.artifact_set import (
    ArtifactSet,
    first_batches,
    optimal_jobs,
    optimal_summaries,
    shared_artifact_set,
)

# The child runs one stage and sends itself the signal argv[4] right after its K-th unit
# is logged: a kill from outside, at a known point of a real job.
KILLED_CHILD = """
import json, os, signal, sys
from pathlib import Path
from pipeline.core import resume
from pipeline.stages import bound_openers, screen_openers, solve_optimal
stage, arguments, after = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
kill = signal.Signals[sys.argv[4]]
record = resume.ResumeLog.record
def record_then_die(self, unit, result):
    record(self, unit, result)
    if len(self.done) - self.resumed >= after:
        os.kill(os.getpid(), kill)
resume.ResumeLog.record = record_then_die
function = {"bound": bound_openers.bound_openers, "screen": screen_openers.screen_openers,
            "solve": solve_optimal.solve_optimal}[stage]
for name in ("words", "bounds", "summary", "tree"):
    if name in arguments:
        arguments[name] = Path(arguments[name])
for name in ("patterns", "proven"):
    if name in arguments:
        arguments[name] = [Path(p) for p in arguments[name]]
function(**arguments)
"""


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> ArtifactSet:
    return shared_artifact_set(tmp_path_factory, "fixture")


@pytest.fixture(scope="module")
def two_proven(artifacts, tmp_path_factory) -> Path:
    """A solve_optimal part of the two best-ranked openers, normal mode."""
    folder = tmp_path_factory.mktemp("two-proven")
    solve_optimal(**solve_arguments(artifacts, folder, count=2))
    return Path(solve_arguments(artifacts, folder, count=2)["summary"])


def solve_arguments(artifacts: ArtifactSet, out: Path, count: int = 4) -> dict:
    """solve_optimal's arguments for the `count` best-ranked openers, normal mode."""
    openers = [opener for mode, opener in optimal_jobs(artifacts) if mode == "normal"][:count]
    return {
        "words": str(artifacts.words), "patterns": [str(p) for p in artifacts.matrix()],
        "summary": str(out / "first-0.summary.parquet"), "tree": str(out / "first-0.tree.parquet"),
        "mode": "normal", "openers": openers, "max_guesses": artifacts.settings.max_guesses,
    }  # fmt: skip


def bound_arguments(artifacts: ArtifactSet, out: Path) -> dict:
    """bound_openers' arguments for normal mode's part 0, as the artifact set ran it."""
    proven = optimal_summaries(artifacts, first_batches(artifacts))
    settings = artifacts.settings
    return {
        "words": str(artifacts.words), "patterns": [str(p) for p in artifacts.matrix()],
        "proven": [str(p) for p in proven], "bounds": str(out / "normal-0.parquet"),
        "mode": "normal", "part": 0, "parts": settings.screen_parts,
        "top": settings.optimal_top, "max_guesses": settings.max_guesses, "threads": 2,
    }  # fmt: skip


def screen_arguments(artifacts: ArtifactSet, out: Path, proven: Path) -> dict:
    """screen_openers' arguments with work to do: with only two proven openers (the part
    `proven`) and top 1, the stop value is the better of the two, and every opener bounded
    at most that is searched, in one part."""
    return {
        "words": str(artifacts.words), "patterns": [str(p) for p in artifacts.matrix()],
        "bounds": str(artifacts.work / "optimal" / "bounds-normal.parquet"),
        "proven": [str(proven)], "summary": str(out / "normal-0.summary.parquet"),
        "tree": str(out / "normal-0.tree.parquet"), "mode": "normal", "part": 0, "parts": 1,
        "top": 1, "max_guesses": artifacts.settings.max_guesses,
    }  # fmt: skip


def run(stage: str, arguments: dict) -> None:
    """The stage in this process (paths as the workflow's script passes them)."""
    given = {
        name: [Path(p) for p in value] if name in ("patterns", "proven")
        else Path(value) if name in ("words", "bounds", "summary", "tree") else value
        for name, value in arguments.items()
    }  # fmt: skip
    {"bound": bound_openers, "screen": screen_openers, "solve": solve_optimal}[stage](**given)


def kill_after(
    stage: str, arguments: dict, units: int, kill: signal.Signals
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", KILLED_CHILD, stage, json.dumps(arguments), str(units), kill.name],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def units_computed(monkeypatch, stage: str, arguments: dict) -> int:
    """Run the stage in this process; the units it computed (not read from a log)."""
    computed = []
    record = ResumeLog.record
    monkeypatch.setattr(ResumeLog, "record", lambda self, u, r: (computed.append(u),
                                                                 record(self, u, r)))  # fmt: skip
    run(stage, arguments)
    return len(computed)


@pytest.mark.parametrize("kill", [signal.SIGKILL, signal.SIGTERM], ids=lambda s: s.name)
@pytest.mark.parametrize(
    ("stage", "output"), [("bound", "bounds"), ("solve", "summary"), ("screen", "summary")]
)
def test_a_killed_job_resumes_and_writes_the_uncut_bytes(
    artifacts, two_proven, tmp_path, monkeypatch, stage, output, kill
):
    arguments = {
        "bound": bound_arguments,
        "solve": solve_arguments,
        "screen": lambda artifacts, out: screen_arguments(artifacts, out, two_proven),
    }[stage]
    uncut_args = arguments(artifacts, tmp_path / "uncut")
    cut_args = arguments(artifacts, tmp_path / "cut")
    total = units_computed(monkeypatch, stage, uncut_args)
    assert total >= 3, "the job needs work to cut"
    monkeypatch.undo()

    child = kill_after(stage, cut_args, 2, kill)
    assert child.returncode == -kill, child.stderr
    out = Path(cut_args[output])
    assert not out.exists(), "a killed job leaves no output to trust"
    assert len(resume_path(out).read_text().splitlines()) == 1 + 2  # key, 2 units

    assert units_computed(monkeypatch, stage, cut_args) == total - 2
    assert not resume_path(out).exists(), "the log goes once the output is sealed"
    names = [name for name in ("bounds", "summary", "tree") if name in cut_args]
    for name in names:
        for suffix in ("", ".seal.json"):
            cut, uncut = Path(cut_args[name] + suffix), Path(uncut_args[name] + suffix)
            assert cut.read_bytes() == uncut.read_bytes(), cut.name
    if stage == "bound":  # and the artifact set's own, built in one go without a log
        built = artifacts.work / "optimal" / "bounds" / "normal-0.parquet"
        assert Path(cut_args["bounds"]).read_bytes() == built.read_bytes()


def test_a_log_of_another_job_or_a_cut_line_is_not_trusted(tmp_path):
    output = tmp_path / "part.parquet"
    with ResumeLog(output, "key-a") as log:
        log.record(3, [10, 11])
        log.record(5, [12, 13])
    with resume_path(output).open("a") as cut:
        cut.write('["7", [1')  # the kill came mid-line
    with ResumeLog(output, "key-a") as log:
        assert log.done == {"3": [10, 11], "5": [12, 13]}
        log.record(7, [14, 15])
    with ResumeLog(output, "key-a") as log:
        assert log.done == {"3": [10, 11], "5": [12, 13], "7": [14, 15]}
    with ResumeLog(output, "key-b") as log:  # other inputs, settings or code
        assert log.done == {}
    resume_path(output).write_bytes(b"\xff\xfe not a log")
    with ResumeLog(output, "key-a") as log:
        assert log.done == {}
