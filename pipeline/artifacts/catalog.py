"""The workflow's files by name, once: the rules (workflow/rules/*.smk), the repair of
damaged files (pipeline.plan.repair) and the tests take every path from here.

Paths are relative to the working directory (see layout); the `{...}` fields of the
patterns are the rules' wildcards. Each edition's artifacts live in a folder of their own,
data/derived/<edition>/ (the `{edition}` field). What depends on an allowed list alone
(its commonness, its square entropy pass and its prior-mode opener ranking) is built once
for the editions that name that list, in data/derived/shared/<list>/ and
data/work/shared/<list>/ (the `{wordlist}` field); the data package is one for all.
The order of `published` is the order of the data package's resources.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.artifacts import (
    benchmark,
    benchmark_history,
    commonness,
    croissant,
    datapackage,
    dataset_card,
    duckdb_schema,
    entropy,
    history,
    layout,
    openers,
    optimal,
    prior,
    words,
)
from pipeline.artifacts.patterns import INDEX_FILE, chunk_name

# The raw inputs, one file per source of the config (word lists and frequency counts).
FREQUENCY = "frequency"
RAW = layout.raw("{source}")
ALLOWED_LIST = layout.raw("{wordlist}")  # the raw allowed list that shared work is built on
SHARED = "shared"  # the folder of what editions share (no edition may take this name)
COMMONNESS = layout.derived(f"{SHARED}/{{wordlist}}/{commonness.FILE}")
HISTORY_SOURCE = "history"  # the dated answers: a source an edition's answers may name
HISTORY = layout.derived(f"{SHARED}/{history.FILE}")  # every played day, for all editions


def _edition(name: str) -> str:
    return layout.derived(f"{{edition}}/{name}")


WORDS = _edition(words.FILE)
ENTROPY = _edition(entropy.ENTROPY_FILE)
PATTERN_DISTRIBUTION = _edition(entropy.DISTRIBUTION_FILE)
OPENERS = _edition(openers.OPENERS_FILE)
SECOND_GUESSES = _edition(openers.SECOND_GUESSES_FILE)
BENCHMARK_GAMES = _edition(benchmark.GAMES_FILE)
BENCHMARK_SUMMARY = _edition(benchmark.SUMMARY_FILE)
SCORE_MODEL = _edition(benchmark.SCORE_MODEL_FILE)
BENCHMARK_HISTORY = _edition(benchmark_history.FILE)  # the strategies on the played days
BENCHMARK_HISTORY_SUMMARY = _edition(benchmark_history.SUMMARY_FILE)
OPTIMAL_OPENERS = _edition(optimal.OPENERS_FILE)
OPTIMAL_TREES = _edition(optimal.TREES_FILE)
CROISSANT = _edition(croissant.FILE)  # the edition's tables as Croissant
HISTORY_PRIOR = _edition(prior.FILE)  # the answers' odds for the day after history.until
HISTORY_PRIOR_BACKTEST = _edition(prior.BACKTEST_FILE)
DATAPACKAGE = layout.derived(datapackage.FILE)  # one descriptor for every edition
DUCKDB_SCHEMA = layout.derived(duckdb_schema.FILE)  # every table as a commented view
DATASET_CARD = layout.derived(dataset_card.FILE)  # the Hugging Face dataset card
EDITIONS_TABLE = layout.derived("tables/editions.html")  # the editions side by side
# The report landing page's headline numbers (workflow/report/workflow.rst includes it).
HEADLINE = f"{layout.WORK}/report/headline.rst"

# A stored pattern matrix: its index and its chunks (chunk is chunk_name's number).
MATRIX_INDEX = _edition(f"{{matrix}}/{INDEX_FILE}")
MATRIX_CHUNK = _edition("{matrix}/chunk-{chunk}.npy.zst")

# Work files of an allowed list alone, shared by the editions that name it (data/work).
_SHARED_WORK = f"{layout.WORK}/{SHARED}/{{wordlist}}"
SQUARE_ENTROPY = f"{_SHARED_WORK}/{entropy.SQUARE_ENTROPY_FILE}"
PRIOR_PART = f"{_SHARED_WORK}/opener_parts/prior.parquet"  # the prior-mode ranking

# Parts merged into artifacts (data/work, not published).
_WORK = f"{layout.WORK}/{{edition}}"
ANSWERS_PART = f"{_WORK}/opener_parts/answers-{{part}}.parquet"
OPTIMAL_SUMMARY = f"{_WORK}/optimal/{{mode}}/{{batch}}.summary.parquet"
OPTIMAL_TREE = f"{_WORK}/optimal/{{mode}}/{{batch}}.tree.parquet"
BOUNDS_PART = f"{_WORK}/optimal/bounds/{{mode}}-{{part}}.parquet"
BOUNDS = f"{_WORK}/optimal/bounds-{{mode}}.parquet"
SCREEN_SUMMARY = f"{_WORK}/optimal/screen/{{mode}}-{{part}}.summary.parquet"
SCREEN_TREE = f"{_WORK}/optimal/screen/{{mode}}-{{part}}.tree.parquet"
GAMES = f"{_WORK}/games/{{unit}}.parquet"

# Where sealed files live: every seal under these folders is checked before a run.
SEALED_ROOTS = (layout.RAW, layout.DERIVED, layout.WORK)
# Each edition's artifacts of fixed name: one there without a seal is foreign.
EDITION_FILES = (
    WORDS, ENTROPY, PATTERN_DISTRIBUTION, OPENERS, SECOND_GUESSES,
    BENCHMARK_GAMES, BENCHMARK_SUMMARY, SCORE_MODEL, BENCHMARK_HISTORY,
    BENCHMARK_HISTORY_SUMMARY, OPTIMAL_OPENERS, OPTIMAL_TREES, CROISSANT, HISTORY_PRIOR,
    HISTORY_PRIOR_BACKTEST,
)  # fmt: skip


def expected(editions: Sequence[str], wordlists: Sequence[str]) -> list[str]:
    """The artifacts of fixed name of `editions`, and the shared ones (those of the
    allowed lists `wordlists`)."""
    per_edition = [path.format(edition=e) for e in editions for path in EDITION_FILES]
    shared = [COMMONNESS.format(wordlist=wordlist) for wordlist in wordlists]
    return [
        *shared,
        HISTORY,
        *per_edition,
        DATAPACKAGE,
        DUCKDB_SCHEMA,
        DATASET_CARD,
        EDITIONS_TABLE,
    ]


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
    "proven-openers": {
        "kind": "table",
        "inputs": [OPTIMAL_OPENERS],
        "category": "Openers",
        "label": "1. Proven openers, both modes (table)",
    },
    "top-openers": {
        "kind": "table",
        "inputs": [OPENERS, BENCHMARK_SUMMARY],
        "category": "Openers",
        "label": "2. Top 20 openers (table)",
    },
    "opener-benchmark": {
        "kind": "plot",
        "inputs": [BENCHMARK_SUMMARY],
        "category": "Openers",
        "label": "3. Opener benchmark (plot)",
    },
    "entropy-vs-commonness": {
        "kind": "plot",
        "inputs": [ENTROPY, COMMONNESS],
        "category": "Openers",
        "label": "4. Information vs commonness, all words (plot)",
    },
    "score-model": {
        "kind": "plot",
        "inputs": [SCORE_MODEL],
        "category": "Uncertainty map",
        "label": "1. Guesses left vs bits left (plot)",
    },
    "history-benchmark": {
        "kind": "plot",
        "inputs": [BENCHMARK_HISTORY_SUMMARY],
        "category": "Benchmark",
        "label": "3. The days the NYT played, per year (plot)",
    },
    "prior-backtest": {
        "kind": "table",
        "inputs": [HISTORY_PRIOR_BACKTEST, HISTORY_PRIOR],
        "category": "Odds",
        "label": "1. Today's odds and their backtest (table)",
    },
}


def report_item(name: str, edition: str = "{edition}") -> str:
    """A report item's file: plots are PNGs in plots/, tables HTML pages in tables/."""
    if REPORT_ITEMS[name]["kind"] == "plot":
        return layout.derived(f"{edition}/plots/{name}.png")
    return layout.derived(f"{edition}/tables/{name}.html")


def matrix_files(edition: str, matrix: str, chunks: int) -> list[str]:
    """Everything a reader of one stored matrix needs: its index and its `chunks` chunks."""
    folder = f"{edition}/{matrix}"
    chunk_files = [layout.derived(f"{folder}/{chunk_name(number)}") for number in range(chunks)]
    return [MATRIX_INDEX.format(edition=edition, matrix=matrix), *chunk_files]


def published(edition: str, matrices: Sequence[str]) -> list[str]:
    """Every published artifact of one edition in the data package's order, given the
    files of its stored matrices (see matrix_files)."""
    files = [
        WORDS,
        *matrices,
        ENTROPY,
        PATTERN_DISTRIBUTION,
        OPENERS,
        SECOND_GUESSES,
        BENCHMARK_GAMES,
        BENCHMARK_SUMMARY,
        SCORE_MODEL,
        BENCHMARK_HISTORY,
        BENCHMARK_HISTORY_SUMMARY,
        OPTIMAL_OPENERS,
        OPTIMAL_TREES,
        HISTORY_PRIOR,
        HISTORY_PRIOR_BACKTEST,
        *[report_item(name) for name in REPORT_ITEMS],
    ]
    return [path.format(edition=edition) for path in files]
