"""The Snakefile's config check, called as the Snakefile calls it, for tests that need a
checked config without running Snakemake."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from pipeline.plan.config_checks import SCHEMA, check_config
from tests.support.fixtures import REPO


def snakefile_workflow(overrides: dict[str, Any] | None = None) -> SimpleNamespace:
    """What check_config uses of Snakemake's workflow object."""
    settings = SimpleNamespace(overwrite_config=overrides or {})
    return SimpleNamespace(config_settings=settings, configfiles=[], basedir=str(REPO))


def checked_config(given: dict[str, Any]) -> dict[str, Any]:
    """`given` (a config file's values) as the Snakefile has it after its checks."""
    config = json.loads(json.dumps(given))
    check_config(config, snakefile_workflow(), REPO / SCHEMA)
    return config
