"""`wordle-pipeline validate`: every row of every table checked against `datapackage.json`
by frictionless, the Data Package standard's own library, as `frictionless validate`
checks them, in a small fraction of its time.

`frictionless validate` reads a Parquet file through pandas: `DataFrame.iterrows()`, then
`Series.to_dict()` once per cell, so a row costs time in the square of its columns. On
the full build that reader is most of its 25 minutes or more (the 1.3 M rows of
second_guesses.parquet alone; benchmarks/HISTORY.md has the numbers), while frictionless's
own checks of the same cells take under two minutes. Here pyarrow reads each Parquet file
in batches and hands frictionless the same cells, header first, as inline rows under the
resource's own Table Schema: the same checks run (labels against field names, each cell's
type, `required`, the missing values), on every row. A null arrives as None where pandas
gives NaN; both are a missing value to frictionless. Every other resource is validated by
frictionless as it stands (its bytes and sha256 included), and so is the descriptor. A
Parquet file's sha256, which frictionless cannot check (its reader opens the file itself),
is checked here too.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from pipeline.core.errors import one_line
from pipeline.core.files import sha256_file

log = logging.getLogger(__name__)

# Errors reported per resource (frictionless stops a resource after its own limit).
ERRORS_SHOWN = 5
BATCH_ROWS = 65_536
PROGRESS_SECONDS = 20.0  # a progress line at least this often inside a large table


@dataclass
class PackageValidation:
    """What `validate_package` checked and found: one line per problem."""

    problems: list[str] = field(default_factory=list)
    tables: int = 0
    rows: int = 0
    other: int = 0  # resources that are not tables


def validate_package(descriptor_path: str | Path) -> PackageValidation:
    """Every resource of the descriptor at `descriptor_path` (paths relative to its folder)
    validated by frictionless; Parquet tables row by row through pyarrow."""
    from frictionless import FrictionlessException, Package

    descriptor_path = Path(descriptor_path)
    result = PackageValidation()
    if not descriptor_path.is_file():
        result.problems.append(f"{descriptor_path}: no such file")
        return result
    try:  # the descriptor's own checks, as Package.validate makes them first
        package = Package(str(descriptor_path), basepath=str(descriptor_path.parent))
        package.to_descriptor(validate=True)
    except FrictionlessException as error:
        messages = [e.message for e in error.to_errors()] or [str(error)]
        result.problems += [f"{descriptor_path}: frictionless: {one_line(m)}" for m in messages]
        return result
    for resource in package.resources:
        started = time.monotonic()
        if resource.format == "parquet":
            path = descriptor_path.parent / resource.path
            problems, rows = _validate_table(path, resource)
            result.tables += 1
            result.rows += rows
            done = f"{rows:,} rows"
        else:
            problems = _report_problems(resource.path, resource.validate())
            result.other += 1
            done = "file"
        result.problems += problems
        verdict = f"{len(problems)} problem(s)" if problems else "valid"
        log.info("%s: %s %s (%.1f s)", resource.path, done, verdict, time.monotonic() - started)
    return result


def _validate_table(path: Path, resource: Any) -> tuple[list[str], int]:
    """(problems, rows) of one Parquet resource: its sha256, then every row."""
    from frictionless import Resource

    try:
        expected = (resource.hash or "").removeprefix("sha256:")
        if expected and sha256_file(path) != expected:
            return [f"{resource.path}: its sha256 is not the descriptor's {expected}"], 0
        rows = _parquet_rows(path, resource.path)
        inline = Resource(data=rows, schema=resource.schema, name=resource.name)
        report = inline.validate()
    except OSError as error:
        return [f"{resource.path}: {one_line(error.strerror or str(error))}"], 0
    stats = report.tasks[0].stats if report.tasks else {}
    return _report_problems(resource.path, report), int(stats.get("rows") or 0)


def _parquet_rows(path: Path, name: str) -> Callable[[], Iterator[Any]]:
    """A function giving the file's header, then its rows as tuples of Python values
    (frictionless calls it whenever it reads the table)."""

    def rows() -> Iterator[Any]:
        table = pq.ParquetFile(path)
        yield table.schema_arrow.names
        done, last = 0, time.monotonic()
        for batch in table.iter_batches(batch_size=BATCH_ROWS):
            yield from zip(*(column.to_pylist() for column in batch.columns), strict=True)
            done += batch.num_rows
            if time.monotonic() - last > PROGRESS_SECONDS:
                log.info("%s: %s of %s rows", name, f"{done:,}", f"{table.metadata.num_rows:,}")
                last = time.monotonic()

    return rows


def _report_problems(name: str, report: Any) -> list[str]:
    """The first ERRORS_SHOWN errors of a frictionless report, one line each, naming the
    resource, and how many more there were."""
    errors = [error for task in report.tasks for error in task.errors] + list(report.errors)
    lines = [f"{name}: frictionless: {one_line(error.message)}" for error in errors]
    if len(lines) > ERRORS_SHOWN:
        lines = [*lines[:ERRORS_SHOWN], f"{name}: {len(lines) - ERRORS_SHOWN} more error(s)"]
    return lines
