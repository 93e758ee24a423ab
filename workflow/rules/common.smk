# Snakemake's glue to pipeline.plan: the wildcards, each job's message, code version and
# threads, and the input functions, each a method of pipeline.plan.inputs.Inputs (which
# says what a job reads, by the config and the checkpoints).

from pipeline.analysis.benchmark.units import needs_optimal, needs_rankings, needs_second_guesses
from pipeline.artifacts import catalog, seal
from pipeline.artifacts.patterns import MATRICES
from pipeline.plan import scheduling
from pipeline.plan.code_version import PACKAGE_ROOT, code_version
from pipeline.plan.editions import enabled_editions
from pipeline.plan.inputs import Inputs, sealed
from pipeline.plan.scheduling import PRIORITIES

PLAN = Inputs(config, workflow, checkpoints)
# The solver benchmark's units of work (one job each): unit id -> strategy and openers.
PLAY_UNITS = PLAN.units
# Every defined edition has rules (a disabled one is just not in the default target).
EDITIONS = list(config["editions"])


wildcard_constraints:
    edition="|".join(EDITIONS),
    source="|".join(config["sources"]),
    wordlist="|".join(config["sources"]),
    matrix="|".join(MATRICES),
    chunk=r"\d\d\d\d+",
    part=r"\d+",
    unit="|".join(PLAY_UNITS),


# Each job as one short line (Snakemake's listing of a job's files and reasons runs to
# thousands of characters).
JOB_MESSAGE = "{rule}: {output[0]}"


def code(module):
    """The rule's code version (an unnamed param), from the installed package's source
    (also when this workflow is a module of another): see pipeline.plan.code_version."""
    return code_version(PACKAGE_ROOT, module)


# Threads, priorities and memory: see pipeline.plan.scheduling.
def part_threads():
    return scheduling.part_threads(workflow.cores, config["openers"]["parts"])


def bound_threads():
    return scheduling.max_threads(workflow.cores)


def unit_threads():
    return scheduling.unit_threads(workflow.cores, len(PLAY_UNITS))


def play_priority(wildcards):
    return scheduling.unit_priority(PLAY_UNITS[wildcards.unit]["strategy"])


def get_chunk_mem_mb(wildcards, attempt):
    index = PLAN.word_index(wildcards.edition)
    return scheduling.chunk_mem_mb(index, wildcards.matrix, config["patterns"], attempt)


def get_local_source(wildcards):
    """The user's own file of a `kind: local` source, never fetched from storage."""
    return [local(path) for path in PLAN.local_source(wildcards)]


# Input functions and computed params (pipeline.plan.inputs).
get_source_spec = PLAN.source_spec
get_raw = PLAN.raw
get_word_list = PLAN.word_list
get_edition_raw = PLAN.edition_raw
history_until = PLAN.history_until
get_commonness = PLAN.commonness
get_square_entropy = PLAN.square_entropy
get_edition_files = PLAN.edition_files
get_opener_parts = PLAN.opener_parts
get_pattern_chunks = PLAN.pattern_chunks
get_answer_matrix = PLAN.answer_matrix
get_unit_file = PLAN.unit_file
get_played_file = PLAN.played_file
get_optimum_openers = PLAN.optimum_openers
get_first_parts = PLAN.first_parts
get_bound_parts = PLAN.bound_parts
get_optimal_parts = PLAN.optimal_parts
get_batch_openers = PLAN.batch_openers
get_screen_parts = PLAN.screen_parts
get_merged_bounds = PLAN.merged_bounds
get_optimal_setting = PLAN.optimal_param
get_sealed_artifacts = PLAN.sealed_artifacts
expand_editions = PLAN.expand_editions
get_published_config = PLAN.published_config
get_final_outputs = PLAN.final_outputs
