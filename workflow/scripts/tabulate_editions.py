"""Rule tabulate_editions: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.tabulate_editions import tabulate_editions

run_stage(snakemake, tabulate_editions)  # noqa: F821 (snakemake is set by the script directive)
