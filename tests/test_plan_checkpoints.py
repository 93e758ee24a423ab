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
from pipeline.plan.checkpoints import checkpoint_output, is_stale


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
