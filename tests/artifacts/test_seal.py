"""Seals (pipeline.artifacts.seal): every way a file can be missing, damaged, foreign or stale."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

import pipeline
from pipeline.artifacts.seal import (
    REBUILD_HINT,
    is_seal,
    problem,
    read_seal,
    seal_path,
    upstream_inputs,
    verify,
    write_seal,
)
from pipeline.core import files
from pipeline.core.errors import ArtifactError, PipelineError

CONTENT = bytes(range(256)) + b"a sealed artifact\n" * 3


def rewrite(path: Path, data: bytes) -> None:
    """Overwrite a file in place, then forget remembered hashes, as a reader in another
    process would (a same-size rewrite may keep the size and, on coarse clocks, mtime)."""
    path.write_bytes(data)
    files._HASHES.clear()


@pytest.fixture
def sealed_artifact(tmp_path):
    """data/raw/source.txt -> data/derived/artifact.bin, sealed with the source as input."""
    root = tmp_path / "data"
    source = root / "raw" / "source.txt"
    source.parent.mkdir(parents=True)
    source.write_bytes(b"cigar\nrebut\n")
    artifact = root / "derived" / "artifact.bin"
    artifact.parent.mkdir(parents=True)
    artifact.write_bytes(CONTENT)
    write_seal(artifact, inputs={"source": source}, settings={"n": 3}, extra={"note": "x"})
    return {"root": root, "source": source, "artifact": artifact}


def test_seal_path_and_is_seal():
    assert seal_path("data/derived/words.parquet") == Path("data/derived/words.parquet.seal.json")
    assert is_seal("data/derived/words.parquet.seal.json")
    assert is_seal(Path("x.seal.json"))
    assert not is_seal("data/derived/words.parquet")
    assert not is_seal("seal.json.txt")


def test_seal_document(sealed_artifact):
    artifact, source = sealed_artifact["artifact"], sealed_artifact["source"]
    document = json.loads(seal_path(artifact).read_text())
    assert document == {
        "format": 1,
        "file": "artifact.bin",
        "sha256": hashlib.sha256(CONTENT).hexdigest(),
        "bytes": len(CONTENT),
        "inputs": {
            "source": {
                "path": "../raw/source.txt",
                "sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
            }
        },
        "settings": {"n": 3},
        "version": pipeline.__version__,
        "extra": {"note": "x"},
    }
    # no absolute path anywhere: the folder may move
    assert str(sealed_artifact["root"]) not in seal_path(artifact).read_text()


def test_read_seal_and_verify_return_the_record(sealed_artifact):
    record = read_seal(sealed_artifact["artifact"])
    assert record.sha256 == hashlib.sha256(CONTENT).hexdigest()
    assert record.bytes == len(CONTENT)
    assert record.inputs["source"]["path"] == "../raw/source.txt"
    assert record.settings == {"n": 3}
    assert record.extra == {"note": "x"}
    assert verify(sealed_artifact["artifact"]) == record
    assert problem(sealed_artifact["artifact"]) is None


def test_seal_without_inputs_or_extra(tmp_path):
    path = tmp_path / "plain.txt"
    path.write_text("hello")
    record = write_seal(path)
    assert record.inputs == {} and record.settings == {} and record.extra == {}
    assert "extra" not in json.loads(seal_path(path).read_text())
    assert verify(path) == record


def test_sealing_again_is_byte_identical(sealed_artifact):
    first = seal_path(sealed_artifact["artifact"]).read_bytes()
    write_seal(
        sealed_artifact["artifact"],
        inputs={"source": sealed_artifact["source"]},
        settings={"n": 3},
        extra={"note": "x"},
    )
    assert seal_path(sealed_artifact["artifact"]).read_bytes() == first


# --- missing and unsealed ---------------------------------------------------------------


def test_missing_file(sealed_artifact):
    sealed_artifact["artifact"].unlink()
    assert (
        problem(sealed_artifact["artifact"])
        == f"{sealed_artifact['artifact']}: missing; {REBUILD_HINT}"
    )
    with pytest.raises(ArtifactError, match="missing"):
        verify(sealed_artifact["artifact"])


def test_unsealed_file(sealed_artifact):
    seal_path(sealed_artifact["artifact"]).unlink()
    expected = (
        f"{sealed_artifact['artifact']}: has no seal (artifact.bin.seal.json), so it is not a "
        f"file this pipeline wrote; {REBUILD_HINT}"
    )
    assert problem(sealed_artifact["artifact"]) == expected
    with pytest.raises(ArtifactError) as caught:
        verify(sealed_artifact["artifact"])
    assert str(caught.value) == expected
    assert isinstance(caught.value, PipelineError)


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"format": 2, "file": "artifact.bin"}',
        '{"format": 1, "file": "artifact.bin"}',
        '{"format": 1, "file": "artifact.bin", "sha256": "x", "bytes": "many", "inputs": {},'
        ' "settings": {}, "version": "1"}',
    ],
)
def test_damaged_seal(sealed_artifact, text):
    seal_path(sealed_artifact["artifact"]).write_text(text)
    trouble = problem(sealed_artifact["artifact"])
    assert trouble.startswith(f"{seal_path(sealed_artifact['artifact'])}: damaged seal (")
    assert trouble.endswith(REBUILD_HINT)
    with pytest.raises(ArtifactError, match="damaged seal"):
        read_seal(sealed_artifact["artifact"])


def test_seal_of_another_file_is_refused(sealed_artifact, tmp_path):
    other = tmp_path / "other.bin"
    other.write_bytes(CONTENT)  # the very same bytes, another name
    shutil.copy(seal_path(sealed_artifact["artifact"]), seal_path(other))
    assert "damaged seal (not a seal of this file)" in problem(other)


# --- damaged: bytes differ from the seal ------------------------------------------------


def damaged_message(path: Path) -> str:
    return (
        f"{path}: damaged or replaced (its sha256 differs from its seal "
        f"{path.name}.seal.json); {REBUILD_HINT}"
    )


def test_one_flipped_bit_anywhere_in_the_file_is_found(sealed_artifact):
    artifact = sealed_artifact["artifact"]
    for offset in range(len(CONTENT)):
        data = bytearray(CONTENT)
        data[offset] ^= 1 << (offset % 8)
        rewrite(artifact, bytes(data))
        assert problem(artifact) == damaged_message(artifact), offset
    rewrite(artifact, CONTENT)
    assert problem(artifact) is None


@pytest.mark.parametrize("keep", [0, 1, len(CONTENT) // 2, len(CONTENT) - 1])
def test_truncated_file(sealed_artifact, keep):
    rewrite(sealed_artifact["artifact"], CONTENT[:keep])
    assert problem(sealed_artifact["artifact"]) == damaged_message(sealed_artifact["artifact"])
    with pytest.raises(ArtifactError, match="damaged or replaced"):
        verify(sealed_artifact["artifact"])


def test_appended_byte(sealed_artifact):
    rewrite(sealed_artifact["artifact"], CONTENT + b"\n")
    assert problem(sealed_artifact["artifact"]) == damaged_message(sealed_artifact["artifact"])


def test_replaced_by_a_foreign_but_valid_file(sealed_artifact, tmp_path):
    # another artifact of the same name, itself properly sealed, copied over this one
    foreign = tmp_path / "elsewhere" / "artifact.bin"
    foreign.parent.mkdir()
    foreign.write_bytes(CONTENT[::-1])
    write_seal(foreign, settings={"n": 4})
    assert problem(foreign) is None
    shutil.copy(foreign, sealed_artifact["artifact"])
    assert problem(sealed_artifact["artifact"]) == damaged_message(sealed_artifact["artifact"])
    # the same size, the same first bytes: only the hash can tell
    foreign.write_bytes(CONTENT[:-1] + b"?")
    shutil.copy(foreign, sealed_artifact["artifact"])
    files._HASHES.clear()
    assert sealed_artifact["artifact"].stat().st_size == len(CONTENT)
    assert problem(sealed_artifact["artifact"]) == damaged_message(sealed_artifact["artifact"])


# --- stale: an input it was built from now holds other bytes ----------------------------


def stale_message(path: Path, source: Path, role: str) -> str:
    return (
        f"{path}: stale (built from another {source} than the one there now, its {role} "
        f"input); {REBUILD_HINT}"
    )


def test_stale_when_a_recorded_input_changed(sealed_artifact):
    artifact, source = sealed_artifact["artifact"], sealed_artifact["source"]
    rewrite(source, b"cigar\nrebus\n")  # same size, one letter
    resolved = artifact.parent / "../raw/source.txt"
    assert problem(artifact) == stale_message(artifact, resolved, "source")
    with pytest.raises(ArtifactError, match="stale"):
        verify(artifact)
    # the file itself is intact: without the input check it is fine
    assert problem(artifact, check_inputs=False) is None
    assert verify(artifact, check_inputs=False).sha256 == hashlib.sha256(CONTENT).hexdigest()
    # putting the input back makes it current again
    rewrite(source, b"cigar\nrebut\n")
    assert problem(artifact) is None


def test_an_absent_input_cannot_be_compared_and_is_skipped(sealed_artifact):
    sealed_artifact["source"].unlink()
    assert problem(sealed_artifact["artifact"]) is None


def test_damage_is_reported_before_staleness(sealed_artifact):
    rewrite(sealed_artifact["source"], b"changed\n")
    rewrite(sealed_artifact["artifact"], CONTENT[:-1])
    assert problem(sealed_artifact["artifact"]) == damaged_message(sealed_artifact["artifact"])


def test_several_inputs_each_checked(tmp_path):
    inputs = {role: tmp_path / f"{role}.txt" for role in ("a", "b", "c")}
    for role, path in inputs.items():
        path.write_text(role * 3)
    out = tmp_path / "out.txt"
    out.write_text("out")
    write_seal(out, inputs=inputs)
    assert sorted(read_seal(out).inputs) == ["a", "b", "c"]
    assert read_seal(out).inputs["b"]["path"] == "b.txt"
    rewrite(inputs["c"], b"ccd")
    assert problem(out) == stale_message(out, tmp_path / "c.txt", "c")


def test_a_merge_records_what_its_parts_were_built_from(tmp_path):
    """However the work is split, the merged file names the same inputs: the union of
    the parts' own, resolved from each part's folder; parts of other bytes are refused."""
    derived, work = tmp_path / "data" / "derived", tmp_path / "data" / "work" / "parts"
    derived.mkdir(parents=True)
    work.mkdir(parents=True)
    words, matrix, weights = (derived / name for name in ("words.bin", "matrix.bin", "w.bin"))
    for path in (words, matrix, weights):
        path.write_bytes(path.name.encode())
    parts = [work / f"part-{k}.bin" for k in range(3)]
    for k, part in enumerate(parts):
        part.write_bytes(bytes([k]))
        more = {"weights": weights} if k == 2 else {}
        write_seal(part, inputs={"words": words, "matrix": matrix, **more})
    found = upstream_inputs(parts)
    assert {role: entry.path for role, entry in found.items()} == {
        "matrix": matrix,
        "weights": weights,
        "words": words,
    }
    # each with the sha256 its part's seal recorded, so the file need not be at hand
    assert all(entry.sha256 == files.sha256_file(entry.path) for entry in found.values())
    assert upstream_inputs(parts[::-1]) == found
    assert upstream_inputs([parts[2]]) == found  # one part or three: the same record
    merged = tmp_path / "data" / "derived" / "merged.bin"
    merged.write_bytes(b"merged")
    weights.unlink()
    recorded = write_seal(merged, inputs=found).inputs
    assert recorded["weights"]["sha256"] == found["weights"].sha256
    rewrite(words, b"other words")
    write_seal(parts[1], inputs={"words": words, "matrix": matrix})
    with pytest.raises(ArtifactError, match="part-1.bin: built from another words input than"):
        upstream_inputs(parts)


# --- relative input paths survive moving the folder -------------------------------------


def test_moving_the_folder_keeps_the_seal_valid(sealed_artifact, tmp_path):
    moved = tmp_path / "moved" / "copy-of-data"
    moved.parent.mkdir()
    shutil.move(sealed_artifact["root"], moved)
    artifact = moved / "derived" / "artifact.bin"
    source = moved / "raw" / "source.txt"
    assert not sealed_artifact["artifact"].exists()
    assert problem(artifact) is None
    assert verify(artifact).inputs["source"]["path"] == "../raw/source.txt"
    # and the moved input is the one checked
    rewrite(source, b"cigar\nrebus\n")
    assert problem(artifact) == stale_message(
        artifact, artifact.parent / "../raw/source.txt", "source"
    )


def test_copying_the_folder_keeps_both_copies_independent(sealed_artifact, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(sealed_artifact["root"], copy)
    rewrite(copy / "raw" / "source.txt", b"changed!\n")
    assert problem(copy / "derived" / "artifact.bin").startswith(
        f"{copy / 'derived' / 'artifact.bin'}: stale"
    )
    assert problem(sealed_artifact["artifact"]) is None
