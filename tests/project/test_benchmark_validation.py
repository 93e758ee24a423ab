"""The validation benchmark (benchmarks/validation.py) on the fixture's package: our check
covers every row, and frictionless's route is estimated for every table from its rows."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from benchmarks.validation import SAMPLE_ROWS, measure, print_validation
from tests.support.artifact_set import shared_artifact_set


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    return shared_artifact_set(tmp_path_factory, "fixture").manifest


def test_every_table_is_measured_and_every_row_checked(package, capsys):
    measured = measure(package)
    tables = [
        entry["path"]
        for entry in json.loads(package.read_text())["resources"]
        if entry["format"] == "parquet"
    ]
    estimates = measured["frictionless_estimate"]
    assert sorted(estimates) == sorted(tables)
    for path, (rows, seconds) in estimates.items():
        assert rows == pq.ParquetFile(package.parent / path).metadata.num_rows < SAMPLE_ROWS
        assert seconds > 0
    assert measured["rows"] == sum(rows for rows, _ in estimates.values())
    assert measured["problems"] == 0 and measured["ours"]["cpu"] > 0
    print_validation(measured)
    printed = capsys.readouterr().out
    assert "wordle-pipeline validate, wall" in printed and tables[0] in printed
