"""Stage of rule fetch_source: read one raw input, check its content, write it sealed."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from pipeline.analysis.history.archive import parse_history
from pipeline.analysis.words.frequency import parse_frequency_counts
from pipeline.analysis.words.word_lists import parse_word_list
from pipeline.artifacts import raw as raw_artifact
from pipeline.artifacts.catalog import HISTORY_SOURCE
from pipeline.sources.fetch import Check, read_source, resolve_mirror

log = logging.getLogger(__name__)


def _check_frequency(data: bytes, shown: str) -> object:
    return parse_frequency_counts(data, shown, ())  # every row checked, no word kept


# The parser that checks each source's bytes before anything is written, so an error
# names the user's own file (local path, mirror file or URL), not the copy in data/raw.
CONTENT_CHECKS: dict[str, Check] = {
    "allowed": parse_word_list,
    "answers": parse_word_list,
    "frequency": _check_frequency,
    HISTORY_SOURCE: parse_history,
}


def _warn(message: str) -> None:
    """A warning in the job's log and on stderr, where Snakemake shows it to the user:
    one write of the whole line, so jobs fetching at once cannot run their lines together."""
    log.warning("%s", message)
    sys.stderr.write(f"fetch_source: warning: {message}\n")
    sys.stderr.flush()


def fetch_source(
    *,
    local: Path | None,
    raw: Path,
    name: str,
    spec: str,
    timeout: float,
    retries: int,
    deadline: float,
) -> None:
    """Read one source (local file, mirror folder or network), check it, write it sealed.

    `local` is the user's own file of a `kind: local` source (an input, so editing it
    reruns the fetch); the mirror folder comes from WORDLE_MIRROR, which the workflow
    sets, because where bytes are read from must never rerun anything. A mirror without
    the source's copy is one warning line, and the real source is fetched instead.
    """
    data, provenance = read_source(
        name,
        json.loads(spec),
        mirror=resolve_mirror(None),
        timeout=timeout,
        retries=retries,
        deadline=deadline,
        check=CONTENT_CHECKS.get(name),
        warn=_warn,
    )
    raw_artifact.write_raw(data, raw, provenance=provenance)
    log.info("source %s: %d bytes from %s", name, len(data), provenance["read_from"])
