"""The suite's shared fixtures and the helpers they are made of, one meaning per name:
the real data mirror (when present), the small generated word lists and their mirror,
the shared fixture build (`built_checkout`), the real lists' artifact set, and local
servers. tests/conftest.py registers it as a plugin."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import ssl
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from pipeline.analysis.history.archive import FIRST_DAY
from tests.support.locks import build_lock
from tests.support.servers import (
    Behaviour,
    PlainListener,
    Server,
    start_https_server,
    start_plain_listener,
)

REPO = Path(__file__).resolve().parents[2]


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
def real_set(mirror: Path, tmp_path_factory: pytest.TempPathFactory):
    """The real lists through the entropy stage, built once and shared by every test
    module and xdist worker (tests.support.artifact_set.real_artifact_set)."""
    from tests.support.artifact_set import real_artifact_set  # it imports this module

    return real_artifact_set(tmp_path_factory, mirror)


@pytest.fixture(scope="session")
def mirror() -> Path:
    path = real_mirror()
    if path is None:
        pytest.skip("no real data mirror (set WORDLE_MIRROR or provide ../shared/wordle-data)")
    return path


# One-step entropies (bits, 4 decimals, answers uniform) of some openers on the real
# lists, checked by the kernel and the entropy stage; the first five are the top five.
KNOWN_ANSWER_ENTROPY = {
    "tarse": 5.9490,
    "tiare": 5.9300,
    "soare": 5.8852,
    "roate": 5.8849,
    "raise": 5.8783,
    "qajaq": 1.8902,
}


def distinct_random_words(
    rng: np.random.Generator, n: int, alphabet: str = "abcdeilnorst"
) -> list[str]:
    """n distinct 5-letter words over a small alphabet, sorted: many repeated letters and
    collisions."""
    words: set[str] = set()
    letters = np.array(list(alphabet))
    while len(words) < n:
        words.add("".join(rng.choice(letters, 5)))
    return sorted(words)


# A tiny but honest fixture: 21 guesses, 8 answers (every answer is an allowed word),
# repeated letters included, and frequency counts in Kaggle's layout.
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
    "mamma",
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


def history_days(allowed: list[str], answers: list[str]) -> tuple[list[str], str]:
    """The dated answers of a fixture (one a day from puzzle 0) and the history.until that
    cuts the last: four answers, the first again (a repeat), then an allowed word that is
    no answer, a day not played yet. The union of `answers` and the days played up to
    until is therefore `answers`, and an until that cut nothing would add a word."""
    others = [word for word in allowed if word not in set(answers)]
    played = [*answers[:4], answers[0]]
    return [*played, *others[:1]], str(FIRST_DAY + dt.timedelta(days=len(played) - 1))


def history_json(words: list[str]) -> str:
    """The archive's layout: {"YYYY-MM-DD": "word"}, one day each from puzzle 0."""
    days = {str(FIRST_DAY + dt.timedelta(days=i)): word for i, word in enumerate(words)}
    return json.dumps(days, indent=4)


FIXTURE_HISTORY, FIXTURE_UNTIL = history_days(FIXTURE_ALLOWED, FIXTURE_ANSWERS)


def write_fixture_mirror(folder: Path) -> Path:
    """Write the tiny fixture in the mirror layout (no trailing newline, like the real list)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "allowed.txt").write_text("\n".join(FIXTURE_ALLOWED))
    (folder / "answers.txt").write_text("\n".join(FIXTURE_ANSWERS) + "\n")
    rows = sorted(FIXTURE_COUNTS.items(), key=lambda item: -item[1])
    (folder / "unigram_freq.csv").write_text(
        "word,count\n" + "".join(f"{word},{count}\n" for word, count in rows)
    )
    (folder / "history").mkdir(exist_ok=True)
    (folder / "history" / "wordle_solutions.json").write_text(history_json(FIXTURE_HISTORY))
    return folder


@pytest.fixture
def fixture_mirror(tmp_path: Path) -> Path:
    return write_fixture_mirror(tmp_path / "mirror")


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str,
               build: Callable[[Path], None]) -> Path:  # fmt: skip
    """The folder `name`, made by `build(folder)` once in this test run and shared by every
    xdist worker: the first to ask builds it under a lock, the others wait and read it. A
    marker written after `build` returns tells a finished folder from a failed one."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    folder, finished = root / name, root / f"{name}.finished"
    with build_lock(f"{folder}.lock"):
        if not finished.is_file():
            shutil.rmtree(folder, ignore_errors=True)
            build(folder)
            finished.touch()
    return folder


@pytest.fixture(scope="session")
def built_checkout(tmp_path_factory) -> Path:
    """The fixture's whole artifact set, built once by the real workflow in a checkout of
    its own and shared by every test (and every xdist worker): read it, never change it;
    tests that damage or rebuild work on a copy (tests.support.workflow_helpers.clone_checkout)."""
    from tests.support import workflow_helpers
    from tests.support.workflow_helpers import make_checkout, snakemake

    # Beside pytest's numbered folders, so later runs of the same code reuse it; named by
    # what it is built from, so other code never reads it.
    root = tmp_path_factory.getbasetemp().parent
    checkout = root / f"built-checkout-{workflow_helpers.fixture_digest()}"
    with build_lock(f"{checkout}.lock"):
        if not (checkout / "data" / "derived" / "datapackage.json").is_file():
            shutil.rmtree(checkout, ignore_errors=True)
            make_checkout(checkout)
            snakemake(checkout)
    return checkout


# --- local servers (tests/support/servers.py) -----------------------------------------------------


@pytest.fixture(scope="session")
def tls(tmp_path_factory: pytest.TempPathFactory) -> tuple[ssl.SSLContext, Path]:
    """A server TLS context for 127.0.0.1 and the PEM bundle of the CA that signed it."""
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(ctx)
    bundle = tmp_path_factory.mktemp("ca") / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    return ctx, bundle


@pytest.fixture
def https_server(
    tls: tuple[ssl.SSLContext, Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[list[Behaviour]], Server]]:
    """Start HTTPS servers (see start_https_server) that requests trusts, with no proxy in
    the way; everything stops at teardown."""
    ctx, bundle = tls
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(bundle))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    for var in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    started: list[Server] = []

    def start(behaviours: list[Behaviour]) -> Server:
        started.append(start_https_server(ctx, behaviours))
        return started[-1]

    yield start
    for server in started:
        server.close()


@pytest.fixture
def plain_listener() -> Iterator[PlainListener]:
    listener = start_plain_listener()
    yield listener
    listener.close()
