"""`schema.sql`: every Parquet artifact as a DuckDB view, every column with its comment.

DuckDB's DESCRIBE and `duckdb_columns()` show no Parquet field metadata, so the column
descriptions (the same ones the Parquet files and datapackage.json carry, read from the
files themselves) are given to DuckDB the way it keeps them: `COMMENT ON COLUMN`. The
views read their files by paths relative to `data/derived/`; run the script there, or
after `SET file_search_path = 'data/derived'`:

    con.execute("SET file_search_path = 'data/derived'")
    con.execute(open("data/derived/schema.sql").read())
    con.sql("SELECT table_name, column_name, comment FROM duckdb_columns()")
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePosixPath

import pyarrow.parquet as pq

from pipeline.artifacts import seal
from pipeline.artifacts.parquet import field_descriptions
from pipeline.core.files import write_text_atomic

FILE = "schema.sql"


def view_name(relative: str) -> str:
    """nyt2022/words.parquet -> nyt2022_words (letters, digits and underscores)."""
    stem = PurePosixPath(relative).with_suffix("").as_posix()
    return "".join(c if c.isalnum() else "_" for c in stem)


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def schema_sql(tables: Sequence[tuple[str, dict[str, str]]]) -> str:
    """The script for (path relative to data/derived, {column: description}) pairs."""
    lines = [
        "-- Every Parquet artifact of this folder as a view, each column with its",
        "-- description. Paths are relative to data/derived/ (see SET file_search_path).",
    ]
    for relative, descriptions in tables:
        name = f'"{view_name(relative)}"'
        lines += [
            "",
            f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM read_parquet({_quoted(relative)});",
            f"COMMENT ON VIEW {name} IS {_quoted(relative)};",
        ]
        lines += [
            f'COMMENT ON COLUMN {name}."{column}" IS {_quoted(text)};'
            for column, text in descriptions.items()
        ]
    return "\n".join(lines) + "\n"


def write_schema_sql(parquet_files: Sequence[Path], root: Path, output: Path) -> None:
    """schema.sql for the Parquet files (under `root`), sealed with them as its inputs."""
    tables = []
    for path in sorted(parquet_files, key=lambda p: p.relative_to(root).as_posix()):
        seal.verify(path)
        tables.append((path.relative_to(root).as_posix(), field_descriptions(pq.read_schema(path))))
    write_text_atomic(output, schema_sql(tables))
    seal.write_seal(
        output, inputs={f"table_{i:04d}": p for i, p in enumerate(parquet_files)}, settings={}
    )
