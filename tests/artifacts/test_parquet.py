"""Sealed Parquet (pipeline.artifacts.parquet): schema, checksums, determinism, refusals."""

from __future__ import annotations

import hashlib
import json
import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pipeline
from pipeline.artifacts import seal
from pipeline.artifacts.parquet import (
    conform,
    described,
    field_descriptions,
    read_provenance,
    read_table,
    write_table,
)
from pipeline.core import files
from pipeline.core.errors import ArtifactError

SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the word"),
        described("word", pa.string(), "the word"),
        described("score", pa.float64(), "a score", nullable=True),
    ]
)
WORDS = [f"w{i:04d}" for i in range(3000)]


def table(n: int = len(WORDS)) -> pa.Table:
    """Columns in another order than the schema, wider types, and an extra column."""
    return pa.table(
        {
            "score": pa.array([i / 7 if i % 5 else None for i in range(n)], pa.float64()),
            "extra": pa.array(np.zeros(n)),
            "word": pa.array(WORDS[:n]),
            "word_id": pa.array(np.arange(n, dtype=np.int64)),
        }
    )


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "raw" / "source.txt"
    path.parent.mkdir()
    path.write_text("the input\n")
    return path


@pytest.fixture
def written(tmp_path, source):
    path = tmp_path / "derived" / "table.parquet"
    write_table(table(), path, schema=SCHEMA, inputs={"source": source}, settings={"k": 2})
    return path


def test_written_file_holds_the_schema_exactly(written):
    found = pq.read_schema(written)
    assert found.names == ["word_id", "word", "score"]
    assert [field.type for field in found] == [pa.int32(), pa.string(), pa.float64()]
    assert [field.nullable for field in found] == [False, False, True]
    assert found.remove_metadata().equals(SCHEMA.remove_metadata())
    assert field_descriptions(found) == {
        "word_id": "row of the word",
        "word": "the word",
        "score": "a score",
    }


def test_round_trip_values(written):
    result = read_table(written, SCHEMA)
    assert result.num_rows == len(WORDS)
    assert result["word_id"].to_pylist() == list(range(len(WORDS)))
    assert result["word"].to_pylist() == WORDS
    assert result["score"].null_count == len(WORDS) // 5
    assert result["score"][8].as_py() == 8 / 7
    assert read_table(written, SCHEMA, columns=["word"]).column_names == ["word"]


def test_zstd_and_statistics_are_written(written):
    metadata = pq.ParquetFile(written).metadata
    for group in range(metadata.num_row_groups):
        for column in range(metadata.num_columns):
            chunk = metadata.row_group(group).column(column)
            assert chunk.compression == "ZSTD"
            assert chunk.is_stats_set


def test_row_groups(tmp_path):
    path = tmp_path / "groups.parquet"
    write_table(table(), path, schema=SCHEMA, inputs={}, settings={}, row_group_size=1000)
    assert pq.ParquetFile(path).metadata.num_row_groups == 3
    second = read_table(path, SCHEMA, row_groups=[1])
    assert second["word_id"].to_pylist() == list(range(1000, 2000))


def test_provenance_metadata(written, source):
    provenance = read_provenance(written)
    assert provenance == {
        "inputs_sha256": {"source": hashlib.sha256(source.read_bytes()).hexdigest()},
        "config": {"k": 2},
        "version": pipeline.__version__,
    }
    # only content hashes: no path or time in the file
    raw = written.read_bytes()
    assert str(source.parent).encode() not in raw
    assert b"source.txt" not in raw


def test_the_file_is_sealed_with_its_inputs_and_settings(written, source):
    record = seal.verify(written)
    assert record.sha256 == hashlib.sha256(written.read_bytes()).hexdigest()
    assert record.inputs == {
        "source": {
            "path": "../raw/source.txt",
            "sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
        }
    }
    assert record.settings == {"k": 2}


def test_same_input_same_bytes(tmp_path, written, source):
    other = tmp_path / "elsewhere" / "deeper" / "other.parquet"
    write_table(table(), other, schema=SCHEMA, inputs={"source": source}, settings={"k": 2})
    assert other.read_bytes() == written.read_bytes()
    # a different setting is recorded, so the bytes differ
    third = tmp_path / "third.parquet"
    write_table(table(), third, schema=SCHEMA, inputs={"source": source}, settings={"k": 3})
    assert third.read_bytes() != written.read_bytes()
    assert read_table(third, SCHEMA).equals(read_table(written, SCHEMA))


# --- schema conformance -----------------------------------------------------------------


def test_conform_selects_orders_and_casts():
    result = conform(table(4), SCHEMA)
    assert result.column_names == ["word_id", "word", "score"]
    assert result.schema.field("word_id").type == pa.int32()


def test_a_table_lacking_a_column_is_refused_and_nothing_is_written(tmp_path):
    path = tmp_path / "out" / "t.parquet"
    with pytest.raises(ValueError, match=r"table lacks the columns \['word'\] of its schema"):
        write_table(table().drop(["word"]), path, schema=SCHEMA, inputs={}, settings={})
    assert not path.exists()
    assert not seal.seal_path(path).exists()


def test_an_unsafe_cast_is_refused(tmp_path):
    bad = table(3).set_column(3, "word_id", pa.array([0, 1, 2**40], pa.int64()))
    with pytest.raises(pa.ArrowInvalid):
        write_table(bad, tmp_path / "t.parquet", schema=SCHEMA, inputs={}, settings={})
    assert list(tmp_path.iterdir()) == []


def test_nulls_in_a_non_nullable_column_are_refused(tmp_path):
    bad = table(3).set_column(2, "word", pa.array(["a", None, "c"]))
    with pytest.raises(ValueError, match="'word' with null values to non-nullable"):
        write_table(bad, tmp_path / "t.parquet", schema=SCHEMA, inputs={}, settings={})
    assert list(tmp_path.iterdir()) == []


# --- what a reader refuses --------------------------------------------------------------


def test_reader_refuses_a_file_whose_schema_lacks_a_column(written):
    wider = SCHEMA.append(described("rank", pa.int32(), "a column the file lacks"))
    with pytest.raises(ArtifactError) as caught:
        read_table(written, wider)
    assert str(caught.value) == (f"{written}: lacks column rank (int32); {seal.REBUILD_HINT}")


def test_reader_refuses_a_column_of_another_type(written):
    other = pa.schema([described("word_id", pa.int64(), "wider than the file's")])
    with pytest.raises(ArtifactError, match=r"lacks column word_id \(int64\)"):
        read_table(written, other)


def test_reader_refuses_an_unsealed_parquet_file(tmp_path):
    path = tmp_path / "plain.parquet"
    pq.write_table(conform(table(5), SCHEMA), path)
    with pytest.raises(ArtifactError, match="has no seal"):
        read_table(path, SCHEMA)


def test_reader_refuses_a_damaged_file(written):
    data = bytearray(written.read_bytes())
    data[len(data) // 2] ^= 0x04
    written.write_bytes(bytes(data))
    files._HASHES.clear()  # as another process would see it
    with pytest.raises(ArtifactError, match="damaged or replaced"):
        read_table(written, SCHEMA)


def test_reader_refuses_a_stale_file(written, source):
    source.write_text("another input\n")
    with pytest.raises(ArtifactError, match="stale"):
        read_table(written, SCHEMA)


def test_a_sealed_file_that_is_not_parquet(tmp_path):
    path = tmp_path / "fake.parquet"
    path.write_bytes(b"PAR1 but not really")
    seal.write_seal(path)
    with pytest.raises(ArtifactError, match="cannot be read as Parquet"):
        read_table(path, SCHEMA)


def test_page_checksums_catch_damage_the_seal_was_rewritten_around(written):
    """A page damaged and then resealed (the seal no longer helps) is still refused:
    its page checksum is verified on read, where a plain reader returns wrong values."""
    original = written.read_bytes()
    chunk = pq.ParquetFile(written).metadata.row_group(0).column(0)
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    clean = pq.ParquetFile(written).read()
    for offset in range(start + chunk.total_compressed_size // 2, len(original)):
        data = bytearray(original)
        data[offset] ^= 0x10
        written.write_bytes(bytes(data))
        try:
            silently_wrong = not pq.ParquetFile(written).read().equals(clean)
        except (OSError, pa.ArrowException):
            continue  # this byte breaks the structure; look for one only a checksum sees
        if silently_wrong:
            break
    else:
        pytest.fail("no byte whose damage a plain reader misses")
    files._HASHES.clear()
    seal.write_seal(written, inputs={}, settings={"k": 2})
    assert seal.problem(written) is None
    with pytest.raises(ArtifactError, match="unreadable") as caught:
        read_table(written, SCHEMA)
    assert "integrity" in str(caught.value) or "CRC" in str(caught.value)


def test_write_is_atomic(monkeypatch, written):
    before = written.read_bytes()

    def broken_replace(src, dst):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(OSError, match="Input/output error"):
        write_table(table(10), written, schema=SCHEMA, inputs={}, settings={})
    assert written.read_bytes() == before
    assert sorted(os.listdir(written.parent)) == ["table.parquet", "table.parquet.seal.json"]
    assert json.loads(seal.seal_path(written).read_text())["settings"] == {"k": 2}
