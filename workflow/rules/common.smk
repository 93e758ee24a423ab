# Helpers and input functions shared by the rule files.

import json
import os
import sys
from functools import cache

from pipeline import dag
from pipeline.analysis.optimal_tables import select_openers
from pipeline.analysis.play_units import (
    needs_optimal,
    needs_rankings,
    needs_second_guesses,
    play_units,
    starts_first,
)
from pipeline.artifacts import layout, seal
from pipeline.artifacts.datapackage import published_config
from pipeline.artifacts.openers import ranked_words
from pipeline.artifacts.optimal import OPENERS_FILE as OPTIMAL_OPENERS_FILE
from pipeline.artifacts.optimal import TREES_FILE as OPTIMAL_TREES_FILE
from pipeline.artifacts.patterns import INDEX_FILE, MATRICES, chunk_count, chunk_name
from pipeline.artifacts.words import read_word_index
from pipeline.core.errors import PipelineError
from pipeline.core.wordle import pattern_dtype
from pipeline.sources.fetch import MIRROR_ENV, resolve_mirror
from pipeline.workflow_checks import stop

SOURCES = ("allowed", "answers", "frequency")

WORDS = layout.derived("words.parquet")
COMMONNESS = layout.derived("commonness.parquet")
ENTROPY = layout.derived("entropy.parquet")
PATTERN_DISTRIBUTION = layout.derived("pattern_distribution.parquet")
OPENERS = layout.derived("openers.parquet")
SECOND_GUESSES = layout.derived("second_guesses.parquet")
BENCHMARK_GAMES = layout.derived("benchmark_games.parquet")
BENCHMARK_SUMMARY = layout.derived("benchmark_summary.parquet")
SCORE_MODEL = layout.derived("score_model.parquet")
# Built by merge_optimal (workflow/rules/optimal.smk), the proven-optimal trees.
OPTIMAL_OPENERS = layout.derived(OPTIMAL_OPENERS_FILE)
OPTIMAL_TREES = layout.derived(OPTIMAL_TREES_FILE)
DATAPACKAGE = layout.derived("datapackage.json")

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


# The solver benchmark's units of work (one job each): unit id -> strategy and openers.
PLAY_UNITS = play_units(config["solver"]["strategies"], config["solver"]["openers_per_job"])


wildcard_constraints:
    source="|".join(SOURCES),
    matrix="|".join(MATRICES),
    chunk=r"\d\d\d\d+",
    part=r"\d+",
    unit="|".join(PLAY_UNITS),


def sealed(*paths):
    """Each file and its seal: rules declare both, so remote storage carries the seals."""
    return [name for path in paths for name in (path, str(seal.seal_path(path)))]


def code(module):
    """The source files a stage's job runs: its import closure (see pipeline.dag). They
    are local(): with a default storage provider they are read from the checkout, not
    looked for in the bucket."""
    return [local(path) for path in dag.code_inputs(workflow.basedir, module)]


# Snakemake starts the ready jobs of highest priority first (then those that fill the
# most cores). The chain that decides when today's stages end is the opener parts (the
# longest jobs), the ranking and the second-guess merge read from them, and the solver
# units that wait for those. The entropy map and the prior-opener ranking, which waits for
# it, run beside the parts and go first, so that the prior part is never the last. Of the
# solver units, those on that chain and the long one that is not (commonness) start before
# the others (see play_units.starts_first), never before a part; every other job fills the
# cores left over.
PRIORITIES = {
    "compute_entropy": 4,
    "rank_prior_openers": 3,
    "rank_opener_part": 2,
    "rank_openers": 2,
    "merge_second_guesses": 2,
    "play_strategy": 1,
}


def play_priority(wildcards):
    """A solver unit's priority: PRIORITIES["play_strategy"] if it starts first, else 0."""
    first = starts_first(PLAY_UNITS[wildcards.unit]["strategy"])
    return PRIORITIES["play_strategy"] if first else 0


def max_threads():
    """Threads of a job that can use every core it is given (capped by --cores)."""
    return workflow.cores if isinstance(workflow.cores, int) else 1


def part_threads():
    """Threads of each job that runs beside the opener ranking's parts (a part, the prior
    ranking, the entropy map): the cores shared by the parts and the prior job, at least
    one, so that all of them run at once. None of them asks for every core: it would
    wait until no part runs, and so lengthen the stage."""
    return max(1, max_threads() // (config["openers"]["parts"] + 1))


def plays_optimal():
    """Whether any configured strategy plays a stored optimal tree."""
    return any(needs_optimal(unit["strategy"]) for unit in PLAY_UNITS.values())


def get_unit_file(path, needs):
    """An input function: `path` (and its seal) for the solver units whose strategy
    `needs` it only (needs_rankings: the opener ranking; needs_optimal: the optimal
    files), so the other units start without waiting for the stage that writes it."""

    def inputs(wildcards):
        return sealed(path) if needs(PLAY_UNITS[wildcards.unit]["strategy"]) else []

    return inputs


def get_optimum_openers(wildcards):
    """optimal_openers.parquet for the summary's gaps, when an optimal strategy is played
    (then the optimal search runs anyway); otherwise the gaps are left empty."""
    return sealed(OPTIMAL_OPENERS) if plays_optimal() else []


def unit_threads():
    """Threads of one solver-benchmark unit: the cores shared by the units, at least one."""
    return max(1, max_threads() // len(PLAY_UNITS))


def export_mirror():
    """Hand the mirror folder to fetch jobs in WORDLE_MIRROR (which wins over the config key).

    Not a param on purpose: where bytes are read from (network, mirror, local copy) must
    never rerun anything; only the source entry and, when pinned, its sha256 do. Cluster
    jobs parse this file again with the same --config, so they export the same value.
    """
    mirror = resolve_mirror(config["mirror"])
    if mirror is not None:
        os.environ[MIRROR_ENV] = str(mirror)


export_mirror()


def get_source_spec(wildcards):
    return json.dumps(config["sources"][wildcards.source], sort_keys=True)


def get_local_source(wildcards):
    """The user's own file of a `kind: local` source: an input, so editing it reruns.
    A path that names no file is a bad config value, so it stops the run as one line."""
    spec = config["sources"][wildcards.source]
    if spec["kind"] != "local":
        return []
    if not os.path.isfile(spec["path"]):
        stop(f"config: sources.{wildcards.source}.path: {spec['path']} is not a file")
    return [local(spec["path"])]


def get_raw(source):
    return sealed(layout.raw(source))


def word_index():
    """The word index; it is a checkpoint, so this waits until it is built.

    Opened through Snakemake (IOFile.open): with a default storage provider the file and
    its seal live in the bucket, and their local copies may be gone in a later run. An
    index that is sealed but unreadable stops the run as one line (Snakemake shows an
    input function's error with a traceback), moved aside like any damaged file, so the
    next run rebuilds it.
    """
    words, words_seal = checkpoints.build_word_index.get().output.words
    for file in (words, words_seal):
        with file.open("rb"):
            pass
    try:
        return checked_word_index(str(words), file_versions(words, words_seal))
    except PipelineError as error:
        if not (workflow.is_main_process and os.path.isfile(words)):
            stop(f"wordle: {error}")
        problem = str(error).removesuffix(f"; {seal.REBUILD_HINT}")
        stop(f"wordle: {problem}; moved it to {dag.quarantine(words)}: run snakemake again")


def file_versions(*paths):
    """(mtime in ns, size) of each file: a rebuilt file is another version."""
    return tuple((os.stat(path).st_mtime_ns, os.stat(path).st_size) for path in paths)


@cache
def checked_word_index(path, versions):
    """read_word_index, once per version of the file and its seal: the input functions of
    about 70 jobs ask for it each time Snakemake updates the job graph (after each
    checkpoint, while the run waits), and reading and checking it takes about 8 ms."""
    return read_word_index(path)


def word_count():
    return len(word_index().words)


def pattern_chunks(matrix):
    """Chunk files of one matrix; their number follows from the word index."""
    count = chunk_count(word_count(), config["patterns"]["chunk_rows"])
    return [layout.derived(f"{matrix}/{chunk_name(number)}") for number in range(count)]


def get_pattern_chunks(wildcards):
    return sealed(*pattern_chunks(wildcards.matrix))


def pattern_files(matrix):
    """Everything a reader of one stored matrix needs: its index and all its chunks."""
    return [layout.derived(f"{matrix}/{INDEX_FILE}"), *pattern_chunks(matrix)]


def get_answer_matrix(wildcards):
    return sealed(*pattern_files("patterns"))


def get_square_matrix(wildcards):
    """The stored square matrix when the config keeps one (else entropy streams it)."""
    return sealed(*pattern_files("patterns_square")) if config["patterns"]["square"] else []


def get_chunk_mem_mb(wildcards, attempt):
    """Memory of one chunk job: interpreter and libraries, plus three copies of one chunk."""
    index = word_index()
    rows = min(config["patterns"]["chunk_rows"], len(index.words))
    columns = len(index.column_rows(MATRICES[wildcards.matrix]))
    return 200 * attempt + 3 * rows * columns * pattern_dtype(index.length).itemsize // 1_000_000


def get_opener_parts():
    """The answers-mode part files (config openers.parts jobs) and the prior-mode part."""
    answers = [
        f"{layout.WORK}/opener_parts/answers-{part}.parquet"
        for part in range(config["openers"]["parts"])
    ]
    return sealed(*answers, f"{layout.WORK}/opener_parts/prior.parquet")


def check_optimal_openers(index):
    """Stop (one line naming config optimal.openers) when a named opener is not a word of
    the word index: called where the index is first read, before any ranking or search."""
    try:
        select_openers(index.words, [], 0, config["optimal"]["openers"])
    except PipelineError as error:
        stop(str(error))


def optimal_jobs():
    """(mode, opener) of every solve_optimal job, modes in config order: the top of the
    answers-mode ranking, then the named openers. openers.parquet is a checkpoint, so this
    waits until it is built (see get_final_outputs); it is the only checkpoint asked
    here, and its answers mode lists every word of the index, best first."""
    settings = config["optimal"]
    openers, openers_seal = checkpoints.rank_openers.get().output.openers
    for file in (openers, openers_seal):
        with file.open("rb"):
            pass
    try:
        ranking = ranked_words(openers, "answers")
        chosen = select_openers(
            ranking, range(len(ranking)), settings["openers_top"], settings["openers"]
        )
    except PipelineError as error:
        stop(str(error) if str(error).startswith("config: ") else f"wordle: {error}")
    return [(mode, opener) for mode in settings["modes"] for opener in chosen]


def get_optimal_parts(kind):
    """Input function: the `kind` ("summary" or "tree") part of every optimal job."""

    def parts(wildcards):
        paths = [f"{layout.WORK}/optimal/{m}/{o}.{kind}.parquet" for m, o in optimal_jobs()]
        return sealed(*paths)

    return parts


def report_item_path(name):
    """Plots are PNGs in data/derived/plots, tables HTML pages in data/derived/tables."""
    if REPORT_ITEMS[name]["kind"] == "plot":
        return layout.derived(f"plots/{name}.png")
    return layout.derived(f"tables/{name}.html")


def stored_matrices():
    return ["patterns", "patterns_square"] if config["patterns"]["square"] else ["patterns"]


def get_artifacts(wildcards=None):
    """Every published artifact, in a fixed order (the data package lists them all)."""
    matrices = [path for matrix in stored_matrices() for path in pattern_files(matrix)]
    check_optimal_openers(word_index())
    report_items = [report_item_path(name) for name in REPORT_ITEMS]
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
        *report_items,
    ]


def get_sealed_artifacts(wildcards):
    return sealed(*get_artifacts())


def get_published_config():
    """The effective config for the descriptor, less where inputs were read from and how
    the work was split (so another split rebuilds nothing and changes no byte)."""
    return json.dumps(published_config(config), sort_keys=True)


def repair_damaged():
    """Move every damaged, foreign or stale file aside, so this run rebuilds it (see
    pipeline.dag). Only the main process checks, and not while another run holds the
    working directory; cluster jobs parse this file again and must not."""
    if not workflow.is_main_process or dag.workdir_locked():
        return
    expected = [WORDS, COMMONNESS, ENTROPY, PATTERN_DISTRIBUTION, OPENERS, SECOND_GUESSES]
    expected += [BENCHMARK_GAMES, BENCHMARK_SUMMARY, SCORE_MODEL, DATAPACKAGE]
    expected += [OPTIMAL_OPENERS, OPTIMAL_TREES]
    for line in dag.repair([layout.RAW, layout.DERIVED, layout.WORK], expected):
        print(line, file=sys.stderr)


repair_damaged()


def get_final_outputs():
    """The default target. openers.parquet is named here, not only behind the word index
    (the data package's inputs), so its checkpoint job is in the job graph from the start
    and the optimal jobs it decides are resolved in every run, not only the one that
    builds it."""
    return [*sealed(WORDS, COMMONNESS, OPENERS, DATAPACKAGE)]
