"""Damaged, foreign and stale artifacts, through `snakemake` itself: a plain rerun moves
them aside and rebuilds them from their own inputs; it never builds on them, and the
data package is never rewritten around them. A dry run names what a run moves, and
changes no file."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.artifacts.seal import seal_path
from tests.support.fixtures import FIXTURE_ANSWERS
from tests.support.locks import build_lock
from tests.support.naive import feedback
from tests.support.workflow_helpers import (
    EDITION,
    VERIFY,
    artifact_files,
    built_from,
    clone_checkout,
    file_digests,
    make_checkout,
    planned_jobs,
    read_config,
    snakemake,
    write_config,
)

# Each case: (file under data/, damage), one or more at once. Every artifact type gets one
# damage; all kinds are covered. The files damaged together are siblings, neither built
# from the other (their seals say so), so each is caught by its own check; each case costs
# one rebuild of everything built from what it damages, so as many files are damaged
# together as are siblings (10 cases, not 17: each rerun costs two dry runs, a run and a
# verify before any rebuilding).
CASES = [
    (("raw/answers.txt", "flip"), ("raw/allowed.txt", "foreign")),
    (
        (f"derived/{EDITION}/words.parquet", "foreign"),
        ("derived/shared/allowed/commonness.parquet", "truncate"),
    ),
    (
        (f"derived/{EDITION}/words.parquet", "foreign with its seal"),
        ("work/shared/allowed/square_entropy.parquet", "flip"),
    ),
    (
        (f"derived/{EDITION}/patterns/chunk-0001.npy.zst", "flip"),
        (f"derived/{EDITION}/patterns/chunk-0002.npy.zst", "delete"),
        ("work/shared/allowed/opener_parts/prior.parquet", "foreign"),
    ),
    (
        (f"derived/{EDITION}/patterns/index.json", "foreign with its seal"),
        ("derived/shared/allowed/commonness.parquet.seal.json", "flip"),
    ),
    (
        (f"derived/{EDITION}/entropy.parquet", "flip"),
        (f"work/{EDITION}/opener_parts/answers-0.parquet", "flip"),
    ),
    (
        (f"derived/{EDITION}/pattern_distribution.parquet", "truncate"),
        (f"derived/{EDITION}/openers.parquet", "foreign"),
        (f"derived/{EDITION}/second_guesses.parquet", "delete"),
    ),
    (
        (f"derived/{EDITION}/benchmark_games.parquet", "flip"),
        (f"derived/{EDITION}/benchmark_summary.parquet", "truncate"),
        (f"derived/{EDITION}/score_model.parquet", "foreign with its seal"),
        ("derived/tables/editions.html", "truncate"),
    ),
    (
        (f"derived/{EDITION}/plots/guess-distribution.png", "flip"),
        (f"derived/{EDITION}/entropy.parquet.seal.json", "delete"),
    ),
    (("derived/datapackage.json", "truncate"),),
]
CASE_IDS = ["+".join(f"{victim}-{kind}" for victim, kind in case) for case in CASES]


@pytest.fixture(scope="session")
def built_other(tmp_path_factory) -> Path:
    """The artifacts of another word list, for foreign-but-valid files."""
    root = tmp_path_factory.getbasetemp().parent
    checkout = root / "built-other"
    with build_lock(root / "built-other.lock"):
        if not (checkout / "data" / "derived" / "datapackage.json").is_file():
            shutil.rmtree(checkout, ignore_errors=True)
            make_checkout(checkout)
            config = read_config(checkout)
            config["sources"]["allowed"]["mirror_path"] = "other.txt"
            write_config(checkout, config)
            words = (checkout / "mirror" / "allowed.txt").read_text().split("\n")
            # three guesses fewer and one more; every answer stays (the last word, mamma)
            other = [*words[:-4], words[-1], "zebra"]
            (checkout / "mirror" / "other.txt").write_text("\n".join(other))
            snakemake(checkout)
    return checkout


def damage(path: Path, kind: str, other: Path) -> None:
    data = path.read_bytes()
    if kind == "flip":
        at = min(60, len(data) // 2)
        path.write_bytes(data[:at] + bytes([data[at] ^ 0x04]) + data[at + 1 :])
    elif kind == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif kind == "delete":
        path.unlink()
    else:
        shutil.copy2(other, path)
        if kind == "foreign with its seal":
            shutil.copy2(seal_path(other), seal_path(path))


@pytest.mark.parametrize("victims", CASES, ids=CASE_IDS)
def test_the_files_damaged_together_are_siblings(built_checkout, victims):
    """Otherwise a file would be moved as stale, not caught by its own check."""
    data = built_checkout / "data"
    names = [victim for victim, _ in victims]
    for name in names:
        assert (data / name).is_file(), name
        others = {other.removesuffix(".seal.json") for other in names if other != name}
        assert others.isdisjoint(built_from(data, name)), name


@pytest.mark.parametrize("victims", CASES, ids=CASE_IDS)
def test_a_plain_rerun_rebuilds_a_damaged_file_from_its_own_inputs(
    built_checkout, built_other, tmp_path, victims
):
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    for victim, kind in victims:
        damage(checkout / "data" / victim, kind, built_other / "data" / victim)
    before = file_digests(checkout)
    dry_run = snakemake(checkout, "--dry-run", check=False)
    assert file_digests(checkout) == before
    result = snakemake(checkout)
    for victim, kind in victims:
        if kind != "delete":
            named = Path("data", victim.removesuffix(".seal.json"))
            assert f"wordle: {named}" in result.stderr
    files = artifact_files(checkout)
    rebuilt = {name: data for name, data in files.items() if not name.startswith("repair/")}
    assert rebuilt == artifact_files(built_checkout)
    assert planned_jobs(checkout) == {}
    moved = {f"data/{name}" for name in files if name.startswith("repair/")}
    listed = re.findall(r" a run without -n moves it to (\S+)$", dry_run.stderr, re.M)
    assert {p for p in moved if not p.endswith(".seal.json")} == set(listed)
    assert all(p.startswith("data/repair/") for p in listed)  # outside the package:
    verified = subprocess.run(  # verify passes once the artifacts are rebuilt
        [*VERIFY, "data/derived/datapackage.json"], cwd=checkout, capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.endswith("all match, and nothing else is there\n")


def test_a_running_workflow_is_left_alone(built_checkout, tmp_path):
    """While another run holds the working directory, nothing is moved: its jobs may be
    between writing a file and its seal."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    path = checkout / "data" / "derived" / EDITION / "entropy.parquet"
    path.write_bytes(path.read_bytes()[:-10])
    locks = checkout / ".snakemake" / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    (locks / "0.input.lock").write_text("held by a test\n")
    result = snakemake(checkout, "--dry-run", check=False)
    assert "wordle:" not in result.stderr
    assert path.exists()


def within_two(opener: str, answers: list[str]) -> int | None:
    """Brute force: the fewest total guesses that win every answer within two after
    `opener` (each reply must leave one answer), or None when no tree does."""
    classes: dict[int, list[str]] = {}
    for answer in answers:
        classes.setdefault(feedback(opener, answer), []).append(answer)
    if any(len(c) > 1 for c in classes.values()):
        return None
    return 2 * len(answers) - (opener in answers)


def test_a_config_change_on_a_built_folder_rebuilds_without_a_traceback(built_checkout, tmp_path):
    """optimal.max_guesses changed after a full build: the run rebuilds the bounds file (a
    checkpoint's output, stale while the run rebuilds what it was built from) before an
    input function reads it, and completes with the optimum the brute force finds. The
    top list grows to 4 with it, so that every opener with a tree is proven."""
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    config = read_config(checkout)
    config["optimal"] = {**config["optimal"], "max_guesses": 2, "top": 4}
    write_config(checkout, config)
    result = snakemake(checkout, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stdout + result.stderr
    assert planned_jobs(checkout) == {}
    table = pq.read_table(checkout / "data" / "derived" / EDITION / "optimal_openers.parquet")
    rows = table.select(["mode", "opener", "total_guesses"]).to_pylist()
    assert {row["mode"] for row in rows} == {"normal", "hard"}
    for row in rows:  # in hard mode too: the second guess is the answer, always legal
        assert row["total_guesses"] == within_two(row["opener"], FIXTURE_ANSWERS), row
    assert any(row["total_guesses"] is not None for row in rows)
