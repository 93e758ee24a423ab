"""Rule summarize_benchmarks: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.summarize_benchmarks import summarize_benchmarks

run_stage(snakemake, summarize_benchmarks)  # noqa: F821 (snakemake is set by the script directive)
