"""The job plan of the optimal stage: which solve_optimal and screen jobs an edition runs.

The settings are resolved once, into analysis.optimal.edition_plan.OptimalPlan; this module adds
the files the plan is read from (the answers-mode ranking, each mode's merged bounds),
so that the Snakefile's input functions and the tests' artifact set
(tests/support/artifact_set.py) choose the same jobs.

The plan chooses openers, as (mode, opener) pairs; `batches` then groups each round's
openers (the top of the ranking first, then those a mode's bounds leave) into
solve_optimal jobs of up to config optimal.openers_per_job openers. A job is named by its
openers, joined by "+" (batch_name): its output's name alone says what it proves, so no
job depends on a checkpoint's output through its params, and one whose openers did not
change is not rerun.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pipeline.analysis.optimal.certified_top import deal
from pipeline.analysis.optimal.edition_plan import OptimalPlan
from pipeline.artifacts.openers import ranked_words
from pipeline.artifacts.optimal import bounds_cap, read_bounds
from pipeline.core.errors import PipelineError
from pipeline.plan.config_checks import stop
from pipeline.plan.editions import edition_settings

BATCH_SEPARATOR = "+"  # between the openers in a solve_optimal job's name


def optimal_plan(config: Mapping[str, Any], edition: str) -> OptimalPlan:
    """The edition's optimal settings (its own values of top, certify and openers over
    config `optimal`), resolved; optimal.certify_all certifies every edition."""
    settings = edition_settings(config, edition, "optimal")
    if settings.get("certify_all"):
        settings["certify"] = True
    return OptimalPlan.of(settings)


def first_jobs(plan: OptimalPlan, openers: str | Path) -> list[tuple[str, str]]:
    """(mode, opener) of the solve_optimal jobs that come first, from openers.parquet
    (its answers mode ranks every word of the index, best first)."""
    return plan.first_jobs(ranked_words(openers, "answers"))


def next_jobs(plan: OptimalPlan, mode: str, bounds: str | Path, jobs: list[tuple[str, str]],
              n_words: int) -> list[tuple[str, str]]:  # fmt: skip
    """(mode, opener) of the solve_optimal jobs of `mode` that follow `jobs` when the
    edition certifies its top list: the K lowest-bounded openers of the mode's merged
    bounds not proven yet, below the bound pass's cap."""
    proven = {opener for m, opener in jobs if m == mode}
    table = read_bounds(bounds)
    chosen = plan.next_openers(table.to_pydict(), proven, n_words, bounds_cap(table))
    return [(mode, opener) for opener in chosen]


def batches(jobs: Sequence[tuple[str, str]], per_job: int) -> dict[tuple[str, str], list[str]]:
    """(mode, job name) -> openers of each solve_optimal job of one round: each mode's
    openers of `jobs`, in their order, dealt out over as few jobs of at most `per_job` as
    hold them (job k of n takes ranks k, k + n, ...: the ranks cost alike, so the jobs
    do), each named by batch_name."""
    chosen: dict[tuple[str, str], list[str]] = {}
    for mode in dict.fromkeys(m for m, _ in jobs):
        openers = [opener for m, opener in jobs if m == mode]
        count = -(-len(openers) // per_job)
        for k in range(count):
            mine = deal(openers, k, count)
            chosen[(mode, batch_name(mine))] = mine
    return chosen


def batch_name(openers: Sequence[str]) -> str:
    """The name of the solve_optimal job proving `openers`, in order ("tarse+salet")."""
    return BATCH_SEPARATOR.join(openers)


def batch_openers(name: str) -> list[str]:
    """The openers a solve_optimal job's name says it proves (batch_name's inverse)."""
    return name.split(BATCH_SEPARATOR)


def screen_jobs(plan: OptimalPlan, parts: int) -> list[tuple[str, int]]:
    """(mode, part) of every screen job (none when the edition does not certify)."""
    return [(mode, part) for mode in plan.modes for part in range(parts)] if plan.certify else []


def edition_error(config: Mapping[str, Any], edition: str, error: PipelineError) -> str:
    """A PipelineError as one line; a config problem names the edition's own key when
    the edition sets optimal itself."""
    text = str(error)
    if not text.startswith("config: "):
        return f"wordle: {text}"
    if "optimal" in config["editions"][edition]:
        return text.replace("config: optimal.", f"config: editions.{edition}.optimal.", 1)
    return text


@contextmanager
def stop_as_one_line(config: Mapping[str, Any], edition: str) -> Iterator[None]:
    """Stop the run with edition_error's line on a PipelineError (an input function's
    exception would be shown with a traceback)."""
    try:
        yield
    except PipelineError as error:
        stop(edition_error(config, edition, error))
