"""Rule build_word_index: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.build_word_index import build_word_index

run_stage(snakemake, build_word_index)  # noqa: F821 (snakemake is set by the script directive)
