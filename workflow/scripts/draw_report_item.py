"""Rules draw_* and tabulate_*: hand the job's named files and params to the stage."""

from pipeline.stages.adapter import run_stage
from pipeline.stages.draw_report_item import draw_report_item

run_stage(snakemake, draw_report_item)  # noqa: F821 (snakemake is set by the script directive)
