"""The data package as its consumers check it, with their own tools, on the fixture's
whole package: `frictionless validate` (the Frictionless Data project's own command, every
row of every resource), DuckDB reading `schema.sql` (every column's comment),
huggingface_hub reading the dataset card (`README.md`), and mlcroissant validating each
edition's `croissant.json` and loading its record sets.

A Parquet table is read by frictionless through pandas: a null integer arrives as NaN and
a list as a numpy array, and it cannot count the file's bytes. The descriptor says so in
the standard's terms (pipeline.artifacts.datapackage: NULL_INTEGER, LIST_TYPE), and this
test fails the day a column or a resource is described in a way frictionless refuses.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.artifacts.parquet import field_descriptions
from tests.support.artifact_set import EDITION, shared_artifact_set

FRICTIONLESS = Path(sys.executable).with_name("frictionless")


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    return shared_artifact_set(tmp_path_factory, "fixture").manifest


def test_frictionless_validates_the_whole_package_with_its_data(package):
    command = shutil.which("frictionless") or str(FRICTIONLESS)
    result = subprocess.run(
        [command, "validate", "--json", package.name],
        cwd=package.parent, capture_output=True, text=True, check=False,
    )  # fmt: skip
    report = json.loads(result.stdout)
    failures = [
        (task["name"], [e["message"] for e in task["errors"][:3]])
        for task in report["tasks"]
        if not task["valid"]
    ]
    assert report["valid"] and not failures and not report["errors"], failures
    assert result.returncode == 0
    tables = [task for task in report["tasks"] if task["type"] == "table"]
    descriptor = json.loads(package.read_text())
    parquet = [r for r in descriptor["resources"] if r["format"] == "parquet"]
    assert len(tables) == len(parquet) >= 10
    rows = {r["name"]: r["rows"] for r in parquet}
    assert all(task["stats"]["rows"] == rows[task["name"]] for task in tables)


def test_duckdb_shows_every_column_description(package, monkeypatch):
    """schema.sql makes a view of every Parquet artifact; DuckDB's duckdb_columns() then
    holds each column's description, the same text as the file's own field metadata."""
    import duckdb
    import pyarrow.parquet as pq

    descriptor = json.loads(package.read_text())
    assert any(r["path"] == "schema.sql" for r in descriptor["resources"])
    tables = [r["path"] for r in descriptor["resources"] if r["format"] == "parquet"]
    monkeypatch.chdir(package.parent)
    con = duckdb.connect()
    con.execute((package.parent / "schema.sql").read_text())
    rows = con.execute(
        "SELECT table_name, column_name, comment FROM duckdb_columns() WHERE NOT internal"
    ).fetchall()
    comments = {(table, column): comment for table, column, comment in rows}
    for path in tables:
        view = path.removesuffix(".parquet").replace("/", "_").replace("-", "_")
        descriptions = field_descriptions(pq.read_schema(package.parent / path))
        assert descriptions and all(descriptions.values()), path
        for column, text in descriptions.items():
            assert comments[(view, column)] == text, (path, column)
        count = con.execute(f'SELECT count(*) FROM "{view}"').fetchone()[0]
        assert count == pq.read_metadata(package.parent / path).num_rows


def test_the_dataset_card_parses_as_the_hub_reads_it(package):
    """One `configs` entry per Parquet artifact, naming its file; every column's
    description in the body, the same text as the file's own."""
    import pyarrow.parquet as pq
    from huggingface_hub import DatasetCard

    card = DatasetCard.load(package.parent / "README.md")
    descriptor = json.loads(package.read_text())
    tables = sorted(r["path"] for r in descriptor["resources"] if r["format"] == "parquet")
    assert card.data.pretty_name == "Wordle strategy data" and card.data.license == "other"
    configs = card.data.to_dict()["configs"]
    assert sorted(c["data_files"][0]["path"] for c in configs) == tables
    assert len({c["config_name"] for c in configs}) == len(tables)
    assert card.data.size_categories == ["n<1K"]
    for path in tables:
        for column, text in field_descriptions(pq.read_schema(package.parent / path)).items():
            assert f"| `{column}` | {text.replace('|', '/')} |" in card.text, (path, column)
    assert any(r["path"] == "README.md" for r in descriptor["resources"])


def test_the_dataset_card_says_which_top_lists_are_certified(package):
    """One line per edition and mode, from its optimal_openers table: the fixture certifies
    its top list in both modes (optimal.top of the artifact set), over every allowed word."""
    import polars as pl

    card = (package.parent / "README.md").read_text()
    section = card.split("## Proven-optimal openers\n\n", 1)[1].split("\n\n", 1)[0]
    table = pl.read_parquet(package.parent / EDITION / "optimal_openers.parquet")
    expected = []
    for mode in ("hard", "normal"):
        rows = table.filter(pl.col("mode") == mode)
        top = rows["in_top"].sum()
        assert top >= 1 and rows.height == table["opener"].n_unique()  # every word, certified
        expected.append(
            f"- `{EDITION}`, {mode} mode: certified: its top {top:,} proven over all "
            f"{rows.height:,} openers"
        )
    assert section.splitlines() == expected


def test_croissant_validates_and_loads_every_record_set(package):
    """mlcroissant finds no error; every table of the edition (and its allowed list's
    commonness) is a record set whose records are the file's rows, each field with the
    file's own description."""
    import mlcroissant
    import pyarrow.parquet as pq

    path = package.parent / EDITION / "croissant.json"
    dataset = mlcroissant.Dataset(jsonld=str(path))
    assert not dataset.metadata.issues.errors
    # the one recommended property left out: a date would make two runs' bytes differ
    assert all("datePublished" in warning for warning in dataset.metadata.issues.warnings)
    descriptor = json.loads(package.read_text())
    assert any(r["path"] == f"{EDITION}/croissant.json" for r in descriptor["resources"])
    document = json.loads(path.read_text())
    names = {r["name"]: r for r in document["recordSet"]}
    assert {"words", "commonness", "benchmark_games", "optimal_trees"} <= set(names)
    for name in ("words", "commonness", "benchmark_games"):
        table = path.parent / names[name]["description"]
        records = list(dataset.records(record_set=name))
        assert len(records) == pq.read_metadata(table).num_rows
        descriptions = field_descriptions(pq.read_schema(table))
        fields = {f["name"]: f["description"] for f in names[name]["field"]}
        assert fields == descriptions
    games = next(iter(dataset.records(record_set="benchmark_games")))
    assert isinstance(games["benchmark_games/guesses"], list)


def test_every_published_description_is_the_files_own(package):
    """One source: each column's description in datapackage.json (and so in the data
    dictionary, generated from the same schemas) is the Parquet file's field metadata;
    schema.sql, the card and croissant.json are checked against it above."""
    import pyarrow.parquet as pq

    descriptor = json.loads(package.read_text())
    parquet = [r for r in descriptor["resources"] if r["format"] == "parquet"]
    assert parquet
    for resource in parquet:
        own = field_descriptions(pq.read_schema(package.parent / resource["path"]))
        described = {f["name"]: f["description"] for f in resource["schema"]["fields"]}
        assert described == own, resource["path"]
