"""Stage of rule build_datapackage: the Data Package descriptor of every artifact."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from pipeline.artifacts.datapackage import write_datapackage


def build_datapackage(
    *,
    artifacts: Sequence[Path],
    raw: Sequence[Path],
    datapackage: Path,
    config: str,
    editions: Sequence[str],
) -> None:
    """datapackage.json: every artifact (checked against its seal), the upstream sources
    and their terms, the effective config (JSON, less where inputs were read from), the
    enabled editions oldest first."""
    write_datapackage(artifacts, raw, json.loads(config), datapackage, editions)
