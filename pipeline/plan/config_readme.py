"""config/README.md, written from the config schema, the one place every key is declared:
what the Snakemake workflow catalog shows as the workflow's configuration, and what a
user reads before setting a key. `python -m pipeline.plan.config_readme` rewrites it;
a test checks that it matches the schema.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

SCHEMA = Path("workflow/schemas/config.schema.yaml")
README = Path("config/README.md")

INTRO = """\
# Configuration

<!-- Written by `python -m pipeline.plan.config_readme` from
workflow/schemas/config.schema.yaml; edit the schema, not this file. -->

The workflow runs with no configuration at all: every key has a default, declared once in
`workflow/schemas/config.schema.yaml`, and the workflow fills them in. Set only what you
change, in the checkout's `config.yaml`, in a file of your own given with `--configfile`,
or, when this workflow is a module of yours (see `docs/deploying.md`), in the config you
pass to the module. A bad value stops the run before the first job, as one line naming
the key. Paths you give (a `local` source, the mirror) are relative to the working
directory.

For example:

```yaml
mirror: ../shared/wordle-data          # read the raw inputs from a local copy
editions: {nyt2026: {enabled: true}}   # build one more edition
optimal: {top: 50}                     # certify the 50 best openers, not 20
```

The top-level keys:
"""


def _type(node: Mapping[str, Any]) -> str:
    """A key's type as a short word (a reference names its definition)."""
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[-1]
    if "oneOf" in node:
        return " or ".join(_type(option) for option in node["oneOf"])
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return " or ".join(json.dumps(value) for value in node["enum"])
    return str(node.get("type", "any"))


def _default(node: Mapping[str, Any]) -> str:
    if "default" not in node:
        return ""
    text = json.dumps(node["default"])
    return f"`{text}`" if len(text) <= 40 else "(see the schema)"


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _table(prefix: str, keys: Mapping[str, Any]) -> list[str]:
    lines = ["| key | type | default | meaning |", "| --- | --- | --- | --- |"]
    for key, child in keys.items():
        row = [
            f"`{prefix}.{key}`",
            _type(child),
            _default(child),
            _cell(child.get("description", "")),
        ]
        lines.append("| " + " | ".join(row) + " |")
    return [*lines, ""]


def _section(name: str, node: Mapping[str, Any], schema: Mapping[str, Any]) -> list[str]:
    """One top-level key: its description, a table of its keys when it has some, and of
    an entry's keys when its entries share a definition (a source, an edition)."""
    lines = [f"## `{name}`", "", _cell(node.get("description", "")), ""]
    if keys := node.get("properties", {}):
        lines += _table(name, keys)
    entries = node.get("additionalProperties")
    if name == "sources":
        entries = {"$ref": "#/definitions/source"}  # its named entries share one
    if isinstance(entries, Mapping) and "$ref" in entries:
        kind = entries["$ref"].rsplit("/", 1)[-1]
        entry = schema["definitions"][kind]
        lines += [f"Each entry (`{name}.<name>`): {_cell(entry.get('description', kind))}", ""]
        lines += _table(f"{name}.<name>", entry.get("properties", {}))
    if name == "editions":
        lines += ["The built-in editions:", ""]
        for edition, given in node["default"].items():
            state = "on" if given.get("enabled", True) else "off"
            lines.append(f"- `{edition}` ({state} by default): {_cell(given.get('title', ''))}")
        lines.append("")
    return lines


def render(schema: Mapping[str, Any]) -> str:
    """The README's text for a schema."""
    lines = [INTRO]
    for name, node in schema["properties"].items():
        lines += _section(name, node, schema)
    return "\n".join(lines).rstrip() + "\n"


def main(root: Path = Path(".")) -> int:
    schema = yaml.safe_load((root / SCHEMA).read_text(encoding="utf-8"))
    (root / README).parent.mkdir(exist_ok=True)
    (root / README).write_text(render(schema), encoding="utf-8")
    print(f"wrote {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
