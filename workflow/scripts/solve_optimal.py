"""Rule solve_optimal: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.solve_optimal import solve_optimal

run_stage(snakemake, solve_optimal)  # noqa: F821 (snakemake is set by the script directive)
