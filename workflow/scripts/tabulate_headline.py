"""Rule tabulate_headline: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.tabulate_headline import tabulate_headline

run_stage(snakemake, tabulate_headline)  # noqa: F821 (snakemake is set by the script directive)
