"""Raw inputs in data/raw: the bytes a source gave, sealed with their provenance.

The seal's `extra` holds the provenance: the source name, its kind, its upstream origin,
whether it was read from the network, a mirror or a local file, and whether a pinned
sha256 verified it. Downstream stages read the bytes only through `read_raw`, or a large
file in blocks through `read_raw_blocks`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pipeline.analysis.words.word_lists import WordList, parse_word_list
from pipeline.artifacts import seal
from pipeline.core.errors import ArtifactError
from pipeline.core.files import write_bytes_atomic

READ_BLOCK = 1 << 22


def write_raw(data: bytes, path: str | Path, *, provenance: Mapping[str, Any]) -> None:
    """Write the fetched bytes and seal them with their provenance."""
    write_bytes_atomic(path, data)
    seal.write_seal(path, extra={"provenance": dict(provenance)})


def read_raw(path: str | Path) -> bytes:
    """The bytes of a raw input, after checking them against their seal."""
    seal.verify(path)
    return Path(path).read_bytes()


def read_raw_blocks(path: str | Path, block_bytes: int = READ_BLOCK) -> Iterator[bytes]:
    """The bytes of a raw input in blocks, so memory follows the block, not the file.

    The file is checked against its seal before the first block, and the blocks read are
    hashed again: a file replaced while it was read is an ArtifactError after its last
    block, never silently used.
    """
    sealed = seal.verify(path)
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(block_bytes):
            digest.update(block)
            yield block
    if digest.hexdigest() != sealed.sha256:
        raise ArtifactError(f"{path}: changed while it was read; {seal.REBUILD_HINT}")


def read_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance recorded when the raw input was fetched (checked seal)."""
    return dict(seal.verify(path).extra.get("provenance", {}))


def shown_name(path: str | Path) -> str:
    """How errors name a raw input: the user's own file when it came from one."""
    origin = read_provenance(path)
    if origin.get("kind") == "local" and origin.get("origin"):
        return f"{origin['origin']} (copied to {path})"
    return str(path)


def read_word_list(path: str | Path, length: int | None = None) -> WordList:
    """A raw word list, checked against its seal and parsed (errors name the user's file)."""
    return parse_word_list(read_raw(path), shown_name(path), length=length)
