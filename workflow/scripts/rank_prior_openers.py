"""Rule rank_prior_openers: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.rank_prior_openers import rank_prior_openers

run_stage(snakemake, rank_prior_openers)  # noqa: F821 (snakemake is set by the script directive)
