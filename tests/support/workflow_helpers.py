"""Running the real workflow on the tiny fixture, in a checkout of its own.

A test checkout holds the workflow's source (Snakefile, workflow/, pipeline/, config.yaml)
copied from the repository, a fixture mirror and a test config, so tests can edit a
module, move the checkout or damage its artifacts without touching the repository. The
copied source is what the rules list as their code inputs, and what their jobs run: a job
script puts the checkout on `sys.path`, which Python searches before the installed
(editable) package. Their compiled kernels live in the run's NUMBA_CACHE_DIR (set by
tests/conftest.py), in a folder per kernel source (pipeline/kernels/jit.py): every
checkout of unchanged source loads the kernels that any process of the run compiled.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import yaml

from pipeline.artifacts.seal import read_seal, seal_path
from tests.support.fixtures import FIXTURE_UNTIL, REPO, write_fixture_mirror

SNAKEMAKE = [sys.executable, "-m", "snakemake"]
VERIFY = [sys.executable, "-m", "pipeline.commands.pipeline_cli", "verify"]

# The fixture lists are unpinned stand-ins for the real sources, built as one edition,
# EDITION (the built-in editions are switched off).
EDITION = "tiny"
# Where the workflow writes the fixture's shared commonness (catalog.COMMONNESS).
COMMONNESS_FILE = Path("data/derived/shared/allowed/commonness.parquet")
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
        "history": {
            "kind": "url",
            "url": "https://example.invalid/history.json",
            "sha256": "",
            "mirror_path": "history/wordle_solutions.json",
        },
    },
    # The answers are a union (editions.<name>.answers as a list): the answer list and the
    # days played up to history.until, which cuts the fixture's last day (an allowed word
    # that is no answer), so the union is the answer list (tests.support.fixtures.history_days).
    "history": {"until": FIXTURE_UNTIL},
    "editions": {
        "nyt2022": {"enabled": False},
        "nyt2023": {"enabled": False},
        EDITION: {
            "title": "the tiny test fixture",
            "allowed": "allowed",
            "answers": ["answers", "history"],
        },
    },
    "commonness": {"n_common": 5, "width": 10},
    "patterns": {"chunk_rows": 7},
    # As few jobs as run every rule and merge parts, since each job costs a process
    # start-up (a whole build from scratch is 58 jobs, against 82 with 3 opener parts, 3
    # opener-benchmark jobs, a top 4 and 2 screen parts). The opener ranking is split in
    # two, as the real runs are; test_workflow.py's split test builds the other splits.
    "openers": {"parts": 2},
    "solver": {"openers_per_job": 1000},
    # Proven-optimal trees certified for the top opener of each mode (20 by default): the
    # fewest openers the bounds cannot exclude, so the least search (one solve_optimal
    # job per mode and round: optimal.openers_per_job is 10).
    "optimal": {"top": 1, "screen_parts": 1},
}

# The optimal stage's tables: test_slurm.py builds them, and everything they are built
# from, through SLURM; test_workflow.py's cluster test builds every other file.
OPTIMAL_STAGE = tuple(
    f"data/derived/{EDITION}/optimal_{name}.parquet" for name in ("openers", "trees")
)

SOURCE_PARTS = ("Snakefile", "config.yaml", "workflow", "pipeline")


def _source_files() -> list[Path]:
    """The files copy_source copies, in a fixed order."""
    files = []
    for part in SOURCE_PARTS:
        source = REPO / part
        found = source.rglob("*") if source.is_dir() else [source]
        files += [
            path
            for path in found
            if path.is_file()
            and "__pycache__" not in path.parts
            and path.suffix not in (".pyc", ".nbi", ".nbc")
        ]
    return sorted(files)


def fixture_digest() -> str:
    """sha256 of everything a fixture build is made from: the workflow's source, the test
    config and the fixture mirror. It names the shared build's folder, which outlives a
    pytest run: a checkout of other code (another branch, a later commit) builds its own
    instead of reading artifacts made by other code."""
    digest = hashlib.sha256(json.dumps(FIXTURE_CONFIG, sort_keys=True).encode())
    for path in _source_files():
        digest.update(f"{path.relative_to(REPO).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    with tempfile.TemporaryDirectory() as folder:
        mirror = write_fixture_mirror(Path(folder))
        for path in sorted(p for p in mirror.rglob("*") if p.is_file()):
            digest.update(f"mirror/{path.relative_to(mirror).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def copy_source(destination: Path) -> None:
    """The workflow's source files (no caches) into `destination`."""
    destination.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
    for part in SOURCE_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, destination / part, ignore=ignore)
        else:
            shutil.copy2(source, destination / part)


def make_checkout(path: Path, **overrides) -> Path:
    """A test checkout with the fixture mirror and a test config (FIXTURE_CONFIG updated
    with `overrides`, top-level keys replaced). Its jobs share the run's compiled kernels
    (NUMBA_CACHE_DIR, set by tests/conftest.py) while its kernel source is the repository's."""
    config = json.loads(json.dumps(FIXTURE_CONFIG))
    config.update(overrides)
    copy_source(path)
    write_fixture_mirror(path / "mirror")
    write_config(path, config)
    return path


def write_config(checkout: Path, config: dict) -> None:
    (checkout / "test-config.yaml").write_text(yaml.safe_dump(config))


def read_config(checkout: Path) -> dict:
    return yaml.safe_load((checkout / "test-config.yaml").read_text())


def snakemake_command(
    checkout: Path,
    *args: str,
    cores: int = 2,
    profile: str = "default",
    program: Sequence[str] = SNAKEMAKE,
) -> list[str]:
    """The workflow in `checkout`, run the README's way with the fixture's config
    (`program`: the command that runs Snakemake)."""
    return [
        *program,
        "--workflow-profile",
        f"workflow/profiles/{profile}",
        "--configfile",
        "test-config.yaml",
        "--cores",
        str(cores),
        *args,
    ]


def fixture_env() -> dict[str, str]:
    """The environment, less a WORDLE_MIRROR that would override the fixture's mirror."""
    return {key: value for key, value in os.environ.items() if key != "WORDLE_MIRROR"}


def snakemake(
    checkout: Path,
    *args: str,
    check: bool = True,
    cores: int = 2,
    profile: str = "default",
    timeout: float | None = None,
    program: Sequence[str] = SNAKEMAKE,
) -> subprocess.CompletedProcess:
    """Run the workflow; fail the test with Snakemake's output unless it succeeds."""
    result = subprocess.run(
        snakemake_command(checkout, *args, cores=cores, profile=profile, program=program),
        cwd=checkout,
        capture_output=True,
        text=True,
        env=fixture_env(),
        check=False,
        timeout=timeout,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"snakemake failed:\n{result.stdout}\n{result.stderr}")
    return result


def planned_jobs(checkout: Path, *args: str) -> dict[str, int]:
    """Rule name -> job count of a dry run ({} when nothing is to be done)."""
    output = snakemake(checkout, "--dry-run", *args).stdout
    if "Nothing to be done" in output:
        return {}
    table = output.split("Job stats:", 1)[1]
    rows = re.findall(r"^(\w+)\s+(\d+)$", table.split("\n\n", 1)[0], flags=re.MULTILINE)
    return {rule: int(count) for rule, count in rows if rule not in ("total", "all")}


def clone_checkout(built: Path, path: Path) -> Path:
    """A copy of a built checkout (artifacts, metadata and times included)."""
    shutil.copytree(built, path, symlinks=True)
    return path


def artifact_files(checkout: Path) -> dict[str, bytes]:
    """Every file under data/ of a checkout (relative path -> bytes)."""
    data = checkout / "data"
    return {
        path.relative_to(data).as_posix(): path.read_bytes()
        for path in sorted(data.rglob("*"))
        if path.is_file()
    }


def file_digests(checkout: Path) -> dict[str, str]:
    """sha256 of every file of a checkout (data, logs, source, config, mirror), by relative
    path, but Snakemake's own records in .snakemake/ (a dry run rewrites its file cache,
    .snakemake/iocache/latest.pkl)."""
    return {
        path.relative_to(checkout).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(checkout.rglob("*"))
        if path.is_file() and path.relative_to(checkout).parts[0] != ".snakemake"
    }


# characters: no line Snakemake prints in a run or a dry run is longer. The longest is
# Snakemake's own list of the rules to run (every rule name, no file), which grew with
# build_history and play_history.
LONGEST_LINE = 360


def long_lines(result: subprocess.CompletedProcess) -> list[str]:
    """The printed lines (stdout and stderr) longer than LONGEST_LINE."""
    lines = (result.stdout + result.stderr).splitlines()
    return [line for line in lines if len(line) > LONGEST_LINE]


def derived_digests(checkout: Path) -> dict[str, str]:
    """sha256 of every file under data/derived of a checkout, by relative path."""
    files = artifact_files(checkout)
    return {
        name.removeprefix("derived/"): hashlib.sha256(data).hexdigest()
        for name, data in files.items()
        if name.startswith("derived/")
    }


def built_from(data: Path, name: str) -> set[str]:
    """Every file under `data` that `name` (a path under it) is built from, by its seal and
    theirs, as paths under `data`."""
    found: set[str] = set()
    pending = [name.removesuffix(".seal.json")]
    while pending:
        path = data / pending.pop()
        if not seal_path(path).is_file():
            continue
        for entry in read_seal(path).inputs.values():
            source = Path(os.path.normpath(path.parent / entry["path"])).relative_to(data)
            if source.as_posix() not in found:
                found.add(source.as_posix())
                pending.append(source.as_posix())
    return found
