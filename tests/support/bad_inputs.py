"""The catalogue of bad inputs and the checks every refusal must pass.

Each case is (content, expected line or None, fragment of the message). The tests run
them through the real commands: tests/core/test_bad_input.py through each rule's script,
tests/workflow/test_bad_input.py through snakemake, wordle-pipeline and wordle-assist.
The newer surfaces have their own cases here too: BUNDLE_CASES (tests.support.bad_bundles,
release bundles `wordle-pipeline fetch` refuses: tests/commands/test_fetch.py),
UNTIL_CASES (the prior's day, history.until: tests/plan/test_config_checks.py) and
CONSUMER_CONFIG_CASES (a module consumer's config: tests/workflow/test_module.py).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support.bad_bundles import BUNDLE_CASES as BUNDLE_CASES  # in the catalogue
from tests.support.servers import DAMAGES, MEMBER, damaged_zip, zip_bytes

GOOD_ALLOWED = b"cigar\nrebut\nsissy\nhumph\n"
GOOD_ANSWERS = b"cigar\nsissy\n"
ELEVEN = "abcdefghijk"  # one letter more than MAX_WORD_LENGTH

WORD_LIST_CASES: dict[str, tuple[bytes, int | None, str]] = {
    "empty": (b"", None, "contains no words"),
    "blank lines only": (b"\n \n\t\n\r\n", None, "contains no words"),
    "wrong length": (b"cigar\nrebut\ncigars\n", 3, "has 6 letters; the word list's words have 5"),
    "mixed lengths": (b"abcde\nabcd\nabcdef\n", 2, "has 4 letters; the word list's words have 5"),
    "digits": (b"cigar\nreb4t\n", 2, "outside a-z: U+0034 DIGIT FOUR at position 4"),
    "punctuation": (b"cigar\nre.ut\n", 2, "outside a-z: U+002E FULL STOP at position 3"),
    "inner space": (b"cigar\nre ut\n", 2, "outside a-z: U+0020 SPACE at position 3"),
    "non-ascii letters": (
        "cigar\nnaïve\n".encode(),
        2,
        "outside a-z: U+00EF LATIN SMALL LETTER I WITH DIAERESIS at position 3",
    ),
    "kelvin sign (lower() gives k)": (
        "cigar\n\u212aebab\n".encode(),
        2,
        "word '\u212aebab' has characters outside a-z: U+212A KELVIN SIGN at position 1",
    ),
    "dotted capital i": (
        "cigar\n\u0130ssue\n".encode(),
        2,
        "U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE at position 1",
    ),
    "ligature (NFKC gives fi)": ("cigar\n\ufb01ner\n".encode(), 2, "U+FB01 LATIN SMALL LIGATURE"),
    "fullwidth letter": ("cigar\nci\uff47ar\n".encode(), 2, "U+FF47 FULLWIDTH LATIN SMALL"),
    "cyrillic look-alike": ("cigar\ncig\u0430r\n".encode(), 2, "U+0430 CYRILLIC SMALL LETTER A"),
    "no-break space": ("cigar\n\u00a0rebut\n".encode(), 2, "U+00A0 NO-BREAK SPACE at position 1"),
    "zero-width space": ("cigar\nrebut\u200b\n".encode(), 2, "U+200B ZERO WIDTH SPACE"),
    "byte order mark on line 2": ("cigar\n\ufeffrebut\n".encode(), 2, "U+FEFF ZERO WIDTH NO-BREAK"),
    "control character": (b"cigar\nreb\x1bt\n", 2, "outside a-z: U+001B at position 4"),
    "old mac line ends": (b"cigar\rrebut\r", 1, "outside a-z: U+000D at position 6"),
    "utf-16": ("cigar\nrebut\n".encode("utf-16"), 1, "UTF-16"),
    "utf-16 big endian": (b"\xfe\xff\x00c\x00i", 1, "UTF-16"),
    "binary": (bytes(range(256)), 1, "NUL byte"),
    "latin-1": ("cigar\nr\xe9but\n".encode("latin-1"), 2, "is not UTF-8 text (byte 0xe9)"),
    "truncated utf-8": (b"cigar\nreb\xc3", 2, "is not UTF-8 text (byte 0xc3)"),
    "huge line": (b"cigar\n" + b"a" * 1_000_000 + b"\n", 2, "has 1000000 letters"),
    "11 letters": (f"{ELEVEN}\n".encode(), 1, f"word '{ELEVEN}' has 11 letters"),
    "21 letters": (b"abcdefghijklmnopqrstu\n", 1, "has 21 letters"),
    "one 10 MB word": (b"a" * 10_000_000, 1, "has 10000000 letters"),
}

BIG = "6000000000000000000"  # 6e18: two of them overflow int64
FREQUENCY_CASES: dict[str, tuple[bytes, int | None, str]] = {
    "empty": (b"", None, "is empty"),
    "blank lines only": (b"\n\r\n  \n", None, "is empty"),
    "header only": (b"word,count\n", 1, "has a header but no counts"),
    "missing count column": (b"word,freq\nthe,5\n", 1, "lacks column(s) count"),
    "missing word column": (b"token,count\nthe,5\n", 1, "lacks column(s) word"),
    "no header, commas": (b"the,5\nof,3\n", 1, "lacks column(s) word, count"),
    "negative count": (b"word,count\nthe,5\nof,-3\n", 3, "count -3 is negative"),
    "non-numeric count": (b"word,count\nthe,many\n", 2, "is not a whole number"),
    "decimal count": (b"word,count\nthe,2.5\n", 2, "count '2.5' is not a whole number"),
    "exponent count": (b"word,count\nthe,1e3\n", 2, "count '1e3' is not a whole number"),
    "signed count": (b"word,count\nthe,+5\n", 2, "count '+5' is not a whole number"),
    "fullwidth digit": ("word,count\nthe,\uff15\n".encode(), 2, "is not a whole number"),
    "empty count": (b"word,count\nthe,\n", 2, "count '' is not a whole number"),
    "too many fields": (b"word,count\nthe,1,000\n", 2, "has 3 field(s), expected 2"),
    "too few fields": (b"word,count\nthe,1\ncigar\n", 3, "row 'cigar' has 1 field(s)"),
    "empty word": (b"word,count\nthe,1\n ,5\n", 3, "row has an empty word"),
    "norvig row without tab": (b"the\t1\ncigar 5\n", 2, "has 1 field(s), expected 2"),
    "utf-16": ("word,count\nthe,5\n".encode("utf-16"), 1, "UTF-16"),
    "binary": (b"word,count\n\x00\x01\x02", 2, "NUL byte"),
    "latin-1": ("word,count\ncaf\xe9,5\n".encode("latin-1"), 2, "is not UTF-8 text"),
    "huge line": (b"word,count\nthe," + b"9" * 100 + b"x\n", 2, "is not a whole number"),
    "count beyond int64": (
        b"word,count\nthe,5\nof,99999999999999999999\n",
        3,
        "count 99999999999999999999 is too large: counts must fit int64 "
        "(at most 9223372036854775807)",
    ),
    "count of 5000 digits": (
        b"word,count\nthe," + b"7" * 5000 + b"\n",
        2,
        "count " + "7" * 40 + "...(5000 digits) is too large",
    ),
    "line without end beyond 1 MiB": (
        b"word,count\nthe,1\nof," + b"1" * (1 << 21),
        3,
        "line is longer than 1048576 bytes",
    ),
    "case variants overflow int64": (
        f"word,count\nCigar,{BIG}\nthe,1\ncigar,{BIG}\n".encode(),
        4,
        "the counts of 'cigar' (first on line 2, case variants included) sum to "
        "12000000000000000000, more than int64 holds",
    ),
}
HISTORY_CASES: dict[str, tuple[bytes, int | None, str]] = {
    # the dated answers, {"YYYY-MM-DD": "word"}: (content, line or None, fragment)
    "not json": (b'{"2021-06-19": "cigar",\n', 2, "not JSON: Expecting property name"),
    "a list": (b'["cigar"]', None, "expected a JSON object"),
    "empty": (b"", 1, "not JSON"),
    "malformed date": (b'{"2021-6-19": "cigar"}', None, "entry '2021-6-19': not a date of"),
    "no such day": (b'{"2021-02-30": "cigar"}', None, "entry '2021-02-30': not a date of"),
    "date given twice": (
        b'{"2021-06-19": "cigar", "2021-06-20": "rebut", "2021-06-19": "sissy"}',
        None,
        "entry '2021-06-19': the date is given twice",
    ),
    "gap": (
        b'{"2021-06-19": "cigar", "2021-06-22": "rebut"}',
        None,
        "entry '2021-06-22': the days after 2021-06-19 up to it are missing",
    ),
    "not a word": (b'{"2021-06-19": "ci-ar"}', None, "entry '2021-06-19': 'ci-ar' is not a word"),
    "a number": (b'{"2021-06-19": 5}', None, "entry '2021-06-19': '5' is not a word"),
    "latin-1": ('{"2021-06-19": "r\xe9but"}'.encode("latin-1"), 1, "not UTF-8"),
}
SUMS_ONLY_FOR_INDEX_WORDS = {"case variants overflow int64"}  # the fetch check keeps no words

ARCHIVE_CASES: dict[str, tuple[bytes, str]] = {
    # name: (archive bytes, fragment of the message after "source 'frequency': ")
    **{kind: (damaged_zip(kind), "is damaged: ") for kind in DAMAGES},
    "truncated archive": (zip_bytes()[0][:-30], "is damaged: "),
    "member outside the archive": (
        zip_bytes()[0].replace(MEMBER.encode(), b"./../unigram_freq.csv"),  # same length
        "a path outside the archive; refused",
    ),
    "no such member": (
        zip_bytes()[0].replace(b"unigram_freq.csv", b"unigram_freq.txt"),
        "has no member 'unigram_freq.csv'",
    ),
}
FAKE_KAGGLEHUB = """
import os

def dataset_download(handle, path=None, **_):
    return os.environ["FAKE_KAGGLEHUB_RETURNS"]
"""


def fake_kagglehub(folder: Path, archive_bytes: bytes) -> tuple[Path, dict[str, str]]:
    """A stand-in kagglehub module under `folder` whose dataset_download returns an
    archive holding these bytes: (the archive, the environment that makes Python use it)."""
    (folder / "fake").mkdir()
    (folder / "fake" / "kagglehub.py").write_text(FAKE_KAGGLEHUB)
    archive = folder / "cache" / "english-word-frequency.zip"
    archive.parent.mkdir()
    archive.write_bytes(archive_bytes)
    return archive, {"PYTHONPATH": str(folder / "fake"), "FAKE_KAGGLEHUB_RETURNS": str(archive)}


def where(name: str, line: int | None) -> str:
    return name if line is None else f"{name}, line {line}"


def assert_refused(
    result: subprocess.CompletedProcess, prefix: str, where: str, fragment: str, status: int = 1
) -> str:
    """The exit status, and one line on stderr, `prefix: where: ...fragment...`, nothing
    else: no traceback, no second line. Returns the message after the prefix."""
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{prefix}{where}: "), lines[0]
    assert fragment in lines[0], lines[0]
    return lines[0].removeprefix(prefix)


def assert_logged_once(log: Path, message: str) -> None:
    """The rule's log holds the same message as its one ERROR line, and no traceback."""
    text = log.read_text(encoding="utf-8")
    errors = [
        line.split(" ERROR pipeline: ", 1)[1] for line in text.splitlines() if " ERROR " in line
    ]
    assert errors == [message], text
    assert "Traceback" not in text


def files_under(folder: Path) -> list[Path]:
    """Every file under `folder` (a temporary file left behind counts too)."""
    return sorted(path for path in folder.rglob("*") if path.is_file()) if folder.exists() else []


# The day the prior is for follows history.until: value -> the one line (the start of it)
# the config check stops with, before any job.
UNTIL_CASES: dict[str, str] = {
    "2026-02-30": "config: history.until: '2026-02-30' is not a day (YYYY-MM-DD, a real date)",
    "2026-13-01": "config: history.until: '2026-13-01' is not a day",
    "2026-1-01": "config: history.until: ",  # the schema's pattern
    "yesterday": "config: history.until: ",
}
# A module consumer's own config file, merged over the workflow's: (keys of the consumer's
# config, the start of the one line the consumer's run stops with).
CONSUMER_CONFIG_CASES: dict[str, tuple[dict, str]] = {
    "a bad value": ({"optimal": {"top": "many"}}, "config: optimal.top: 'many'"),
    "an unknown key": ({"optimal": {"tpo": 3}}, "config: optimal.tpo: unknown key"),
    "no such day": ({"history": {"until": "2026-02-30"}}, UNTIL_CASES["2026-02-30"]),
}
