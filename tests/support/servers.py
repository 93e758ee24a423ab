"""Throwaway servers on 127.0.0.1 for network tests, and damaged zip archives.

The HTTPS server's certificate is signed by a test CA (trustme) that requests trusts
through REQUESTS_CA_BUNDLE (see the fixtures in conftest.py). Nothing leaves the machine.
"""

from __future__ import annotations

import io
import socket
import ssl
import threading
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field

Behaviour = Callable[[ssl.SSLSocket, threading.Event], None]


def respond(status: str, body: bytes, headers: tuple[str, ...] = ()) -> Behaviour:
    def handler(conn: ssl.SSLSocket, _stop: threading.Event) -> None:
        head = [f"HTTP/1.1 {status}", f"Content-Length: {len(body)}", "Connection: close"]
        head += headers
        conn.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)

    return handler


def drop(conn: ssl.SSLSocket, _stop: threading.Event) -> None:
    """Close without answering (the request was read)."""


def stall(conn: ssl.SSLSocket, stop: threading.Event) -> None:
    """Send nothing until the test is over (bounded so the thread always ends)."""
    stop.wait(5)


def truncate(conn: ssl.SSLSocket, _stop: threading.Event) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\npartial")


def drip(conn: ssl.SSLSocket, stop: threading.Event) -> None:
    """Headers promising 1000 bytes, then one byte every 0.4 s until the test is over."""
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n")
    while not stop.wait(0.4):
        conn.sendall(b"x")


@dataclass
class Server:
    url: str
    behaviours: list[Behaviour]
    attempts: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    workers: list[threading.Thread] = field(default_factory=list)
    threads: list[threading.Thread] = field(default_factory=list)

    def close(self) -> None:
        self.stop.set()
        for thread in [*self.threads, *self.workers]:
            thread.join(timeout=5)


def start_https_server(ctx: ssl.SSLContext, behaviours: list[Behaviour]) -> Server:
    """An HTTPS server on 127.0.0.1; each accepted connection runs the next behaviour (the
    last one repeats) in its own thread, until server.close()."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    server = Server(f"https://127.0.0.1:{listener.getsockname()[1]}/words", behaviours)

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
        with listener:
            while not server.stop.is_set():
                try:
                    raw, _ = listener.accept()
                except (TimeoutError, OSError):
                    continue
                worker = threading.Thread(target=handle, args=(raw,), daemon=True)
                worker.start()
                server.workers.append(worker)

    server.threads.append(threading.Thread(target=serve, daemon=True))
    server.threads[0].start()
    return server


@dataclass
class PlainListener:
    """A plain-http port that only records whether anything connected to it."""

    port: int
    connections: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def close(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=5)


def start_plain_listener() -> PlainListener:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.1)
    record = PlainListener(listener.getsockname()[1])

    def serve() -> None:
        with listener:
            while not record.stop.is_set():
                try:
                    conn, _ = listener.accept()
                except (TimeoutError, OSError):
                    continue
                record.connections += 1
                conn.close()

    record.thread = threading.Thread(target=serve, daemon=True)
    record.thread.start()
    return record


MEMBER = "data/unigram_freq.csv"
DAMAGES = ("bad crc", "corrupt deflate data", "bad central directory")


def zip_bytes(compression: int = zipfile.ZIP_DEFLATED) -> tuple[bytes, int]:
    """A one-member archive and the offset of the member's data in it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as zipped:
        zipped.writestr(MEMBER, "word,count\n" + "the,5\n" * 50)
    return buffer.getvalue(), zipfile.sizeFileHeader + len(MEMBER)


def damaged_zip(kind: str) -> bytes:
    """An archive damaged as DAMAGES names: one stored byte changed (its CRC no longer
    matches), an invalid deflate block type, or a broken central directory signature."""
    if kind == "bad crc":
        data, start = zip_bytes(zipfile.ZIP_STORED)
        return data[: start + 11] + b"X" + data[start + 12 :]
    if kind == "corrupt deflate data":
        data, start = zip_bytes()
        return data[:start] + b"\xff" + data[start + 1 :]
    assert kind == "bad central directory"
    data, _ = zip_bytes()
    central = data.rindex(b"PK\x01\x02")
    return data[:central] + b"XX\x01\x02" + data[central + 4 :]
