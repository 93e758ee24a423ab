"""`datapackage.json`: the published artifacts as a Frictionless Data Package.

One descriptor, standard and readable by any Data Package tool, says what every artifact
is (path, format, media type, size, sha256, and for Parquet a table schema whose fields
carry their type and one-line description), where the data came from (the upstream
sources with their licenses and pinned URLs), under which licenses, and with which
settings and package version it was built. It holds no times and no machine paths, so
two clean runs of the same inputs give the same descriptor. `wordle-pipeline verify`
checks a folder of artifacts against it (`package_check`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import pipeline
from pipeline.artifacts import raw, seal
from pipeline.artifacts.parquet import field_descriptions
from pipeline.core.files import write_text_atomic

log = logging.getLogger(__name__)

FILE = "datapackage.json"
LOCATION_KEYS = ("mirror",)  # settings that say where inputs were read from, not what
# Settings that say how the work was split into jobs: no byte of any artifact depends on them.
SPLIT_KEYS = (
    ("openers", "parts"),
    ("solver", "openers_per_job"),
    ("optimal", "openers_per_job"),
    ("optimal", "screen_parts"),
)
MEDIA_TYPES = {
    ".parquet": ("parquet", "application/vnd.apache.parquet"),
    ".json": ("json", "application/json"),
    ".zst": ("npy.zst", "application/zstd"),
    ".png": ("png", "image/png"),
    ".html": ("html", "text/html"),
    ".sql": ("sql", "application/sql"),
    ".md": ("markdown", "text/markdown"),
}
DESCRIPTION = (
    "Every Wordle guess against every answer, the information each guess gives, "
    "two-step opener rankings with the best second guess for every reply, and "
    "solver benchmarks, for each edition of the word lists (a folder each, "
    "listed under wordle_pipeline.editions), computed by the wordle-pipeline "
    "Snakemake workflow."
)
PROJECT_LICENSE = {
    "name": "MIT",
    "path": "https://opensource.org/licenses/MIT",
    "title": "MIT License (the pipeline's code; see LICENSE)",
}
# What is known of each upstream source's terms (docs/operating.md explains them): the
# word lists by the repository their URL names, the frequency counts by source name.
REPOSITORY_TERMS = {
    "tabatkins/wordle-list": "MIT (github.com/tabatkins/wordle-list)",
    "alex1770/wordle": "MIT (github.com/alex1770/wordle)",
    "Hamster45105/nyt-games-archive": "MIT (github.com/Hamster45105/nyt-games-archive)",
}
SOURCE_TERMS = {
    "frequency": (
        "Peter Norvig's count_1w.txt, derived from Google's Web 1T 5-gram corpus (LDC2006T13, "
        "Web 1T 5-gram Version 1 Agreement); republished on Kaggle as "
        "rtatman/english-word-frequency. Norvig notes the data may only be used for "
        "linguistic education and research; commonness.parquet carries counts of the "
        "allowed Wordle words only."
    ),
}


# How frictionless reads a Parquet table: through pandas (pyarrow's to_pandas), so a null
# integer arrives as the float NaN, spelt "nan", and a list as a numpy array, which Table
# Schema's `array` type (a JSON array) refuses. In the standard's own terms: a nullable
# integer field lists "nan" among its missing values (Table Schema v2, per field); a list
# field is `any`, its exact Arrow type in `arrowType`. Frictionless cannot count a
# Parquet file's bytes either (its reader opens the file itself), so a Parquet resource
# carries its sha256 `hash` and no `bytes`; every other resource has both.
NULL_INTEGER = ["", "nan"]
LIST_TYPE = "any"


def _field(field: pa.Field, description: str) -> dict[str, Any]:
    """A Table Schema field for an Arrow field."""
    kind = field.type
    if pa.types.is_integer(kind):
        type_ = "integer"
    elif pa.types.is_floating(kind):
        type_ = "number"
    elif pa.types.is_boolean(kind):
        type_ = "boolean"
    elif pa.types.is_date(kind):
        type_ = "date"
    elif pa.types.is_list(kind):
        type_ = LIST_TYPE
    else:
        type_ = "string"
    entry = {"name": field.name, "type": type_, "description": description}
    entry["arrowType"] = str(kind)
    if not field.nullable:
        entry["constraints"] = {"required": True}
    elif type_ == "integer":
        entry["missingValues"] = NULL_INTEGER
    return entry


def _resource(path: Path, root: Path) -> dict[str, Any]:
    """The resource descriptor of one sealed artifact."""
    checked = seal.verify(path)
    relative = path.relative_to(root).as_posix()
    suffix = ".zst" if path.name.endswith(".npy.zst") else path.suffix
    file_format, media_type = MEDIA_TYPES[suffix]
    resource: dict[str, Any] = {
        "name": relative.replace("/", "-").replace(".", "-").lower(),
        "path": relative,
        "format": file_format,
        "mediatype": media_type,
        "bytes": checked.bytes,
        "hash": f"sha256:{checked.sha256}",
    }
    if suffix == ".parquet":
        del resource["bytes"]  # see NULL_INTEGER
        schema = pq.read_schema(path)
        descriptions = field_descriptions(schema)
        resource["type"] = "table"
        resource["rows"] = pq.read_metadata(path).num_rows
        resource["schema"] = {"fields": [_field(f, descriptions[f.name]) for f in schema]}
    elif suffix == ".zst":
        resource["description"] = (
            "rows of the pattern matrix (see patterns/index.json): a zstd frame holding a "
            ".npy array of reply ids, sum of c_i * 3^i with c = 0 grey, 1 yellow, 2 green"
        )
    return resource


def source_entry(record: Mapping[str, Any]) -> dict[str, str]:
    """The descriptor's entry of one raw input: its terms and where it lives upstream (the
    URL, or kaggle:DATASET/FILE as its provenance names it). A user's local file has no
    public location and none of the default sources' terms, so it gets neither."""
    name = record["source"]
    if record.get("kind") == "local":
        return {"title": f"{name}: a local file ({PurePosixPath(record['origin']).name})"}
    terms = SOURCE_TERMS.get(name, "")
    for repository, repository_terms in REPOSITORY_TERMS.items():
        if f"/{repository}/" in record["origin"]:
            terms = repository_terms
    return {"title": f"{name}: {terms}".rstrip(": "), "path": record["origin"]}


def source_entries(raw_files: Sequence[str | Path]) -> list[dict[str, str]]:
    """The `sources` of the descriptor (and of the dataset card): one per raw input."""
    return [source_entry(raw.read_provenance(raw_file)) for raw_file in raw_files]


def published_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """The config as the descriptor records it: what was computed, less where the inputs
    were read from and how the work was split."""
    published = {k: v for k, v in config.items() if k not in LOCATION_KEYS}
    for section, key in SPLIT_KEYS:
        if isinstance(published.get(section), Mapping):
            published[section] = {k: v for k, v in published[section].items() if k != key}
    return published


def edition_entries(config: Mapping[str, Any], editions: Sequence[str]) -> list[dict[str, str]]:
    """The `editions` (the enabled ones, oldest first: the last is the newest, the
    assistant's default): name, title, the folder of their artifacts and the sources of
    their lists (see `sources`)."""
    entries = []
    for name in editions:
        entry = config.get("editions", {}).get(name, {})
        lists = {kind: entry[kind] for kind in ("allowed", "answers") if kind in entry}
        entries.append({"name": name, "title": entry.get("title", ""), "path": name, **lists})
    return entries


def package_descriptor(
    artifacts: Sequence[str | Path],
    raw_files: Sequence[str | Path],
    config: Mapping[str, Any],
    root: str | Path,
    editions: Sequence[str] = (),
) -> dict[str, Any]:
    """The descriptor of `artifacts` (under `root`, where it will be written), each checked
    against its seal first, so it never records a damaged or stale file."""
    from frictionless import Package  # the standard's own library builds the descriptor

    root = Path(root)
    resources = [_resource(Path(path), root) for path in artifacts]
    sources = source_entries(raw_files)
    raw_inputs = {}
    for raw_file in raw_files:
        record = raw.read_provenance(raw_file)
        raw_inputs[record["source"]] = {k: record[k] for k in ("origin", "sha256", "bytes")}
    package = Package.from_descriptor(
        {
            "name": "wordle-strategy-data",
            "title": "Wordle strategy data",
            "description": DESCRIPTION,
            "version": pipeline.__version__,
            "licenses": [PROJECT_LICENSE],
            "sources": sources,
            "resources": resources,
        }
    )
    descriptor = package.to_descriptor()
    descriptor["wordle_pipeline"] = {
        "package_version": pipeline.__version__,
        "config": published_config(config),
        "editions": edition_entries(config, editions),
        "raw_inputs": raw_inputs,
    }
    return descriptor


def write_datapackage(
    artifacts: Sequence[str | Path],
    raw_files: Sequence[str | Path],
    config: Mapping[str, Any],
    output: str | Path,
    editions: Sequence[str] = (),
) -> None:
    output = Path(output)
    descriptor = package_descriptor(artifacts, raw_files, config, output.parent, editions)
    write_text_atomic(output, json.dumps(descriptor, indent=2, sort_keys=True) + "\n")
    seal.write_seal(
        output,
        inputs={f"artifact_{i:04d}": Path(a) for i, a in enumerate(artifacts)},
        settings={"config": dict(config)},
    )
    total = sum(Path(a).stat().st_size for a in artifacts)
    log.info("datapackage: %d resources, %d bytes", len(descriptor["resources"]), total)
