# Input functions and the few helpers the rule files share. Every path comes from
# pipeline.artifacts.catalog; what is checked while the job graph is built, from pipeline.dag.

import json
import os

from pipeline import dag, scheduling
from pipeline.scheduling import PRIORITIES
from pipeline.analysis.optimal_tables import select_openers
from pipeline.analysis.play_units import needs_optimal, needs_rankings, needs_second_guesses
from pipeline.analysis.play_units import play_units
from pipeline.artifacts import catalog, seal
from pipeline.artifacts.datapackage import published_config
from pipeline.artifacts.openers import ranked_words
from pipeline.artifacts.patterns import MATRICES, chunk_count
from pipeline.core.errors import PipelineError
from pipeline.workflow_checks import stop

# The solver benchmark's units of work (one job each): unit id -> strategy and openers.
PLAY_UNITS = play_units(config["solver"]["strategies"], config["solver"]["openers_per_job"])


wildcard_constraints:
    source="|".join(catalog.SOURCES),
    matrix="|".join(MATRICES),
    chunk=r"\d\d\d\d+",
    part=r"\d+",
    unit="|".join(PLAY_UNITS),


def sealed(*paths):
    """Each file and its seal: rules declare both, so remote storage carries the seals."""
    return [name for path in paths for name in (path, str(seal.seal_path(path)))]


# Each job as one short line (Snakemake's listing of a job's files and reasons runs to
# thousands of characters).
JOB_MESSAGE = "{rule}: {output[0]}"


def code(module):
    """The rule's code version (an unnamed param): see pipeline.dag.code_version."""
    return dag.code_version(workflow.basedir, module)


# Threads and priorities: see pipeline.scheduling.
def part_threads():
    return scheduling.part_threads(workflow.cores, config["openers"]["parts"])


def unit_threads():
    return scheduling.unit_threads(workflow.cores, len(PLAY_UNITS))


def play_priority(wildcards):
    return scheduling.unit_priority(PLAY_UNITS[wildcards.unit]["strategy"])


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
    plays_optimal = any(needs_optimal(unit["strategy"]) for unit in PLAY_UNITS.values())
    return sealed(catalog.OPTIMAL_OPENERS) if plays_optimal else []


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
    return sealed(catalog.RAW.format(source=source))


def word_index():
    """The word index; it is a checkpoint, so this waits until it is built.

    Opened through Snakemake (IOFile.open): with a default storage provider the file and
    its seal live in the bucket, and their local copies may be gone in a later run. An
    index that is sealed but unreadable stops the run as one line (Snakemake shows an
    input function's error with a traceback), moved aside like any damaged file (not in
    a dry run), so the next run rebuilds it.
    """
    words, words_seal = checkpoints.build_word_index.get().output.words
    for file in (words, words_seal):
        with file.open("rb"):
            pass
    try:
        return dag.word_index(str(words))
    except PipelineError as error:
        problem = str(error).removesuffix(f"; {seal.REBUILD_HINT}")
        if not (workflow.is_main_process and os.path.isfile(words)):
            stop(f"wordle: {error}")
        if workflow.output_settings.dryrun:
            stop(f"wordle: {problem}; a run without -n moves it to {dag.quarantined(words)}")
        stop(f"wordle: {problem}; moved it to {dag.quarantine(words)}: run snakemake again")


def matrix_files(matrix):
    """The index and chunk files of one stored matrix; their number follows from the word
    index."""
    chunks = chunk_count(len(word_index().words), config["patterns"]["chunk_rows"])
    return catalog.matrix_files(matrix, chunks)


def get_pattern_chunks(wildcards):
    return sealed(*matrix_files(wildcards.matrix)[1:])


def get_answer_matrix(wildcards):
    return sealed(*matrix_files("patterns"))


def get_square_matrix(wildcards):
    """The stored square matrix when the config keeps one (else entropy streams it)."""
    return sealed(*matrix_files("patterns_square")) if config["patterns"]["square"] else []


def get_chunk_mem_mb(wildcards, attempt):
    return scheduling.chunk_mem_mb(word_index(), wildcards.matrix, config["patterns"], attempt)


def get_opener_parts():
    """The answers-mode part files (config openers.parts jobs) and the prior-mode part."""
    parts = range(config["openers"]["parts"])
    return sealed(*[catalog.ANSWERS_PART.format(part=part) for part in parts], catalog.PRIOR_PART)


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


def get_optimal_parts(pattern):
    """Input function: the `pattern` file (summary or tree part) of every optimal job."""

    def parts(wildcards):
        return sealed(*[pattern.format(mode=m, opener=o) for m, o in optimal_jobs()])

    return parts


def get_sealed_artifacts(wildcards):
    """Every published artifact, in the data package's order. A named optimal opener that
    is not a word of the index stops the run (one line naming config optimal.openers)
    here, where the index is first read, before any ranking or search."""
    try:
        select_openers(word_index().words, [], 0, config["optimal"]["openers"])
    except PipelineError as error:
        stop(str(error))
    square = ["patterns_square"] if config["patterns"]["square"] else []
    matrices = [path for matrix in ["patterns", *square] for path in matrix_files(matrix)]
    return sealed(*catalog.published(matrices))


def get_published_config():
    """The effective config for the descriptor, less where inputs were read from and how
    the work was split (so another split rebuilds nothing and changes no byte)."""
    return json.dumps(published_config(config), sort_keys=True)


def get_final_outputs():
    """The default target. openers.parquet is named here, not only behind the word index
    (the data package's inputs), so its checkpoint job is in the job graph from the start
    and the optimal jobs it decides are resolved in every run, not only the one that
    builds it."""
    return sealed(catalog.WORDS, catalog.COMMONNESS, catalog.OPENERS, catalog.DATAPACKAGE)
