"""Where the pipeline keeps its files, relative to the working directory."""

from __future__ import annotations

RAW = "data/raw"  # downloads and their seals (with provenance)
DERIVED = "data/derived"  # the published artifacts
WORK = "data/work"  # intermediate files that are not artifacts
REPAIR = "data/repair"  # files a run moved aside (damaged, foreign, stale): never published


def raw(source: str) -> str:
    """The raw file of one source, e.g. data/raw/allowed.txt."""
    return f"{RAW}/{source}.txt"


def derived(name: str) -> str:
    """An artifact's path from its file name inside data/derived."""
    return f"{DERIVED}/{name}"
