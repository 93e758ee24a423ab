"""Stage of rule summarize_benchmarks: every unit's games merged, summarised and modelled."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.analysis.benchmark import tables
from pipeline.analysis.benchmark.units import label_of, strategy_mode
from pipeline.analysis.optimal.tables import best_opener
from pipeline.artifacts import benchmark as store
from pipeline.artifacts import optimal as optimal_artifact
from pipeline.artifacts.seal import REBUILD_HINT, RecordedInput, part_inputs, upstream_inputs
from pipeline.core.errors import ArtifactError
from pipeline.core.wordle import MAX_GUESSES

log = logging.getLogger(__name__)


def proven_optima(path: Path | None) -> dict[str, tables.ProvenOptimum]:
    """Mode -> the best proven opener of the mode in optimal_openers.parquet (none without
    the file: the gaps are then left empty rather than taken from elsewhere)."""
    if path is None:
        return {}
    table = optimal_artifact.read_openers(path)
    columns = [table[name].to_pylist() for name in ("mode", "opener", "total_guesses", "proven")]
    rows = {(row["mode"], row["opener"]): row for row in table.to_pylist()}
    optima = {}
    for mode in optimal_artifact.MODES:
        best = best_opener(*columns, mode=mode)
        if best is not None:
            opener, total = best
            row = rows[(mode, opener)]
            answers = sum(row[f"n_{k}"] for k in range(1, MAX_GUESSES + 1))
            optima[mode] = tables.ProvenOptimum(mode, opener, total, row["mean_guesses"], answers)
    return optima


def check_same_answers(path: Path | None, optima: Mapping[str, Any], games: pa.Table) -> None:
    """A gap compares totals over the same answers: an optimum for another list is a
    foreign optimal_openers.parquet, never a gap."""
    played = set(pc.unique(games["n_games"]).to_pylist())
    for optimum in optima.values():
        if played != {optimum.answers}:
            raise ArtifactError(
                f"{path}: its {optimum.mode}-mode optimum is for {optimum.answers} answers, "
                f"the games for {sorted(played)}; {REBUILD_HINT}"
            )


def summarize_benchmarks(
    *,
    parts: Sequence[Path],
    games: Path,
    summary: Path,
    score_model: Path,
    max_turns: int,
    bin_bits: float,
    strategies: Sequence[Mapping[str, Any]],
    optimal_openers: Path | None = None,
) -> None:
    """benchmark_games, benchmark_summary and score_model from the units' games; the gaps
    are to the pipeline's own proven optimum of each strategy's mode."""
    merged = pa.concat_tables([store.read_games(path) for path in parts])
    merged = merged.sort_by([(name, "ascending") for name in ("strategy", "opener", "answer")])
    modes = {label_of(s): strategy_mode(s["name"]) for s in strategies}
    optima = proven_optima(optimal_openers)
    summary_table = tables.summary_table(merged, optima, modes, max_turns, MAX_GUESSES)
    check_same_answers(optimal_openers, optima, summary_table)
    model = tables.score_model_table(merged, bin_bits)
    settings = {
        "modes": modes,
        "max_turns": max_turns,
        "success_turns": MAX_GUESSES,
        "bin_bits": bin_bits,
    }
    inputs: dict[str, Path | RecordedInput] = upstream_inputs(parts)  # whatever the split
    if optimal_openers is not None:
        inputs["optimal_openers"] = optimal_openers
    store.write_benchmark(
        merged, summary_table, model, (games, summary, score_model),
        success_turns=MAX_GUESSES, inputs=inputs, built_from=part_inputs(parts),
        settings=settings,
    )  # fmt: skip
    for row in summary_table.to_pylist():
        if row["strategy"] != "opener_benchmark":
            log.info(
                "%s (opener %s): mean %.4f, total %d, failures %d, gap %s",
                row["strategy"], row["opener"], row["mean_guesses"], row["total_guesses"],
                row["failures"], row["gap_to_proven_optimum_total"],
            )  # fmt: skip
