"""Where a run moves a damaged file (pipeline.plan.repair): the same path under
data/repair, with its seal, numbered when taken; a dry run moves nothing. In process, on
a few sealed files; tests/workflow/test_integrity.py takes every kind of damage through
`snakemake`."""

from __future__ import annotations

from pathlib import Path

from pipeline.artifacts import seal
from pipeline.plan.repair import quarantine, repair


def sealed_file(path: Path, data: bytes, **inputs: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    seal.write_seal(path, inputs=inputs)
    return path


def test_damaged_files_go_to_data_repair_with_their_seals_never_overwritten(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = sealed_file(Path("data/raw/answers.txt"), b"cigar\n")
    built = sealed_file(Path("data/derived/tiny/words.parquet"), b"words", source=source)
    source.write_bytes(b"cigar\nrebut\n")  # damaged: bytes differ from its seal
    roots = ["data/raw", "data/derived"]
    before = sorted(p.as_posix() for p in Path("data").rglob("*"))
    lines = repair(dry_run=True, expected=[], sealed_roots=roots)
    assert sorted(p.as_posix() for p in Path("data").rglob("*")) == before  # nothing moved
    assert [line.split(": a run without -n moves it to ")[1] for line in lines] == [
        "data/repair/raw/answers.txt",
        "data/repair/derived/tiny/words.parquet",  # built from it: stale
    ]
    repair(dry_run=False, expected=[], sealed_roots=roots)
    assert not source.exists() and not built.exists()
    first = Path("data/repair/derived/tiny/words.parquet")
    assert first.read_bytes() == b"words" and seal.seal_path(first).is_file()
    assert Path("data/repair/raw/answers.txt").read_bytes() == b"cigar\nrebut\n"
    # the same file damaged again: kept beside the first, which stays as it was
    sealed_file(built, b"other words")
    built.write_bytes(b"damaged again")
    assert quarantine(built) == first.with_name("words.parquet.2")
    assert first.with_name("words.parquet.2").read_bytes() == b"damaged again"
    assert first.read_bytes() == b"words"


def test_a_deleted_work_file_moves_nothing_a_deleted_artifact_its_dependents(tmp_path, monkeypatch):
    """What a targeted run met: one work file deleted moved every artifact built from it
    aside, and the run rebuilt none of them. Now the intact artifacts stay; a deleted
    artifact still takes what was built from it along (Snakemake rebuilds both)."""
    monkeypatch.chdir(tmp_path)
    part = sealed_file(Path("data/work/tiny/games/a.parquet"), b"games")
    games = sealed_file(Path("data/derived/tiny/benchmark_games.parquet"), b"all", part_0=part)
    package = sealed_file(Path("data/derived/datapackage.json"), b"{}", games=games)
    roots = ["data/work", "data/derived"]
    part.unlink()
    assert repair(dry_run=False, expected=[], sealed_roots=roots) == []
    assert games.is_file() and package.is_file()
    games.unlink()
    lines = repair(dry_run=False, expected=[], sealed_roots=roots)
    assert len(lines) == 1 and "data/derived/datapackage.json: stale" in lines[0]
    assert not package.exists()
