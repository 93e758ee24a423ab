"""Two versions of one artifact, and a process that rewrites it with them, for the race
tests of tests/faults/test_concurrency.py.

`python -m tests.faults.race PATH STOP` rewrites the artifact PATH as A, B, A, ... with the
real writer (pipeline.artifacts.parquet.write_table: the file, then its seal), each time
whole, until the file STOP exists; then prints how many times it wrote.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.artifacts import parquet

SCHEMA = pa.schema([parquet.described("x", pa.int64(), "a value")])
ROWS = 200_000  # about 1.6 MB: each write takes long enough to be caught in the middle


def version(name: str) -> pa.Table:
    """The table of version `name` (A or B): as many rows, other values."""
    seed = {"A": 1, "B": 2}[name]
    return pa.table({"x": np.random.default_rng(seed).integers(0, 2**62, ROWS)})


def write(path: str | Path, name: str) -> None:
    parquet.write_table(version(name), path, schema=SCHEMA, inputs={}, settings={"v": name})


def rewrite_until(path: str, stop: Path) -> int:
    count = 0
    while not stop.exists():
        write(path, "AB"[count % 2])
        count += 1
    return count


if __name__ == "__main__":
    print(rewrite_until(sys.argv[1], Path(sys.argv[2])))
