# Wordle data pipeline: word lists and frequencies in, versioned Parquet artifacts out.
# Thin on purpose: configuration, its validation, the rule files and the default target.
# All computing lives in the `pipeline` package; see README.md.

from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config.yaml"


validate(config, "workflow/schemas/config.schema.yaml")


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/download.smk"
include: "workflow/rules/words.smk"
include: "workflow/rules/commonness.smk"
include: "workflow/rules/patterns.smk"
include: "workflow/rules/entropy.smk"
include: "workflow/rules/openers.smk"
include: "workflow/rules/solver.smk"
include: "workflow/rules/publish.smk"


rule all:
    default_target: True
    input:
        get_final_outputs(),
