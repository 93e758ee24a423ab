# Input functions and the few helpers the rule files share. Every path comes from
# pipeline.artifacts.catalog; what is checked while the job graph is built, from pipeline.dag.

import json
import os

from snakemake.exceptions import IncompleteCheckpointException
from snakemake.io import checkpoint_target

from pipeline import dag, scheduling
from pipeline.scheduling import PRIORITIES
from pipeline.analysis.optimal_tables import select_openers
from pipeline.analysis.play_units import needs_optimal, needs_rankings, needs_second_guesses
from pipeline.analysis.play_units import play_units
from pipeline.artifacts import catalog, seal
from pipeline.artifacts.datapackage import published_config
from pipeline.artifacts.openers import ranked_words
from pipeline.artifacts.optimal import lowest_openers
from pipeline.artifacts.patterns import MATRICES, chunk_count
from pipeline.core.errors import PipelineError
from pipeline.editions import edition_settings, edition_sources, enabled_editions, list_sources
from pipeline.workflow_checks import stop

# The solver benchmark's units of work (one job each): unit id -> strategy and openers.
PLAY_UNITS = play_units(config["solver"]["strategies"], config["solver"]["openers_per_job"])
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
        if not needs(PLAY_UNITS[wildcards.unit]["strategy"]):
            return []
        return sealed(path.format(edition=wildcards.edition))

    return inputs


def get_played_file(path, needs):
    """An input function: `path` (and its seal) when some solver unit's strategy `needs`
    it (the history benchmark replays every strategy)."""

    def inputs(wildcards):
        if not any(needs(unit["strategy"]) for unit in PLAY_UNITS.values()):
            return []
        return sealed(path.format(edition=wildcards.edition))

    return inputs


def get_optimum_openers(wildcards):
    """optimal_openers.parquet for the summary's gaps, when an optimal strategy is played
    (then the optimal search runs anyway); otherwise the gaps are left empty."""
    plays_optimal = any(needs_optimal(unit["strategy"]) for unit in PLAY_UNITS.values())
    return sealed(catalog.OPTIMAL_OPENERS.format(edition=wildcards.edition)) if plays_optimal else []


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


def get_word_list(kind):
    """Input function: the raw word list `kind` (allowed or answers) of the edition, or
    the raw lists whose union it is."""

    def inputs(wildcards):
        names = list_sources(config["editions"][wildcards.edition], kind)
        return [path for name in names for path in get_raw(name)]

    return inputs


def history_until(wildcards):
    """history.until for an edition whose answers include the dated answers, else "", so
    changing it rebuilds only those editions."""
    uses = catalog.HISTORY_SOURCE in list_sources(config["editions"][wildcards.edition], "answers")
    return config["history"]["until"] if uses else ""


def allowed_of(edition):
    """The source name of the edition's allowed list (the `wordlist` of what it shares)."""
    return config["editions"][edition]["allowed"]


def commonness_of(edition):
    """The commonness of the edition's allowed list (shared by the editions naming it)."""
    return catalog.COMMONNESS.format(wordlist=allowed_of(edition))


def get_commonness(wildcards):
    return sealed(commonness_of(wildcards.edition))


def get_square_entropy(wildcards):
    return sealed(catalog.SQUARE_ENTROPY.format(wordlist=allowed_of(wildcards.edition)))


def get_edition_files(paths):
    """Input function: `paths` (and their seals) of the job's edition: its own files, and
    the shared ones of its allowed list (the `wordlist` field)."""

    def inputs(wildcards):
        fields = {"edition": wildcards.edition, "wordlist": allowed_of(wildcards.edition)}
        return sealed(*[path.format(**fields) for path in paths])

    return inputs


def word_index(edition):
    """The word index; it is a checkpoint, so this waits until it is built.

    Opened through Snakemake (IOFile.open): with a default storage provider the file and
    its seal live in the bucket, and their local copies may be gone in a later run. An
    index that is sealed but unreadable stops the run as one line (Snakemake shows an
    input function's error with a traceback), moved aside like any damaged file (not in
    a dry run), so the next run rebuilds it.
    """
    words, words_seal = checkpoints.build_word_index.get(edition=edition).output.words
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


def matrix_files(edition, matrix):
    """The index and chunk files of one stored matrix; their number follows from the word
    index."""
    chunks = chunk_count(len(word_index(edition).words), config["patterns"]["chunk_rows"])
    return catalog.matrix_files(edition, matrix, chunks)


def get_pattern_chunks(wildcards):
    return sealed(*matrix_files(wildcards.edition, wildcards.matrix)[1:])


def get_answer_matrix(wildcards):
    return sealed(*matrix_files(wildcards.edition, "patterns"))


def get_chunk_mem_mb(wildcards, attempt):
    index = word_index(wildcards.edition)
    return scheduling.chunk_mem_mb(index, wildcards.matrix, config["patterns"], attempt)


def get_opener_parts(wildcards):
    """The edition's answers-mode part files (config openers.parts jobs) and the
    prior-mode part of its allowed list."""
    parts = [
        catalog.ANSWERS_PART.format(edition=wildcards.edition, part=part)
        for part in range(config["openers"]["parts"])
    ]
    return sealed(*parts, catalog.PRIOR_PART.format(wordlist=allowed_of(wildcards.edition)))


def checkpoint_output(checkpoint, name, **wildcards):
    """The sealed output `name` of a checkpoint job, once it is built for this run.

    Snakemake counts a checkpoint's output that exists when the run starts as built. A
    config change on a built folder (optimal.max_guesses, say) reruns the jobs that output
    was built from, so it turns stale while this run is rebuilding it; read then, it
    would fail its seal inside an input function, which Snakemake shows with a traceback.
    A stale output, or one the rerun has removed before rebuilding it, is therefore a
    checkpoint not done yet: Snakemake waits for its job and asks again.
    """
    path, path_seal = getattr(checkpoint.get(**wildcards).output, name)
    not_done = IncompleteCheckpointException(checkpoint.rule, checkpoint_target(path))
    for file in (path, path_seal):
        if not file.is_storage and not os.path.exists(file):
            raise not_done
        with file.open("rb"):  # Snakemake fetches it first from remote storage, if any
            pass
    if dag.is_stale(path):
        raise not_done
    return path


def first_jobs(edition):
    """(mode, opener) of the solve_optimal jobs that come first: the top of the
    answers-mode ranking, then the named openers, in every mode (config order).
    openers.parquet is a checkpoint, so this waits until it is built (see
    get_final_outputs); its answers mode lists every word of the index, best first."""
    settings = edition_settings(config, edition, "optimal")
    openers = checkpoint_output(checkpoints.rank_openers, "openers", edition=edition)
    try:
        ranking = ranked_words(openers, "answers")
        chosen = select_openers(ranking, range(len(ranking)), settings["top"], settings["openers"])
    except PipelineError as error:
        stop(edition_error(edition, error))
    return [(mode, opener) for mode in settings["modes"] for opener in chosen]


def optimal_jobs(edition):
    """(mode, opener) of every solve_optimal job: the first ones and, when the edition
    certifies its top list, per mode the top-K openers by lower bound not among them (the
    merge_bounds checkpoint of the mode)."""
    jobs = first_jobs(edition)
    settings = edition_settings(config, edition, "optimal")
    if not settings["certify"]:
        return jobs
    for mode in settings["modes"]:
        bounds = checkpoint_output(checkpoints.merge_bounds, "bounds", edition=edition, mode=mode)
        proven = {opener for m, opener in jobs if m == mode}
        try:
            chosen = lowest_openers(bounds, proven, settings["top"])
        except PipelineError as error:
            stop(edition_error(edition, error))
        jobs += [(mode, opener) for opener in chosen]
    return jobs


def edition_error(edition, error):
    """A PipelineError as one line; a config problem names the edition's own key when
    the edition sets optimal itself."""
    text = str(error)
    if not text.startswith("config: "):
        return f"wordle: {text}"
    if "optimal" in config["editions"][edition]:
        return text.replace("config: optimal.", f"config: editions.{edition}.optimal.", 1)
    return text


def get_first_parts(wildcards):
    """The summary parts of the first solve_optimal jobs (bound_openers' cap)."""
    jobs = first_jobs(wildcards.edition)
    return sealed(*[catalog.OPTIMAL_SUMMARY.format(edition=wildcards.edition, mode=m, opener=o)
                    for m, o in jobs])  # fmt: skip


def get_bound_parts(wildcards):
    count = config["optimal"]["screen_parts"]
    return sealed(*[catalog.BOUNDS_PART.format(edition=wildcards.edition, mode=wildcards.mode,
                                               part=p) for p in range(count)])  # fmt: skip


def get_optimal_parts(pattern):
    """Input function: the `pattern` file (summary or tree part) of every optimal job."""

    def parts(wildcards):
        jobs = optimal_jobs(wildcards.edition)
        return sealed(*[pattern.format(edition=wildcards.edition, mode=m, opener=o) for m, o in jobs])

    return parts


def optimal_setting(edition, key):
    """The edition's value of optimal.<key>."""
    return edition_settings(config, edition, "optimal")[key]


def get_screen_parts(pattern):
    """Input function: the `pattern` file of every screen job of the edition (none when it
    does not certify its top list)."""

    def parts(wildcards):
        edition = wildcards.edition
        if not optimal_setting(edition, "certify"):
            return []
        modes = optimal_setting(edition, "modes")
        count = config["optimal"]["screen_parts"]
        files = [pattern.format(edition=edition, mode=m, part=p) for m in modes for p in range(count)]
        return sealed(*files)

    return parts


def edition_artifacts(edition):
    """Every published artifact of an edition, in the data package's order. A named
    optimal opener that is not a word of the index, or an optimal.top above its number of
    words, stops the run (one line naming the config key) here, where the index is first
    read, before any ranking or search."""
    try:
        settings = edition_settings(config, edition, "optimal")
        select_openers(word_index(edition).words, [], settings["top"], settings["openers"])
    except PipelineError as error:
        stop(edition_error(edition, error))
    square = ["patterns_square"] if config["patterns"]["square"] else []
    matrices = [path for matrix in ["patterns", *square] for path in matrix_files(edition, matrix)]
    return catalog.published(edition, matrices)


def get_sealed_artifacts(wildcards):
    """Every published artifact: the shared ones, every enabled edition's, and the
    editions table."""
    editions = enabled_editions(config)
    shared = list(dict.fromkeys(commonness_of(edition) for edition in editions))
    files = [path for edition in editions for path in edition_artifacts(edition)]
    return sealed(*shared, catalog.HISTORY, *files, catalog.EDITIONS_TABLE)


def expand_editions(path):
    """`path` (and its seal) of every enabled edition, oldest first."""
    return sealed(*[path.format(edition=edition) for edition in enabled_editions(config)])


def get_edition_raw(wildcards):
    """The raw inputs of the enabled editions, each once."""
    return sealed(*[catalog.RAW.format(source=s) for s in edition_sources(config)])


def get_published_config():
    """The effective config for the descriptor, less where inputs were read from and how
    the work was split (so another split rebuilds nothing and changes no byte)."""
    return json.dumps(published_config(config), sort_keys=True)


def get_final_outputs():
    """The default target. openers.parquet is named here, not only behind the word index
    (the data package's inputs), so its checkpoint job is in the job graph from the start
    and the optimal jobs it decides are resolved in every run, not only the one that
    builds it. The report's headline is built too, so `--report` needs no other run."""
    per_edition = [catalog.WORDS, catalog.OPENERS]
    files = [path.format(edition=e) for e in enabled_editions(config) for path in per_edition]
    return sealed(*files, catalog.DATAPACKAGE, catalog.HEADLINE)
