"""Tests for pipeline.sources: mirror/local/kaggle reads, pinning, and network faults.

Network tests talk only to a throwaway HTTPS server on 127.0.0.1 whose certificate is
signed by a test CA (trustme) that requests trusts through REQUESTS_CA_BUNDLE.
"""

from __future__ import annotations

import json
import os
import socket
import ssl
import threading
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pipeline.errors import PipelineError
from pipeline.files import sha256_bytes
from pipeline.sources import (
    MIRROR_ENV,
    fetch_source,
    resolve_mirror,
    source_fingerprint,
    validate_source,
)

REPO_ROOT = Path(__file__).resolve().parents[1]
WORDS = b"cigar\nrebut\nsissy\n"
WORDS_SHA = sha256_bytes(WORDS)
OTHER_SHA = "0" * 64


@pytest.fixture(autouse=True)
def _no_env_mirror(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests decide the mirror themselves; a developer's WORDLE_MIRROR must not leak in."""
    monkeypatch.delenv(MIRROR_ENV, raising=False)


def _no_sleep(_seconds: float) -> None:
    pass


def _read_json(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    return json.loads(text)


def _url_spec(url: str = "https://example.invalid/words", **extra: object) -> dict:
    return {"kind": "url", "url": url, "mirror_path": "lists/allowed.txt", **extra}


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    folder = tmp_path / "mirror"
    (folder / "lists").mkdir(parents=True)
    (folder / "lists" / "allowed.txt").write_bytes(WORDS)
    return folder


# --- resolve_mirror -------------------------------------------------------------------


def test_resolve_mirror_uses_config_value_and_empty_means_none() -> None:
    assert resolve_mirror("../shared/wordle-data") == Path("../shared/wordle-data")
    assert resolve_mirror("") is None
    assert resolve_mirror(None) is None


def test_env_mirror_overrides_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(MIRROR_ENV, str(tmp_path / "from-env"))
    assert resolve_mirror("configured") == tmp_path / "from-env"
    assert resolve_mirror("") == tmp_path / "from-env"
    monkeypatch.setenv(MIRROR_ENV, "")
    assert resolve_mirror("configured") == Path("configured")


def test_env_mirror_is_the_one_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mirror: Path
) -> None:
    decoy = tmp_path / "decoy"
    (decoy / "lists").mkdir(parents=True)
    (decoy / "lists" / "allowed.txt").write_bytes(b"wrong\n")
    monkeypatch.setenv(MIRROR_ENV, str(mirror))
    dest = tmp_path / "out" / "allowed.txt"
    fetch_source(
        "allowed", _url_spec(), dest, tmp_path / "out" / "p.json", mirror=resolve_mirror(str(decoy))
    )
    assert dest.read_bytes() == WORDS


# --- mirror, local, provenance --------------------------------------------------------


def test_mirror_read_writes_bytes_and_provenance(tmp_path: Path, mirror: Path) -> None:
    dest = tmp_path / "raw" / "allowed.txt"
    prov = tmp_path / "raw" / "allowed.provenance.json"
    fetch_source("allowed", _url_spec(sha256=WORDS_SHA.upper()), dest, prov, mirror=mirror)
    assert dest.read_bytes() == WORDS
    assert _read_json(prov) == {
        "source": "allowed",
        "kind": "url",
        "origin": "https://example.invalid/words",
        "read_from": "mirror",
        "mirror_path": "lists/allowed.txt",
        "sha256": WORDS_SHA,
        "bytes": len(WORDS),
        "pinned_sha256": WORDS_SHA,
        "verified": True,
    }
    text = prov.read_text(encoding="utf-8")
    assert str(mirror) not in text
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2) + "\n"


def test_provenance_is_identical_for_moved_mirror(tmp_path: Path, mirror: Path) -> None:
    moved = tmp_path / "elsewhere" / "copy"
    moved.parent.mkdir()
    mirror.rename(moved)
    fetch_source("a", _url_spec(), tmp_path / "1", tmp_path / "1.json", mirror=moved)
    (tmp_path / "again" / "lists").mkdir(parents=True)
    (tmp_path / "again" / "lists" / "allowed.txt").write_bytes(WORDS)
    fetch_source("a", _url_spec(), tmp_path / "2", tmp_path / "2.json", mirror=tmp_path / "again")
    assert (tmp_path / "1.json").read_bytes() == (tmp_path / "2.json").read_bytes()
    assert _read_json(tmp_path / "1.json")["verified"] is False
    assert _read_json(tmp_path / "1.json")["pinned_sha256"] is None


def test_local_kind_reads_file_without_mirror(tmp_path: Path, mirror: Path) -> None:
    own = tmp_path / "mine.txt"
    own.write_bytes(b"hello\nworld\n")
    dest, prov = tmp_path / "raw" / "answers.txt", tmp_path / "raw" / "answers.json"
    # A mirror being configured must not matter for a local source.
    fetch_source("answers", {"kind": "local", "path": str(own)}, dest, prov, mirror=mirror)
    assert dest.read_bytes() == b"hello\nworld\n"
    assert _read_json(prov) == {
        "source": "answers",
        "kind": "local",
        "origin": str(own),
        "read_from": "local",
        "mirror_path": None,
        "sha256": sha256_bytes(b"hello\nworld\n"),
        "bytes": 12,
        "pinned_sha256": None,
        "verified": False,
    }


def test_local_missing_file_is_pipeline_error(tmp_path: Path) -> None:
    with pytest.raises(PipelineError, match=r"'answers'.*nope\.txt does not exist"):
        fetch_source(
            "answers",
            {"kind": "local", "path": str(tmp_path / "nope.txt")},
            tmp_path / "d",
            tmp_path / "p",
            mirror=None,
        )


def test_pinned_mismatch_writes_nothing_and_keeps_existing_dest(
    tmp_path: Path, mirror: Path
) -> None:
    dest = tmp_path / "raw" / "allowed.txt"
    prov = tmp_path / "raw" / "allowed.json"
    with pytest.raises(PipelineError) as info:
        fetch_source("allowed", _url_spec(sha256=OTHER_SHA), dest, prov, mirror=mirror)
    message = str(info.value)
    assert "'allowed'" in message
    assert OTHER_SHA in message and WORDS_SHA in message
    assert "lists/allowed.txt" in message and str(mirror) in message
    assert not dest.exists() and not prov.exists()

    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(b"previous good copy\n")
    with pytest.raises(PipelineError, match="sha256 mismatch"):
        fetch_source("allowed", _url_spec(sha256=OTHER_SHA), dest, prov, mirror=mirror)
    assert dest.read_bytes() == b"previous good copy\n"
    assert not prov.exists()
    assert sorted(p.name for p in dest.parent.iterdir()) == ["allowed.txt"]


def test_missing_mirror_file_names_folder_and_path(tmp_path: Path, mirror: Path) -> None:
    spec = _url_spec(mirror_path="lists/answers.txt")
    with pytest.raises(PipelineError) as info:
        fetch_source("answers", spec, tmp_path / "d", tmp_path / "p", mirror=mirror)
    assert "'lists/answers.txt'" in str(info.value) and str(mirror) in str(info.value)
    assert not (tmp_path / "d").exists()


def test_missing_mirror_folder_is_reported(tmp_path: Path) -> None:
    with pytest.raises(PipelineError, match=r"mirror folder .*gone does not exist.*WORDLE_MIRROR"):
        fetch_source("a", _url_spec(), tmp_path / "d", tmp_path / "p", mirror=tmp_path / "gone")


def test_mirror_without_mirror_path_is_refused(tmp_path: Path, mirror: Path) -> None:
    spec = {"kind": "url", "url": "https://example.invalid/w"}
    with pytest.raises(PipelineError, match="no mirror_path"):
        fetch_source("a", spec, tmp_path / "d", tmp_path / "p", mirror=mirror)


# --- validation -----------------------------------------------------------------------


def test_unknown_kind_names_source(tmp_path: Path) -> None:
    with pytest.raises(PipelineError, match=r"source 'freq': unknown kind 'ftp'"):
        fetch_source("freq", {"kind": "ftp"}, tmp_path / "d", tmp_path / "p", mirror=None)
    with pytest.raises(PipelineError, match="unknown kind None"):
        validate_source("freq", {"url": "https://x"})


@pytest.mark.parametrize(
    ("spec", "pattern"),
    [
        ({"kind": "url"}, "missing or empty key 'url'"),
        ({"kind": "kaggle", "dataset": "a/b"}, "missing or empty key 'file'"),
        ({"kind": "local", "path": ""}, "missing or empty key 'path'"),
        ({"kind": "local", "path": "x", "sha256": "abc"}, "64 hex digits"),
        ({"kind": "url", "url": "https://h/x", "mirror_path": "../x"}, "relative"),
        ({"kind": "url", "url": "https://h/x", "mirror_path": "/etc/x"}, "relative"),
    ],
)
def test_bad_specs_are_refused(spec: dict, pattern: str) -> None:
    with pytest.raises(PipelineError, match=pattern) as info:
        validate_source("src", spec)
    assert "'src'" in str(info.value)


@pytest.mark.parametrize(
    "url", ["http://example.com/words", "ftp://example.com/words", "file:///etc/passwd", "https:x"]
)
def test_non_https_is_refused(tmp_path: Path, url: str) -> None:
    with pytest.raises(PipelineError, match="only https:// URLs are allowed"):
        fetch_source(
            "allowed", {"kind": "url", "url": url}, tmp_path / "d", tmp_path / "p", mirror=None
        )
    assert not (tmp_path / "d").exists()


# --- fingerprint ----------------------------------------------------------------------


def test_fingerprint_ignores_touch_and_follows_content(tmp_path: Path, mirror: Path) -> None:
    spec = _url_spec()
    target = mirror / "lists" / "allowed.txt"
    before = source_fingerprint(spec, mirror)
    os.utime(target, (1_000_000, 1_000_000))
    assert source_fingerprint(spec, mirror) == before
    target.write_bytes(WORDS + b"extra\n")
    after = source_fingerprint(spec, mirror)
    assert after != before
    assert sha256_bytes(WORDS + b"extra\n") in after

    own = tmp_path / "own.txt"
    own.write_bytes(b"a\n")
    local = {"kind": "local", "path": str(own)}
    first = source_fingerprint(local, None)
    os.utime(own, (2_000_000, 2_000_000))
    assert source_fingerprint(local, None) == first
    own.write_bytes(b"b\n")
    assert source_fingerprint(local, None) != first


def test_fingerprint_independent_of_mirror_location(tmp_path: Path, mirror: Path) -> None:
    other = tmp_path / "somewhere" / "else"
    (other / "lists").mkdir(parents=True)
    (other / "lists" / "allowed.txt").write_bytes(WORDS)
    fp = source_fingerprint(_url_spec(), mirror)
    assert fp == source_fingerprint(_url_spec(), other)
    assert str(tmp_path) not in fp
    # Which file inside the mirror is read does matter.
    (other / "lists" / "copy.txt").write_bytes(WORDS)
    assert source_fingerprint(_url_spec(mirror_path="lists/copy.txt"), other) != fp


def test_fingerprint_of_network_source_and_missing_files(tmp_path: Path, mirror: Path) -> None:
    net = source_fingerprint(_url_spec(), None)
    assert "https://example.invalid/words" in net
    assert source_fingerprint(_url_spec(sha256=WORDS_SHA), None) != net
    assert source_fingerprint(_url_spec(url="https://example.invalid/other"), None) != net
    kaggle = {"kind": "kaggle", "dataset": "o/d/versions/1", "file": "f.csv"}
    assert "o/d/versions/1" in source_fingerprint(kaggle, None)
    assert "f.csv" in source_fingerprint(kaggle, None)

    missing_local = {"kind": "local", "path": str(tmp_path / "none.txt")}
    assert source_fingerprint(missing_local, None) == f"missing:{tmp_path / 'none.txt'}"
    missing = source_fingerprint(_url_spec(mirror_path="lists/none.txt"), mirror)
    assert missing.startswith("missing:") and "lists/none.txt" in missing


# --- kaggle ---------------------------------------------------------------------------


def test_kaggle_download_is_copied_with_provenance(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import kagglehub

    cached = tmp_path / "kcache" / "unigram_freq.csv"
    cached.parent.mkdir()
    cached.write_bytes(b"word,count\nthe,23135851162\n")
    calls: list[tuple[str, str | None]] = []

    def fake_download(handle: str, path: str | None = None, **_: object) -> str:
        calls.append((handle, path))
        return str(cached)

    monkeypatch.setattr(kagglehub, "dataset_download", fake_download)
    spec = {
        "kind": "kaggle",
        "dataset": "rtatman/english-word-frequency/versions/1",
        "file": "unigram_freq.csv",
        "mirror_path": "unigram_freq.csv",
    }
    dest, prov = tmp_path / "raw" / "freq.csv", tmp_path / "raw" / "freq.json"
    fetch_source("freq", spec, dest, prov, mirror=None)
    assert calls == [("rtatman/english-word-frequency/versions/1", "unigram_freq.csv")]
    assert dest.read_bytes() == cached.read_bytes()
    assert cached.exists()  # copied, not moved out of kagglehub's cache
    assert _read_json(prov) == {
        "source": "freq",
        "kind": "kaggle",
        "origin": "kaggle:rtatman/english-word-frequency/versions/1/unigram_freq.csv",
        "read_from": "network",
        "mirror_path": None,
        "sha256": sha256_bytes(cached.read_bytes()),
        "bytes": len(cached.read_bytes()),
        "pinned_sha256": None,
        "verified": False,
    }


def _kaggle_returning(monkeypatch: pytest.MonkeyPatch, returned: Path) -> None:
    import kagglehub

    monkeypatch.setattr(kagglehub, "dataset_download", lambda *_, **__: str(returned))


KAGGLE_SPEC = {"kind": "kaggle", "dataset": "o/d", "file": "unigram_freq.csv"}


def test_kaggle_archive_member_is_read_without_extracting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    archive = tmp_path / "cache" / "unigram_freq.csv.zip"
    archive.parent.mkdir()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("notes.txt", "not this one")
        zipped.writestr("unigram_freq.csv", "word,count\nthe,5\n")
    _kaggle_returning(monkeypatch, archive)
    dest = tmp_path / "raw" / "frequency.txt"
    fetch_source("frequency", KAGGLE_SPEC, dest, tmp_path / "raw" / "p.json", mirror=None)
    assert dest.read_bytes() == b"word,count\nthe,5\n"
    assert sorted(path.name for path in archive.parent.iterdir()) == ["unigram_freq.csv.zip"]


@pytest.mark.parametrize("member", ["../unigram_freq.csv", "/etc/unigram_freq.csv"])
def test_kaggle_archive_escaping_its_folder_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, member: str
) -> None:
    archive = tmp_path / "cache" / "data.zip"
    archive.parent.mkdir()
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr(member, "word,count\nthe,5\n")
    _kaggle_returning(monkeypatch, archive)
    dest = tmp_path / "raw" / "frequency.txt"
    with pytest.raises(PipelineError, match="a path outside the archive; refused"):
        fetch_source("frequency", KAGGLE_SPEC, dest, tmp_path / "raw" / "p.json", mirror=None)
    assert not dest.exists()
    assert not (tmp_path / "unigram_freq.csv").exists()


def test_kaggle_file_outside_the_returned_folder_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    (tmp_path / "secret.csv").write_text("word,count\n")
    _kaggle_returning(monkeypatch, folder)
    spec = {**KAGGLE_SPEC, "file": "../secret.csv"}
    with pytest.raises(PipelineError):
        fetch_source("frequency", spec, tmp_path / "d", tmp_path / "p.json", mirror=None)
    assert not (tmp_path / "d").exists()


def test_kaggle_failure_becomes_pipeline_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import kagglehub

    def broken(handle: str, path: str | None = None, **_: object) -> str:
        raise ConnectionError("Name or service not known")

    monkeypatch.setattr(kagglehub, "dataset_download", broken)
    spec = {"kind": "kaggle", "dataset": "o/d", "file": "f.csv"}
    with pytest.raises(PipelineError) as info:
        fetch_source("freq", spec, tmp_path / "d", tmp_path / "p", mirror=None)
    message = str(info.value)
    assert "'freq'" in message and "o/d" in message and "Name or service not known" in message
    assert "mirror" in message and MIRROR_ENV in message
    assert not (tmp_path / "d").exists()


def test_kaggle_source_reads_mirror_instead(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mirror: Path
) -> None:
    import kagglehub

    def must_not_run(*_: object, **__: object) -> str:
        raise AssertionError("kagglehub called although a mirror is set")

    monkeypatch.setattr(kagglehub, "dataset_download", must_not_run)
    spec = {"kind": "kaggle", "dataset": "o/d", "file": "f", "mirror_path": "lists/allowed.txt"}
    fetch_source("freq", spec, tmp_path / "d", tmp_path / "p.json", mirror=mirror)
    assert (tmp_path / "d").read_bytes() == WORDS
    assert _read_json(tmp_path / "p.json")["read_from"] == "mirror"


# --- network faults against a local HTTPS server --------------------------------------


Behaviour = Callable[[ssl.SSLSocket, threading.Event], None]


def _respond(
    status: str, body: bytes, headers: tuple[str, ...] = ()
) -> Callable[[ssl.SSLSocket, threading.Event], None]:
    def handler(conn: ssl.SSLSocket, _stop: threading.Event) -> None:
        head = [f"HTTP/1.1 {status}", f"Content-Length: {len(body)}", "Connection: close"]
        head += headers
        conn.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)

    return handler


def _drop(conn: ssl.SSLSocket, _stop: threading.Event) -> None:
    """Close without answering (the request was read)."""


def _stall(conn: ssl.SSLSocket, stop: threading.Event) -> None:
    """Send nothing until the test is over (bounded so the thread always ends)."""
    stop.wait(5)


def _truncate(conn: ssl.SSLSocket, _stop: threading.Event) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\npartial")


@dataclass
class Server:
    url: str
    behaviours: list[Behaviour]
    attempts: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    workers: list[threading.Thread] = field(default_factory=list)


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> tuple[ssl.SSLContext, Path]:
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
    """Start an HTTPS server on 127.0.0.1; each accepted connection runs the next
    behaviour (the last one repeats) in its own thread. Everything stops at teardown."""
    ctx, bundle = tls
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(bundle))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    for var in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    started: list[tuple[Server, socket.socket, threading.Thread]] = []

    def start(behaviours: list[Behaviour]) -> Server:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.settimeout(0.2)
        port = listener.getsockname()[1]
        server = Server(f"https://127.0.0.1:{port}/words", behaviours)

        def handle(raw: socket.socket) -> None:
            try:
                raw.settimeout(5)
                with ctx.wrap_socket(raw, server_side=True) as conn:
                    request = b""
                    while b"\r\n\r\n" not in request:
                        chunk = conn.recv(4096)
                        if not chunk:
                            break
                        request += chunk
                    with server.lock:
                        index = min(server.attempts, len(server.behaviours) - 1)
                        server.attempts += 1
                    server.behaviours[index](conn, server.stop)
            except (OSError, ssl.SSLError):
                pass
            finally:
                raw.close()

        def serve() -> None:
            while not server.stop.is_set():
                try:
                    raw, _ = listener.accept()
                except (TimeoutError, OSError):
                    continue
                worker = threading.Thread(target=handle, args=(raw,), daemon=True)
                worker.start()
                server.workers.append(worker)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        started.append((server, listener, thread))
        return server

    yield start
    for server, listener, thread in started:
        server.stop.set()
        thread.join(timeout=5)
        for worker in server.workers:
            worker.join(timeout=5)
        listener.close()


def _net_fetch(server: Server, tmp_path: Path, **kwargs: object) -> tuple[Path, Path]:
    dest, prov = tmp_path / "raw" / "allowed.txt", tmp_path / "raw" / "allowed.json"
    spec = {"kind": "url", "url": server.url, **kwargs.pop("spec", {})}  # type: ignore[dict-item]
    options: dict = {"mirror": None, "timeout": 2, "retries": 0, "sleep": _no_sleep, **kwargs}
    fetch_source("allowed", spec, dest, prov, **options)
    return dest, prov


def test_network_download_success_records_provenance(
    https_server: Callable[[list[Behaviour]], Server], tmp_path: Path
) -> None:
    server = https_server([_respond("200 OK", WORDS)])
    dest, prov = _net_fetch(server, tmp_path, spec={"sha256": WORDS_SHA})
    assert dest.read_bytes() == WORDS
    assert server.attempts == 1
    record = _read_json(prov)
    assert record["read_from"] == "network"
    assert record["origin"] == server.url
    assert record["mirror_path"] is None
    assert record["verified"] is True and record["sha256"] == WORDS_SHA


def test_retry_after_two_failures_succeeds(
    https_server: Callable[[list[Behaviour]], Server], tmp_path: Path
) -> None:
    server = https_server(
        [_drop, _respond("503 Service Unavailable", b"busy"), _respond("200 OK", WORDS)]
    )
    delays: list[float] = []
    dest, _ = _net_fetch(server, tmp_path, retries=3, backoff=0.01, sleep=delays.append)
    assert dest.read_bytes() == WORDS
    assert server.attempts == 3
    assert delays == [0.01, 0.02]


def test_dropped_connection_fails_after_bounded_retries(
    https_server: Callable[[list[Behaviour]], Server], tmp_path: Path
) -> None:
    server = https_server([_drop])
    delays: list[float] = []
    with pytest.raises(PipelineError) as info:
        _net_fetch(server, tmp_path, retries=2, backoff=0.5, sleep=delays.append)
    assert server.attempts == 3
    assert delays == [0.5, 1.0]
    message = str(info.value)
    assert "after 3 attempt(s)" in message and "mirror" in message and MIRROR_ENV in message
    assert not (tmp_path / "raw" / "allowed.txt").exists()
    assert not (tmp_path / "raw").exists() or not any((tmp_path / "raw").iterdir())


def test_stalled_server_times_out(
    https_server: Callable[[list[Behaviour]], Server], tmp_path: Path
) -> None:
    server = https_server([_stall])
    with pytest.raises(PipelineError, match=r"Timeout|timed out") as info:
        _net_fetch(server, tmp_path, timeout=0.3, retries=1)
    assert server.attempts == 2
    assert "after 2 attempt(s)" in str(info.value)
    assert not (tmp_path / "raw" / "allowed.txt").exists()


def test_truncated_body_is_retried_and_never_written(
    https_server: Callable[[list[Behaviour]], Server], tmp_path: Path
) -> None:
    server = https_server([_truncate])
    with pytest.raises(PipelineError, match="after 2 attempt"):
        _net_fetch(server, tmp_path, retries=1)
    assert server.attempts == 2
    assert not (tmp_path / "raw" / "allowed.txt").exists()


def test_wrong_bytes_from_server_is_sha_mismatch(
    https_server: Callable[[list[Behaviour]], Server], tmp_path: Path
) -> None:
    server = https_server([_respond("200 OK", b"tampered\n")])
    with pytest.raises(PipelineError) as info:
        _net_fetch(server, tmp_path, spec={"sha256": WORDS_SHA}, retries=3)
    message = str(info.value)
    assert server.url in message and WORDS_SHA in message
    assert sha256_bytes(b"tampered\n") in message
    assert server.attempts == 1
    assert not (tmp_path / "raw" / "allowed.txt").exists()
    assert not (tmp_path / "raw" / "allowed.json").exists()


def test_http_404_is_not_retried(
    https_server: Callable[[list[Behaviour]], Server], tmp_path: Path
) -> None:
    server = https_server([_respond("404 Not Found", b"no")])
    with pytest.raises(PipelineError, match="HTTP 404"):
        _net_fetch(server, tmp_path, retries=3)
    assert server.attempts == 1


def test_untrusted_certificate_is_refused(
    https_server: Callable[[list[Behaviour]], Server],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trustme = pytest.importorskip("trustme")
    server = https_server([_respond("200 OK", WORDS)])
    stranger = tmp_path / "other-ca.pem"
    trustme.CA().cert_pem.write_to_path(str(stranger))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(stranger))
    with pytest.raises(PipelineError, match="TLS verification failed"):
        _net_fetch(server, tmp_path, retries=2)
    assert not (tmp_path / "raw" / "allowed.txt").exists()


def test_no_network_and_no_mirror_says_how_to_set_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A port that was just free and is now closed: connection refused, nothing leaves.
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    for var in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    dest = tmp_path / "raw" / "allowed.txt"
    with pytest.raises(PipelineError) as info:
        fetch_source(
            "allowed",
            {"kind": "url", "url": f"https://127.0.0.1:{port}/words"},
            dest,
            tmp_path / "raw" / "allowed.json",
            mirror=None,
            timeout=1,
            retries=1,
            sleep=_no_sleep,
        )
    message = str(info.value)
    assert "network may be unreachable" in message
    assert "`mirror`" in message and "--config mirror=" in message and MIRROR_ENV in message
    assert "'allowed'" in message
    assert not dest.exists()


# --- the real mirror ------------------------------------------------------------------


def _real_mirror() -> Path | None:
    configured = os.environ.get(MIRROR_ENV, "").strip()
    folder = Path(configured) if configured else REPO_ROOT.parent / "shared" / "wordle-data"
    return folder if folder.is_dir() else None


_REAL_MIRROR = _real_mirror()


@pytest.mark.mirror
@pytest.mark.skipif(_REAL_MIRROR is None, reason="no raw data mirror (WORDLE_MIRROR or ../shared)")
def test_real_sources_from_mirror(tmp_path: Path) -> None:
    assert _REAL_MIRROR is not None
    real = {
        "allowed": (
            {
                "kind": "url",
                "url": "https://raw.githubusercontent.com/tabatkins/wordle-list/"
                "255b9469c4dad99a3b95cc4ddbe139b3d3747868/words",
                "sha256": "9df5dad1b44cf1b9e0fa7c3ebff94d69ff7efb59f8691ac88e74e1c7b3da121e",
                "mirror_path": "allowed.txt",
            },
            89129,
        ),
        "answers": (
            {
                "kind": "url",
                "url": "https://raw.githubusercontent.com/alex1770/wordle/"
                "c12a82effbe7575bd59fdf8f5b6d75d029687191/wordlist_nyt20220830_hidden",
                "sha256": "c495f6cbc36475358a89e30ac16bd5c0c05073c8c7647bb6c35dd01f7bae6e32",
                "mirror_path": "answers.txt",
            },
            13854,
        ),
    }
    for name, (spec, size) in real.items():
        dest, prov = tmp_path / f"{name}.txt", tmp_path / f"{name}.json"
        fetch_source(name, spec, dest, prov, mirror=_REAL_MIRROR)
        record = _read_json(prov)
        assert dest.stat().st_size == size
        assert record["bytes"] == size
        assert record["verified"] is True
        assert record["sha256"] == spec["sha256"]
        assert record["read_from"] == "mirror"
        assert record["mirror_path"] == spec["mirror_path"]


def test_pinned_fingerprint_names_the_bytes_wherever_they_come_from(
    mirror: Path, tmp_path: Path
) -> None:
    pinned = _url_spec(sha256=WORDS_SHA)
    network = source_fingerprint(pinned, None)
    assert source_fingerprint(pinned, mirror) == network  # same bytes: switching reruns nothing
    local = tmp_path / "own.txt"
    local.write_bytes(WORDS)
    assert source_fingerprint({"kind": "local", "path": str(local), "sha256": WORDS_SHA}, None) == (
        network
    )
    (mirror / "lists" / "allowed.txt").write_bytes(b"other\n")
    changed = source_fingerprint(pinned, mirror)
    assert changed != network and sha256_bytes(b"other\n") in changed  # rerun, then refused
    assert source_fingerprint(_url_spec(), mirror) != source_fingerprint(_url_spec(), None)
