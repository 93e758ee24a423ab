"""A text file's bytes as decoded blocks of whole lines, in bounded memory.

A large file (the frequency counts) is handed in as successive blocks of bytes of any
size; parsers get blocks of whole lines, decoded, with the number of their first line.
Memory follows BLOCK_BYTES, not the file: a line still without end beyond MAX_LINE_BYTES
is an error. A line that is too long, holds a NUL byte or is not UTF-8 is reported only
after every line before it was handed on, so the first problem in the file is the one
reported, however the file is cut into blocks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from pipeline.analysis.words.word_lists import decode_text
from pipeline.core.errors import InputError

BLOCK_BYTES = 1 << 22  # parsed at a time
MAX_LINE_BYTES = 1 << 20  # a longer line cannot be a row of a text table


def _too_long(path: str, line: int) -> InputError:
    problem = f"line is longer than {MAX_LINE_BYTES} bytes: not a `word,count` row"
    return InputError(path, problem, line)


def _line_blocks(chunks: Iterable[bytes], path: str) -> Iterator[tuple[int, bytes]]:
    """Blocks of whole lines (the last may lack its newline), with the number of their
    first line."""
    pending = b""
    first_line = 1
    for chunk in chunks:
        pending += chunk
        cut = pending.rfind(b"\n") + 1
        if cut == 0:
            if len(pending) > MAX_LINE_BYTES:
                raise _too_long(path, first_line)
            continue
        block, pending = pending[:cut], pending[cut:]
        yield first_line, block
        first_line += block.count(b"\n")
    if pending:
        yield first_line, pending


def _decode_lines(path: str, first_line: int, block: bytes) -> tuple[str, InputError | None]:
    """The block's lines decoded up to its first bad one (too long, a NUL byte, not UTF-8),
    and that line's error (None when every line is fine)."""
    ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == ord("\n"))
    starts = np.concatenate(([0], ends + 1))
    bounds = np.concatenate(([-1], ends, [] if block.endswith(b"\n") else [len(block)]))
    long = np.flatnonzero(np.diff(bounds) - 1 > MAX_LINE_BYTES)
    error = None if len(long) == 0 else _too_long(path, first_line + int(long[0]))
    end = len(block) if len(long) == 0 else int(starts[long[0]])
    while True:  # each error found cuts the block before its line: a shorter prefix
        try:
            return (decode_text(path, block[:end], first_line=first_line) if end else ""), error
        except InputError as bad_bytes:
            error = bad_bytes
            end = int(starts[(bad_bytes.line or first_line) - first_line])


def _chunks(data: bytes | Iterable[bytes]) -> Iterable[bytes]:
    """Whole bytes are handed on in blocks too, so memory follows BLOCK_BYTES, not the file."""
    if isinstance(data, bytes | bytearray | memoryview):
        view = memoryview(data)
        return (bytes(view[i : i + BLOCK_BYTES]) for i in range(0, len(view), BLOCK_BYTES))
    return data


def text_blocks(data: bytes | Iterable[bytes], path: str) -> Iterator[tuple[int, str]]:
    """Decoded blocks of whole lines: (number of the block's first line, text).

    `data` is the file's bytes, whole or as successive blocks; `path` names the file in
    errors (see the module docstring for their order).
    """
    for first_line, block in _line_blocks(_chunks(data), path):
        text, error = _decode_lines(path, first_line, block)
        if text:
            yield first_line, text
        if error is not None:
            raise error
