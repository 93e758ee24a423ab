"""Raw inputs (pipeline.artifacts.raw): sealed with their provenance, read whole or in
checked blocks."""

from __future__ import annotations

import pytest

from pipeline.artifacts import raw
from pipeline.core.errors import ArtifactError

PROVENANCE = {"source": "frequency", "kind": "local", "origin": "my/freq.csv"}


def test_blocks_give_the_sealed_bytes(tmp_path):
    path = tmp_path / "frequency.txt"
    data = bytes(range(256)) * 1000
    raw.write_raw(data, path, provenance=PROVENANCE)
    assert b"".join(raw.read_raw_blocks(path, 4096)) == data == raw.read_raw(path)
    assert max(len(block) for block in raw.read_raw_blocks(path, 4096)) == 4096
    assert raw.shown_name(path) == f"my/freq.csv (copied to {path})"


def test_a_damaged_file_is_refused_before_its_first_block(tmp_path):
    path = tmp_path / "frequency.txt"
    raw.write_raw(b"word,count\nthe,1\n", path, provenance=PROVENANCE)
    path.write_bytes(b"word,count\nthe,2\n")
    with pytest.raises(ArtifactError, match="damaged or replaced"):
        next(raw.read_raw_blocks(path))


def test_a_file_replaced_while_it_is_read_is_an_error_after_its_last_block(tmp_path):
    path = tmp_path / "frequency.txt"
    raw.write_raw(b"a" * 100_000, path, provenance=PROVENANCE)
    blocks = raw.read_raw_blocks(path, 10)
    first = next(blocks)
    with open(path, "r+b") as handle:  # same size, other bytes: seen only by the hash
        handle.seek(50_000)
        handle.write(b"b")
    with pytest.raises(ArtifactError, match="changed while it was read"):
        list(blocks)
    assert first == b"a" * 10
