"""The sealed chunk store of pattern matrices (pipeline.artifacts.patterns): writing,
indexing, reading, and every way it can break."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
import zstandard

from pipeline.analysis.words.word_lists import parse_word_list, word_index_table
from pipeline.artifacts import parquet, seal
from pipeline.artifacts import patterns as store_module
from pipeline.artifacts import words as words_artifact
from pipeline.artifacts.patterns import (
    PatternMatrix,
    PatternStoreError,
    chunk_bounds,
    chunk_count,
    chunk_name,
    encode_chunk,
    read_pattern_matrix,
    write_chunk,
    write_chunk_index,
)
from pipeline.artifacts.words import read_word_index, write_word_index
from pipeline.core import files
from pipeline.core.errors import ArtifactError, PipelineError
from pipeline.core.wordle import parse_pattern
from pipeline.kernels.feedback import feedback_matrix
from tests.support import naive

N_WORDS = 40
N_ANSWERS = 10
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
    """A sealed words.parquet (and its two lists) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    inputs = {"allowed": folder / "allowed.txt", "answers": folder / "answers.txt"}
    inputs["allowed"].write_text("\n".join(words) + "\n")
    inputs["answers"].write_text("\n".join(answers) + "\n")
    allowed = parse_word_list(inputs["allowed"].read_bytes(), "allowed.txt")
    answer_list = parse_word_list(inputs["answers"].read_bytes(), "answers.txt")
    write_word_index(
        word_index_table(allowed, answer_list), folder / "words.parquet", inputs=inputs
    )
    return folder / "words.parquet"


def compute_pattern_chunk(
    *, words: Path, chunk: Path, matrix: str, number: int, chunk_rows: int, zstd_level: int
) -> None:
    """One chunk of a stored matrix, composed the way the chunk rule's stage does it."""
    index = read_word_index(words)
    start, stop = chunk_bounds(number, len(index.words), chunk_rows)
    columns = index.column_rows(store_module.MATRICES[matrix])
    block = feedback_matrix(index.encoded[start:stop], index.encoded[columns])
    write_chunk(block, chunk, zstd_level=zstd_level, inputs={"words": words})


def build_store(
    folder: Path, words: Path, chunk_rows: int, matrix: str = "patterns", zstd_level: int = 3
) -> tuple[Path, list[Path]]:
    """Chunks and their index, as the workflow's rules build them."""
    word_index = read_word_index(words)
    n_rows = len(word_index.words)
    chunks = [folder / chunk_name(k) for k in range(chunk_count(n_rows, chunk_rows))]
    for number, path in enumerate(chunks):
        compute_pattern_chunk(
            words=words,
            chunk=path,
            matrix=matrix,
            number=number,
            chunk_rows=chunk_rows,
            zstd_level=zstd_level,
        )
    index = folder / "index.json"
    columns = store_module.MATRICES[matrix]
    write_chunk_index(word_index, words, chunks, index, chunk_rows=chunk_rows, columns=columns)
    return index, chunks


def expected_matrix(words: Path, columns: str = "answers") -> np.ndarray:
    """The matrix by the naive rules, independent of both engines."""
    index = read_word_index(words)
    targets = index.answers if columns == "answers" else index.words
    return naive.feedback_matrix(index.words, targets)


def open_matrix(index: Path, words: Path, columns: str = "answers") -> PatternMatrix:
    return read_pattern_matrix(index, read_word_index(words), words, columns=columns)


def reseal_index(index: Path, document: dict) -> None:
    """Rewrite index.json as given and seal it again (as a broken writer would)."""
    index.write_text(json.dumps(document))
    seal.write_seal(index)


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
    """A private copy of the whole store (lists and matrix) that a test may damage."""
    shutil.copytree(store["folder"], tmp_path / "store")
    folder = tmp_path / "store" / "matrix"
    return {
        "words": tmp_path / "store" / "lists" / "words.parquet",
        "index": folder / "index.json",
        "chunks": [folder / path.name for path in store["chunks"]],
    }


def test_chunk_arithmetic():
    assert chunk_count(40, 7) == 6
    assert chunk_count(42, 7) == 6
    assert chunk_count(43, 7) == 7
    assert chunk_count(40, 1000) == 1
    assert chunk_count(1, 1) == 1
    assert chunk_bounds(0, 40, 7) == (0, 7)
    assert chunk_bounds(5, 40, 7) == (35, 40)
    assert chunk_bounds(0, 40, 1000) == (0, 40)
    assert chunk_name(3) == "chunk-0003.npy.zst"


@pytest.mark.parametrize("chunk_rows", [0, -1, -7])
def test_chunk_rows_must_be_positive(chunk_rows):
    with pytest.raises(PipelineError, match=f"chunk_rows must be at least 1, got {chunk_rows}"):
        chunk_count(40, chunk_rows)


@pytest.mark.parametrize("chunk", [6, 7, -1])
def test_chunk_number_out_of_range(chunk):
    with pytest.raises(PipelineError, match=f"chunk {chunk} does not exist: 40 rows make 6"):
        chunk_bounds(chunk, 40, CHUNK_ROWS)


def test_full_matrix_equals_the_rules(store):
    matrix = open_matrix(store["index"], store["words"])
    full = matrix.full()
    assert full.shape == (N_WORDS, N_ANSWERS)
    assert full.dtype == np.uint8
    np.testing.assert_array_equal(full, expected_matrix(store["words"]))
    assert matrix.shape == (N_WORDS, N_ANSWERS)
    assert matrix.columns == "answers"
    assert matrix.word_length == 5
    assert len(matrix.chunks) == N_CHUNKS


def test_orientation_rows_are_guesses_columns_answers_in_answer_id_order(store):
    index = read_word_index(store["words"])
    full = open_matrix(store["index"], store["words"]).full()
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
            assert full[row, col] == naive.feedback(index.words[row], index.answers[col])


def test_rows_in_any_order_with_repeats(store):
    matrix = open_matrix(store["index"], store["words"])
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
    monkeypatch.setattr(store_module, "READ_THREADS", threads)
    matrix = open_matrix(store["index"], store["words"])
    full = expected_matrix(store["words"])
    for columns in ([9, 0, 4, 4], np.array([3]), []):
        np.testing.assert_array_equal(matrix.full(columns), full[:, columns])
    np.testing.assert_array_equal(matrix.full(), full)
    np.testing.assert_array_equal(matrix.rows([39, 0, 20]), full[[39, 0, 20]])
    with pytest.raises(PipelineError, match=r"column ids must lie in \[0, 10\)"):
        matrix.full([0, 10])


def test_iter_chunks_yields_row_ranges(store):
    matrix = open_matrix(store["index"], store["words"])
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
        assert zstandard.get_frame_parameters(data).has_checksum


def test_index_fields(store):
    document = json.loads(store["index"].read_text())
    assert document["format"] == 1
    assert document["rows"] == "guesses"
    assert document["columns"] == "answers"
    assert document["shape"] == [N_WORDS, N_ANSWERS]
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
        assert entry["shape"] == [stop - start, N_ANSWERS]
        assert entry["dtype"] == "uint8"
        assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert entry["bytes"] == path.stat().st_size
    assert entries[-1]["shape"] == [5, N_ANSWERS]


# --- seals ------------------------------------------------------------------------------


def test_every_chunk_and_the_index_are_sealed_with_relative_inputs(store):
    words_sha = hashlib.sha256(store["words"].read_bytes()).hexdigest()
    for path in store["chunks"]:
        record = seal.verify(path)
        assert record.inputs == {"words": {"path": "../lists/words.parquet", "sha256": words_sha}}
        assert record.settings == {"zstd_level": 3}
    record = seal.verify(store["index"])
    assert record.settings == {"chunk_rows": CHUNK_ROWS, "columns": "answers"}
    assert record.inputs["words"]["path"] == "../lists/words.parquet"
    assert [record.inputs[f"chunk_{k:04d}"]["path"] for k in range(N_CHUNKS)] == [
        path.name for path in store["chunks"]
    ]


def test_moving_the_store_keeps_it_valid(store, tmp_path):
    moved = tmp_path / "somewhere" / "else"
    shutil.copytree(store["folder"], moved)
    index, words = moved / "matrix" / "index.json", moved / "lists" / "words.parquet"
    for path in [index, *(moved / "matrix").glob("chunk-*.npy.zst")]:
        assert seal.problem(path) is None, path
    np.testing.assert_array_equal(open_matrix(index, words).full(), expected_matrix(words))


def test_index_edited_without_a_new_seal_is_refused(copied):
    document = json.loads(copied["index"].read_text())
    document["chunk_rows"] = 8
    copied["index"].write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
    with pytest.raises(ArtifactError, match="damaged or replaced"):
        PatternMatrix(copied["index"])


def test_unsealed_index_is_refused(copied):
    seal.seal_path(copied["index"]).unlink()
    with pytest.raises(ArtifactError, match="has no seal"):
        PatternMatrix(copied["index"])


def test_store_is_deterministic(store, tmp_path):
    index, chunks = build_store(tmp_path, store["words"], CHUNK_ROWS)
    for ours, theirs in zip(chunks, store["chunks"], strict=True):
        assert ours.read_bytes() == theirs.read_bytes()
    assert index.read_bytes() == store["index"].read_bytes()


def test_write_chunk_accepts_any_block(tmp_path, store):
    block = np.arange(12, dtype=np.uint16).reshape(3, 4)
    path = tmp_path / chunk_name(0)
    write_chunk(block, path, zstd_level=1, inputs={"words": store["words"]})
    assert path.read_bytes() == encode_chunk(block, 1)
    np.testing.assert_array_equal(
        np.load(io.BytesIO(zstandard.decompress(path.read_bytes()))), block
    )
    assert seal.verify(path).settings == {"zstd_level": 1}


# --- other shapes -----------------------------------------------------------------------


def test_square_matrix(store, tmp_path):
    index, chunks = build_store(tmp_path, store["words"], chunk_rows=16, matrix="patterns_square")
    assert len(chunks) == 3
    matrix = open_matrix(index, store["words"], columns="guesses")
    full = matrix.full()
    assert full.shape == (N_WORDS, N_WORDS)
    assert matrix.columns == "guesses"
    np.testing.assert_array_equal(full, expected_matrix(store["words"], "guesses"))
    assert np.all(np.diag(full) == 3**5 - 1)
    # the answers matrix is the square one's answer columns
    answer_rows = read_word_index(store["words"]).answer_rows
    np.testing.assert_array_equal(full[:, answer_rows], expected_matrix(store["words"]))


def test_square_and_answer_matrices_are_never_confused(store, tmp_path):
    index, _ = build_store(tmp_path, store["words"], chunk_rows=16, matrix="patterns_square")
    with pytest.raises(PatternStoreError) as caught:
        open_matrix(index, store["words"], columns="answers")
    assert str(caught.value) == (
        f"{index}: holds a 40 x 40 matrix with guesses columns; expected 40 x 10 with answers "
        f"columns; {seal.REBUILD_HINT}"
    )
    with pytest.raises(PatternStoreError, match="expected 40 x 40 with guesses columns"):
        open_matrix(store["index"], store["words"], columns="guesses")


def test_six_letter_words_give_uint16(tmp_path):
    words = random_words(3, 12, 6, fixed=("planet", "rocket"))
    words_path = make_words(tmp_path / "lists", words, ["planet", "rocket", words[0]])
    index, chunks = build_store(tmp_path / "matrix", words_path, chunk_rows=5)
    assert len(chunks) == 3
    matrix = open_matrix(index, words_path)
    full = matrix.full()
    assert full.dtype == np.uint16
    assert json.loads(index.read_text())["dtype"] == "uint16"
    assert matrix.word_length == 6
    np.testing.assert_array_equal(full, expected_matrix(words_path))
    assert np.load(io.BytesIO(zstandard.decompress(chunks[0].read_bytes()))).dtype == np.uint16


def test_ten_letter_words(tmp_path):
    words = random_words(5, 9, 10, fixed=("abracadabr",))
    words_path = make_words(tmp_path / "lists", words, words[:4])
    index, _ = build_store(tmp_path / "matrix", words_path, chunk_rows=4)
    full = open_matrix(index, words_path).full()
    assert full.dtype == np.uint16
    np.testing.assert_array_equal(full, expected_matrix(words_path))
    assert full.max() == 59048


def test_chunk_rows_larger_than_rows_gives_one_chunk(store, tmp_path):
    index, chunks = build_store(tmp_path, store["words"], chunk_rows=1000)
    assert len(chunks) == 1
    document = json.loads(index.read_text())
    assert [(e["row_start"], e["row_stop"]) for e in document["chunks"]] == [(0, N_WORDS)]
    np.testing.assert_array_equal(
        open_matrix(index, store["words"]).full(), expected_matrix(store["words"])
    )
    with pytest.raises(PipelineError, match="chunk 1 does not exist: 40 rows make 1 chunks"):
        compute_pattern_chunk(
            words=store["words"],
            chunk=tmp_path / "chunk-1.npy.zst",
            matrix="patterns",
            number=1,
            chunk_rows=1000,
            zstd_level=1,
        )
    assert not (tmp_path / "chunk-1.npy.zst").exists()


def test_chunk_rows_equal_to_rows_divisor(store, tmp_path):
    index, chunks = build_store(tmp_path, store["words"], chunk_rows=8)
    assert len(chunks) == 5
    assert json.loads(index.read_text())["chunks"][-1]["shape"] == [8, N_ANSWERS]
    np.testing.assert_array_equal(
        open_matrix(index, store["words"]).full(), expected_matrix(store["words"])
    )


# --- damage is found on read and the message names the file -----------------------------


def test_missing_chunk(copied):
    copied["chunks"][2].unlink()
    matrix = open_matrix(copied["index"], copied["words"])
    with pytest.raises(PatternStoreError) as caught:
        matrix.full()
    assert str(caught.value) == f"{copied['chunks'][2]}: chunk 2 is missing"
    # rows in other chunks still load
    np.testing.assert_array_equal(matrix.rows([0, 39]), expected_matrix(copied["words"])[[0, 39]])
    with pytest.raises(PatternStoreError, match="chunk-0002.npy.zst: chunk 2 is missing"):
        matrix.rows([15])


def test_truncated_chunk(copied):
    path = copied["chunks"][1]
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(PatternStoreError) as caught:
        open_matrix(copied["index"], copied["words"]).full()
    assert str(caught.value).startswith(f"{path}: chunk 1 is altered or truncated")
    assert str(copied["index"]) in str(caught.value)


def test_one_flipped_bit_anywhere_in_a_chunk(copied):
    path = copied["chunks"][3]
    original = path.read_bytes()
    matrix = open_matrix(copied["index"], copied["words"])
    for offset in range(len(original)):
        data = bytearray(original)
        data[offset] ^= 1 << (offset % 8)
        path.write_bytes(bytes(data))
        with pytest.raises(PatternStoreError) as caught:
            matrix.chunk(3)
        assert str(caught.value).startswith(f"{path}: chunk 3 is altered or truncated"), offset
    path.write_bytes(original)
    np.testing.assert_array_equal(matrix.chunk(3), expected_matrix(copied["words"])[21:28])


def test_chunk_replaced_by_another_chunks_file(copied):
    # chunks 0 and 1 have the same shape and dtype: only the hash tells them apart
    shutil.copy(copied["chunks"][1], copied["chunks"][0])
    matrix = open_matrix(copied["index"], copied["words"])
    with pytest.raises(PatternStoreError) as caught:
        matrix.full()
    assert str(caught.value).startswith(f"{copied['chunks'][0]}: chunk 0 is altered")
    np.testing.assert_array_equal(matrix.chunk(1), expected_matrix(copied["words"])[7:14])


def test_truncated_chunk_indexed_as_is_is_still_caught_on_load(copied):
    # an index (resealed) that records the truncated file's hash: the hash then matches,
    # and decompression is the second line of defence
    path = copied["chunks"][5]
    path.write_bytes(path.read_bytes()[:-5])
    document = json.loads(copied["index"].read_text())
    document["chunks"][5]["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    reseal_index(copied["index"], document)
    matrix = open_matrix(copied["index"], copied["words"])
    with pytest.raises(PatternStoreError) as caught:
        matrix.rows([36])
    assert str(caught.value).startswith(f"{path}: chunk 5 is unreadable (")


def test_chunk_with_wrong_shape_for_its_index_entry(copied):
    # chunk 0's entry re-pointed at chunk 5's file (hash included): the shape check fires
    document = json.loads(copied["index"].read_text())
    document["chunks"][0]["file"] = copied["chunks"][5].name
    document["chunks"][0]["sha256"] = document["chunks"][5]["sha256"]
    reseal_index(copied["index"], document)
    with pytest.raises(PatternStoreError) as caught:
        open_matrix(copied["index"], copied["words"]).chunk(0)
    assert str(caught.value) == (
        f"{copied['chunks'][5]}: chunk 0 holds (5, 10) uint8, index says (7, 10) uint8"
    )


@pytest.mark.parametrize("number", [-1, 6])
def test_loader_chunk_number_out_of_range(store, number):
    matrix = open_matrix(store["index"], store["words"])
    with pytest.raises(PipelineError, match=f"no chunk {number} \\(the matrix has 6\\)"):
        matrix.chunk(number)


def test_index_missing(copied):
    copied["index"].unlink()
    with pytest.raises(ArtifactError) as caught:
        open_matrix(copied["index"], copied["words"])
    assert str(caught.value) == f"{copied['index']}: missing; {seal.REBUILD_HINT}"


def test_index_not_json_or_not_an_index(copied):
    copied["index"].write_text("{not json")
    seal.write_seal(copied["index"])
    with pytest.raises(PatternStoreError) as caught:
        PatternMatrix(copied["index"])
    assert str(caught.value).startswith(f"{copied['index']}: not a pattern index (")
    reseal_index(copied["index"], {"shape": [40, 10], "dtype": "uint8"})
    with pytest.raises(PatternStoreError, match="not a pattern index"):
        PatternMatrix(copied["index"])


@pytest.mark.parametrize("drop", [0, 2, 5])
def test_index_with_a_gap_in_the_rows(copied, drop):
    document = json.loads(copied["index"].read_text())
    del document["chunks"][drop]
    reseal_index(copied["index"], document)
    with pytest.raises(PatternStoreError, match="chunks do not tile the matrix rows"):
        PatternMatrix(copied["index"])


def test_words_parquet_mismatch(copied, tmp_path):
    other = make_words(tmp_path / "other", ["apple", "plead", "spade"], ["spade"])
    with pytest.raises(PatternStoreError) as caught:
        read_pattern_matrix(copied["index"], read_word_index(other), other, columns="answers")
    assert str(caught.value) == (
        f"{copied['index']}: built from another word index than {other}; {seal.REBUILD_HINT}"
    )
    open_matrix(copied["index"], copied["words"])  # the right one is fine


def test_read_pattern_matrix_takes_the_rule_file_list(store):
    files_list = [store["index"], *store["chunks"]]
    matrix = read_pattern_matrix(
        files_list, read_word_index(store["words"]), store["words"], columns="answers"
    )
    assert matrix.index_path == store["index"]
    np.testing.assert_array_equal(matrix.rows([3]), expected_matrix(store["words"])[[3]])


# --- the index writer refuses chunks that do not tile the matrix -------------------------


def write_index(words, chunks, output, chunk_rows=CHUNK_ROWS, columns="answers"):
    write_chunk_index(
        read_word_index(words), words, chunks, output, chunk_rows=chunk_rows, columns=columns
    )


def test_index_refuses_wrong_number_of_chunks(store, tmp_path):
    with pytest.raises(PatternStoreError, match="40 rows at 7 per chunk make 6 chunks, got 5"):
        write_index(store["words"], store["chunks"][:5], tmp_path / "index.json")
    assert not (tmp_path / "index.json").exists()


@pytest.mark.parametrize("chunk_rows", [0, -3])
def test_index_refuses_bad_chunk_rows(store, tmp_path, chunk_rows):
    with pytest.raises(PipelineError, match=f"chunk_rows must be at least 1, got {chunk_rows}"):
        write_index(store["words"], store["chunks"], tmp_path / "index.json", chunk_rows)
    assert list(tmp_path.iterdir()) == []


def test_index_refuses_an_unknown_columns_kind(store, tmp_path):
    with pytest.raises(ValueError, match="matrix columns must be 'answers' or 'guesses'"):
        write_index(store["words"], store["chunks"], tmp_path / "index.json", columns="rows")
    assert list(tmp_path.iterdir()) == []


def test_index_refuses_chunks_out_of_order(copied):
    chunks = copied["chunks"]
    shuffled = [chunks[5], *chunks[1:5], chunks[0]]
    copied["index"].unlink()
    with pytest.raises(PatternStoreError) as caught:
        write_index(copied["words"], shuffled, copied["index"])
    assert str(caught.value).startswith(f"{chunks[5]}: holds (5, 10) uint8, expected rows 0-6")
    assert not copied["index"].exists()


def test_index_refuses_missing_damaged_or_garbage_chunk(copied):
    copied["index"].unlink()
    path = copied["chunks"][4]
    path.unlink()
    with pytest.raises(ArtifactError, match=f"{path}: missing"):
        write_index(copied["words"], copied["chunks"], copied["index"])
    path.write_bytes(b"not zstd at all")
    with pytest.raises(ArtifactError, match=f"{path}: damaged or replaced"):
        write_index(copied["words"], copied["chunks"], copied["index"])
    seal.write_seal(path)  # a sealed file that is still not a chunk
    with pytest.raises(PatternStoreError, match=f"{path}: not a zstd-compressed .npy chunk"):
        write_index(copied["words"], copied["chunks"], copied["index"])
    assert not copied["index"].exists()


def test_index_refuses_chunks_of_another_word_index(copied):
    # the chunks were sealed with the words they came from: a new words.parquet makes
    # them stale before any shape is compared
    copied["index"].unlink()
    lists = copied["words"].parent
    (lists / "answers.txt").write_text("apple\n")
    allowed = parse_word_list((lists / "allowed.txt").read_bytes(), "allowed.txt")
    answers = parse_word_list((lists / "answers.txt").read_bytes(), "answers.txt")
    write_word_index(
        word_index_table(allowed, answers),
        copied["words"],
        inputs={"allowed": lists / "allowed.txt", "answers": lists / "answers.txt"},
    )
    with pytest.raises(ArtifactError, match="stale"):
        write_index(copied["words"], copied["chunks"], copied["index"])
    assert not copied["index"].exists()


def test_index_refuses_square_chunks_for_answer_columns(store, tmp_path):
    _, square = build_store(tmp_path / "square", store["words"], 7, matrix="patterns_square")
    with pytest.raises(PatternStoreError) as caught:
        write_index(store["words"], square, tmp_path / "square" / "other.json")
    assert str(caught.value).startswith(f"{square[0]}: holds (7, 40) uint8, expected rows 0-6")
    assert not (tmp_path / "square" / "other.json").exists()


def test_chunks_outside_the_index_folder_give_a_clear_error(store, tmp_path):
    with pytest.raises(PatternStoreError, match="chunk files must sit in the index's folder"):
        write_index(store["words"], store["chunks"], tmp_path / "elsewhere" / "index.json")
    assert not (tmp_path / "elsewhere" / "index.json").exists()


def test_a_bad_word_index_fails_before_any_chunk_is_written(tmp_path):
    bad = tmp_path / "words.parquet"
    table = pa.table(
        {
            "word_id": pa.array([0, 1, 2], pa.int32()),
            "word": ["abcde", "abcdef", "bcdef"],
            "is_answer": [True, False, True],
            "answer_id": pa.array([0, None, 1], pa.int32()),
        }
    )
    parquet.write_table(table, bad, schema=words_artifact.SCHEMA, inputs={}, settings={})
    out = tmp_path / "out"
    with pytest.raises(ArtifactError) as caught:
        compute_pattern_chunk(
            words=bad,
            chunk=out / chunk_name(0),
            matrix="patterns",
            number=0,
            chunk_rows=2,
            zstd_level=1,
        )
    assert str(caught.value).startswith(f"{bad}: words are not all of one length")
    assert not out.exists()


# --- atomic writes ----------------------------------------------------------------------


def test_failed_write_leaves_no_file_behind(copied, tmp_path, monkeypatch):
    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", broken_fsync)
    out = tmp_path / "out"
    with pytest.raises(OSError, match="No space left"):
        compute_pattern_chunk(
            words=copied["words"],
            chunk=out / "chunk-0000.npy.zst",
            matrix="patterns",
            number=0,
            chunk_rows=7,
            zstd_level=1,
        )
    assert list(out.iterdir()) == []  # neither the target, nor its seal, nor a temporary
    folder = copied["index"].parent
    copied["index"].unlink()
    seal.seal_path(copied["index"]).unlink()
    with pytest.raises(OSError, match="No space left"):
        write_index(copied["words"], copied["chunks"], copied["index"])
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        name for path in copied["chunks"] for name in (path.name, path.name + ".seal.json")
    )


def test_failed_rewrite_keeps_the_old_chunk(copied, monkeypatch):
    path = copied["chunks"][0]
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(OSError):
        write_chunk(np.zeros((7, 10), np.uint8), path, zstd_level=1, inputs={})
    assert path.read_bytes() == before
    assert seal.problem(path) is None  # the old seal still matches the old chunk
    assert sorted(p.name for p in path.parent.iterdir()) == sorted(
        [name for p in copied["chunks"] for name in (p.name, p.name + ".seal.json")]
        + ["index.json", "index.json.seal.json"]
    )


# --- the real lists ---------------------------------------------------------------------


def test_real_matrix_store(mirror, tmp_path):
    """The real 14855 x 2309 matrix through the store: known patterns and checksums."""
    words = make_words(
        tmp_path / "lists",
        (mirror / "allowed.txt").read_text().split(),
        (mirror / "answers.txt").read_text().split(),
    )
    index, chunks = build_store(tmp_path / "matrix", words, chunk_rows=4000, zstd_level=1)
    assert len(chunks) == 4
    word_index = read_word_index(words)
    matrix = open_matrix(index, words)
    assert matrix.shape == (14855, 2309)
    full = matrix.full()
    rows = [word_index.word_id(w) for w in ("tares", "qajaq", "cigar")]
    np.testing.assert_array_equal(
        full[rows], naive.feedback_matrix(["tares", "qajaq", "cigar"], word_index.answers)
    )
    col = {word: i for i, word in enumerate(word_index.answers)}
    assert full[word_index.word_id("speed"), col["abide"]] == parse_pattern("BBYBY")
    assert full[word_index.word_id("crane"), col["crane"]] == 242
    # every answer's own column is all green on its row, and nowhere else
    assert np.count_nonzero(full == 242) == 2309
