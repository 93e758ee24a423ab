"""Rule merge_bounds: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.merge_bounds import merge_bounds

run_stage(snakemake, merge_bounds)  # noqa: F821 (snakemake is set by the script directive)
