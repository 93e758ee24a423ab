"""A release file downloaded over https into a file, for `wordle-pipeline fetch`.

The pipeline's downloader (pipeline.sources.download) holds a raw input in memory and
words its errors for the workflow's config (a source's name, `download.deadline`, the
mirror); a release bundle is hundreds of megabytes, so this one streams to disk, under the
same rules:

- https only, and a redirect's target is checked before anything is sent to it (GitHub's
  asset URLs redirect to its storage host), so no plain-http request is ever made;
- each wait for a connection or for data is bounded, and data is read as it arrives
  (urllib3's read1), so the whole-file deadline is checked between reads and a server
  that drips bytes fails too;
- connection trouble, a timeout, a body cut short or a 5xx is tried again a few times,
  with exponential back-off; anything else (404, TLS) is one line at once.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import requests
import urllib3

from pipeline.core.errors import PipelineError
from pipeline.sources.spec import is_https

CONNECT_TIMEOUT, READ_TIMEOUT = 10.0, 60.0
RETRIES = 2
BACKOFF = 1.0  # seconds before the second attempt; doubled for each one after
DEADLINE = 3600.0  # the whole file, every attempt and back-off included
MAX_REDIRECTS = 5
_CHUNK = 1 << 20
_RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
_ERRNO = re.compile(r"\[Errno -?\d+\] [^'\")\]]+")  # urllib3 nests the OS error's text


class _Retryable(Exception):
    """A fault worth another attempt; its message says what happened."""


def download(url: str, destination: Path, *, sleep: Callable[[float], None] = time.sleep) -> int:
    """GET `url` into `destination` (overwritten), retrying transient faults; the number
    of bytes written. A PipelineError names the URL and the problem."""
    if not is_https(url):
        raise PipelineError(f"{url}: refused, not a well-formed https URL")
    ends = time.monotonic() + DEADLINE
    attempts, last = RETRIES + 1, ""
    for attempt in range(attempts):
        if attempt:
            delay = BACKOFF * 2 ** (attempt - 1)
            if time.monotonic() + delay >= ends:
                break
            sleep(delay)
        try:
            return _get_once(url, destination, ends)
        except _Retryable as fault:
            last = str(fault)
    raise PipelineError(
        f"{url}: could not be downloaded in {attempts} attempt(s) (last: {last}); check the "
        "network, or download the bundle another way and give its file"
    )


def _get_once(url: str, destination: Path, ends: float) -> int:
    """One attempt: _Retryable for transient faults, PipelineError for the rest."""
    try:
        with (
            _HttpsOnlySession() as session,
            session.get(url, stream=True, timeout=_waits(ends)) as response,
        ):
            _check_status(url, response)
            return _save(url, response, destination, ends)
    except requests.exceptions.SSLError as error:
        raise PipelineError(f"{url}: TLS verification failed ({error})") from None
    except requests.exceptions.TooManyRedirects:
        raise PipelineError(f"{url}: redirected more than {MAX_REDIRECTS} times; refused") from None
    except (
        requests.exceptions.ConnectionError,
        requests.exceptions.Timeout,
        requests.exceptions.ChunkedEncodingError,
        urllib3.exceptions.HTTPError,
    ) as error:
        raise _Retryable(_reason(error)) from None
    except requests.exceptions.RequestException as error:
        raise PipelineError(f"{url}: cannot be downloaded ({error})") from None


def _reason(error: Exception) -> str:
    """What went wrong, short: the system's words when there are some ("[Errno 111]
    Connection refused"), else the exception's name and text."""
    found = _ERRNO.search(str(error))
    return found.group(0).rstrip() if found else f"{type(error).__name__}: {error}"


class _HttpsOnlySession(requests.Session):
    """A Session whose redirects may lead only to https URLs: requests asks for each
    target before it requests it, and a non-https one is refused there."""

    def __init__(self) -> None:
        super().__init__()
        self.max_redirects = MAX_REDIRECTS

    def get_redirect_target(self, response: Any) -> str | None:
        target = super().get_redirect_target(response)
        if target is not None and not is_https(urljoin(response.url, target)):
            raise PipelineError(
                f"{response.url}: redirected to non-https {target}; refused before requesting it"
            )
        return target


def _waits(ends: float) -> tuple[float, float]:
    """(connect, read) timeouts, never beyond the deadline."""
    left = ends - time.monotonic()
    if left <= 0:
        raise _Retryable("the deadline passed")
    return min(CONNECT_TIMEOUT, left), min(READ_TIMEOUT, left)


def _check_status(url: str, response: Any) -> None:
    status = response.status_code
    if status in _RETRY_STATUS:
        raise _Retryable(f"HTTP {status} {response.reason}")
    if status == 404:
        raise PipelineError(f"{url}: not found (HTTP 404): no such release or file")
    if status != 200:
        raise PipelineError(f"{url}: the server answered HTTP {status} {response.reason}")


def _save(url: str, response: Any, destination: Path, ends: float) -> int:
    """The body into `destination`, read as it arrives, the deadline checked between reads;
    urllib3 raises when the body ends before its Content-Length."""
    written = 0
    with open(destination, "wb") as out:
        while chunk := response.raw.read1(_CHUNK, decode_content=True):
            out.write(chunk)
            written += len(chunk)
            if time.monotonic() > ends:
                raise PipelineError(
                    f"{url}: took longer than {DEADLINE:g} s to download; nothing was unpacked"
                )
    return written
