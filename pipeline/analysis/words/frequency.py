"""Word frequency counts from Kaggle's `unigram_freq.csv` or Norvig's `count_1w.txt`.

Both hold the same Google Web Trillion Word counts in two layouts:
- Kaggle: comma separated, a `word,count` header (columns may come in either order);
- Norvig: tab separated `word<TAB>count`, no header.
The layout is recognised from the first non-blank line.

Rules:
- A count is plain ASCII digits and fits int64.
- A word is lowered in A-Z only, so no non-ASCII character can become a letter of an
  index word. Lines whose words are then equal (case variants such as `Model` and
  `model`, or a word repeated) are one word: their counts are summed, the sum must fit
  int64, and one warning counts the words that came from more than one line.
- Only the words asked for are kept (the word index's), so memory does not grow with the
  file; every row is still checked, and the first problem in the file is the one reported.

The bytes arrive whole or in blocks (a file read in blocks by the stage); they are cut into
blocks of whole lines (pipeline.analysis.words.line_blocks). Rows of the common form (an
ASCII-letter word and a count of at most 18 digits) are checked and selected in columns
with pyarrow; every other row goes through the one-row parser, which accepts it or names
its line.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.analysis.words.line_blocks import text_blocks
from pipeline.core.errors import InputError
from pipeline.core.wordle import ascii_lower

log = logging.getLogger(__name__)

MAX_SHOWN = 40
DIGITS = re.compile(r"[0-9]+")
INT64_MAX = 2**63 - 1
MAX_EXAMPLES = 5  # repeated words named in the warning
# The row form the columnar path takes: an ASCII-letter word, a count of at most 18 digits
# (which always fits int64); the other rows go through _parse_row.
_FAST_WORD = "(?P<word>[A-Za-z]+)"
_FAST_COUNT = "(?P<count>[0-9]{1,18})"


def _shown(text: str) -> str:
    return repr(text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "...")


def _number(digits: str) -> str:
    """A number for a message: long ones are cut, with their length."""
    if len(digits) <= MAX_SHOWN:
        return digits
    return f"{digits[:MAX_SHOWN]}...({len(digits)} digits)"


def _parse_count(path: str, number: int, text: str) -> int:
    """A count is plain ASCII digits that fit int64: no sign, separators, exponent or point."""
    text = text.strip()
    if text.startswith("-") and DIGITS.fullmatch(text[1:]):
        raise InputError(path, f"count -{_number(text[1:])} is negative", number)
    if not DIGITS.fullmatch(text):
        raise InputError(path, f"count {_shown(text)} is not a whole number", number)
    digits = text.lstrip("0") or "0"
    if len(digits) > 19 or int(digits) > INT64_MAX:  # int() of > 4300 digits would raise
        raise InputError(
            path,
            f"count {_number(digits)} is too large: counts must fit int64 (at most {INT64_MAX})",
            number,
        )
    return int(digits)


@dataclass(frozen=True)
class Layout:
    """How rows are split: separator, column positions and fields per row."""

    separator: str
    word_column: int
    count_column: int
    width: int
    has_header: bool

    def fast_pattern(self) -> str | None:
        """Regex of the common row form, for the columnar path (None: every row is parsed)."""
        if self.width != 2:
            return None
        columns = [_FAST_WORD, _FAST_COUNT] if self.word_column == 0 else [_FAST_COUNT, _FAST_WORD]
        return "^" + re.escape(self.separator).join(columns) + "\r?$"


def _layout(path: str, number: int, first_line: str) -> Layout:
    """The layout from the first non-blank line: a tab means Norvig, else Kaggle's header."""
    first_line = first_line.strip()
    if "\t" in first_line:
        return Layout("\t", 0, 1, 2, has_header=False)
    header = [name.strip().lower() for name in first_line.split(",")]
    missing = [name for name in ("word", "count") if name not in header]
    if missing:
        raise InputError(
            path,
            f"header {_shown(first_line)} lacks column(s) {', '.join(missing)}: expected "
            "Kaggle's `word,count` header or Norvig's tab-separated `word<TAB>count` lines",
            number,
        )
    return Layout(",", header.index("word"), header.index("count"), len(header), True)


def _parse_row(path: str, number: int, line: str, layout: Layout) -> tuple[str, int]:
    """(word lowered in A-Z, count) of one non-blank row, or an error naming its line."""
    line = line.rstrip("\r")
    fields = line.split(layout.separator)
    if len(fields) != layout.width:
        raise InputError(
            path, f"row {_shown(line)} has {len(fields)} field(s), expected {layout.width}", number
        )
    word = ascii_lower(fields[layout.word_column].strip())
    if not word:
        raise InputError(path, "row has an empty word", number)
    return word, _parse_count(path, number, fields[layout.count_column])


@dataclass
class _Totals:
    """Summed counts of the kept words, with the lines each came from."""

    path: str
    keep: frozenset[str] | None
    keep_array: pa.Array | None = None
    counts: dict[str, int] = field(default_factory=dict)
    first_line: dict[str, int] = field(default_factory=dict)
    line_count: dict[str, int] = field(default_factory=dict)  # only for repeated words
    rows: int = 0

    def __post_init__(self) -> None:
        if self.keep is not None:
            self.keep_array = pa.array(sorted(self.keep), pa.large_string())

    def add(self, number: int, word: str, count: int) -> None:
        if self.keep is not None and word not in self.keep:
            return
        total = self.counts.get(word)
        if total is None:
            self.counts[word] = count
            self.first_line[word] = number
            return
        total += count
        if total > INT64_MAX:
            raise InputError(
                self.path,
                f"the counts of {_shown(word)} (first on line {self.first_line[word]}, case "
                f"variants included) sum to {total}, more than int64 holds ({INT64_MAX})",
                number,
            )
        self.counts[word] = total
        self.line_count[word] = self.line_count.get(word, 1) + 1

    def warn_repeated(self) -> None:
        """One warning counting the words that came from more than one line."""
        if not self.line_count:
            return
        shown = ", ".join(
            f"{word} ({lines} lines, first on line {self.first_line[word]})"
            for word, lines in list(self.line_count.items())[:MAX_EXAMPLES]
        )
        count = len(self.line_count)
        which = "of the words looked up" if self.keep is not None else "words"
        if count == 1 and self.keep is None:
            which = "word"
        log.warning(
            "%s: %d %s %s on more than one line (case variants included); their counts "
            "were summed: %s%s",
            self.path,
            count,
            which,
            "appears" if count == 1 else "appear",
            shown,
            " ..." if count > MAX_EXAMPLES else "",
        )


def _fast_rows(
    lines: pa.Array, first_line: int, layout: Layout, totals: _Totals
) -> tuple[pa.Array, list[tuple[int, str, int | None]]]:
    """Rows of the common form, checked in columns: (mask of them, the kept ones as
    (line, word, count))."""
    pattern = layout.fast_pattern()
    if pattern is None:
        return pa.array([False] * len(lines)), []
    extracted = pc.extract_regex(lines, pattern)
    fast = pc.fill_null(extracted.is_valid(), False)
    totals.rows += pc.sum(fast).as_py() or 0
    words = pc.ascii_lower(extracted.field("word"))
    kept = fast
    if totals.keep_array is not None:
        kept = pc.and_(fast, pc.is_in(words, value_set=totals.keep_array))
    indices = pc.indices_nonzero(kept)
    counts = pc.cast(pc.take(extracted.field("count"), indices), pa.int64())
    rows = zip(
        (first_line + index for index in indices.to_pylist()),
        pc.take(words, indices).to_pylist(),
        counts.to_pylist(),
        strict=True,
    )
    return fast, list(rows)


def _add_block(lines: pa.Array, first_line: int, layout: Layout, totals: _Totals) -> None:
    """Check every row of a block of lines and add the kept words' counts in line order,
    so the first problem in the file is the one reported."""
    fast, rows = _fast_rows(lines, first_line, layout, totals)
    for index in pc.indices_nonzero(pc.invert(fast)).to_pylist():
        text = lines[index].as_py()
        if text.strip():
            rows.append((first_line + index, text, None))  # parsed below, in its turn
    rows.sort(key=lambda row: row[0])
    for number, word, count in rows:
        if count is None:
            word, count = _parse_row(totals.path, number, word, layout)
            totals.rows += 1
        totals.add(number, word, count)


def parse_frequency_counts(
    data: bytes | Iterable[bytes], path: str, words: Collection[str] | None = None
) -> dict[str, int]:
    """Word (lowered in A-Z) -> summed count, of `words` only when given.

    `data` is the file's bytes, whole or as successive blocks; `path` only names the file
    in messages. Every row is checked; a bad one is an InputError naming the line.
    `words=()` checks the whole file and keeps nothing (what the fetch step does).
    """
    totals = _Totals(path, None if words is None else frozenset(words))
    layout: Layout | None = None
    header_line = None
    for first_line, text in text_blocks(data, path):
        lines = pc.split_pattern(pa.array([text], pa.large_string()), "\n").flatten()
        if layout is None:
            start = next((i for i in range(len(lines)) if lines[i].as_py().strip()), None)
            if start is None:
                continue
            header_line = first_line + start
            layout = _layout(path, header_line, lines[start].as_py())
            skip = start + 1 if layout.has_header else start
            lines, first_line = lines.slice(skip), first_line + skip
        _add_block(lines, first_line, layout, totals)
    if layout is None:
        raise InputError(path, "is empty: expected `word,count` rows or `word<TAB>count` lines")
    if totals.rows == 0:
        raise InputError(path, "has a header but no counts", header_line)
    totals.warn_repeated()
    return totals.counts
