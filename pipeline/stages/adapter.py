"""The one contract between a rule and its stage: `run_stage(snakemake, stage)`.

Each rule's script is three lines that call `run_stage`. The rule's named inputs and
outputs (less the `.seal.json` companions declared beside every artifact), its params
and, when the stage takes them, its threads become the stage's keyword arguments;
unnamed params (the rule's code version) are not passed. The log goes to the rule's
log file. A PipelineError ends the job with one line on stderr and in the log (exit 1);
anything else is a bug and keeps its traceback, in the log. A job that succeeds ends
its log with its CPU time and peak memory, from the kernel's accounting (exact, where
Snakemake's benchmark files sample: every 0.5 s for 15 s, then every 30 s), and how much
of that CPU went on starting and on compiling kernels.
"""

from __future__ import annotations

import collections.abc
import inspect
import logging
import resource
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline.artifacts.seal import is_seal
from pipeline.core.errors import PipelineError
from pipeline.core.hidden_modules import hide_unused_modules

log = logging.getLogger("pipeline")
_LIST_TYPES = (list, collections.abc.Sequence)


def stage_arguments(
    stage: Callable[..., None],
    files: dict[str, str | list[str]],
    params: dict[str, Any],
    threads: int,
) -> dict[str, Any]:
    """Keyword arguments of `stage` from a rule's named files, params and threads."""
    hints = typing.get_type_hints(stage)
    arguments: dict[str, Any] = {}
    for name, value in files.items():
        paths = [Path(p) for p in ([value] if isinstance(value, str) else value) if not is_seal(p)]
        wants_list = typing.get_origin(hints.get(name)) in _LIST_TYPES
        if wants_list:
            arguments[name] = paths
        elif len(paths) > 1:
            raise TypeError(f"{stage.__name__}: {name} gets {len(paths)} files, expects one")
        else:
            arguments[name] = paths[0] if paths else None
    arguments.update(params)
    if "threads" in inspect.signature(stage).parameters:
        arguments["threads"] = threads
    return arguments


def _configure_logging(log_file: str | None) -> None:
    handler: logging.Handler = (
        logging.FileHandler(log_file, mode="w", encoding="utf-8")
        if log_file
        else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)


# The job log's last lines on success; benchmarks/scaling.py and first_run.py read them.
RESOURCES_LINE = "resources: %.3f s CPU (user + system, every thread), peak memory %.1f MB"
# Where that CPU went: before the stage began (the interpreter, Snakemake's script
# preamble, the imports) and compiling kernels (pipeline.kernels.compiling); the rest is
# the stage's own work.
SPLIT_LINE = "of which: %.3f s CPU starting, %.3f s CPU compiling"


def process_cpu() -> float:
    """CPU seconds of this process so far, user and system, every thread."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_memory_mb() -> float:
    """Peak resident memory of this process in MB. On Linux from /proc (VmHWM): the
    kernel keeps ru_maxrss across exec, so a job started by forking Snakemake would
    report Snakemake's own size."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024 / 1e6  # kB
    except OSError:
        pass
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_maxrss * (1.0 if sys.platform == "darwin" else 1024.0) / 1e6


def log_resources(starting: float = 0.0) -> None:
    """Log this process's CPU seconds (every thread) and peak resident memory so far,
    then how much of that CPU went on starting (`starting`) and on compiling kernels."""
    log.info(RESOURCES_LINE, process_cpu(), peak_memory_mb())
    compiling = sys.modules.get("pipeline.kernels.compiling")  # absent: nothing compiled
    log.info(SPLIT_LINE, starting, compiling.compile_time()[0] if compiling else 0.0)


def run_stage(snakemake: Any, stage: Callable[..., None]) -> None:
    """Run `stage` for the Snakemake job described by `snakemake` (see the module doc).
    The job runs without pandas and scipy, which no stage uses (pipeline.core.hidden_modules)."""
    starting = process_cpu()  # the interpreter, the script's preamble and the imports
    hide_unused_modules()
    _configure_logging(snakemake.log[0] if snakemake.log else None)
    files = dict(snakemake.input.items()) | dict(snakemake.output.items())
    arguments = stage_arguments(stage, files, dict(snakemake.params.items()), snakemake.threads)
    try:
        stage(**arguments)
    except PipelineError as error:
        log.error("%s", error)
        print(f"{snakemake.rule}: {error}", file=sys.stderr)
        sys.exit(1)
    except Exception:
        log.exception("%s failed: this is a bug, please report it with this log", stage.__name__)
        print(f"{snakemake.rule}: internal error; see the log", file=sys.stderr)
        sys.exit(1)
    log_resources(starting)
