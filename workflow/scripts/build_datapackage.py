"""Rule build_datapackage: hands the job's named files, params and threads to its stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.build_datapackage import build_datapackage

run_stage(snakemake, build_datapackage)  # noqa: F821 (snakemake is set by the script directive)
