"""Rule rank_opener_part: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.rank_opener_part import rank_opener_part

run_stage(snakemake, rank_opener_part)  # noqa: F821 (snakemake is set by the script directive)
