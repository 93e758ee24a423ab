"""The workflow's files by name, once: the rules (workflow/rules/*.smk), the repair of
damaged files (pipeline.dag) and the tests take every path from here.

Paths are relative to the working directory (see layout); the `{...}` fields of the
patterns are the rules' wildcards. The order of `published` is the order of the data
package's resources.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.artifacts import (
    benchmark,
    commonness,
    datapackage,
    entropy,
    layout,
    openers,
    optimal,
    words,
)
from pipeline.artifacts.patterns import INDEX_FILE, chunk_name

SOURCES = ("allowed", "answers", "frequency")  # the raw inputs
RAW = layout.raw("{source}")

WORDS = layout.derived(words.FILE)
COMMONNESS = layout.derived(commonness.FILE)
ENTROPY = layout.derived(entropy.ENTROPY_FILE)
PATTERN_DISTRIBUTION = layout.derived(entropy.DISTRIBUTION_FILE)
OPENERS = layout.derived(openers.OPENERS_FILE)
SECOND_GUESSES = layout.derived(openers.SECOND_GUESSES_FILE)
BENCHMARK_GAMES = layout.derived(benchmark.GAMES_FILE)
BENCHMARK_SUMMARY = layout.derived(benchmark.SUMMARY_FILE)
SCORE_MODEL = layout.derived(benchmark.SCORE_MODEL_FILE)
OPTIMAL_OPENERS = layout.derived(optimal.OPENERS_FILE)
OPTIMAL_TREES = layout.derived(optimal.TREES_FILE)
DATAPACKAGE = layout.derived(datapackage.FILE)

# A stored pattern matrix: its index and its chunks (chunk is chunk_name's number).
MATRIX_INDEX = layout.derived(f"{{matrix}}/{INDEX_FILE}")
MATRIX_CHUNK = layout.derived("{matrix}/chunk-{chunk}.npy.zst")

# Parts merged into artifacts (data/work, not published).
ANSWERS_PART = f"{layout.WORK}/opener_parts/answers-{{part}}.parquet"
PRIOR_PART = f"{layout.WORK}/opener_parts/prior.parquet"
OPTIMAL_SUMMARY = f"{layout.WORK}/optimal/{{mode}}/{{opener}}.summary.parquet"
OPTIMAL_TREE = f"{layout.WORK}/optimal/{{mode}}/{{opener}}.tree.parquet"
GAMES = f"{layout.WORK}/games/{{unit}}.parquet"

# Where sealed files live: every seal under these folders is checked before a run.
SEALED_ROOTS = (layout.RAW, layout.DERIVED, layout.WORK)
# The artifacts of fixed name: one there without a seal is foreign.
EXPECTED = (
    WORDS, COMMONNESS, ENTROPY, PATTERN_DISTRIBUTION, OPENERS, SECOND_GUESSES,
    BENCHMARK_GAMES, BENCHMARK_SUMMARY, SCORE_MODEL, DATAPACKAGE, OPTIMAL_OPENERS,
    OPTIMAL_TREES,
)  # fmt: skip

# Items of the Snakemake report: name -> what it is (a plot or a table), the artifacts it
# is drawn from, its report category and its label (numbered in reading order). Each has
# its own rule (workflow/rules/report.smk) and caption (workflow/report/<name>.rst).
REPORT_ITEMS = {
    "benchmark-summary": {
        "kind": "table",
        "inputs": [BENCHMARK_SUMMARY],
        "category": "Benchmark",
        "label": "1. Benchmark summary (table)",
    },
    "guess-distribution": {
        "kind": "plot",
        "inputs": [BENCHMARK_SUMMARY],
        "category": "Benchmark",
        "label": "2. Guess counts per strategy (plot)",
    },
    "top-openers": {
        "kind": "table",
        "inputs": [OPENERS, BENCHMARK_SUMMARY],
        "category": "Openers",
        "label": "1. Top 20 openers (table)",
    },
    "opener-benchmark": {
        "kind": "plot",
        "inputs": [BENCHMARK_SUMMARY],
        "category": "Openers",
        "label": "2. Opener benchmark (plot)",
    },
    "entropy-vs-commonness": {
        "kind": "plot",
        "inputs": [ENTROPY, COMMONNESS],
        "category": "Openers",
        "label": "3. Information vs commonness, all words (plot)",
    },
    "score-model": {
        "kind": "plot",
        "inputs": [SCORE_MODEL],
        "category": "Uncertainty map",
        "label": "1. Guesses left vs bits left (plot)",
    },
}


def report_item(name: str) -> str:
    """A report item's file: plots are PNGs in plots/, tables HTML pages in tables/."""
    if REPORT_ITEMS[name]["kind"] == "plot":
        return layout.derived(f"plots/{name}.png")
    return layout.derived(f"tables/{name}.html")


def matrix_files(matrix: str, chunks: int) -> list[str]:
    """Everything a reader of one stored matrix needs: its index and its `chunks` chunks."""
    chunk_files = [layout.derived(f"{matrix}/{chunk_name(number)}") for number in range(chunks)]
    return [MATRIX_INDEX.format(matrix=matrix), *chunk_files]


def published(matrices: Sequence[str]) -> list[str]:
    """Every published artifact in the data package's order, given the files of the stored
    matrices (see matrix_files)."""
    return [
        WORDS,
        COMMONNESS,
        *matrices,
        ENTROPY,
        PATTERN_DISTRIBUTION,
        OPENERS,
        SECOND_GUESSES,
        BENCHMARK_GAMES,
        BENCHMARK_SUMMARY,
        SCORE_MODEL,
        OPTIMAL_OPENERS,
        OPTIMAL_TREES,
        *[report_item(name) for name in REPORT_ITEMS],
    ]
