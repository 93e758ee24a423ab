"""Rule play_history: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.play_history import play_history

run_stage(snakemake, play_history)  # noqa: F821 (snakemake is set by the script directive)
