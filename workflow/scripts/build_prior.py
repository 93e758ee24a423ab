"""Rule build_prior: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.build_prior import build_prior

run_stage(snakemake, build_prior)  # noqa: F821 (snakemake is set by the script directive)
