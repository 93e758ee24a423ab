"""Rule compute_pattern_chunk: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.compute_pattern_chunk import compute_pattern_chunk

run_stage(snakemake, compute_pattern_chunk)  # noqa: F821 (snakemake is set by the script directive)
