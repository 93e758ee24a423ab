"""How long a consumer waits to validate a built data package (issue 72, point 5).

`wordle-pipeline validate` (pipeline.artifacts.package_validation) checks every row of
every table; the baseline is `frictionless validate`'s own route through pandas, timed on
the first SAMPLE_ROWS rows of each table and scaled to the table's rows (its cost per row
is flat within a table), since the whole of it takes 25 minutes or more. With `full`, the
real `frictionless validate` of the whole package runs too, every row.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq

from benchmarks.dev_loop import timed
from benchmarks.kernels import report
from pipeline.artifacts.package_validation import validate_package

SAMPLE_ROWS = 20_000


def frictionless_per_table(descriptor: Path) -> dict[str, tuple[int, float]]:
    """Table path -> (rows, CPU seconds frictionless's pandas route would take for all of
    them, from its time on the first SAMPLE_ROWS)."""
    from frictionless import Resource

    estimates = {}
    for entry in json.loads(descriptor.read_text(encoding="utf-8"))["resources"]:
        if entry["format"] != "parquet":
            continue
        rows = pq.ParquetFile(descriptor.parent / entry["path"]).metadata.num_rows
        table = Resource(entry, basepath=str(descriptor.parent))
        started = time.process_time()
        checked = table.validate(limit_rows=SAMPLE_ROWS)
        seconds = time.process_time() - started
        done = max(int(checked.tasks[0].stats.get("rows") or 0), 1)
        estimates[entry["path"]] = (rows, seconds * rows / done)
    return estimates


def measure(descriptor: Path, full: bool = False) -> dict[str, object]:
    """Our validation's wall and CPU on every row, the baseline's estimate per table, and
    with `full` the real `frictionless validate` of the whole package."""
    began, cpu = time.perf_counter(), time.process_time()
    result = validate_package(descriptor)
    ours = {"wall": time.perf_counter() - began, "cpu": time.process_time() - cpu}
    measured: dict[str, object] = {
        "ours": ours,
        "rows": result.rows,
        "problems": len(result.problems),
        "frictionless_estimate": frictionless_per_table(descriptor),
    }
    if full:  # frictionless exits non-zero when the package is invalid
        command = [str(Path(sys.executable).with_name("frictionless")), "validate"]
        run = timed([*command, descriptor.name], descriptor.parent)
        measured["frictionless"] = {"wall": run.wall, "cpu": run.cpu, "valid": run.ok}
    return measured


def print_validation(measured: dict) -> None:
    print("validation: every row of the data package against its descriptor")
    ours, estimates = measured["ours"], measured["frictionless_estimate"]
    report("rows of every table", measured["rows"], "")
    report("wordle-pipeline validate, wall", ours["wall"], "s", "(target <= 180)")
    report("wordle-pipeline validate, CPU", ours["cpu"], "s")
    report("problems found", measured["problems"], "")
    total = sum(seconds for _, seconds in estimates.values())
    report(f"frictionless's pandas route, CPU (from {SAMPLE_ROWS:,} rows a table)", total, "s")
    report("frictionless estimate / ours, CPU", total / max(ours["cpu"], 1e-9), "")
    print("  frictionless's estimated CPU by table (rows, s):")
    for path, (rows, seconds) in sorted(estimates.items(), key=lambda item: -item[1][1]):
        print(f"    {path:<48} {rows:>10,} {seconds:10.1f}")
    if "frictionless" in measured:
        real = measured["frictionless"]
        report("frictionless validate, every row, wall", real["wall"], "s")
        report("frictionless validate, every row, CPU", real["cpu"], "s")
        print(f"    frictionless validate says valid: {real['valid']}")
