"""Rule merge_second_guesses: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.merge_second_guesses import merge_second_guesses

run_stage(snakemake, merge_second_guesses)  # noqa: F821 (snakemake is set by the script directive)
