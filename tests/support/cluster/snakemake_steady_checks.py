"""`python -m snakemake`, but the SLURM plugin checks its jobs' status at a steady pace.

After every check that finds no job finished, the plugin waits 10 s longer before the next
(up to 180 s), which suits a busy cluster whose jobs take hours. The test cluster's jobs
take seconds, so each of the fixture's few dozen steps waited up to 20 s past its end:
here the wait never grows past the first one (--slurm-init-seconds-before-status-checks).
Run as a script (its folder, not the repository, goes on sys.path).
"""

from __future__ import annotations

from snakemake.cli import main
from snakemake_executor_plugin_slurm import Executor


def steady(executor: Executor, seconds: float) -> None:
    """The setter the plugin calls with each longer wait: keep the first wait instead."""
    wait = min(seconds, executor.workflow.executor_settings.init_seconds_before_status_checks)
    executor._next_seconds_between_status_checks = wait
    if executor.next_seconds_between_status_checks != wait:
        # the plugin's getter reads another attribute now: fail, rather than be slow
        raise RuntimeError("snakemake_steady_checks: the SLURM plugin's wait is stored elsewhere")


Executor.next_seconds_between_status_checks = Executor.next_seconds_between_status_checks.setter(
    steady
)

if __name__ == "__main__":
    main()
