"""`patterns/`: the pattern matrix on disk, row chunks as zstd-compressed `.npy` and an index.

Rows are guesses and columns answers (or every guess, for the square matrix), both in
`words.parquet` order. Chunk k holds rows [k * chunk_rows, min((k + 1) * chunk_rows, G)).
Each chunk file is a single zstd frame whose payload is a standard `.npy` file, so
`np.load(io.BytesIO(zstandard.decompress(data)))` reads it without this package.
Later stages read the matrix only through `PatternMatrix`, which checks the index
against its seal and every chunk against the index (sha256, shape, dtype), and names the
file when something is wrong.
"""

from __future__ import annotations

import io
import json
import logging
import math
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import zstandard

from pipeline.artifacts import seal
from pipeline.artifacts.seal import REBUILD_HINT
from pipeline.core.errors import ArtifactError, PipelineError
from pipeline.core.files import sha256_bytes, sha256_file, write_bytes_atomic, write_text_atomic
from pipeline.core.word_index import WordIndex
from pipeline.core.wordle import pattern_dtype

log = logging.getLogger(__name__)

INDEX_FORMAT = 1
INDEX_FILE = "index.json"
# Matrix folders inside data/derived -> what their columns are.
MATRICES = {"patterns": "answers", "patterns_square": "guesses"}
# Chunks decoded at once when a read needs several: sha256 and zstd release the GIL.
READ_THREADS = min(4, os.cpu_count() or 1)
# np.load parses a .npy header with ast.literal_eval, and CPython 3.11's AST constructor
# is not safe from several threads at once: now and then it raises "SystemError: AST
# constructor recursion depth mismatch" (python/cpython#106905). The chunk threads
# decompress in parallel and take turns for this short step.
_NPY_LOAD = threading.Lock()


class PatternStoreError(ArtifactError):
    """A chunk file or the chunk index is missing, damaged or inconsistent."""


def chunk_name(number: int) -> str:
    return f"chunk-{number:04d}.npy.zst"


def chunk_count(n_rows: int, chunk_rows: int) -> int:
    """How many chunk files hold `n_rows` rows at `chunk_rows` rows each."""
    if chunk_rows < 1:
        raise PipelineError(f"patterns chunk_rows must be at least 1, got {chunk_rows}")
    return math.ceil(n_rows / chunk_rows)


def chunk_bounds(chunk: int, n_rows: int, chunk_rows: int) -> tuple[int, int]:
    """Row range [start, stop) of chunk number `chunk`."""
    count = chunk_count(n_rows, chunk_rows)
    if not 0 <= chunk < count:
        raise PipelineError(f"chunk {chunk} does not exist: {n_rows} rows make {count} chunks")
    return chunk * chunk_rows, min((chunk + 1) * chunk_rows, n_rows)


def encode_chunk(block: np.ndarray, zstd_level: int) -> bytes:
    """A single zstd frame holding `block` as a `.npy` file.

    The frame records its content size and a content checksum, so a damaged file fails
    to decompress even without the index.
    """
    payload = io.BytesIO()
    np.save(payload, np.ascontiguousarray(block), allow_pickle=False)
    return zstandard.ZstdCompressor(level=zstd_level, write_checksum=True).compress(
        payload.getbuffer()
    )


def write_chunk(
    block: np.ndarray, path: str | Path, *, zstd_level: int, inputs: dict[str, Path]
) -> None:
    """Write one chunk of pattern rows and seal it."""
    data = encode_chunk(block, zstd_level)
    write_bytes_atomic(path, data)
    seal.write_seal(path, inputs=inputs, settings={"zstd_level": zstd_level})
    log.info(
        "%s: %d rows x %d columns, %s, %d bytes raw, %d compressed (%.1f%%)",
        Path(path).name,
        block.shape[0],
        block.shape[1],
        block.dtype,
        block.nbytes,
        len(data),
        100 * len(data) / max(block.nbytes, 1),
    )


def _read_chunk_file(path: Path) -> np.ndarray:
    """Decode a whole sealed chunk file, so a damaged one never enters the index."""
    seal.verify(path)
    try:
        return np.load(io.BytesIO(zstandard.decompress(path.read_bytes())), allow_pickle=False)
    except (OSError, ValueError, EOFError, zstandard.ZstdError) as error:
        raise PatternStoreError(f"{path}: not a zstd-compressed .npy chunk ({error})") from None


def _chunk_entry(
    chunk_path: Path, rows: tuple[int, int], n_columns: int, dtype: np.dtype, folder: Path
) -> dict[str, object]:
    """The index entry of one chunk file, after decoding and checking it whole."""
    block = _read_chunk_file(chunk_path)
    shape = (rows[1] - rows[0], n_columns)
    if block.shape != shape or block.dtype != dtype:
        raise PatternStoreError(
            f"{chunk_path}: holds {block.shape} {block.dtype}, expected rows "
            f"{rows[0]}-{rows[1] - 1} as {shape} {dtype}"
        )
    if chunk_path.resolve().parent != folder.resolve():
        raise PatternStoreError(
            f"{chunk_path}: chunk files must sit in the index's folder {folder}"
        )
    return {
        "file": chunk_path.name,
        "shape": list(shape),
        "dtype": dtype.name,
        "sha256": sha256_file(chunk_path),
        "bytes": chunk_path.stat().st_size,
    }


def write_chunk_index(
    index: WordIndex,
    words_path: str | Path,
    chunks: Sequence[str | Path],
    output: str | Path,
    *,
    chunk_rows: int,
    columns: str,
) -> None:
    """Check that the chunk files tile the matrix and write the JSON index the loader trusts."""
    n_rows = len(index.words)
    n_columns = len(index.column_rows(columns))
    dtype = np.dtype(pattern_dtype(index.length))
    expected = chunk_count(n_rows, chunk_rows)
    if len(chunks) != expected:
        raise PatternStoreError(
            f"{n_rows} rows at {chunk_rows} per chunk make {expected} chunks, got {len(chunks)}"
        )
    output = Path(output)
    entries = []
    for number, chunk_path in enumerate(map(Path, chunks)):
        start, stop = chunk_bounds(number, n_rows, chunk_rows)
        entry = _chunk_entry(chunk_path, (start, stop), n_columns, dtype, output.parent)
        entries.append({"row_start": start, "row_stop": stop, **entry})
    document = {
        "format": INDEX_FORMAT,
        "rows": "guesses",
        "columns": columns,
        "shape": [n_rows, n_columns],
        "dtype": dtype.name,
        "word_length": index.length,
        "chunk_rows": chunk_rows,
        "words_sha256": sha256_file(words_path),
        "chunks": entries,
    }
    write_text_atomic(output, json.dumps(document, indent=2, sort_keys=True) + "\n")
    chunk_inputs = {f"chunk_{i:04d}": Path(c) for i, c in enumerate(chunks)}
    seal.write_seal(
        output,
        inputs={"words": Path(words_path)} | chunk_inputs,
        settings={"chunk_rows": chunk_rows, "columns": columns},
    )
    stored = sum(entry["bytes"] for entry in entries)
    raw = n_rows * n_columns * dtype.itemsize
    log.info(
        "pattern index: %d x %d %s in %d chunks, %d bytes raw, %d stored (%.1f%%)",
        n_rows, n_columns, dtype.name, len(entries), raw, stored, 100 * stored / max(raw, 1),
    )  # fmt: skip


@dataclass(frozen=True)
class ChunkEntry:
    path: Path
    row_start: int
    row_stop: int
    shape: tuple[int, int]
    dtype: np.dtype
    sha256: str


class PatternMatrix:
    """Read access to a stored pattern matrix, checked against its index on every read."""

    def __init__(self, index_path: str | Path) -> None:
        self.index_path = Path(index_path)
        seal.verify(self.index_path, check_inputs=False)  # the chunks are checked on read
        try:
            document = json.loads(self.index_path.read_text())
            self.shape: tuple[int, int] = tuple(document["shape"])
            self.dtype = np.dtype(document["dtype"])
            self.columns: str = document["columns"]
            self.word_length: int = document["word_length"]
            self.words_sha256: str = document["words_sha256"]
            self.chunks = [
                ChunkEntry(
                    self.index_path.parent / entry["file"],
                    entry["row_start"],
                    entry["row_stop"],
                    tuple(entry["shape"]),
                    np.dtype(entry["dtype"]),
                    entry["sha256"],
                )
                for entry in document["chunks"]
            ]
        except FileNotFoundError:
            raise PatternStoreError(f"{self.index_path}: pattern index is missing") from None
        except (ValueError, KeyError, TypeError) as error:
            raise PatternStoreError(
                f"{self.index_path}: not a pattern index ({error}); {REBUILD_HINT}"
            ) from None
        starts = [entry.row_start for entry in self.chunks]
        stops = [entry.row_stop for entry in self.chunks]
        if (
            not self.chunks
            or starts[0] != 0
            or stops[-1] != self.shape[0]
            or starts[1:] != stops[:-1]
        ):
            raise PatternStoreError(f"{self.index_path}: chunks do not tile the matrix rows")
        self._starts = np.array(starts, dtype=np.int64)

    def check_words(self, words_path: str | Path) -> None:
        """Fail unless the matrix was built from this very word index."""
        if sha256_file(words_path) != self.words_sha256:
            raise PatternStoreError(
                f"{self.index_path}: built from another word index than {words_path}; "
                f"{REBUILD_HINT}"
            )

    def chunk(self, number: int) -> np.ndarray:
        """The rows of one chunk, after checking its bytes, shape and dtype."""
        if not 0 <= number < len(self.chunks):
            raise PipelineError(
                f"{self.index_path}: no chunk {number} (the matrix has {len(self.chunks)})"
            )
        entry = self.chunks[number]
        try:
            data = entry.path.read_bytes()
        except FileNotFoundError:
            raise PatternStoreError(f"{entry.path}: chunk {number} is missing") from None
        if sha256_bytes(data) != entry.sha256:
            raise PatternStoreError(
                f"{entry.path}: chunk {number} is altered or truncated (sha256 differs from "
                f"{self.index_path}); {REBUILD_HINT}"
            )
        try:
            raw = io.BytesIO(zstandard.decompress(data))
            with _NPY_LOAD:
                array = np.load(raw, allow_pickle=False)
        except (ValueError, OSError, zstandard.ZstdError) as error:
            raise PatternStoreError(
                f"{entry.path}: chunk {number} is unreadable ({error})"
            ) from None
        if array.shape != entry.shape or array.dtype != entry.dtype:
            raise PatternStoreError(
                f"{entry.path}: chunk {number} holds {array.shape} {array.dtype}, "
                f"index says {entry.shape} {entry.dtype}"
            )
        return array

    def iter_chunks(self) -> Iterator[tuple[int, int, np.ndarray]]:
        """Yield (row_start, row_stop, rows) chunk by chunk: one chunk in memory at a time."""
        for number, entry in enumerate(self.chunks):
            yield entry.row_start, entry.row_stop, self.chunk(number)

    def _each_chunk(self, numbers: Sequence[int], use: Callable[[int, np.ndarray], None]) -> None:
        """Call use(number, rows) for the given chunks, decoding up to READ_THREADS at a time.

        Each thread holds one decoded chunk at a time; the first failing chunk (in the
        given order) raises its own error.
        """

        def read(number: int) -> None:
            use(number, self.chunk(number))

        if len(numbers) < 2 or READ_THREADS < 2:
            for number in numbers:
                read(number)
            return
        with ThreadPoolExecutor(max_workers=min(READ_THREADS, len(numbers))) as pool:
            for _ in pool.map(read, numbers):
                pass

    def rows(self, row_ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """The given guess rows, in the given order, reading each needed chunk once."""
        row_ids = np.asarray(row_ids, dtype=np.int64)
        if row_ids.size and (row_ids.min() < 0 or row_ids.max() >= self.shape[0]):
            raise PipelineError(f"row ids must lie in [0, {self.shape[0]})")
        result = np.empty((row_ids.size, self.shape[1]), dtype=self.dtype)
        owners = np.searchsorted(self._starts, row_ids, side="right") - 1

        def use(number: int, block: np.ndarray) -> None:
            wanted = np.flatnonzero(owners == number)
            result[wanted] = block[row_ids[wanted] - self.chunks[number].row_start]

        self._each_chunk(sorted(set(owners.tolist())), use)  # np.unique imports numpy.ma
        return result

    def full(self, column_ids: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
        """The whole matrix (guesses x columns), or every row restricted to `column_ids`."""
        if column_ids is not None:
            column_ids = np.asarray(column_ids, dtype=np.int64)
            if column_ids.size and (column_ids.min() < 0 or column_ids.max() >= self.shape[1]):
                raise PipelineError(f"column ids must lie in [0, {self.shape[1]})")
        width = self.shape[1] if column_ids is None else column_ids.size
        result = np.empty((self.shape[0], width), dtype=self.dtype)

        def use(number: int, block: np.ndarray) -> None:
            entry = self.chunks[number]
            target = result[entry.row_start : entry.row_stop]
            if column_ids is None:
                target[...] = block
            else:
                np.take(block, column_ids, axis=1, out=target)

        self._each_chunk(range(len(self.chunks)), use)
        return result


def read_pattern_matrix(
    files: Sequence[str | Path] | str | Path,
    index: WordIndex,
    words_path: str | Path,
    *,
    columns: str,
) -> PatternMatrix:
    """Open a stored matrix (its index.json, or its files with the index first) and check
    it belongs to this word index and has these columns ("answers" or "guesses") and the
    shape they give, so a square matrix is never read as the answer matrix."""
    index_path = Path(files) if isinstance(files, str | Path) else Path(files[0])
    matrix = PatternMatrix(index_path)
    matrix.check_words(words_path)
    shape = (len(index.words), len(index.column_rows(columns)))
    if matrix.columns != columns or tuple(matrix.shape) != shape:
        raise PatternStoreError(
            f"{index_path}: holds a {matrix.shape[0]} x {matrix.shape[1]} matrix with "
            f"{matrix.columns} columns; expected {shape[0]} x {shape[1]} with {columns} "
            f"columns; {REBUILD_HINT}"
        )
    return matrix
