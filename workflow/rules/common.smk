# Helpers and input functions shared by the rule files.

import json
import os
import shlex
import sys

import pyarrow.parquet as pq

from pipeline.matrix import chunk_count, column_rows
from pipeline.patterns import pattern_dtype
from pipeline.sources import resolve_mirror, source_fingerprint
from pipeline.words import load_word_index

# The command every rule runs: the `pipeline` CLI of the Python that runs Snakemake, so
# the rules work without an activated virtual environment.
PIPELINE = f"{shlex.quote(sys.executable)} -m pipeline.cli"

SOURCES = ("allowed", "answers", "frequency")

WORDS = "data/derived/words.parquet"
COMMONNESS = "data/derived/commonness.parquet"

# Pattern matrices: directory name -> what the columns are.
PATTERN_MATRICES = {"patterns": "answers", "patterns_square": "guesses"}


wildcard_constraints:
    source="|".join(SOURCES),
    matrix="|".join(PATTERN_MATRICES),
    chunk=r"\d\d\d\d+",


def pipeline_code(*modules):
    """Source files of the pipeline modules a rule runs, listed as its inputs.

    Snakemake does not look inside an installed package; with these as inputs, editing
    a module reruns exactly the rules that use it.
    """
    return [f"pipeline/{module}.py" for module in ("__init__", "errors", "files", *modules)]


def get_mirror():
    """The mirror folder: WORDLE_MIRROR when set, else the config key `mirror`.

    Not a rule param: where the bytes come from does not matter, only what they are
    (see get_source_fingerprint).
    """
    mirror = resolve_mirror(config["mirror"])
    return "" if mirror is None else str(mirror)


MIRROR = get_mirror()


def get_source_spec(wildcards):
    return json.dumps(config["sources"][wildcards.source], sort_keys=True)


def get_source_fingerprint(wildcards):
    """Changes exactly when the bytes to read change, so a touched file reruns nothing."""
    return source_fingerprint(config["sources"][wildcards.source], resolve_mirror(config["mirror"]))


def get_raw(source):
    return f"data/raw/{source}.txt"


def get_pattern_chunks(wildcards):
    """Chunk files of one matrix; their number follows from the word index (a checkpoint)."""
    words = checkpoints.build_word_index.get().output.words
    rows = pq.read_metadata(words).num_rows
    count = chunk_count(rows, config["patterns"]["chunk_rows"])
    return [
        f"data/derived/{wildcards.matrix}/chunk-{number:04d}.npy.zst" for number in range(count)
    ]


def get_chunk_mem_mb(wildcards, attempt):
    """Memory of one chunk job: interpreter and libraries, plus three copies of one chunk.

    Chunk jobs follow the word index checkpoint, so the index exists when this is asked.
    """
    index = load_word_index(WORDS)
    rows = min(config["patterns"]["chunk_rows"], len(index.words))
    columns = len(column_rows(index, PATTERN_MATRICES[wildcards.matrix]))
    chunk_bytes = rows * columns * pattern_dtype(index.length).itemsize
    return 200 * attempt + 3 * chunk_bytes // 1_000_000


def get_pattern_indexes():
    names = ["patterns", "patterns_square"] if config["patterns"]["square"] else ["patterns"]
    return [f"data/derived/{name}/index.json" for name in names]


def get_final_outputs():
    return [WORDS, COMMONNESS, *get_pattern_indexes()]
