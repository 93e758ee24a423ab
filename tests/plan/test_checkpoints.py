"""A checkpoint's output read while the job graph is built (pipeline.plan.checkpoints):
missing or stale, it is a checkpoint not done yet (Snakemake waits for its job and asks
again), never an input function's traceback; done, it is its path."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from snakemake.exceptions import IncompleteCheckpointException
from snakemake.io import IOFile

from pipeline.artifacts import seal
from pipeline.plan.checkpoints import checkpoint_output, checkpoint_word_index, is_stale


class Checkpoint:
    """What checkpoint_output uses of Snakemake's checkpoint: its rule, and get()."""

    rule = "merge_bounds"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.asked: list[dict[str, str]] = []

    def get(self, **wildcards: str) -> SimpleNamespace:
        self.asked.append(wildcards)
        files = (IOFile(str(self.path)), IOFile(str(seal.seal_path(self.path))))
        return SimpleNamespace(output=SimpleNamespace(bounds=files))


def sealed_file(path: Path, data: bytes, **inputs: Path) -> Path:
    path.write_bytes(data)
    seal.write_seal(path, inputs=inputs)
    return path


def test_a_built_output_is_its_path(tmp_path):
    source = sealed_file(tmp_path / "source", b"a")
    built = sealed_file(tmp_path / "bounds.parquet", b"b", source=source)
    checkpoint = Checkpoint(built)
    assert checkpoint_output(checkpoint, "bounds", edition="e", mode="hard") == str(built)
    assert checkpoint.asked == [{"edition": "e", "mode": "hard"}]


@pytest.mark.parametrize("trouble", ["no file", "no seal", "stale"])
def test_a_missing_or_stale_output_is_a_checkpoint_not_done(tmp_path, trouble):
    source = sealed_file(tmp_path / "source", b"a")
    built = sealed_file(tmp_path / "bounds.parquet", b"b", source=source)
    if trouble == "no file":
        built.unlink()
    elif trouble == "no seal":
        seal.seal_path(built).unlink()
    else:
        source.write_bytes(b"changed")  # being rebuilt in this run: so will it be
        seal.write_seal(source)
        assert is_stale(built)
    with pytest.raises(IncompleteCheckpointException) as raised:
        checkpoint_output(Checkpoint(built), "bounds", edition="e", mode="hard")
    assert raised.value.rule == "merge_bounds"


class IndexCheckpoint:
    """build_word_index's checkpoint, whose output `words` is `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def get(self, **wildcards: str) -> SimpleNamespace:
        files = (IOFile(str(self.path)), IOFile(str(seal.seal_path(self.path))))
        return SimpleNamespace(output=SimpleNamespace(words=files))


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_sealed_but_unreadable_word_index_stops_as_one_line(tmp_path, monkeypatch, capsys,
                                                              dry_run):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    words = Path("data/derived/tiny/words.parquet")
    words.parent.mkdir(parents=True)
    sealed_file(words, b"not parquet")
    with pytest.raises(SystemExit) as stopped:
        checkpoint_word_index(IndexCheckpoint(words), "tiny", main_process=True, dry_run=dry_run)
    assert stopped.value.code == 1
    [line] = capsys.readouterr().err.splitlines()
    moved = Path("data/repair/derived/tiny/words.parquet")
    assert line.startswith(f"wordle: {words}") and str(moved) in line
    assert words.is_file() is dry_run and moved.is_file() is not dry_run
