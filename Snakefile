# Wordle data pipeline: word lists and frequencies in, versioned Parquet artifacts out.
# Thin on purpose: configuration, its validation, the rule files, the repair of damaged
# files and the default target. All computing lives in the `pipeline` package; see README.md.

import sys

from snakemake.utils import min_version

from pipeline.plan.config_checks import check_config
from pipeline.plan.repair import expected_artifacts, repair, workdir_locked

min_version("9.0")


configfile: "config.yaml"


# Completed from the schema's defaults and checked, before the first job: a bad value
# stops the run here as one line naming the key (pipeline.plan.config_checks).
check_config(config, workflow)


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
if workflow.is_main_process and not workdir_locked():
    expected = expected_artifacts(config)
    for line in repair(dry_run=workflow.output_settings.dryrun, expected=expected):
        print(line, file=sys.stderr)


rule all:
    default_target: True
    message:
        "all: every artifact and the data package"
    input:
        get_final_outputs(),
