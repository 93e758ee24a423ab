"""Rule screen_openers: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.screen_openers import screen_openers

run_stage(snakemake, screen_openers)  # noqa: F821 (snakemake is set by the script directive)
