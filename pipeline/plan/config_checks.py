"""What the Snakefile checks before any job runs, reported as one line instead of a wall.

- check_config: every check below, in order, as the Snakefile's one call.
- config_problem: why the config fails its schema, as one line naming the key and the
  value (`config: solver.strategies[0].top_n: 'abc' is not of type 'integer'`) and at
  most one hint line (the key's description from the schema). Snakemake's own message
  is many lines, and its traceback names Snakemake's code, not the user's key.
  duplicate_label, unsolved_mode: the checks across entries the schema cannot make.
- whole_source_entries: a source entry given with --config replaces the configured one
  whole, instead of Snakemake's key-by-key merge. export_mirror: the mirror setting
  handed to the fetch jobs.
- stop: end Snakemake with such a message and exit status 1. Input functions that read
  an artifact (the word index, behind the checkpoint) call it on a PipelineError, since
  Snakemake would print an exception in an input function with a traceback.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NoReturn

import jsonschema
import yaml
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from pipeline.analysis.benchmark.units import OPTIMAL_MODES
from pipeline.plan.editions import duplicate_edition, edition_problem, merge_editions
from pipeline.sources.fetch import MIRROR_ENV, resolve_mirror

SCHEMA = "workflow/schemas/config.schema.yaml"  # under the workflow's base directory

HINT_WIDTH = 200  # characters of a description shown in the hint line


def key_path(parts: Iterable[Any]) -> str:
    """solver.strategies[0].top_n from ['solver', 'strategies', 0, 'top_n']. A key that
    is empty or not printable (a newline, a tab) is quoted, so the message stays one line:
    sources['\\n']."""
    text = ""
    for part in parts:
        if isinstance(part, int) or not str(part).isprintable() or str(part) == "":
            text += f"[{part!r}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _resolve(schema: Mapping[str, Any], node: Any) -> Any:
    """A node with its local $ref (#/definitions/...) followed."""
    while isinstance(node, Mapping) and "$ref" in node:
        target: Any = schema
        for step in node["$ref"].lstrip("#/").split("/"):
            target = target[step]
        if target is node:
            break
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _description(schema: Mapping[str, Any], error: jsonschema.ValidationError) -> str | None:
    """The description of the last named key the failing check went through (the error's
    schema path leaves out the $ref steps, so they are followed here)."""
    node: Any = schema
    found = None
    steps = list(error.absolute_schema_path)
    for index, step in enumerate(steps):
        if isinstance(node, Mapping) and step not in node:
            node = _resolve(schema, node)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        named = index > 0 and steps[index - 1] == "properties"
        if named and isinstance(node, Mapping):
            description = _resolve(schema, node).get("description")
            found = f"{step}: {description}" if description else found
    return found


def _problem(error: jsonschema.ValidationError) -> tuple[str, str]:
    """(key, problem) of one validation error, phrased for a config file's author."""
    where = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        known = set(error.schema.get("properties", {}))
        extra = sorted(str(key) for key in error.instance if key not in known)
        allowed = ", ".join(sorted(known)) or "none"
        return key_path([*where, extra[0]]), f"unknown key (allowed here: {allowed})"
    if "propertyNames" in error.absolute_schema_path:
        name = key_path([*where, error.instance])
        if error.validator == "not":
            return name, "is a reserved name; choose another"
        return name, "is not a valid name (lower-case a-z, digits and _, a letter first)"
    if error.validator == "required" and isinstance(error.instance, Mapping):
        missing = [key for key in error.validator_value if key not in error.instance]
        return key_path([*where, missing[0]]), "is required here but missing"
    return key_path(where), error.message


def _text_hint(error: jsonschema.ValidationError) -> str | None:
    """A value given as text that YAML would read as the wanted type: nested --config."""
    if error.validator != "type" or not isinstance(error.instance, str):
        return None
    try:
        parsed = yaml.safe_load(error.instance)
    except yaml.YAMLError:
        return None
    if isinstance(parsed, bool | int | float) and not isinstance(parsed, str):
        return (
            "hint: values nested in --config are read as text; set this key in a config "
            "file (--configfile) instead"
        )
    return None


def config_problem(
    config: Mapping[str, Any], schema_path: str | Path, shown: str | None = None
) -> str | None:
    """The one-line problem (plus a hint line) of a config that fails its schema, or None.
    `shown` names the schema file in the hint (default `schema_path`)."""
    schema = yaml.safe_load(Path(schema_path).read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(config))
    if error is None:
        return None
    key, problem = _problem(error)
    message = f"config: {key}: {' '.join(problem.split())}" if key else f"config: {problem}"
    hint = _text_hint(error)
    if hint is None and (described := _description(schema, error)):
        text = " ".join(described.split())
        if len(text) > HINT_WIDTH:
            text = text[: HINT_WIDTH - 3] + "..."
        hint = f"hint: {text} (every key: {shown or Path(schema_path).as_posix()})"
    return message if hint is None else f"{message}\n{hint}"


def unsolved_mode(config: Mapping[str, Any]) -> str | None:
    """A solver strategy that plays the stored optimal trees of a mode that optimal.modes
    does not solve: the one line naming both, or None (else its job stops at the optimal
    file, after the optimal stage has run)."""
    modes = config["optimal"]["modes"]
    for index, entry in enumerate(config["solver"]["strategies"]):
        mode = OPTIMAL_MODES.get(entry["name"])
        if mode is not None and mode not in modes:
            return (
                f"config: optimal.modes: {modes} has no {mode!r}, which "
                f"solver.strategies[{index}] ({entry['name']}) plays; add {mode!r} to "
                "optimal.modes or remove that strategy"
            )
    return None


def unreal_until(config: Mapping[str, Any]) -> str | None:
    """history.until that has the schema's shape but is no day (2026-02-30): the one line
    naming it, or None (else the history's and the prior's jobs stop on it, after the
    downloads). Whether the history holds that day is its jobs' check: only they read it."""
    until = config["history"]["until"]
    try:
        if until:
            dt.date.fromisoformat(until)
    except ValueError:
        return f"config: history.until: {until!r} is not a day (YYYY-MM-DD, a real date)"
    return None


def duplicate_label(config: Mapping[str, Any]) -> str | None:
    """Two solver strategies under one label (a check across entries, which the schema
    cannot make): the one line naming the second, or None."""
    seen: dict[str, int] = {}
    for index, entry in enumerate(config.get("solver", {}).get("strategies", [])):
        label = str(entry.get("label") or entry["name"])
        if label in seen:
            return (
                f"config: solver.strategies[{index}]: label {label!r} is taken by "
                f"solver.strategies[{seen[label]}]; give one of them another label"
            )
        seen[label] = index
    return None


def whole_source_entries(config: dict[str, Any], overrides: Mapping[str, Any]) -> None:
    """Give each source entry of `--config sources=...` (Snakemake's overwrite_config)
    in full. Snakemake merges nested values key by key, so switching `allowed` to
    `{kind: local, path: ...}` would keep the old entry's url and pinned sha256, and the
    fetch would refuse the new file for a checksum the user never gave."""
    given = overrides.get("sources")
    if not isinstance(given, Mapping) or not isinstance(config.get("sources"), dict):
        return
    for name, entry in given.items():
        config["sources"][name] = json.loads(json.dumps(entry))


def export_mirror(mirror: str) -> None:
    """Hand the config's mirror folder to fetch jobs in WORDLE_MIRROR (which wins over the
    config key, so a WORDLE_MIRROR already set stays).

    Not a param on purpose: where bytes are read from (network, mirror, local copy) must
    never rerun anything; only the source entry and, when pinned, its sha256 do. Cluster
    jobs parse the Snakefile again with the same --config, so they export the same value.
    """
    folder = resolve_mirror(mirror)
    if folder is not None:
        os.environ[MIRROR_ENV] = str(folder)


def stop(message: str) -> NoReturn:
    """End Snakemake with `message` on stderr and exit status 1, no traceback."""
    print(message, file=sys.stderr)
    raise SystemExit(1)


def check_config(config: dict[str, Any], workflow: Any, schema_file: str | Path) -> None:
    """Complete and check Snakemake's `config` (in place) before the first job; a problem
    stops the run as one line naming the key (Snakemake's own message is a wall).

    A source given with --config is one whole entry (whole_source_entries). The user's
    editions are merged over the built-in ones (pipeline.plan.editions); then every value
    is typed and bounded by the schema, which also fills in its defaults; then come the
    checks across entries; last, the mirror is handed to the fetch jobs. `schema_file` is
    the workflow's own schema (found beside its Snakefile, also when it runs as a module
    of another workflow).
    """
    whole_source_entries(config, workflow.config_settings.overwrite_config)
    if problem := duplicate_edition(workflow.configfiles):
        stop(problem)
    merge_editions(config, schema_file)
    try:
        # Called from here, validate cannot see the Snakefile's `workflow` (it looks in
        # its caller's globals), so its skip for a workflow used as a module is here.
        if not getattr(getattr(workflow, "modifier", None), "skip_validation", False):
            validate(config, schema_file)
    except WorkflowError as error:
        stop(config_problem(config, schema_file, shown=SCHEMA) or " ".join(str(error).split()))
    if problem := (
        duplicate_label(config)
        or unsolved_mode(config)
        or edition_problem(config)
        or unreal_until(config)
    ):
        stop(problem)
    export_mirror(config["mirror"])
