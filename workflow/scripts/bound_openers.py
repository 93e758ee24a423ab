"""Rule bound_openers: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.bound_openers import bound_openers

run_stage(snakemake, bound_openers)  # noqa: F821 (snakemake is set by the script directive)
