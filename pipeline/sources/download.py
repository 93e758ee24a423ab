"""https downloads: bounded retries, a deadline for the whole download, checked redirects.

- Each wait for a connection or for data is bounded by `timeout`; failed attempts are
  retried `retries` times with exponential back-off.
- The whole download, every attempt and back-off included, must end within `deadline`
  seconds, so a server that drips bytes fails too. The deadline caps every wait and is
  checked whenever data arrives (urllib3's read1 returns what has arrived), so one read
  that had already begun may overrun it by at most `timeout`.
- Redirects are followed here, not by requests: the Location is checked before anything
  is sent to it, so no plain-http request is ever made.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

from pipeline.core.errors import PipelineError
from pipeline.sources.spec import OFFLINE_HINT, is_https, require_https

_CHUNK = 1 << 16
# Longest wait for a TCP connection: an unreachable host should fail fast even when
# the read timeout is generous for a slow but working server.
_MAX_CONNECT_TIMEOUT = 10.0
_RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
_REDIRECT_STATUS = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 5


class _Retryable(Exception):
    """A failure worth another attempt (connection trouble, timeout, 5xx, truncation)."""


class _DeadlinePassed(Exception):
    """The download's deadline passed; not worth another attempt."""


def download(
    name: str,
    url: str,
    *,
    timeout: float,
    retries: int,
    deadline: float,
    backoff: float = 1.0,
    sleep: Callable[[float], None] = time.sleep,
) -> bytes:
    """GET `url` into memory with bounded, exponentially spaced retries, all before the
    deadline. Attempt n > 1 waits `backoff * 2**(n-2)` seconds first (`sleep` is
    injectable so tests need not wait)."""
    import requests

    require_https(name, url)
    attempts = max(0, retries) + 1
    ends = time.monotonic() + deadline
    late = PipelineError(
        f"source {name!r}: downloading {url} took longer than the deadline of {deadline:g} s "
        "(download.deadline); nothing was written"
    )
    last = ""
    for attempt in range(1, attempts + 1):
        if attempt > 1:
            delay = backoff * 2 ** (attempt - 2)
            if time.monotonic() + delay >= ends:
                raise late
            sleep(delay)
        try:
            return _get_once(requests, name, url, timeout, ends)
        except _Retryable as exc:
            last = str(exc)
        except _DeadlinePassed:
            raise late from None
    raise PipelineError(
        f"source {name!r}: could not download {url} after {attempts} attempt(s); last error: "
        f"{last}. The network may be unreachable. {OFFLINE_HINT}"
    )


def _limits(timeout: float, ends: float) -> tuple[float, float]:
    """(connect, read) timeouts of one request: never beyond the deadline."""
    left = ends - time.monotonic()
    if left <= 0:
        raise _DeadlinePassed
    return min(timeout, _MAX_CONNECT_TIMEOUT, left), min(timeout, left)


def _get_once(requests: Any, name: str, url: str, timeout: float, ends: float) -> bytes:
    """One download attempt: raise _Retryable for transient faults, PipelineError otherwise."""
    import urllib3

    current = url
    try:
        with requests.Session() as session:
            for _hop in range(MAX_REDIRECTS + 1):
                limits = _limits(timeout, ends)
                with session.get(
                    current, timeout=limits, stream=True, allow_redirects=False
                ) as response:
                    if response.status_code in _REDIRECT_STATUS:
                        current = _redirect_target(name, url, current, response)
                        continue
                    _check_status(name, url, response)
                    return _read_body(response, ends)
    except requests.exceptions.SSLError as exc:
        raise PipelineError(
            f"source {name!r}: TLS verification failed for {current}: {exc}. {OFFLINE_HINT}"
        ) from exc
    except (
        requests.exceptions.ConnectionError,
        requests.exceptions.Timeout,
        requests.exceptions.ChunkedEncodingError,
        requests.exceptions.ContentDecodingError,
        urllib3.exceptions.HTTPError,
    ) as exc:
        raise _Retryable(f"{type(exc).__name__}: {exc}") from exc
    except requests.exceptions.RequestException as exc:
        raise PipelineError(f"source {name!r}: cannot download {url}: {exc}") from exc
    except ValueError as exc:  # requests parses a redirect's Location even when not following
        raise PipelineError(
            f"source {name!r}: {current} answered with a malformed URL ({exc}); refused"
        ) from exc
    raise PipelineError(
        f"source {name!r}: {url} redirected more than {MAX_REDIRECTS} times; refused"
    )


def _redirect_target(name: str, url: str, current: str, response: Any) -> str:
    """Where a redirect points, checked before anything is sent there."""
    location = response.headers.get("Location")
    if not location:
        raise PipelineError(
            f"source {name!r}: {current} answered HTTP {response.status_code} without a "
            "Location to redirect to"
        )
    try:
        target = urljoin(current, location)
    except ValueError:  # a malformed Location (an unclosed IPv6 bracket, say)
        target = location
    if not is_https(target):
        raise PipelineError(
            f"source {name!r}: {url} redirected to non-https {target}; refused before requesting it"
        )
    return target


def _check_status(name: str, url: str, response: Any) -> None:
    if response.status_code in _RETRY_STATUS:
        raise _Retryable(f"HTTP {response.status_code} {response.reason}")
    if response.status_code != 200:
        raise PipelineError(
            f"source {name!r}: download of {url} failed with HTTP "
            f"{response.status_code} {response.reason}"
        )


def _read_body(response: Any, ends: float) -> bytes:
    """The whole body, read as it arrives (read1), with the deadline checked between reads:
    a server dripping a byte at a time cannot outlast it."""
    parts: list[bytes] = []
    while chunk := response.raw.read1(_CHUNK, decode_content=True):
        parts.append(chunk)
        if time.monotonic() > ends:
            raise _DeadlinePassed
    return b"".join(parts)
