# Wordle data pipeline: word lists and frequencies in, versioned Parquet artifacts out.
# Thin on purpose: configuration, its validation, the rule files, the repair of damaged
# files and the default target. All computing lives in the `pipeline` package; see README.md.

import os
import sys

from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version, validate

from pipeline import dag
from pipeline.artifacts import catalog
from pipeline.editions import duplicate_edition, edition_problem, merge_editions
from pipeline.workflow_checks import (
    config_problem,
    duplicate_label,
    export_mirror,
    stop,
    unsolved_mode,
    whole_source_entries,
)

min_version("9.0")


configfile: "config.yaml"


# A source given with --config is one whole entry (see whole_source_entries).
whole_source_entries(config, workflow.config_settings.overwrite_config)

# Every value is typed and bounded by the schema, so a bad one stops the run here, before
# the first job, as one line naming the key (Snakemake's own message is a wall). The
# user's editions are merged over the built-in ones first (pipeline.editions).
SCHEMA = "workflow/schemas/config.schema.yaml"
if problem := duplicate_edition(workflow.configfiles):
    stop(problem)
merge_editions(config, os.path.join(workflow.basedir, SCHEMA))
try:
    validate(config, SCHEMA)
except WorkflowError as error:
    schema_file = os.path.join(workflow.basedir, SCHEMA)
    stop(config_problem(config, schema_file, shown=SCHEMA) or " ".join(str(error).split()))
if problem := duplicate_label(config) or unsolved_mode(config) or edition_problem(config):
    stop(problem)
export_mirror(config["mirror"])


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/download.smk"
include: "workflow/rules/words.smk"
include: "workflow/rules/commonness.smk"
include: "workflow/rules/patterns.smk"
include: "workflow/rules/entropy.smk"
include: "workflow/rules/openers.smk"
include: "workflow/rules/optimal.smk"
include: "workflow/rules/solver.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/publish.smk"


# A run moves every damaged, foreign or stale file aside, so it is rebuilt; a dry run only
# names them. Only the main process checks (cluster jobs parse this file again), and not
# while another run holds the working directory (its jobs may be writing).
if workflow.is_main_process and not dag.workdir_locked():
    allowed_lists = sorted({allowed_of(edition) for edition in EDITIONS})
    expected = catalog.expected(EDITIONS, allowed_lists)
    for line in dag.repair(dry_run=workflow.output_settings.dryrun, expected=expected):
        print(line, file=sys.stderr)


rule all:
    default_target: True
    message:
        "all: every artifact and the data package"
    input:
        get_final_outputs(),
