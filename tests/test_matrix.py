"""The chunked pattern-matrix store: writing, indexing, loading, and every way it can break."""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard

from pipeline import files
from pipeline import matrix as matrix_module
from pipeline.errors import InputError, PipelineError
from pipeline.matrix import (
    PatternStoreError,
    chunk_bounds,
    chunk_count,
    load_pattern_matrix,
    write_chunk_index,
    write_pattern_chunk,
)
from pipeline.patterns import encode_words, feedback, feedback_matrix, parse_pattern
from pipeline.words import WORD_INDEX_SCHEMA, load_word_index, write_word_index

N_WORDS = 40
CHUNK_ROWS = 7  # 40 rows -> chunks of 7, 7, 7, 7, 7, 5
N_CHUNKS = 6


def random_words(seed: int, count: int, length: int, fixed: tuple[str, ...]) -> list[str]:
    rng = np.random.default_rng(seed)
    # a small alphabet so repeated letters and yellows are frequent
    alphabet = np.array(list("abdeilnprst"))
    words = set(fixed)
    while len(words) < count:
        words.add("".join(rng.choice(alphabet, size=length)))
    return sorted(words)


def make_words(folder: Path, words: list[str], answers: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "allowed.txt").write_text("\n".join(words) + "\n")
    (folder / "answers.txt").write_text("\n".join(answers) + "\n")
    write_word_index(folder / "allowed.txt", folder / "answers.txt", folder / "words.parquet")
    return folder / "words.parquet"


def build_store(
    folder: Path, words_path: Path, chunk_rows: int, columns: str = "answers"
) -> tuple[Path, list[Path]]:
    n_rows = len(load_word_index(words_path).words)
    chunks = [folder / f"chunk-{k}.npy.zst" for k in range(chunk_count(n_rows, chunk_rows))]
    for number, path in enumerate(chunks):
        write_pattern_chunk(words_path, path, chunk=number, chunk_rows=chunk_rows, columns=columns)
    index = folder / "index.json"
    write_chunk_index(words_path, chunks, index, chunk_rows=chunk_rows, columns=columns)
    return index, chunks


def write_bad_index(path: Path, words: list[str], is_answer: list[bool]) -> Path:
    """A words.parquet written by hand, bypassing write_word_index's checks."""
    answer_ids = np.cumsum(is_answer) - 1
    table = pa.table(
        {
            "word_id": pa.array(range(len(words)), pa.int32()),
            "word": pa.array(words, pa.string()),
            "is_answer": pa.array(is_answer, pa.bool_()),
            "answer_id": pa.array(
                [int(a) if ok else None for a, ok in zip(answer_ids, is_answer, strict=True)],
                pa.int32(),
            ),
        },
        schema=WORD_INDEX_SCHEMA,
    )
    pq.write_table(table, path)
    return path


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """40 random words, 10 answers (apple and plead among them), 6 chunks of up to 7 rows."""
    folder = tmp_path_factory.mktemp("store")
    words = random_words(7, N_WORDS, 5, fixed=("apple", "plead"))
    rng = np.random.default_rng(11)
    others = [w for w in words if w not in ("apple", "plead")]
    answers = ["plead", "apple", *rng.choice(others, size=8, replace=False).tolist()]
    words_path = make_words(folder / "lists", words, answers)
    index, chunks = build_store(folder / "matrix", words_path, CHUNK_ROWS)
    return {"words": words_path, "index": index, "chunks": chunks, "folder": folder}


@pytest.fixture
def copied(store, tmp_path):
    """A private copy of the store that a test may damage."""
    shutil.copytree(store["folder"] / "matrix", tmp_path / "matrix")
    shutil.copy(store["words"], tmp_path / "words.parquet")
    index = tmp_path / "matrix" / "index.json"
    chunks = [tmp_path / "matrix" / path.name for path in store["chunks"]]
    return {"words": tmp_path / "words.parquet", "index": index, "chunks": chunks}


def expected_matrix(words_path: Path, columns: str = "answers") -> np.ndarray:
    index = load_word_index(words_path)
    encoded = encode_words(index.words)
    cols = index.answer_rows if columns == "answers" else np.arange(len(index.words))
    return feedback_matrix(encoded, encoded[cols])


def test_chunk_arithmetic():
    assert chunk_count(40, 7) == 6
    assert chunk_count(42, 7) == 6
    assert chunk_count(43, 7) == 7
    assert chunk_count(40, 1000) == 1
    assert chunk_count(1, 1) == 1
    assert chunk_bounds(0, 40, 7) == (0, 7)
    assert chunk_bounds(5, 40, 7) == (35, 40)
    assert chunk_bounds(0, 40, 1000) == (0, 40)


def test_full_matrix_equals_feedback_matrix(store):
    matrix = load_pattern_matrix(store["index"], words_path=store["words"])
    full = matrix.full()
    assert full.shape == (N_WORDS, 10)
    assert full.dtype == np.uint8
    np.testing.assert_array_equal(full, expected_matrix(store["words"]))
    assert matrix.shape == (N_WORDS, 10)
    assert matrix.columns == "answers"
    assert matrix.word_length == 5
    assert len(matrix.chunks) == N_CHUNKS


def test_orientation_rows_are_guesses_columns_answers_in_answer_id_order(store):
    index = load_word_index(store["words"])
    full = load_pattern_matrix(store["index"]).full()
    apple, plead = index.words.index("apple"), index.words.index("plead")
    answer_col = {word: col for col, word in enumerate(index.answers)}
    # by hand: guess apple vs answer plead -> a Y, p Y, p B (only one p), l Y, e Y
    assert full[apple, answer_col["plead"]] == parse_pattern("YYBYY")
    # guess plead vs answer apple -> p Y, l Y, e Y, a Y, d B
    assert full[plead, answer_col["apple"]] == parse_pattern("YYYYB")
    assert parse_pattern("YYBYY") != parse_pattern("YYYYB")
    # columns follow answer_id (word order), not the answers file order (plead came first)
    assert index.answers == tuple(sorted(index.answers))
    for col, answer in enumerate(index.answers):
        assert full[index.words.index(answer), col] == 3**5 - 1
    for row in (0, 13, 39):
        for col in (0, 9):
            assert full[row, col] == feedback(index.words[row], index.answers[col])


def test_rows_in_any_order_with_repeats(store):
    matrix = load_pattern_matrix(store["index"])
    full = expected_matrix(store["words"])
    wanted = [39, 0, 7, 6, 39, 20, 0, 35, 34]
    np.testing.assert_array_equal(matrix.rows(wanted), full[wanted])
    np.testing.assert_array_equal(matrix.rows(np.array([5])), full[[5]])
    assert matrix.rows([]).shape == (0, 10)
    with pytest.raises(PipelineError, match=r"row ids must lie in \[0, 40\)"):
        matrix.rows([0, 40])
    with pytest.raises(PipelineError, match=r"row ids must lie in \[0, 40\)"):
        matrix.rows([-1])


@pytest.mark.parametrize("threads", [1, 3])
def test_full_restricted_to_columns(store, monkeypatch, threads):
    monkeypatch.setattr(matrix_module, "READ_THREADS", threads)
    matrix = load_pattern_matrix(store["index"])
    full = expected_matrix(store["words"])
    for columns in ([9, 0, 4, 4], np.array([3]), []):
        np.testing.assert_array_equal(matrix.full(columns), full[:, columns])
    np.testing.assert_array_equal(matrix.full(), full)
    np.testing.assert_array_equal(matrix.rows([39, 0, 20]), full[[39, 0, 20]])
    with pytest.raises(PipelineError, match=r"column ids must lie in \[0, 10\)"):
        matrix.full([0, 10])


def test_iter_chunks_yields_row_ranges(store):
    matrix = load_pattern_matrix(store["index"])
    ranges = [(start, stop, block.shape) for start, stop, block in matrix.iter_chunks()]
    assert ranges == [
        (0, 7, (7, 10)),
        (7, 14, (7, 10)),
        (14, 21, (7, 10)),
        (21, 28, (7, 10)),
        (28, 35, (7, 10)),
        (35, 40, (5, 10)),
    ]


def test_chunk_files_are_single_zstd_frames_of_plain_npy(store):
    full = expected_matrix(store["words"])
    for number, path in enumerate(store["chunks"]):
        data = path.read_bytes()
        array = np.load(io.BytesIO(zstandard.decompress(data)))
        start, stop = chunk_bounds(number, N_WORDS, CHUNK_ROWS)
        np.testing.assert_array_equal(array, full[start:stop])
        assert array.dtype == np.uint8
        # exactly one frame, with its content size recorded, and nothing after it
        decompressor = zstandard.ZstdDecompressor().decompressobj()
        payload = decompressor.decompress(data)
        assert decompressor.eof
        assert decompressor.unused_data == b""
        assert zstandard.frame_content_size(data) == len(payload)
        assert payload.startswith(b"\x93NUMPY")


def test_index_fields(store):
    document = json.loads(store["index"].read_text())
    assert document["format"] == 1
    assert document["rows"] == "guesses"
    assert document["columns"] == "answers"
    assert document["shape"] == [N_WORDS, 10]
    assert document["dtype"] == "uint8"
    assert document["word_length"] == 5
    assert document["chunk_rows"] == CHUNK_ROWS
    assert document["words_sha256"] == hashlib.sha256(store["words"].read_bytes()).hexdigest()
    entries = document["chunks"]
    assert len(entries) == N_CHUNKS
    for number, (entry, path) in enumerate(zip(entries, store["chunks"], strict=True)):
        start, stop = number * 7, min(number * 7 + 7, N_WORDS)
        assert entry["file"] == path.name  # relative to the index's folder
        assert (entry["row_start"], entry["row_stop"]) == (start, stop)
        assert entry["shape"] == [stop - start, 10]
        assert entry["dtype"] == "uint8"
        assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert entry["bytes"] == path.stat().st_size
    assert entries[-1]["shape"] == [5, 10]


def test_store_is_deterministic(store, tmp_path):
    index, chunks = build_store(tmp_path, store["words"], CHUNK_ROWS)
    for ours, theirs in zip(chunks, store["chunks"], strict=True):
        assert ours.read_bytes() == theirs.read_bytes()
    assert index.read_bytes() == store["index"].read_bytes()


def test_square_matrix(store, tmp_path):
    index, chunks = build_store(tmp_path, store["words"], chunk_rows=16, columns="guesses")
    assert len(chunks) == 3
    matrix = load_pattern_matrix(index, words_path=store["words"])
    full = matrix.full()
    assert full.shape == (N_WORDS, N_WORDS)
    assert matrix.columns == "guesses"
    np.testing.assert_array_equal(full, expected_matrix(store["words"], "guesses"))
    assert np.all(np.diag(full) == 3**5 - 1)
    # the answers matrix is the square one's answer columns
    answer_rows = load_word_index(store["words"]).answer_rows
    np.testing.assert_array_equal(full[:, answer_rows], expected_matrix(store["words"]))


def test_six_letter_words_give_uint16(tmp_path):
    words = random_words(3, 12, 6, fixed=("planet", "rocket"))
    words_path = make_words(tmp_path / "lists", words, ["planet", "rocket", words[0]])
    index, chunks = build_store(tmp_path / "matrix", words_path, chunk_rows=5)
    assert len(chunks) == 3
    matrix = load_pattern_matrix(index, words_path=words_path)
    full = matrix.full()
    assert full.dtype == np.uint16
    assert json.loads(index.read_text())["dtype"] == "uint16"
    assert matrix.word_length == 6
    np.testing.assert_array_equal(full, expected_matrix(words_path))
    assert np.load(io.BytesIO(zstandard.decompress(chunks[0].read_bytes()))).dtype == np.uint16


def test_chunk_rows_larger_than_rows_gives_one_chunk(store, tmp_path):
    index, chunks = build_store(tmp_path, store["words"], chunk_rows=1000)
    assert len(chunks) == 1
    document = json.loads(index.read_text())
    assert [(e["row_start"], e["row_stop"]) for e in document["chunks"]] == [(0, N_WORDS)]
    np.testing.assert_array_equal(
        load_pattern_matrix(index).full(), expected_matrix(store["words"])
    )
    with pytest.raises(PipelineError, match="chunk 1 does not exist: 40 rows make 1 chunks"):
        write_pattern_chunk(store["words"], tmp_path / "chunk-1.npy.zst", chunk=1, chunk_rows=1000)


def test_chunk_rows_equal_to_rows_divisor(store, tmp_path):
    index, chunks = build_store(tmp_path, store["words"], chunk_rows=8)
    assert len(chunks) == 5
    assert json.loads(index.read_text())["chunks"][-1]["shape"] == [8, 10]
    np.testing.assert_array_equal(
        load_pattern_matrix(index).full(), expected_matrix(store["words"])
    )


# --- damage is found and the message names the file -------------------------------------


def test_missing_chunk(copied):
    copied["chunks"][2].unlink()
    matrix = load_pattern_matrix(copied["index"])
    with pytest.raises(PatternStoreError) as caught:
        matrix.full()
    assert str(caught.value) == f"{copied['chunks'][2]}: chunk 2 is missing"
    # rows in other chunks still load
    np.testing.assert_array_equal(matrix.rows([0, 39]), expected_matrix(copied["words"])[[0, 39]])
    with pytest.raises(PatternStoreError, match="chunk-2.npy.zst: chunk 2 is missing"):
        matrix.rows([15])


def test_truncated_chunk(copied):
    path = copied["chunks"][1]
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(PatternStoreError) as caught:
        load_pattern_matrix(copied["index"]).full()
    assert str(caught.value).startswith(f"{path}: chunk 1 is altered or truncated")
    assert str(copied["index"]) in str(caught.value)


def test_one_flipped_byte(copied):
    path = copied["chunks"][3]
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(PatternStoreError) as caught:
        load_pattern_matrix(copied["index"]).chunk(3)
    assert str(caught.value).startswith(f"{path}: chunk 3 is altered or truncated")


def test_chunk_replaced_by_another_chunks_file(copied):
    # chunks 0 and 1 have the same shape and dtype: only the hash tells them apart
    shutil.copy(copied["chunks"][1], copied["chunks"][0])
    matrix = load_pattern_matrix(copied["index"])
    with pytest.raises(PatternStoreError) as caught:
        matrix.full()
    assert str(caught.value).startswith(f"{copied['chunks'][0]}: chunk 0 is altered")
    np.testing.assert_array_equal(matrix.chunk(1), expected_matrix(copied["words"])[7:14])


def test_truncated_chunk_indexed_as_is_is_still_caught_on_load(store, copied):
    # an index written over an already truncated chunk records the truncated file's hash;
    # the hash then matches, and decompression is the second line of defence
    path = copied["chunks"][5]
    path.write_bytes(path.read_bytes()[:-5])
    document = json.loads(store["index"].read_text())
    document["chunks"][5]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    copied["index"].write_text(json.dumps(document))
    matrix = load_pattern_matrix(copied["index"])
    with pytest.raises(PatternStoreError) as caught:
        matrix.rows([36])
    assert str(caught.value).startswith(f"{path}: chunk 5 is unreadable (")


def test_chunk_with_wrong_shape_for_its_index_entry(store, copied):
    # chunk 0's entry re-pointed at chunk 5's file (hash included): the shape check fires
    document = json.loads(store["index"].read_text())
    document["chunks"][0]["file"] = copied["chunks"][5].name
    document["chunks"][0]["sha256"] = document["chunks"][5]["sha256"]
    copied["index"].write_text(json.dumps(document))
    with pytest.raises(PatternStoreError) as caught:
        load_pattern_matrix(copied["index"]).chunk(0)
    assert str(caught.value) == (
        f"{copied['chunks'][5]}: chunk 0 holds (5, 10) uint8, index says (7, 10) uint8"
    )


@pytest.mark.parametrize("number", [-1, 6])
def test_loader_chunk_number_out_of_range(store, number):
    matrix = load_pattern_matrix(store["index"])
    with pytest.raises(PipelineError, match=f"chunk {number}"):
        matrix.chunk(number)


def test_index_missing(copied):
    copied["index"].unlink()
    with pytest.raises(PatternStoreError) as caught:
        load_pattern_matrix(copied["index"])
    assert str(caught.value) == f"{copied['index']}: pattern index is missing"


def test_index_not_json_or_not_tiling(copied):
    copied["index"].write_text("{not json")
    with pytest.raises(InputError) as caught:
        load_pattern_matrix(copied["index"])
    assert caught.value.path == str(copied["index"])
    assert "is not a pattern index" in str(caught.value)
    document = json.loads(json.dumps({"shape": [40, 10], "dtype": "uint8"}))
    copied["index"].write_text(json.dumps(document))
    with pytest.raises(InputError, match="is not a pattern index"):
        load_pattern_matrix(copied["index"])


def test_index_with_a_gap_in_the_rows(store, copied):
    document = json.loads(store["index"].read_text())
    del document["chunks"][2]
    copied["index"].write_text(json.dumps(document))
    with pytest.raises(InputError, match="chunks do not tile the matrix rows"):
        load_pattern_matrix(copied["index"])


def test_words_parquet_mismatch(store, copied, tmp_path):
    other = make_words(tmp_path / "other", ["apple", "plead", "spade"], ["spade"])
    with pytest.raises(PatternStoreError) as caught:
        load_pattern_matrix(copied["index"], words_path=other)
    assert str(caught.value) == (
        f"{copied['index']}: built from another word index than {other}; rebuild it"
    )
    load_pattern_matrix(copied["index"], words_path=copied["words"])  # the right one is fine


# --- bad arguments and bad word indexes fail before anything is written ----------------


@pytest.mark.parametrize("chunk_rows", [0, -1, -7])
def test_chunk_rows_must_be_positive(store, tmp_path, chunk_rows):
    chunk = tmp_path / "chunk-0.npy.zst"
    with pytest.raises(PipelineError, match=f"chunk_rows must be at least 1, got {chunk_rows}"):
        write_pattern_chunk(store["words"], chunk, chunk=0, chunk_rows=chunk_rows)
    index = tmp_path / "index.json"
    with pytest.raises(PipelineError, match=f"chunk_rows must be at least 1, got {chunk_rows}"):
        write_chunk_index(store["words"], store["chunks"], index, chunk_rows=chunk_rows)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("chunk", [6, 7, -1])
def test_chunk_number_out_of_range(store, tmp_path, chunk):
    output = tmp_path / "chunk.npy.zst"
    with pytest.raises(PipelineError, match=f"chunk {chunk} does not exist: 40 rows make 6"):
        write_pattern_chunk(store["words"], output, chunk=chunk, chunk_rows=CHUNK_ROWS)
    assert list(tmp_path.iterdir()) == []


def test_unknown_columns_kind(store, tmp_path):
    with pytest.raises(PipelineError, match="matrix columns must be one of"):
        write_pattern_chunk(
            store["words"], tmp_path / "c.npy.zst", chunk=0, chunk_rows=7, columns="rows"
        )
    assert list(tmp_path.iterdir()) == []


def test_index_refuses_wrong_number_of_chunks(store, tmp_path):
    with pytest.raises(PatternStoreError, match="40 rows at 7 per chunk make 6 chunks, got 5"):
        write_chunk_index(
            store["words"], store["chunks"][:5], tmp_path / "index.json", chunk_rows=7
        )
    assert not (tmp_path / "index.json").exists()


def test_index_refuses_chunks_out_of_order(copied):
    chunks = copied["chunks"]
    shuffled = [chunks[5], *chunks[1:5], chunks[0]]
    copied["index"].unlink()
    with pytest.raises(PatternStoreError) as caught:
        write_chunk_index(copied["words"], shuffled, copied["index"], chunk_rows=7)
    assert str(caught.value).startswith(f"{chunks[5]}: holds (5, 10) uint8, expected rows 0-6")
    assert not copied["index"].exists()


def test_index_refuses_missing_or_garbage_chunk(copied):
    copied["index"].unlink()
    copied["chunks"][4].unlink()
    with pytest.raises(PatternStoreError) as caught:
        write_chunk_index(copied["words"], copied["chunks"], copied["index"], chunk_rows=7)
    assert str(caught.value).startswith(f"{copied['chunks'][4]}: not a zstd-compressed .npy")
    copied["chunks"][4].write_bytes(b"not zstd at all")
    with pytest.raises(PatternStoreError, match="chunk-4.npy.zst: not a zstd-compressed .npy"):
        write_chunk_index(copied["words"], copied["chunks"], copied["index"], chunk_rows=7)
    assert not copied["index"].exists()


def test_index_refuses_square_chunks_for_answer_columns(store, tmp_path):
    _, square = build_store(tmp_path / "square", store["words"], 7, columns="guesses")
    with pytest.raises(PatternStoreError) as caught:
        write_chunk_index(store["words"], square, tmp_path / "index.json", chunk_rows=7)
    assert str(caught.value).startswith(f"{square[0]}: holds (7, 40) uint8, expected rows 0-6")
    assert not (tmp_path / "index.json").exists()


@pytest.mark.parametrize(
    ("words", "is_answer", "fragment"),
    [
        (["abcde", "abcdef", "bcdef"], [True, False, True], "words differ in length ([5, 6])"),
        (["abcde", "bcdef", "cdefg"], [False, False, False], "has no answers"),
    ],
)
def test_bad_word_index_fails_before_any_chunk_is_written(
    store, tmp_path, words, is_answer, fragment
):
    bad = write_bad_index(tmp_path / "bad.parquet", words, is_answer)
    out = tmp_path / "out"
    with pytest.raises(InputError) as caught:
        write_pattern_chunk(bad, out / "chunk-0.npy.zst", chunk=0, chunk_rows=2)
    assert caught.value.path == str(bad)
    assert fragment in str(caught.value)
    with pytest.raises(InputError, match=re.escape(fragment)):
        write_chunk_index(bad, store["chunks"], out / "index.json", chunk_rows=2)
    assert not out.exists() or list(out.iterdir()) == []


def test_word_index_with_non_letter_words_is_an_input_error(tmp_path):
    bad = write_bad_index(tmp_path / "bad.parquet", ["ABCDE", "abcde"], [True, True])
    with pytest.raises(InputError):
        write_pattern_chunk(bad, tmp_path / "chunk-0.npy.zst", chunk=0, chunk_rows=2)
    assert not (tmp_path / "chunk-0.npy.zst").exists()


def test_failed_write_leaves_no_file_behind(copied, tmp_path, monkeypatch):
    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", broken_fsync)
    out = tmp_path / "out"
    with pytest.raises(OSError, match="No space left"):
        write_pattern_chunk(copied["words"], out / "chunk-0.npy.zst", chunk=0, chunk_rows=7)
    assert list(out.iterdir()) == []  # neither the target nor a temporary file
    folder = copied["index"].parent
    copied["index"].unlink()
    with pytest.raises(OSError, match="No space left"):
        write_chunk_index(copied["words"], copied["chunks"], copied["index"], chunk_rows=7)
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        path.name for path in copied["chunks"]
    )


def test_chunks_outside_the_index_folder_give_a_clear_error(store, tmp_path):
    with pytest.raises(PipelineError, match="chunk-0.npy.zst"):
        write_chunk_index(
            store["words"], store["chunks"], tmp_path / "elsewhere" / "index.json", chunk_rows=7
        )
    assert not (tmp_path / "elsewhere" / "index.json").exists()


def test_failed_rewrite_keeps_the_old_chunk(copied, monkeypatch):
    path = copied["chunks"][0]
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_pattern_chunk(copied["words"], path, chunk=0, chunk_rows=7, zstd_level=1)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == sorted(
        [p.name for p in copied["chunks"]] + ["index.json"]
    )
