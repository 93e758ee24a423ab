"""Rule index_pattern_chunks: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.index_pattern_chunks import index_pattern_chunks

run_stage(snakemake, index_pattern_chunks)  # noqa: F821 (snakemake is set by the script directive)
