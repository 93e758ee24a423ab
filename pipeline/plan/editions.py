"""Word-list editions in the config: the built-in ones, the user's entries merged over
them, and the checks across entries that the schema cannot make.

An edition names an allowed list and an answer list among the config's `sources`, and is
built into data/derived/<name>/ by the same rules (the `edition` wildcard). The built-in
editions are the `default` of `editions` in workflow/schemas/config.schema.yaml. A
user's entry of the same name is merged over the built-in one key by key; a new name
adds an edition after them. Editions keep that order: the last enabled one is the newest.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from pipeline.artifacts.catalog import FREQUENCY, HISTORY_SOURCE

LISTS = ("allowed", "answers")  # the word lists an edition names


def builtin_editions(schema_path: str | Path) -> dict[str, Any]:
    schema = yaml.safe_load(Path(schema_path).read_text(encoding="utf-8"))
    return schema["properties"]["editions"]["default"]


def merge_editions(config: dict[str, Any], schema_path: str | Path) -> None:
    """config["editions"]: the built-in editions with the user's entries merged over them
    (in place). A value that is not a mapping is left for the schema to name."""
    given = config.get("editions", {})
    if not isinstance(given, Mapping):
        return
    merged = json.loads(json.dumps(builtin_editions(schema_path)))
    for name, entry in given.items():
        if isinstance(entry, Mapping) and isinstance(merged.get(name), dict):
            merged[name].update(json.loads(json.dumps(entry)))
        else:
            merged[name] = json.loads(json.dumps(entry))
    config["editions"] = merged


def list_sources(entry: Mapping[str, Any], kind: str) -> list[str]:
    """The sources of an edition's list `kind`: its answers may be one name or a list of
    names whose union is the list (`answers: [answers_nyt2023, history]`)."""
    names = entry[kind]
    return [names] if isinstance(names, str) else list(names)


def enabled_editions(config: Mapping[str, Any]) -> list[str]:
    """The names of the editions the default target builds, oldest first."""
    return [name for name, entry in config["editions"].items() if entry.get("enabled", True)]


def edition_settings(config: Mapping[str, Any], edition: str, section: str) -> dict[str, Any]:
    """A config section with the edition's own values of it applied (the schema says which
    keys an edition may set: optimal.top and optimal.openers)."""
    own = config["editions"][edition].get(section, {})
    return {**config[section], **own}


def _twice_defined(node: yaml.Node) -> tuple[str, int] | None:
    """(name, line) of an edition named twice in a config file's YAML tree, or None (YAML
    itself keeps the last of two equal keys, silently)."""
    if not isinstance(node, yaml.MappingNode):
        return None
    for key_node, value_node in node.value:
        if getattr(key_node, "value", None) == "editions" and isinstance(
            value_node, yaml.MappingNode
        ):
            seen: set[str] = set()
            for name_node, _ in value_node.value:
                if name_node.value in seen:
                    return name_node.value, name_node.start_mark.line + 1
                seen.add(name_node.value)
    return None


def duplicate_edition(config_files: Iterable[str | Path]) -> str | None:
    """The one line naming an edition defined twice in a config file, or None."""
    for config_file in map(Path, config_files):
        try:
            tree = yaml.compose(config_file.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        except (OSError, yaml.YAMLError):
            continue  # Snakemake has read it already; other trouble is not this check's
        if found := _twice_defined(tree):
            name, line = found
            shown = os.path.relpath(config_file) if config_file.is_absolute() else config_file
            return (
                f"config: {shown}: line {line}: edition {name!r} is defined twice; "
                "give each edition its own name"
            )
    return None


def edition_problem(config: Mapping[str, Any]) -> str | None:
    """The one line naming what is wrong across the editions, or None: none enabled, a
    list name that is not a source, or a local word list that is missing or empty (a
    downloaded one is checked by its job)."""
    editions, sources = config["editions"], config["sources"]
    if not enabled_editions(config):
        return "config: editions: no edition is enabled; set enabled: true on one"
    for name in enabled_editions(config):
        for kind in LISTS:
            for source in list_sources(editions[name], kind):
                if problem := _list_problem(f"editions.{name}.{kind}", source, sources):
                    return problem
    return None


def _list_problem(key: str, source: str, sources: Mapping[str, Any]) -> str | None:
    """The one line naming what is wrong with one list source of an edition, or None.
    The dated answers (HISTORY_SOURCE) may be an answer list, never an allowed list."""
    if key.endswith(".allowed") and source == HISTORY_SOURCE:
        return f"config: {key}: {source!r} holds dated answers; it cannot be an allowed list"
    if source not in sources or source == FREQUENCY:
        known = ", ".join(s for s in sources if s != FREQUENCY)
        return f"config: {key}: {source!r} is not a word list of sources (known: {known})"
    spec = sources[source]
    if spec["kind"] != "local":
        return None
    path = Path(spec["path"])
    if not path.is_file():
        return f"config: sources.{source}.path: {spec['path']} is not a file"
    if not path.read_bytes().strip():
        return f"config: sources.{source}.path: {spec['path']} holds no words"
    return None


def edition_sources(config: Mapping[str, Any]) -> list[str]:
    """The sources the enabled editions read, the frequency counts and the dated answers
    (history.parquet is built for every run), each once."""
    editions = [config["editions"][e] for e in enabled_editions(config)]
    names = [name for entry in editions for kind in LISTS for name in list_sources(entry, kind)]
    return list(dict.fromkeys([*names, FREQUENCY, HISTORY_SOURCE]))


def history_until(config: Mapping[str, Any], edition: str) -> str:
    """history.until for an edition whose answers include the dated answers, else "", so
    changing it rebuilds only those editions."""
    uses = HISTORY_SOURCE in list_sources(config["editions"][edition], "answers")
    return config["history"]["until"] if uses else ""


def allowed_of(config: Mapping[str, Any], edition: str) -> str:
    """The source name of the edition's allowed list (the `wordlist` of what it shares)."""
    return config["editions"][edition]["allowed"]
