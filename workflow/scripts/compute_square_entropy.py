"""Rule compute_square_entropy: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.compute_square_entropy import compute_square_entropy

run_stage(snakemake, compute_square_entropy)  # noqa: F821 (snakemake is set by the script directive)
