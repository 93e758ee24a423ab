"""The NYT's answers by date: the archive's JSON in, checked days and their table out.

The archive (sources.history) is one JSON object {"YYYY-MM-DD": "word"}, a day per key.
Every problem is one line naming the file, the entry and what is wrong: text that is not
JSON, a key that is not a date, a date given twice (JSON allows repeated keys; the last
would silently win), a word that is not letters, a gap between two dates. Whether each
word is an allowed guess is checked where the allowed list is known (history_table).
Nothing here reads the clock: the rows end at `until`, a date the config gives.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pyarrow as pa

from pipeline.analysis.words.word_lists import WordList, decode_text
from pipeline.core.errors import InputError
from pipeline.core.wordle import MAX_WORD_LENGTH, ascii_lower, first_non_letter

FIRST_DAY = dt.date(2021, 6, 19)  # Wordle puzzle 0 (the NYT numbers days from it)


@dataclass(frozen=True)
class History:
    """The played days of one archive file, in date order, one answer a day."""

    path: str
    dates: tuple[dt.date, ...]
    words: tuple[str, ...]


def _pairs(path: str) -> object:
    """An object_pairs_hook that refuses a key given twice in one JSON object."""

    def hook(pairs: list[tuple[str, object]]) -> dict[str, object]:
        seen: dict[str, object] = {}
        for key, value in pairs:
            if key in seen:
                raise InputError(path, f"entry {key!r}: the date is given twice")
            seen[key] = value
        return seen

    return hook


def _day(path: str, key: str) -> dt.date:
    try:
        if len(key) != 10:
            raise ValueError(key)
        return dt.date.fromisoformat(key)
    except ValueError:
        raise InputError(path, f"entry {key[:24]!r}: not a date of the form YYYY-MM-DD") from None


def _word(path: str, key: str, value: object) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_WORD_LENGTH:
        raise InputError(path, f"entry {key!r}: {str(value)[:24]!r} is not a word")
    word = ascii_lower(value.strip())
    if (bad := first_non_letter(word)) is not None:
        raise InputError(path, f"entry {key!r}: {value[:24]!r} is not a word ({bad})")
    return word


def parse_history(data: bytes, path: str) -> History:
    """The archive's days in date order, checked (see the module doc); `path` names the
    file in every error."""
    text = decode_text(path, data)
    try:
        loaded = json.loads(text, object_pairs_hook=_pairs(path))
    except json.JSONDecodeError as error:
        raise InputError(path, f"not JSON: {error.msg}", error.lineno) from None
    except RecursionError:  # arrays or objects nested thousands deep: no archive is
        raise InputError(path, "not an archive: its JSON is nested too deeply") from None
    if not isinstance(loaded, dict) or not loaded:
        raise InputError(path, 'expected a JSON object {"YYYY-MM-DD": "word", ...} of days')
    days = sorted((_day(path, key), key, value) for key, value in loaded.items())
    for (before, _, _), (day, key, _) in zip(days, days[1:], strict=False):
        if (day - before).days != 1:
            raise InputError(path, f"entry {key!r}: the days after {before} up to it are missing")
    words = tuple(_word(path, key, value) for _, key, value in days)
    if len({len(word) for word in words}) != 1:
        key = next(k for _, k, v in days if len(v) != len(words[0]))
        raise InputError(path, f"entry {key!r}: its word's length differs from the first day's")
    return History(path, tuple(day for day, _, _ in days), words)


def parse_until(until: str) -> dt.date | None:
    """The config's history.until as a date; "" (the default) means the file's last day."""
    if not until:
        return None
    try:
        return dt.date.fromisoformat(until)
    except ValueError:
        raise InputError(
            "config", f"history.until: {until!r} is not a date of the form YYYY-MM-DD"
        ) from None


def played(history: History, until: str) -> History:
    """The days up to `until` (history.until): a fresh archive holds days not played yet."""
    last = parse_until(until)
    if last is not None and history.dates and last < history.dates[0]:
        raise InputError("config", f"history.until: {until} is before {history.path}'s first day")
    keep = len(history.dates) if last is None else sum(day <= last for day in history.dates)
    return History(history.path, history.dates[:keep], history.words[:keep])


def played_answers(history: History) -> WordList:
    """Every answer played, once each, in the order first played: an answer list."""
    first: dict[str, int] = {}
    for number, word in enumerate(history.words, start=1):
        first.setdefault(word, number)
    return WordList(history.path, tuple(first), tuple(first.values()), len(history.words[0]))


def union_word_lists(lists: Sequence[WordList]) -> WordList:
    """The words of every list, each once, in the order first met: an edition whose
    answers are several sources (`answers: [answers_nyt2023, history]`)."""
    if len(lists) == 1:
        return lists[0]
    seen: dict[str, int] = {}
    for word_list in lists:
        if word_list.length != lists[0].length:
            raise InputError(
                word_list.path, f"has {word_list.length}-letter words; {lists[0].path} has "
                f"{lists[0].length}"
            )  # fmt: skip
        for word, line in zip(word_list.words, word_list.lines, strict=True):
            seen.setdefault(word, line)
    path = " + ".join(word_list.path for word_list in lists)
    return WordList(path, tuple(seen), tuple(seen.values()), lists[0].length)


def check_allowed(history: History, allowed: frozenset[str]) -> None:
    """Every answer played must be an allowed guess: one line naming the first that is not."""
    for day, word in zip(history.dates, history.words, strict=True):
        if word not in allowed:
            raise InputError(history.path, f"entry '{day}': {word!r} is not an allowed guess")


def history_table(
    history: History, allowed: frozenset[str], answers: Mapping[str, frozenset[str]]
) -> pa.Table:
    """One row per played day: date, puzzle number, answer, whether it repeats an earlier
    answer and the day it was first played, and per edition whether its answer list holds
    it (`in_<edition>`). Every answer must be an allowed guess (`allowed`)."""
    check_allowed(history, allowed)
    days = list(zip(history.dates, history.words, strict=True))
    first: dict[str, dt.date] = {}
    for day, word in days:
        first.setdefault(word, day)
    columns = {
        "date": pa.array(history.dates, pa.date32()),
        "puzzle": pa.array([(day - FIRST_DAY).days for day in history.dates], pa.int32()),
        "answer": pa.array(history.words, pa.string()),
        "repeat": pa.array([first[word] != day for day, word in days]),
        "first_played": pa.array([first[word] for word in history.words], pa.date32()),
    }
    for edition, words in answers.items():
        columns[f"in_{edition}"] = pa.array([word in words for word in history.words])
    return pa.table(columns)


@dataclass(frozen=True)
class Coverage:
    """How much of the game as played an edition's answer list holds: of `days` played
    (to `last`), the `missed` days whose answer it lacks, and those answers (each once,
    in the order first played)."""

    days: int
    last: dt.date
    missed: int
    words: tuple[str, ...]

    @property
    def covered(self) -> int:
        return self.days - self.missed

    def summary(self, named: int | None = None) -> str:
        """ "none of 1,934 played" or "4 of 1,934 played: loris, kefir, spitz, capon"
        (at most `named` words named, then how many more)."""
        if not self.missed:
            return f"none of {self.days:,} played"
        shown = self.words if named is None else self.words[:named]
        more = len(self.words) - len(shown)
        tail = f" and {more:,} more" if more else ""
        kinds = f" ({len(self.words):,} words)" if len(self.words) != self.missed else ""
        return f"{self.missed:,} of {self.days:,} played{kinds}: {', '.join(shown)}{tail}"


def coverage(table: pa.Table, edition: str) -> Coverage | None:
    """The coverage of `edition` in a history.parquet table, or None when it has no
    column for it (the edition was not enabled when the table was built)."""
    column = f"in_{edition}"
    if column not in table.column_names or table.num_rows == 0:
        return None
    answers = table["answer"].to_pylist()
    held = table[column].to_pylist()
    missed = [word for word, inside in zip(answers, held, strict=True) if not inside]
    last = table["date"][-1].as_py()
    return Coverage(len(answers), last, len(missed), tuple(dict.fromkeys(missed)))
