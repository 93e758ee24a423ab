"""Rule rank_openers: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.rank_openers import rank_openers

run_stage(snakemake, rank_openers)  # noqa: F821 (snakemake is set by the script directive)
