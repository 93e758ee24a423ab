"""Word lists in, the word index out: the row and column order of every matrix.

The index holds one row per allowed guess, sorted by word. `word_id` is the word's row in
every guess x answer matrix and `answer_id` its column (null when it is not an answer).
Lists arrive as bytes with the name of the file they came from, which every error names.
Characters are what they are: only A-Z is lowered, and any other character than a-z is
refused by code point (no Unicode case or compatibility folding into ASCII). Words have at
most MAX_WORD_LENGTH letters, the longest the kernels and chunk files support.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from pipeline.core.errors import InputError
from pipeline.core.word_index import WordIndex
from pipeline.core.wordle import MAX_WORD_LENGTH, ascii_lower, first_non_letter

log = logging.getLogger(__name__)

MAX_SHOWN = 24  # characters of a bad word quoted in an error message
ASCII_SPACE = " \t\r"  # the only characters stripped around a word (\r: the CR of CRLF)


@dataclass(frozen=True)
class WordList:
    """The clean words of one list file, in file order, with the line each came from."""

    path: str
    words: tuple[str, ...]
    lines: tuple[int, ...]
    length: int


def _shown(text: str) -> str:
    return repr(text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "...")


UTF8_BOM = b"\xef\xbb\xbf"


def decode_text(path: str, data: bytes, *, first_line: int = 1) -> str:
    """Decode UTF-8 (a BOM is dropped); name the line of the first undecodable byte.

    `first_line` > 1 decodes a later block of a file read in blocks: line numbers count
    on from it, and no BOM is looked for.
    """
    start = first_line == 1
    if start and data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(path, "is UTF-16 encoded; save it as UTF-8 (or ASCII) text", line=1)
    nul = data.find(b"\x00")
    if nul >= 0:
        line = first_line + data.count(b"\n", 0, nul)
        raise InputError(path, "contains a NUL byte: this is a binary file, not a text list", line)
    if start and data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]  # not "utf-8-sig": its error offsets skip the BOM
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = first_line + data.count(b"\n", 0, error.start)
        byte = data[error.start]
        raise InputError(path, f"is not UTF-8 text (byte 0x{byte:02x})", line) from None


def _clean_word(path: str, number: int, raw: str) -> str:
    """The word of one line: ASCII spaces, tabs and the CR of CRLF stripped, A-Z lowered;
    any other character is an error naming its code point (see first_non_letter)."""
    stripped = raw.strip(ASCII_SPACE)
    problem = first_non_letter(stripped)
    if problem is not None:
        raise InputError(
            path, f"word {_shown(stripped)} has characters outside a-z: {problem}", line=number
        )
    return ascii_lower(stripped)


def _check_length(path: str, number: int, word: str, expected: int | None) -> int:
    """The list's word length: the first word's (at most MAX_WORD_LENGTH), then all equal."""
    if expected is None:
        if len(word) > MAX_WORD_LENGTH:
            raise InputError(
                path,
                f"word {_shown(word)} has {len(word)} letters; words of at most "
                f"{MAX_WORD_LENGTH} letters are supported",
                line=number,
            )
        return len(word)
    if len(word) != expected:
        raise InputError(
            path,
            f"word {_shown(word)} has {len(word)} letters; the word list's words have {expected}",
            line=number,
        )
    return expected


def parse_word_list(data: bytes, path: str, *, length: int | None = None) -> WordList:
    """One word per line, normalised the documented way, or fail naming file and line.

    Normalisation: surrounding ASCII spaces and tabs, the CR of CRLF, a UTF-8 BOM and
    blank lines are dropped, a missing final newline is fine, upper-case A-Z is lowered,
    and later duplicates are dropped with a warning. Any other character, a first word
    longer than MAX_WORD_LENGTH, or a word whose length differs from the list's (the
    first word's, or `length` when given) is an error. `path` only names the file.
    """
    text = decode_text(path, data)
    words: list[str] = []
    lines: list[int] = []
    first_seen: dict[str, int] = {}
    expected = length
    for number, raw in enumerate(text.split("\n"), start=1):
        word = _clean_word(path, number, raw)
        if not word:
            continue
        expected = _check_length(path, number, word, expected)
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
    return WordList(path, tuple(words), tuple(lines), expected)


def index_words(allowed: WordList) -> tuple[str, ...]:
    """The words of an index built on the allowed list: its words in sorted order."""
    return tuple(sorted(allowed.words))


def allowed_index(allowed: WordList) -> WordIndex:
    """The word order every edition that names this allowed list shares, without answers:
    what the work that depends on the allowed list alone is computed over."""
    words = index_words(allowed)
    return WordIndex(words, np.zeros(len(words), dtype=bool), np.empty(0, dtype=np.int64))


def check_answers(allowed: WordList, answers: WordList) -> None:
    """Every answer must be an allowed word of the same length (one line naming the
    answer list's file and the first line that is not)."""
    if answers.length != allowed.length:
        raise InputError(
            answers.path,
            f"has {answers.length}-letter words; {allowed.path} has {allowed.length}",
            answers.lines[0],
        )
    allowed_set = set(allowed.words)
    missing = [i for i, word in enumerate(answers.words) if word not in allowed_set]
    if missing:
        others = f" ({len(missing)} answers are not)" if len(missing) > 1 else ""
        raise InputError(
            answers.path,
            f"{answers.words[missing[0]]!r} is not in the allowed list {allowed.path}{others}; "
            "every answer must be an allowed guess",
            answers.lines[missing[0]],
        )


def word_index_table(allowed: WordList, answers: WordList) -> pa.Table:
    """The index of the allowed list, with the answers marked. Every answer must be an
    allowed word (check_answers): editions that name one allowed list share what depends
    on it alone (its commonness), so the index is the allowed list, whatever the answers."""
    check_answers(allowed, answers)
    words = index_words(allowed)
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
    )
    log.info(
        "word index: %d guesses (%d from %s), %d answers, %d letters",
        len(words),
        len(allowed.words),
        allowed.path,
        len(answer_set),
        allowed.length,
    )
    return table
