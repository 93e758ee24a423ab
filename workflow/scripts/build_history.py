"""Rule build_history: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.build_history import build_history

run_stage(snakemake, build_history)  # noqa: F821 (snakemake is set by the script directive)
