"""A full disk, or a file that cannot grow (issue 64): made to happen for real, by a file
size limit (`ulimit -f`, every user) and by a small tmpfs filled to the brim (root).

What the user gets: one line naming the file, why, and what to do; the file it was
replacing left as it was, still sealed; no temporary file; and, once there is room
again, the same command builds the same bytes as a clean build.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.artifacts.seal import verify
from tests.faults.mechanisms import file_size_limit, small_filesystem
from tests.support.fixtures import REPO
from tests.support.workflow_helpers import (
    VERIFY,
    artifact_files,
    clone_checkout,
    fixture_env,
    snakemake,
    snakemake_command,
)

ROOM = 64 * 1024  # what is left: each new file below is larger, the old ones smaller
WHY = {
    "file-size-limit": (
        "File too large",
        "raise the file size limit (ulimit -f) or use a filesystem that takes larger files",
    ),
    "full-filesystem": ("No space left on device", "free space on its disk"),
}

# Writes the artifact at argv[1] with the real writer argv[2] ("parquet": pyarrow, which
# reports errno only inside its message; "bytes": Python's own write), far over ROOM, and
# prints {"error": the one line} or {"error": null}; anything else is a traceback.
WRITER = """
import json, sys
import numpy as np
import pyarrow as pa
from pipeline.artifacts import parquet
from pipeline.artifacts.seal import write_seal
from pipeline.core.errors import PipelineError
from pipeline.core.files import write_bytes_atomic

path, writer = sys.argv[1], sys.argv[2]
big = np.random.default_rng(1).integers(0, 2**62, 100_000)
try:
    if writer == "parquet":
        schema = pa.schema([parquet.described("x", pa.int64(), "a value")])
        parquet.write_table(pa.table({"x": big}), path, schema=schema, inputs={}, settings={})
    else:
        write_bytes_atomic(path, big.tobytes())
        write_seal(path)
except PipelineError as error:
    print(json.dumps({"error": str(error)}))
else:
    print(json.dumps({"error": None}))
"""


def write_old(path: Path, writer: str) -> bytes:
    """A small sealed artifact at `path` (the build before this one); its bytes."""
    import pyarrow as pa

    from pipeline.artifacts import parquet
    from pipeline.artifacts.seal import write_seal
    from pipeline.core.files import write_bytes_atomic

    if writer == "parquet":
        schema = pa.schema([parquet.described("x", pa.int64(), "a value")])
        parquet.write_table(pa.table({"x": [1, 2, 3]}), path, schema=schema, inputs={}, settings={})
    else:
        write_bytes_atomic(path, b"the old bytes\n")
        write_seal(path)
    return path.read_bytes()


@pytest.mark.parametrize("writer", ["parquet", "bytes"])
@pytest.mark.parametrize("fault", ["file-size-limit", "full-filesystem"])
def test_a_write_that_runs_out_of_room_keeps_the_old_file_and_says_what_to_do(
    tmp_path, fault, writer
):
    folder = tmp_path / "derived"
    folder.mkdir()
    path = folder / ("table.parquet" if writer == "parquet" else "chunk.bin")
    old = write_old(path, writer)
    command = [sys.executable, "-c", WRITER, str(path), writer]
    if fault == "file-size-limit":
        result = subprocess.run(
            command, cwd=REPO, capture_output=True, text=True, preexec_fn=file_size_limit(ROOM)
        )
    else:
        with small_filesystem(folder, free=ROOM):
            result = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
            assert result.returncode == 0, result.stderr
            assert path.read_bytes() == old
            verify(path)
            assert sorted(p.name for p in folder.iterdir()) == sorted(
                [path.name, f"{path.name}.seal.json", "filler"]
            )
    assert result.returncode == 0, result.stderr
    why, todo = WHY[fault]
    assert json.loads(result.stdout)["error"] == (
        f"{path}: cannot be written ({why}); {todo}, then run the same command again"
    )
    if fault == "file-size-limit":  # the tmpfs is gone; its case is checked above
        assert path.read_bytes() == old
        verify(path)  # the old file and its seal, untouched: the rename never happened
        assert sorted(p.name for p in folder.iterdir()) == [path.name, f"{path.name}.seal.json"]


# The largest artifact of the fixture build (135 kB), and the rule that draws it.
VICTIM = Path("data/derived/tiny/plots/guess-distribution.png")
VICTIM_RULE = "draw_guess_distribution"


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["file-size-limit", "full-filesystem"])
def test_a_run_that_fills_the_disk_stops_with_one_line_and_the_rerun_builds_the_same_bytes(
    built_checkout, tmp_path, fault
):
    """The largest artifact is deleted, and the run that redraws it has less room than it
    needs: the job stops with one line (on stderr and in its log, no traceback of ours),
    the file is not there under its name or a temporary one, `verify` does not pass; the
    same command, once there is room, builds every artifact as a clean build did."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    for path in (checkout / VICTIM, checkout / f"{VICTIM}.seal.json"):
        path.unlink()
    if fault == "file-size-limit":
        failed = subprocess.run(
            snakemake_command(checkout),
            cwd=checkout,
            capture_output=True,
            text=True,
            env=fixture_env(),
            preexec_fn=file_size_limit(100_000),  # the logs and the descriptor are smaller
        )
        after_failure(checkout, failed, fault)
        rerun_gives_a_clean_build(checkout, built_checkout)
    else:
        with small_filesystem(checkout / "data", free=ROOM, size="32m") as disk:
            after_failure(checkout, snakemake(checkout, check=False), fault)
            disk.free_space()
            rerun_gives_a_clean_build(checkout, built_checkout)


def after_failure(checkout: Path, failed: subprocess.CompletedProcess, fault: str) -> None:
    assert failed.returncode != 0
    why, todo = WHY[fault]
    line = f"{VICTIM}: cannot be written ({why}); {todo}, then run the same command again"
    printed = failed.stdout + failed.stderr
    assert f"\n{VICTIM_RULE}: {line}\n" in printed
    assert "Traceback" not in printed  # the job's log, which Snakemake prints, is the line
    assert "internal error" not in printed
    log = (checkout / "logs" / "report" / "tiny" / "guess-distribution.log").read_text()
    assert log.rstrip("\n").endswith(f"ERROR pipeline: {line}")
    leftovers = [p.name for p in (checkout / VICTIM.parent).iterdir() if "guess" in p.name]
    assert leftovers == []  # neither the file nor its seal nor a temporary file
    verified = subprocess.run(
        [*VERIFY, "data/derived/datapackage.json"], cwd=checkout, capture_output=True, text=True
    )
    assert verified.returncode == 1  # the run moved the descriptor aside: nothing is trusted
    assert "Traceback" not in verified.stderr


def rerun_gives_a_clean_build(checkout: Path, built: Path) -> None:
    snakemake(checkout)
    files = artifact_files(checkout)
    rebuilt = {name: data for name, data in files.items() if not name.startswith("repair/")}
    rebuilt.pop("filler", None)
    assert rebuilt == artifact_files(built)
    verified = subprocess.run(
        [*VERIFY, "data/derived/datapackage.json"], cwd=checkout, capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.endswith("all match, and nothing else is there\n")


# A kernel compiled for the first time (a fresh cache folder), whose compiled code cannot
# be saved: the file size limit is below the size of its cache file.
FRESH_KERNEL = """
from pipeline.core.wordle import encode_words
from pipeline.kernels.feedback import feedback_matrix
words = encode_words(["cigar", "rebut", "sissy"])
print(feedback_matrix(words, words, engine="jit").tolist())
"""


def test_compiled_kernels_that_cannot_be_saved_run_uncached_with_one_warning_at_most(tmp_path):
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    result = subprocess.run(
        [sys.executable, "-c", FRESH_KERNEL],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        preexec_fn=file_size_limit(4096),  # an index fits, the compiled code does not
    )
    assert "Traceback" not in result.stderr
    assert result.returncode == 0
    assert json.loads(result.stdout) == [[242, 81, 6], [1, 242, 0], [6, 0, 242]]
    assert len(result.stderr.splitlines()) <= 1


# A long job's resume log (pipeline.core.resume) on a disk that takes no more of it: the
# job records 200 units of 1 kB; the log may grow to `limit` bytes.
RESUMED_JOB = """
import sys
from pipeline.core.resume import ResumeLog
log = ResumeLog(sys.argv[1], "key")
for unit in range(200):
    log.record(unit, "x" * 1000)
log.finish()
print(len(log.done))
"""


@pytest.mark.parametrize("limit", [16, 50_000], ids=["at-open", "mid-way"])
def test_a_resume_log_that_cannot_be_written_is_one_warning_and_the_job_goes_on(tmp_path, limit):
    output = tmp_path / "part.parquet"
    result = subprocess.run(
        [sys.executable, "-c", RESUMED_JOB, str(output)],
        cwd=REPO,
        capture_output=True,
        text=True,
        preexec_fn=file_size_limit(limit),
    )
    assert (result.returncode, result.stdout) == (0, "200\n"), result.stderr
    assert result.stderr.splitlines() == [
        f"{output}.resume.jsonl: cannot be written (File too large); this job goes on without it"
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no log, no temporary file
