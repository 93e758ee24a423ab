"""docs/data-dictionary.md is what the artifacts' schemas say, and they are what the data
package publishes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pipeline.artifacts import benchmark, dictionary, history
from tests.support.fixtures import REPO
from tests.support.workflow_helpers import EDITION

DICTIONARY = REPO / "docs" / "data-dictionary.md"


def test_the_committed_dictionary_is_what_the_command_prints():
    printed = subprocess.run(
        [sys.executable, "-m", "pipeline.artifacts.dictionary"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed == dictionary.render()
    assert DICTIONARY.read_text() == printed, (
        f"docs/data-dictionary.md is stale: run `{dictionary.COMMAND}` from the repository root"
    )


def test_the_types_are_the_ones_a_reader_of_the_file_sees():
    table = next(t for t in dictionary.TABLES if t.file == benchmark.GAMES_FILE)
    games = dictionary.as_stored(table.schema)
    assert str(games.field("guesses").type) == "list<element: string not null>"
    assert str(games.field("n_guesses").type) == "int32" and not games.field("solved").nullable


def test_every_column_of_every_table_has_one_row():
    text = dictionary.render()
    for table in dictionary.TABLES:
        section = text.split(f"## `{table.file}`\n", 1)[1].split("\n## ", 1)[0]
        rows = [line for line in section.splitlines() if line.startswith("| `")]
        assert [row.split("`")[1] for row in rows] == table.schema.names, table.file


@pytest.mark.slow
def test_the_dictionary_describes_every_published_table_as_the_data_package_does(built_checkout):
    """The fixture build's datapackage.json, read from the files themselves, lists the same
    tables, columns, Arrow types, descriptions and required columns as the dictionary."""
    descriptor = json.loads((built_checkout / "data" / "derived" / "datapackage.json").read_text())
    published = {  # one edition: each table's file name appears once
        resource["path"].rsplit("/", 1)[-1]: [
            (
                field["name"],
                field["arrowType"],
                field["description"],
                field.get("constraints", {}).get("required", False),
            )
            for field in resource["schema"]["fields"]
        ]
        for resource in descriptor["resources"]
        if "schema" in resource
    }
    described = {
        table.file: [
            (
                field.name,
                str(field.type),
                (field.metadata or {})[b"description"].decode(),
                not field.nullable,
            )
            for field in dictionary.as_stored(table.schema)
        ]
        for table in dictionary.TABLES
    }
    # history.parquet's in_<edition> column is the fixture edition's own
    built_history = dictionary.Table(history.FILE, "", history.schema_of([EDITION]))
    described[history.FILE] = [
        (field.name, str(field.type), field.metadata[b"description"].decode(), True)
        for field in dictionary.as_stored(built_history.schema)
    ]
    assert published == described
