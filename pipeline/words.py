"""Word lists in, one validated word index out: the row and column order of every matrix.

The index holds one row per allowed guess, sorted by word. `word_id` is the word's row in
every guess x answer matrix and `answer_id` its column (null when it is not an answer).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import InputError
from pipeline.parquet import described, write_parquet

log = logging.getLogger(__name__)

WORD_PATTERN = re.compile(r"[a-z]+")
MAX_SHOWN = 24  # characters of a bad word quoted in an error message

WORD_INDEX_SCHEMA = pa.schema(
    [
        described("word_id", pa.int32(), "row of the word in every guess x answer matrix"),
        described("word", pa.string(), "the word, lower case a-z"),
        described("is_answer", pa.bool_(), "whether the word is a possible answer"),
        described(
            "answer_id",
            pa.int32(),
            "column of the word in the guess x answer matrix; null for non-answers",
            nullable=True,
        ),
    ]
)


@dataclass(frozen=True)
class WordList:
    """The clean words of one list file, in file order, with the line each came from."""

    path: str
    words: tuple[str, ...]
    lines: tuple[int, ...]
    length: int


def _shown(text: str) -> str:
    return repr(text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "...")


def decode_text(path: str | Path, data: bytes) -> str:
    """Decode UTF-8 (a BOM is dropped); name the line of the first undecodable byte."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(path, "is UTF-16 encoded; save it as UTF-8 (or ASCII) text", line=1)
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise InputError(path, "contains a NUL byte: this is a binary file, not a text list", line)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        byte = data[error.start]
        raise InputError(path, f"is not UTF-8 text (byte 0x{byte:02x})", line) from None


def read_word_list(path: str | Path, *, length: int | None = None) -> WordList:
    """Read one word per line, normalised the documented way, or fail naming file and line.

    Normalisation: surrounding whitespace, CR of CRLF, a UTF-8 BOM and blank lines are
    dropped, a missing final newline is fine, letters are lower-cased, and later
    duplicates are dropped with a warning. Anything else that is not a-z, or a word whose
    length differs from the list's (the first word's, or `length` when given), is an error.
    """
    text = decode_text(path, Path(path).read_bytes())
    words: list[str] = []
    lines: list[int] = []
    first_seen: dict[str, int] = {}
    expected = length
    for number, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.strip()
        if not stripped:
            continue
        word = stripped.lower()
        if not WORD_PATTERN.fullmatch(word):
            raise InputError(
                path, f"word {_shown(stripped)} has characters outside a-z", line=number
            )
        if expected is None:
            expected = len(word)
        elif len(word) != expected:
            raise InputError(
                path,
                f"word {_shown(stripped)} has {len(word)} letters; "
                f"the word list's words have {expected}",
                line=number,
            )
        if word in first_seen:
            log.warning(
                "%s, line %d: duplicate word %r (first on line %d) dropped",
                path,
                number,
                word,
                first_seen[word],
            )
            continue
        first_seen[word] = number
        words.append(word)
        lines.append(number)
    if not words or expected is None:
        raise InputError(path, "contains no words")
    return WordList(str(path), tuple(words), tuple(lines), expected)


def build_word_index(allowed_path: str | Path, answers_path: str | Path) -> pa.Table:
    """Merge the two lists into the index; answers missing from the allowed list are added."""
    allowed = read_word_list(allowed_path)
    answers = read_word_list(answers_path, length=allowed.length)
    allowed_set = set(allowed.words)
    missing = [word for word in answers.words if word not in allowed_set]
    if missing:
        shown = ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else "")
        log.warning(
            "%s: %d answers are not in %s and were added as guesses: %s",
            answers_path,
            len(missing),
            allowed_path,
            shown,
        )
    words = sorted(allowed_set.union(answers.words))
    answer_set = set(answers.words)
    is_answer = [word in answer_set for word in words]
    answer_ids = np.cumsum(is_answer, dtype=np.int64) - 1
    table = pa.table(
        {
            "word_id": pa.array(np.arange(len(words), dtype=np.int32)),
            "word": pa.array(words, pa.string()),
            "is_answer": pa.array(is_answer, pa.bool_()),
            "answer_id": pa.array(answer_ids.astype(np.int32), mask=~np.array(is_answer)),
        },
        schema=WORD_INDEX_SCHEMA,
    )
    log.info(
        "word index: %d guesses (%d from %s), %d answers, %d letters",
        len(words),
        len(allowed.words),
        allowed_path,
        len(answer_set),
        allowed.length,
    )
    return table


def write_word_index(
    allowed_path: str | Path, answers_path: str | Path, output: str | Path
) -> None:
    """Build the word index and write it as `words.parquet`."""
    table = build_word_index(allowed_path, answers_path)
    write_parquet(
        table,
        output,
        inputs={"allowed": allowed_path, "answers": answers_path},
        config={"word_length": len(table["word"][0].as_py())},
    )


@dataclass(frozen=True)
class WordIndex:
    """The word index as later stages use it: guesses in row order, answers in column order."""

    path: str
    words: tuple[str, ...]
    is_answer: np.ndarray
    answer_rows: np.ndarray  # word_id of each answer, in answer_id order

    @property
    def length(self) -> int:
        return len(self.words[0])

    @property
    def answers(self) -> tuple[str, ...]:
        return tuple(self.words[row] for row in self.answer_rows)


def load_word_index(path: str | Path) -> WordIndex:
    """Read and check `words.parquet`; a damaged or inconsistent index is an InputError."""
    try:
        # ParquetFile, not read_table: read_table imports pyarrow.dataset (0.15 s per process)
        table = pq.ParquetFile(path).read(columns=[field.name for field in WORD_INDEX_SCHEMA])
    except (OSError, pa.ArrowException) as error:
        raise InputError(path, f"cannot be read as a word index: {error}") from None
    words = tuple(table["word"].to_pylist())
    if not words:
        raise InputError(path, "holds no words")
    word_ids = table["word_id"].to_numpy(zero_copy_only=False)  # nulls become NaN
    if not np.array_equal(word_ids, np.arange(len(words))):
        raise InputError(path, "word_id is not 0, 1, 2, ... in row order")
    if list(words) != sorted(words) or len(set(words)) != len(words):
        raise InputError(path, "words are not sorted and unique")
    lengths = set(map(len, words))
    if len(lengths) != 1:
        raise InputError(path, f"words differ in length ({sorted(lengths)})")
    if not WORD_PATTERN.fullmatch("".join(words)):  # one match for all: the index is large
        bad = next(word for word in words if not WORD_PATTERN.fullmatch(word))
        raise InputError(path, f"word {_shown(bad)} has characters outside a-z")
    is_answer = table["is_answer"].to_numpy(zero_copy_only=False).astype(bool)
    answer_ids = table["answer_id"].to_numpy(zero_copy_only=False)
    rows = np.flatnonzero(is_answer)
    if len(rows) == 0:
        raise InputError(path, "has no answers (is_answer is false everywhere)")
    if not np.array_equal(answer_ids[rows].astype(np.int64), np.arange(len(rows))):
        raise InputError(path, "answer_id is not 0, 1, 2, ... over the answers in word order")
    return WordIndex(str(path), words, is_answer, rows.astype(np.int64))
