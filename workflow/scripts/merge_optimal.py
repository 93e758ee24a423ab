"""Rule merge_optimal: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.merge_optimal import merge_optimal

run_stage(snakemake, merge_optimal)  # noqa: F821 (snakemake is set by the script directive)
