"""Rule merge_opener_rankings: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.merge_opener_rankings import merge_opener_rankings

run_stage(snakemake, merge_opener_rankings)  # noqa: F821 (snakemake is set by the script directive)
