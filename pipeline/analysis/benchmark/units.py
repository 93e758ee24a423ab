"""The solver benchmark as independent units of work, one Snakemake job each.

A unit is one configured strategy, or a share of the opener benchmark's openers (the top
`top` openers of the two-step ranking, at most `openers_per_job` per unit, dealt out by
rank like cards: unit k of n takes ranks k, k + n, k + 2n, ...; the openers' costs vary
with rank: 4 jobs of 13 neighbouring ranks took 4.3 to 5.8 s each, 4 dealt 4.1 to 4.7 s,
and the round of units after the ranking ends with its slowest). Units share nothing
but files, so `--cores` and cluster executors spread them; their games are merged in a
fixed order, so the split changes no byte of any artifact. Plain Python: the workflow
asks for the units while it builds the job graph.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.core.errors import PipelineError

OPENER_BENCHMARK = "opener_benchmark"
DEFAULT_TOP = 50  # opener_benchmark: openers benchmarked, the best of the ranking

# The strategies that play a stored proven-optimal tree, and the mode of the tree.
OPTIMAL_MODES = {"optimal": "normal", "optimal_hard": "hard"}
# The rules each strategy's guesses obey (every other strategy: normal, any allowed word).
# ultrahard (every guess consistent with all feedback so far) is stricter than hard: its
# guesses are legal hard-mode guesses, so the hard-mode optimum is what it is measured against.
STRATEGY_MODES = {
    **OPTIMAL_MODES,
    "greedy_entropy_hard": "hard",
    "greedy_entropy_ultrahard": "ultrahard",
}
OPTIMUM_OF_MODE = {"normal": "normal", "hard": "hard", "ultrahard": "hard"}


def label_of(strategy: Mapping[str, Any]) -> str:
    """A strategy's name in the tables (its `label`, else its name)."""
    return str(strategy.get("label") or strategy["name"])


def strategy_mode(name: str) -> str:
    """normal, hard or ultrahard: the rules a strategy's guesses obey."""
    return STRATEGY_MODES.get(name, "normal")


def needs_optimal(strategy: Mapping[str, Any]) -> bool:
    """Whether a strategy plays a stored optimal tree (its job reads the optimal files)."""
    return strategy["name"] in OPTIMAL_MODES


# The strategies that read the stored two-step opener ranking (openers.parquet; two_step
# also second_guesses.parquet); every other strategy's job starts without waiting for it.
RANKING_STRATEGIES = (OPENER_BENCHMARK, "two_step")


def needs_rankings(strategy: Mapping[str, Any]) -> bool:
    """Whether a strategy reads the stored opener ranking (its job alone is given it)."""
    return strategy["name"] in RANKING_STRATEGIES


# The strategies whose unit is long where the others are short: commonness scores every
# allowed word against every consistent allowed word at each turn (about 8 s of CPU with
# today's lists; every other strategy 1-3 s).
LONG_STRATEGIES = ("commonness",)


def starts_first(strategy: Mapping[str, Any]) -> bool:
    """Whether a strategy's unit should start before the other ready units: those that wait
    for the opener ranking (they run after it, in the run's last round, which they make
    last) and the long ones that do not (started late, they would end the run instead)."""
    return needs_rankings(strategy) or strategy["name"] in LONG_STRATEGIES


def needs_second_guesses(strategy: Mapping[str, Any]) -> bool:
    """Whether a strategy also reads the stored second guesses (second_guesses.parquet):
    two_step alone; the opener benchmark plays greedy_entropy after each opener."""
    return strategy["name"] == "two_step"


def play_units(
    strategies: Sequence[Mapping[str, Any]], openers_per_job: int
) -> dict[str, dict[str, Any]]:
    """Unit id -> {"label", "strategy", "opener_slice"} in the order the tables list them.

    opener_slice is [first, last, step] of the opener ranking (Python's slice: the ranks
    first, first + step, ... below last) for an opener-benchmark unit, None otherwise.
    Ids are labels, with the unit's number for the opener benchmark.
    """
    if openers_per_job < 1:
        raise PipelineError(f"openers_per_job must be at least 1, got {openers_per_job}")
    units: dict[str, dict[str, Any]] = {}
    labels: set[str] = set()
    for strategy in strategies:
        label = label_of(strategy)
        if label in labels:
            raise PipelineError(f"two strategies are labelled {label!r}; give one a label")
        labels.add(label)
        if strategy["name"] != OPENER_BENCHMARK:
            units[label] = {"label": label, "strategy": dict(strategy), "opener_slice": None}
            continue
        top = int(strategy.get("top", DEFAULT_TOP))
        count = math.ceil(top / openers_per_job)
        for number in range(count):
            units[f"{label}-{number:03d}"] = {
                "label": label,
                "strategy": dict(strategy),
                "opener_slice": [number, top, count],
            }
    return units
