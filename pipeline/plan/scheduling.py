"""How the workflow's jobs share the machine: their threads, priorities and memory.

Snakemake starts the ready jobs of highest priority first (then those that fill the most
cores). The chain that decides when today's stages end is the opener parts (the longest
jobs), the ranking and the second-guess merge read from them, and the solver units that
wait for those. The entropy map and the prior-opener ranking, which waits for it, run
beside the parts and go first, so that the prior part is never the last. Of the solver
units, those on that chain and the long one that is not (commonness) start before the
others (see analysis.benchmark.units.starts_first), never before a part; every other job
fills the cores left over. A bound part of the optimal stage uses every core (max_threads): the
parts of one mode cost twice those of the other, so with one core each the last part of
the pass ran alone for minutes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.analysis.benchmark.units import starts_first
from pipeline.artifacts.patterns import MATRICES
from pipeline.core.word_index import WordIndex
from pipeline.core.wordle import pattern_dtype

PRIORITIES = {
    "compute_entropy": 4,
    "rank_prior_openers": 3,
    "rank_opener_part": 2,
    "rank_openers": 2,
    "merge_second_guesses": 2,
    "play_strategy": 1,
}


def unit_priority(strategy: Mapping[str, Any]) -> int:
    """A solver unit's priority: PRIORITIES["play_strategy"] if it starts first, else 0."""
    return PRIORITIES["play_strategy"] if starts_first(strategy) else 0


def max_threads(cores: Any) -> int:
    """Threads of a job that can use every core it is given (Snakemake's --cores, which is
    not a number when no cores are given)."""
    return cores if isinstance(cores, int) else 1


def part_threads(cores: Any, parts: int) -> int:
    """Threads of each job that runs beside the opener ranking's `parts` parts (a part, the
    prior ranking, the entropy map): the cores shared by the parts and the prior job, at
    least one, so that all of them run at once. None of them asks for every core: it
    would wait until no part runs, and so lengthen the stage."""
    return max(1, max_threads(cores) // (parts + 1))


def unit_threads(cores: Any, units: int) -> int:
    """Threads of one of the solver benchmark's `units` units: the cores shared by the
    units, at least one."""
    return max(1, max_threads(cores) // units)


def chunk_mem_mb(index: WordIndex, matrix: str, settings: Mapping[str, Any], attempt: int) -> int:
    """Memory (MB) of one chunk job of `matrix` (config `patterns` settings, Snakemake's
    attempt): interpreter and libraries, plus three copies of one chunk."""
    rows = min(settings["chunk_rows"], len(index.words))
    columns = len(index.column_rows(MATRICES[matrix]))
    return 200 * attempt + 3 * rows * columns * pattern_dtype(index.length).itemsize // 1_000_000
