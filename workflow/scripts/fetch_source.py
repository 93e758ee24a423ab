"""Rule fetch_source: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.fetch_source import fetch_source

run_stage(snakemake, fetch_source)  # noqa: F821 (snakemake is set by the script directive)
