"""Shared fixtures: the real data mirror (when present) and small generated word lists."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def real_mirror() -> Path | None:
    """The offline mirror of the real inputs: WORDLE_MIRROR, else ../shared/wordle-data."""
    candidates = [os.environ.get("WORDLE_MIRROR", ""), str(REPO.parent / "shared" / "wordle-data")]
    for candidate in candidates:
        if candidate and (Path(candidate) / "allowed.txt").is_file():
            return Path(candidate).resolve()
    return None


def write(path: Path, data: str | bytes) -> Path:
    """Write text exactly as given (no newline translation) or bytes; return the path."""
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", newline="")
    else:
        path.write_bytes(data)
    return path


@pytest.fixture(scope="session")
def mirror() -> Path:
    path = real_mirror()
    if path is None:
        pytest.skip("no real data mirror (set WORDLE_MIRROR or provide ../shared/wordle-data)")
    return path


# A tiny but honest fixture: 20 guesses, 8 answers (one of them missing from the allowed
# list), repeated letters included, and frequency counts in Kaggle's layout.
FIXTURE_ALLOWED = [
    "cigar",
    "rebut",
    "sissy",
    "humph",
    "awake",
    "blush",
    "focal",
    "evade",
    "naval",
    "serve",
    "heath",
    "dwarf",
    "model",
    "karma",
    "stink",
    "grade",
    "quiet",
    "bench",
    "abate",
    "feign",
]
FIXTURE_ANSWERS = ["cigar", "rebut", "sissy", "awake", "naval", "serve", "heath", "mamma"]
FIXTURE_COUNTS = {
    "cigar": 900,
    "rebut": 50,
    "sissy": 300,
    "humph": 20,
    "awake": 5000,
    "blush": 700,
    "focal": 800,
    "evade": 400,
    "naval": 2000,
    "serve": 90000,
    "heath": 1500,
    "dwarf": 1200,
    "model": 120000,
    "karma": 3000,
    "stink": 600,
    "grade": 45000,
    "quiet": 60000,
    "bench": 8000,
    "abate": 100,
    "Model": 5000,
    "the": 23135851162,
    "of": 13151942776,
}


def write_fixture_mirror(folder: Path) -> Path:
    """Write the tiny fixture in the mirror layout (no trailing newline, like the real list)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "allowed.txt").write_text("\n".join(FIXTURE_ALLOWED))
    (folder / "answers.txt").write_text("\n".join(FIXTURE_ANSWERS) + "\n")
    rows = sorted(FIXTURE_COUNTS.items(), key=lambda item: -item[1])
    (folder / "unigram_freq.csv").write_text(
        "word,count\n" + "".join(f"{word},{count}\n" for word, count in rows)
    )
    return folder


@pytest.fixture
def fixture_mirror(tmp_path: Path) -> Path:
    return write_fixture_mirror(tmp_path / "mirror")
