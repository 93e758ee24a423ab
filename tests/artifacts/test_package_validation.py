"""`wordle-pipeline validate` against frictionless's own Parquet route on the fixture's
whole package: the same verdict and the same errors (kind, row, field) on every damage a
table can carry while its descriptor still matches its bytes, and one line naming the
file where the bytes do not match or the file is missing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from frictionless import Resource, Schema

from pipeline.artifacts import package_validation
from pipeline.artifacts.package_validation import validate_package
from pipeline.commands.pipeline_cli import main
from pipeline.core.files import sha256_file
from tests.support.artifact_set import EDITION, shared_artifact_set

TABLE = f"{EDITION}/second_guesses.parquet"  # many rows and columns of every kind


@pytest.fixture(scope="module")
def package(tmp_path_factory) -> Path:
    return shared_artifact_set(tmp_path_factory, "fixture").manifest


@pytest.fixture
def copy(package, tmp_path) -> Path:
    """A copy of the fixture's package to damage; its descriptor path."""
    shutil.copytree(package.parent, tmp_path / "derived")
    return tmp_path / "derived" / package.name


def descriptor_of(descriptor: Path) -> dict:
    return json.loads(descriptor.read_text())


def test_the_fixture_package_is_valid_on_every_row(package):
    result = validate_package(package)
    assert result.problems == []
    resources = descriptor_of(package)["resources"]
    tables = [r for r in resources if r["format"] == "parquet"]
    assert result.tables == len(tables) >= 10 and result.other == len(resources) - len(tables)
    on_disk = sum(pq.ParquetFile(package.parent / r["path"]).metadata.num_rows for r in tables)
    assert result.rows == on_disk == sum(r["rows"] for r in tables) > 1000


def rewrite(descriptor: Path, path: str, change) -> None:
    """`change` applied to the table at `path`, and the descriptor's sha256 of it updated,
    so that only the rows are wrong (as a writer with a bug would leave them)."""
    file = descriptor.parent / path
    table = change(pq.read_table(file))
    pq.write_table(table, file)
    document = descriptor_of(descriptor)
    for resource in document["resources"]:
        if resource["path"] == path:
            resource["hash"] = f"sha256:{sha256_file(file)}"
    descriptor.write_text(json.dumps(document))


def with_cell(table: pa.Table, name: str, row: int, value, as_text: bool = False) -> pa.Table:
    """`table` with the cell (`row`, `name`) set to `value`, its column nullable (and
    written as text, every other cell as its digits, with `as_text`)."""
    values = table[name].to_pylist()
    if as_text:
        values = [str(v) for v in values]
    values[row] = value
    column = pa.array(values, type=pa.string() if as_text else table.schema.field(name).type)
    index = table.schema.get_field_index(name)
    return table.set_column(index, pa.field(name, column.type, nullable=True), column)


DAMAGES = {
    "a null in a required column": lambda t: with_cell(t, "opener", 3, None),
    "text in an integer column": lambda t: with_cell(t, "bucket_size", 5, "x", as_text=True),
    "a renamed column": lambda t: t.rename_columns(["renamed", *t.column_names[1:]]),
    "a missing column": lambda t: t.drop_columns([t.column_names[-1]]),
    "an extra column": lambda t: t.append_column("extra", pa.array([1] * t.num_rows)),
}


def errors_of(report) -> list[tuple]:
    return sorted(
        (error.type, getattr(error, "row_number", None), getattr(error, "field_name", None))
        for task in report.tasks
        for error in task.errors
    )


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_each_damage_gives_frictionless_own_errors(copy, damage):
    rewrite(copy, TABLE, DAMAGES[damage])
    result = validate_package(copy)
    assert result.problems and all(line.startswith(f"{TABLE}: ") for line in result.problems)

    resource = next(r for r in descriptor_of(copy)["resources"] if r["path"] == TABLE)
    theirs = Resource(resource, basepath=str(copy.parent)).validate()  # through pandas
    rows = package_validation._parquet_rows(copy.parent / TABLE, TABLE)
    ours = Resource(data=rows, schema=Schema.from_descriptor(resource["schema"])).validate()
    assert not theirs.valid and errors_of(ours) == errors_of(theirs)
    assert len(result.problems) == min(len(errors_of(theirs)), 5) + (len(errors_of(theirs)) > 5)


def test_bytes_that_are_not_the_descriptors_are_named(copy):
    """Frictionless cannot hash a Parquet file it reads through pandas; this check does."""
    expected = next(r for r in descriptor_of(copy)["resources"] if r["path"] == TABLE)["hash"]
    file = copy.parent / TABLE
    pq.write_table(pq.read_table(file).slice(1), file)  # valid rows, other bytes
    assert validate_package(copy).problems == [
        f"{TABLE}: its sha256 is not the descriptor's {expected.removeprefix('sha256:')}"
    ]


def test_a_table_outside_the_package_is_refused_unread(copy, tmp_path):
    """frictionless refuses the descriptor itself (an unsafe path), before any table."""
    outside = tmp_path / "outside.parquet"
    shutil.copy(copy.parent / TABLE, outside)
    document = descriptor_of(copy)
    entry = next(r for r in document["resources"] if r["path"] == TABLE)
    entry["path"] = "../outside.parquet"
    copy.write_text(json.dumps(document))
    result = validate_package(copy)
    assert len(result.problems) == 1 and result.rows == 0
    assert result.problems[0].startswith(f"{copy}: frictionless: ")
    assert 'path "../outside.parquet" is not safe' in result.problems[0]


def test_a_missing_table_is_one_line_naming_it(copy):
    (copy.parent / TABLE).unlink()
    problems = validate_package(copy).problems
    assert len(problems) == 1 and problems[0].startswith(f"{TABLE}: ")
    assert "No such file" in problems[0]


def test_the_command_says_valid_or_names_each_problem(package, copy, capsys):
    assert main(["validate", str(package)]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("validated ") and out.endswith(": all valid") and "\n" not in out
    (copy.parent / TABLE).unlink()
    assert main(["validate", str(copy)]) == 1
    captured = capsys.readouterr()
    assert captured.out.strip().endswith(": 1 problem(s)")
    missing = copy.parent / "missing.json"
    assert main(["validate", str(missing)]) == 1
    assert validate_package(missing).problems == [f"{missing}: no such file"]
