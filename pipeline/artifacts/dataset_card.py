"""`README.md` in data/derived: the dataset card a Hugging Face dataset repository shows.

YAML front matter as the Hub reads it (pretty name, licence, size category, one `configs`
entry per Parquet artifact with its `data_files`), then the card itself: what the data
is, each table with its rows and the description of every column (read from the files'
own field metadata, as datapackage.json and schema.sql read them), whether each edition's
top list of openers is certified in each mode, the sources and their terms, and how to
read a table straight from a release.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from pipeline.artifacts import seal
from pipeline.artifacts.duckdb_schema import view_name
from pipeline.artifacts.optimal import OPENERS_FILE
from pipeline.artifacts.parquet import field_descriptions
from pipeline.core.files import write_text_atomic

FILE = "README.md"
PRETTY_NAME = "Wordle strategy data"
# The Hub's size categories, by the rows of the largest table.
SIZES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
         (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M"))  # fmt: skip


def size_category(rows: int) -> str:
    return next((name for limit, name in SIZES if rows < limit), "10M<n<100M")


def front_matter(tables: Sequence[tuple[str, int]]) -> dict:
    """The YAML metadata for (path relative to data/derived, rows) of every table."""
    return {
        "pretty_name": PRETTY_NAME,
        "license": "other",
        "license_name": "mixed",
        "size_categories": [size_category(max((rows for _, rows in tables), default=0))],
        "tags": ["wordle", "word-games", "information-theory", "decision-trees"],
        "configs": [
            {"config_name": view_name(path), "data_files": [{"split": "train", "path": path}]}
            for path, _ in tables
        ],
    }


def certification(path: Path) -> list[str]:
    """One line per mode of an edition's optimal_openers table: certified (its top list,
    ties included, proven over every allowed word) or not (only the openers it holds
    searched: a sample)."""
    table = pq.read_table(path, columns=["mode", "opener", "in_top"]).to_pylist()
    edition = path.parent.name
    lines = []
    for mode in sorted({row["mode"] for row in table}):
        rows = [row for row in table if row["mode"] == mode]
        top = sum(row["in_top"] for row in rows)
        if top:
            state = f"certified: its top {top:,} proven over all {len(rows):,} openers"
        else:
            state = f"not certified: {len(rows):,} openers searched, a sample of the allowed words"
        lines.append(f"- `{edition}`, {mode} mode: {state}")
    return lines


def card_text(
    tables: Sequence[tuple[str, int, Mapping[str, str]]],
    description: str,
    sources: Sequence[Mapping[str, str]],
    version: str,
    certified: Sequence[str] = (),
) -> str:
    """The whole card: front matter, then the body (`certified`: certification's lines)."""
    meta = front_matter([(path, rows) for path, rows, _ in tables])
    lines = ["---", yaml.safe_dump(meta, sort_keys=False).rstrip(), "---", ""]
    lines += [f"# {PRETTY_NAME}", "", description, "", f"Package version {version}.", ""]
    if certified:
        lines += ["## Proven-optimal openers", "", *certified, ""]
    lines += ["## Tables", ""]
    for path, rows, descriptions in tables:
        lines += [f"### `{path}` ({rows:,} rows; config `{view_name(path)}`)", ""]
        lines += ["| column | description |", "| --- | --- |"]
        lines += [f"| `{name}` | {text.replace('|', '/')} |" for name, text in descriptions.items()]
        lines.append("")
    lines += ["## Sources and terms", ""]
    lines += [f"- {source['title']}" + (f" ({source['path']})" if "path" in source else "")
              for source in sources]  # fmt: skip
    lines += [
        "",
        "The pipeline's code is MIT licensed; each table derives from the sources above and",
        "follows their terms.",
        "",
        "## Reading a table",
        "",
        "Every table is a Parquet file; read one straight from a release or this repository,",
        "for example `pl.read_parquet(url)` in polars or `SELECT * FROM read_parquet(url)` in",
        "DuckDB, or locally with the views of `schema.sql` (every column with its comment).",
    ]
    return "\n".join(lines) + "\n"


def write_dataset_card(
    parquet_files: Sequence[Path],
    root: Path,
    output: Path,
    *,
    description: str,
    sources: Sequence[Mapping[str, str]],
    version: str,
) -> None:
    """README.md for the Parquet files (under `root`), sealed with them as its inputs."""
    tables, certified = [], []
    for path in sorted(parquet_files, key=lambda p: p.relative_to(root).as_posix()):
        seal.verify(path)
        schema = pq.read_schema(path)
        rows = pq.read_metadata(path).num_rows
        tables.append((path.relative_to(root).as_posix(), rows, field_descriptions(schema)))
        if path.name == OPENERS_FILE:
            certified += certification(path)
    write_text_atomic(output, card_text(tables, description, sources, version, certified))
    seal.write_seal(
        output, inputs={f"table_{i:04d}": p for i, p in enumerate(parquet_files)}, settings={}
    )
