# Helpers and input functions shared by the rule files.

import json
import os
import shlex
import sys

import pyarrow.parquet as pq

from pipeline.matrix import chunk_count, column_rows
from pipeline.patterns import pattern_dtype
from pipeline.sources import MIRROR_ENV, resolve_mirror, source_fingerprint
from pipeline.words import load_word_index

# Rules run the `wordle-pipeline` command of the environment that runs Snakemake, so they
# work without an activated virtual environment (also inside cluster jobs, which start
# Snakemake from the same environment).
shell.prefix(
    f"set -euo pipefail; export PATH={shlex.quote(os.path.dirname(sys.executable))}:\"$PATH\"; "
)

SOURCES = ("allowed", "answers", "frequency")

WORDS = "data/derived/words.parquet"
COMMONNESS = "data/derived/commonness.parquet"
ENTROPY = "data/derived/entropy.parquet"
PATTERN_DISTRIBUTION = "data/derived/pattern_distribution.parquet"
OPENERS = "data/derived/openers.parquet"
SECOND_GUESSES = "data/derived/second_guesses.parquet"
BENCHMARK_GAMES = "data/derived/benchmark_games.parquet"
BENCHMARK_SUMMARY = "data/derived/benchmark_summary.parquet"
SCORE_MODEL = "data/derived/score_model.parquet"
MANIFEST = "data/derived/manifest.json"

# Plots of the Snakemake report -> the artifacts each is drawn from.
PLOTS = {
    "guess-distribution": [BENCHMARK_SUMMARY],
    "opener-benchmark": [BENCHMARK_SUMMARY],
    "score-model": [SCORE_MODEL],
    "entropy-vs-commonness": [ENTROPY, COMMONNESS],
}

# Pattern matrices: directory name -> what the columns are.
PATTERN_MATRICES = {"patterns": "answers", "patterns_square": "guesses"}


wildcard_constraints:
    source="|".join(SOURCES),
    matrix="|".join(PATTERN_MATRICES),
    chunk=r"\d\d\d\d+",
    plot="|".join(PLOTS),
    part=r"\d+",


def pipeline_code(*modules):
    """Source files of the pipeline modules a rule runs, listed as its inputs.

    Snakemake does not look inside an installed package; with these as inputs, editing
    a module reruns exactly the rules that use it.
    """
    package = os.path.join(workflow.basedir, "pipeline")
    return [
        os.path.join(package, f"{module}.py")
        for module in ("__init__", "errors", "files", *modules)
    ]


def export_mirror():
    """Hand the mirror folder to fetch jobs in WORDLE_MIRROR (which wins over the config key).

    Not a param on purpose: only what the bytes are may rerun anything (see
    get_source_fingerprint), never where they were read from. Cluster jobs parse this
    file again with the same --config, so they export the same value.
    """
    mirror = resolve_mirror(config["mirror"])
    if mirror is not None:
        os.environ[MIRROR_ENV] = str(mirror)


export_mirror()


def get_source_spec(wildcards):
    return json.dumps(config["sources"][wildcards.source], sort_keys=True)


def get_source_fingerprint(wildcards):
    """Changes exactly when the bytes to read change, so a touched file reruns nothing."""
    return source_fingerprint(config["sources"][wildcards.source], resolve_mirror(config["mirror"]))


def get_raw(source):
    return f"data/raw/{source}.txt"


def pattern_chunks(matrix):
    """Chunk files of one matrix; their number follows from the word index (a checkpoint)."""
    words = checkpoints.build_word_index.get().output.words
    rows = pq.read_metadata(words).num_rows
    count = chunk_count(rows, config["patterns"]["chunk_rows"])
    return [f"data/derived/{matrix}/chunk-{number:04d}.npy.zst" for number in range(count)]


def get_pattern_chunks(wildcards):
    return pattern_chunks(wildcards.matrix)


def pattern_files(matrix):
    """Everything a reader of one stored matrix needs: its index and all its chunks."""
    return [f"data/derived/{matrix}/index.json", *pattern_chunks(matrix)]


def get_chunk_mem_mb(wildcards, attempt):
    """Memory of one chunk job: interpreter and libraries, plus three copies of one chunk.

    Chunk jobs follow the word index checkpoint, so the index exists when this is asked.
    """
    index = load_word_index(WORDS)
    rows = min(config["patterns"]["chunk_rows"], len(index.words))
    columns = len(column_rows(index, PATTERN_MATRICES[wildcards.matrix]))
    chunk_bytes = rows * columns * pattern_dtype(index.length).itemsize
    return 200 * attempt + 3 * chunk_bytes // 1_000_000


def get_square_pattern_files(wildcards):
    """The stored square matrix when the config keeps one (else entropy streams it)."""
    return pattern_files("patterns_square") if config["patterns"]["square"] else []


def get_opener_parts():
    """The answers-mode part files (config openers.parts jobs) and the prior-mode part."""
    answers = [
        f"data/work/opener_parts/answers-{part}.parquet"
        for part in range(config["openers"]["parts"])
    ]
    return [*answers, "data/work/opener_parts/prior.parquet"]


def get_plot_inputs(wildcards):
    return PLOTS[wildcards.plot]


def stored_matrices():
    return ["patterns", "patterns_square"] if config["patterns"]["square"] else ["patterns"]


def get_artifacts(wildcards=None):
    """Every published artifact, in a fixed order (the manifest lists them all)."""
    matrices = [path for matrix in stored_matrices() for path in pattern_files(matrix)]
    plots = [f"data/derived/plots/{plot}.png" for plot in PLOTS]
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
        *plots,
    ]


def get_manifest_config():
    """The effective config for the manifest, less where inputs were read from."""
    return json.dumps({k: v for k, v in config.items() if k != "mirror"}, sort_keys=True)


def get_final_outputs():
    return [WORDS, COMMONNESS, MANIFEST]
