"""Rule play_strategy: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.play_strategy import play_strategy

run_stage(snakemake, play_strategy)  # noqa: F821 (snakemake is set by the script directive)
