"""`croissant.json` in each edition's folder: the edition's tables as MLCommons Croissant.

Croissant (JSON-LD over schema.org's Dataset) is what Hugging Face, Kaggle and dataset
search engines read to find a dataset and load its records. Each Parquet artifact of the
edition, and the commonness of its allowed list, is a `cr:FileObject` (path relative to
the edition's folder, sha256) and a `cr:RecordSet` whose fields carry their type and
description (read from the files' own field metadata, as datapackage.json reads them); a
list column is a `repeated` field of its item type.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.artifacts import seal
from pipeline.artifacts.parquet import field_descriptions
from pipeline.core.files import write_text_atomic

FILE = "croissant.json"
CONFORMS_TO = "http://mlcommons.org/croissant/1.0"
# The Croissant 1.0 JSON-LD context, as the specification publishes it (mlcroissant warns
# about any other).
CONTEXT = {
    "@language": "en",
    "@vocab": "https://schema.org/",
    "citeAs": "cr:citeAs",
    "column": "cr:column",
    "conformsTo": "dct:conformsTo",
    "cr": "http://mlcommons.org/croissant/",
    "rai": "http://mlcommons.org/croissant/RAI/",
    "data": {"@id": "cr:data", "@type": "@json"},
    "dataType": {"@id": "cr:dataType", "@type": "@vocab"},
    "dct": "http://purl.org/dc/terms/",
    "equivalentProperty": "cr:equivalentProperty",
    "examples": {"@id": "cr:examples", "@type": "@json"},
    "extract": "cr:extract",
    "field": "cr:field",
    "fileProperty": "cr:fileProperty",
    "fileObject": "cr:fileObject",
    "fileSet": "cr:fileSet",
    "format": "cr:format",
    "includes": "cr:includes",
    "isLiveDataset": "cr:isLiveDataset",
    "jsonPath": "cr:jsonPath",
    "key": "cr:key",
    "md5": "cr:md5",
    "parentField": "cr:parentField",
    "path": "cr:path",
    "recordSet": "cr:recordSet",
    "references": "cr:references",
    "regex": "cr:regex",
    "repeated": "cr:repeated",
    "replace": "cr:replace",
    "samplingRate": "cr:samplingRate",
    "sc": "https://schema.org/",
    "separator": "cr:separator",
    "source": "cr:source",
    "subField": "cr:subField",
    "transform": "cr:transform",
}
LICENSE = "https://opensource.org/licenses/MIT"
PARQUET = "application/x-parquet"


def data_type(kind: pa.DataType) -> str:
    """The schema.org type of an Arrow type (a list: of its items)."""
    if pa.types.is_list(kind):
        return data_type(kind.value_type)
    if pa.types.is_integer(kind):
        return "sc:Integer"
    if pa.types.is_floating(kind):
        return "sc:Float"
    if pa.types.is_boolean(kind):
        return "sc:Boolean"
    return "sc:Text"


def record_set(relative: str, schema: pa.Schema) -> dict:
    """The record set of one table (`relative` to the edition's folder)."""
    name = Path(relative).stem
    descriptions = field_descriptions(schema)
    fields = []
    for field in schema:
        entry = {
            "@type": "cr:Field",
            "@id": f"{name}/{field.name}",
            "name": field.name,
            "description": descriptions[field.name],
            "dataType": data_type(field.type),
            "source": {"fileObject": {"@id": relative}, "extract": {"column": field.name}},
        }
        if pa.types.is_list(field.type):
            entry["repeated"] = True
        fields.append(entry)
    return {"@type": "cr:RecordSet", "@id": name, "name": name, "description": relative,
            "field": fields}  # fmt: skip


def croissant(tables: Sequence[tuple[str, pa.Schema, str]], meta: Mapping[str, str]) -> dict:
    """The document for (path relative to the edition's folder, schema, sha256) of every
    table; meta: name, description, version, citeAs, datePublished."""
    return {
        "@context": CONTEXT,
        "@type": "sc:Dataset",
        "conformsTo": CONFORMS_TO,
        **meta,
        "license": LICENSE,
        "distribution": [
            {
                "@type": "cr:FileObject",
                "@id": relative,
                "name": relative,
                "contentUrl": relative,
                "encodingFormat": PARQUET,
                "sha256": digest,
            }
            for relative, _, digest in tables
        ],  # fmt: skip
        "recordSet": [record_set(relative, schema) for relative, schema, _ in tables],
    }


def write_croissant(parquet_files: Sequence[Path], output: Path, meta: Mapping[str, str]):
    """croissant.json for the Parquet files, paths relative to its folder, sealed."""
    folder = output.parent
    tables = []
    for path in parquet_files:
        checked = seal.verify(path)
        relative = Path(os.path.relpath(path, folder)).as_posix()  # ../shared/... too
        tables.append((relative, pq.read_schema(path), checked.sha256))
    tables.sort(key=lambda table: table[0])
    write_text_atomic(output, json.dumps(croissant(tables, meta), indent=2) + "\n")
    seal.write_seal(
        output, inputs={f"table_{i:04d}": p for i, p in enumerate(parquet_files)}, settings={}
    )
