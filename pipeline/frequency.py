"""Word frequency counts from Kaggle's `unigram_freq.csv` or Norvig's `count_1w.txt`.

Both hold the same Google Web Trillion Word counts in two layouts:
- Kaggle: comma separated, a `word,count` header (columns may come in either order);
- Norvig: tab separated `word<TAB>count`, no header.
The layout is recognised from the first non-blank line. Counts are summed over case
variants of a word, since the game does not distinguish them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from pipeline.errors import InputError
from pipeline.words import decode_text

MAX_SHOWN = 40
DIGITS = re.compile(r"[0-9]+")


def _shown(text: str) -> str:
    return repr(text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "...")


def _parse_count(path: str | Path, number: int, text: str) -> int:
    """A count is plain ASCII digits: no sign, separators, exponent or decimal point."""
    text = text.strip()
    if text.startswith("-") and DIGITS.fullmatch(text[1:]):
        raise InputError(path, f"count {text} is negative", number)
    if not DIGITS.fullmatch(text):
        raise InputError(path, f"count {_shown(text)} is not a whole number", number)
    return int(text)


def read_frequency_counts(path: str | Path) -> dict[str, int]:
    """Return lower-cased word -> summed count; malformed rows fail naming file and line."""
    text = decode_text(path, Path(path).read_bytes())
    lines = text.split("\n")
    numbered = ((number, line.rstrip("\r")) for number, line in enumerate(lines, start=1))
    rows = [(number, line) for number, line in numbered if line.strip()]
    if not rows:
        raise InputError(path, "is empty: expected `word,count` rows or `word<TAB>count` lines")
    first_number, first_line = rows[0]
    first_line = first_line.strip()
    if "\t" in first_line:
        separator, word_column, count_column, body = "\t", 0, 1, rows
    else:
        separator = ","
        header = [name.strip().lower() for name in first_line.split(",")]
        missing = [name for name in ("word", "count") if name not in header]
        if missing:
            raise InputError(
                path,
                f"header {_shown(first_line)} lacks column(s) {', '.join(missing)}: expected "
                "Kaggle's `word,count` header or Norvig's tab-separated `word<TAB>count` lines",
                first_number,
            )
        word_column, count_column, body = header.index("word"), header.index("count"), rows[1:]
    width = 2 if separator == "\t" else len(first_line.split(","))
    counts: dict[str, int] = defaultdict(int)
    for number, line in body:
        fields = line.split(separator)
        if len(fields) != width:
            raise InputError(
                path, f"row {_shown(line)} has {len(fields)} field(s), expected {width}", number
            )
        word = fields[word_column].strip().lower()
        if not word:
            raise InputError(path, "row has an empty word", number)
        counts[word] += _parse_count(path, number, fields[count_column])
    if not counts:
        raise InputError(path, "has a header but no counts", first_number)
    return dict(counts)
