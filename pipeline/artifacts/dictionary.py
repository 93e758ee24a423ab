"""The data dictionary (`docs/data-dictionary.md`), rendered from the artifacts' schemas.

Every column's Arrow type and description come from the very schemas the writers use,
which are also what the Parquet files and `datapackage.json` describe, so the dictionary
cannot say something the data does not. Regenerate it after changing a schema:

    python -m pipeline.artifacts.dictionary > docs/data-dictionary.md

`tests/artifacts/test_dictionary.py` fails while the committed file is stale.
"""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.artifacts import (
    benchmark,
    benchmark_history,
    commonness,
    entropy,
    history,
    openers,
    optimal,
    prior,
    words,
)
from pipeline.artifacts.layout import DERIVED
from pipeline.artifacts.parquet import METADATA_PREFIX, field_descriptions
from pipeline.artifacts.patterns import INDEX_FILE
from pipeline.core.wordle import MAX_GUESSES

COMMAND = "python -m pipeline.artifacts.dictionary > docs/data-dictionary.md"


@dataclass(frozen=True)
class Table:
    """One Parquet artifact: its file, what a row is and how rows are ordered, its schema."""

    file: str
    about: str
    schema: pa.Schema


TABLES = (
    Table(
        words.FILE,
        "The word index: one row per allowed guess, sorted by word. Its order is the row "
        "order (guesses) and the column order (answers) of every matrix.",
        words.SCHEMA,
    ),
    Table(
        commonness.FILE,
        "How common each word is: one row per allowed guess, in `word_id` order.",
        commonness.SCHEMA,
    ),
    Table(
        history.FILE,
        "Every NYT answer by the day it was played, one row per day in date order up to "
        "`history.until`, shared by the editions (`shared/history.parquet`). It has one "
        "`in_<edition>` column per edition enabled when it was built.",
        history.schema_of(["<edition>"]),
    ),
    Table(
        prior.FILE,
        "The history prior: how likely each word of the edition's answer list is to be "
        "the answer on `day`, the day after history.until, as the NYT has drawn them (a "
        "played word is less likely than an unplayed one, by the repeat rate fitted on the "
        "days before). One row per answer, in `word_id` order. No other table uses it yet: "
        "they take every answer as equally likely.",
        prior.SCHEMA,
    ),
    Table(
        prior.BACKTEST_FILE,
        "How well the history prior predicted the days played: one row per model (each "
        "window of days the repeat rate is fitted on, the online choice the prior uses, "
        "and uniform), each day scored under a prior fitted on the days before it only.",
        prior.BACKTEST_SCHEMA,
    ),
    Table(
        entropy.ENTROPY_FILE,
        "How much each guess tells you: one row per guess, in `word_id` order. Entropies "
        "are in bits.",
        entropy.ENTROPY_SCHEMA,
    ),
    Table(
        entropy.DISTRIBUTION_FILE,
        "Every guess's reply distribution over the answer list, long format, only the "
        "replies that occur; sorted by `word_id`, then `pattern_id`.",
        entropy.DISTRIBUTION_SCHEMA,
    ),
    Table(
        openers.OPENERS_FILE,
        "The two-step opener ranking: one row per (mode, opener), sorted by mode, then rank.",
        openers.OPENERS_SCHEMA,
    ),
    Table(
        openers.SECOND_GUESSES_FILE,
        "The recommended second guess for every opener and every reply it can receive; "
        "sorted by (mode, opener_id, pattern_id) in row groups of "
        f"{openers.SECOND_GUESS_ROW_GROUP} rows, so filtering one opener reads one or two.",
        openers.SECOND_GUESSES_SCHEMA,
    ),
    Table(
        benchmark.GAMES_FILE,
        "The solver benchmark: one row per game (strategy, opener, answer), sorted by "
        "strategy, opener and answer.",
        benchmark.GAMES_SCHEMA,
    ),
    Table(
        benchmark.SUMMARY_FILE,
        "One row per strategy, and one per opener for `opener_benchmark`.",
        benchmark.summary_schema(MAX_GUESSES),
    ),
    Table(
        benchmark.SCORE_MODEL_FILE,
        "The uncertainty map: for each strategy and bin of remaining uncertainty, the "
        "guesses still needed.",
        benchmark.SCORE_MODEL_SCHEMA,
    ),
    Table(
        benchmark_history.FILE,
        "The solver benchmark on the days the NYT played (history.parquet): one row per "
        "(strategy, opener, day), sorted as benchmark_games' pairs, then by date. A day whose "
        "answer the list lacks is replayed with the fallback over the allowed words.",
        benchmark_history.SCHEMA,
    ),
    Table(
        benchmark_history.SUMMARY_FILE,
        "benchmark_history per (strategy, opener, year), sorted so: mean guesses, failures "
        "and the hardest days.",
        benchmark_history.SUMMARY_SCHEMA,
    ),
    Table(
        optimal.OPENERS_FILE,
        "Every allowed word as an opener, one row per (mode, opener), sorted by mode, then "
        "opener: proven-optimal totals, lower bounds, and the certified top list (in_top).",
        optimal.OPENERS_SCHEMA,
    ),
    Table(
        optimal.TREES_FILE,
        "One row per node (a guess the tree can play) of each optimal tree; one row group "
        "per tree, sorted by (mode, opener), then node.",
        optimal.TREES_SCHEMA,
    ),
)

OTHER_FILES = (
    (
        f"patterns/{INDEX_FILE}",
        "the pattern matrix's index: shape, dtype, word length, `chunk_rows`, the sha256 of "
        "`words.parquet`, and per chunk its file, row range, shape, dtype, sha256 and size",
    ),
    (
        "patterns/chunk-NNNN.npy.zst",
        "rows of the guess x answer pattern matrix: one zstd frame holding a `.npy` array of "
        "reply ids (sum of c_i * 3^i; c = 0 grey, 1 yellow, 2 green; uint8, or uint16 "
        "beyond 5 letters)",
    ),
    (
        "patterns_square/",
        "the guess x guess matrix in the same format (only with `patterns.square: true`)",
    ),
    ("plots/*.png, tables/*.html", "the report's figures and tables"),
    (
        "../tables/editions.html",
        "the editions side by side: each one's size, best two-step opener and best proven openers",
    ),
    (
        "../datapackage.json",
        "the Frictionless Data Package descriptor of every edition: every file's size and "
        "sha256, every column's type and description, the sources, the editions in order, "
        "the effective config",
    ),
    (
        "<file>.seal.json",
        "each artifact's seal: its sha256 and the sha256s of the files it was built from",
    ),
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def as_stored(schema: pa.Schema) -> pa.Schema:
    """The schema as a reader of the Parquet file sees it (and datapackage.json records it):
    Parquet names a list's items `element`, where the writer's schema says `item`."""
    buffer = io.BytesIO()
    pq.write_table(schema.empty_table(), buffer)
    return pq.read_schema(io.BytesIO(buffer.getvalue()))


def _table(table: Table) -> list[str]:
    stored = as_stored(table.schema)
    descriptions = field_descriptions(stored)
    lines = [
        f"## `{table.file}`",
        "",
        table.about,
        "",
        "| column | Arrow type | null | description |",
        "| --- | --- | --- | --- |",
    ]
    for field in stored:
        null = "yes" if field.nullable else "no"
        lines.append(
            f"| `{field.name}` | `{_cell(str(field.type))}` | {null} "
            f"| {_cell(descriptions[field.name])} |"
        )
    return [*lines, ""]


def render() -> str:
    """The whole of docs/data-dictionary.md."""
    lines = [
        "# Data dictionary",
        "",
        f"<!-- Generated from pipeline/artifacts/*.py by `{COMMAND}`; do not edit. -->",
        "",
        f"Each edition's artifacts are written to `{DERIVED}/<edition>/`, except the "
        f"commonness, kept once per allowed list in `{DERIVED}/shared/<list>/`, and the "
        f"answers as played, `{DERIVED}/shared/history.parquet`. The column "
        "descriptions below are the ones each Parquet file carries in its field metadata and "
        "`datapackage.json` lists. "
        "How the values are computed is in [artifacts.md](artifacts.md).",
        "",
        "Every Parquet file is zstd-compressed and carries key-value metadata: "
        f"`{METADATA_PREFIX}inputs_sha256` (JSON, role -> sha256 of each input file), "
        f"`{METADATA_PREFIX}config` (JSON, the stage's settings) and "
        f"`{METADATA_PREFIX}version` (the package version).",
        "",
    ]
    for table in TABLES:
        lines += _table(table)
    lines += ["## Other files", "", "| file | what |", "| --- | --- |"]
    lines += [f"| `{name}` | {_cell(what)} |" for name, what in OTHER_FILES]
    return "\n".join(lines) + "\n"


def main() -> int:
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
