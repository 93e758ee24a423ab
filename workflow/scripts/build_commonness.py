"""Rule build_commonness: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.build_commonness import build_commonness

run_stage(snakemake, build_commonness)  # noqa: F821 (snakemake is set by the script directive)
