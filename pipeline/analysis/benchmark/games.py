"""Complete games against every answer, for several strategies, as one decision tree.

Every strategy is a deterministic function of what the player knows, so the games
against all answers together form a decision tree: at a node the guess is chosen once,
the node's answers are split by the reply pattern, and each part is a child. Each node
is scored once, not once per answer that passes through it.

A game ends when the answer is guessed; a game not solved within max_turns guesses is
recorded as failed (finished = false) with the max_turns guesses it made, so no game can
loop forever. The opener benchmark ("opener_benchmark": the top `top` openers of the
two-step ranking, each followed by greedy_entropy) gives one entry per opener.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from pipeline.analysis.benchmark.game_state import Game, GameData, Node
from pipeline.analysis.benchmark.optimal_strategy import OptimalTreeStrategy, check_played
from pipeline.analysis.benchmark.strategies import (
    PartitionStrategy,
    Strategy,
    check_parameters,
    make_strategy,
    opener_ranking,
)
from pipeline.analysis.benchmark.units import OPENER_BENCHMARK, OPTIMAL_MODES, label_of, play_units
from pipeline.core.errors import PipelineError
from pipeline.core.progress import Progress
from pipeline.kernels.partition import bucket_layout

log = logging.getLogger(__name__)


def play_tree(
    strategy: Strategy, data: GameData, max_turns: int, progress: Progress | None = None
) -> list[Game]:
    """Play every answer at once as a decision tree; games in answer order. `progress`
    counts finished games, for a long unit's log."""
    if max_turns < 1:
        raise PipelineError(f"max_turns must be at least 1, got {max_turns}")
    games: list[Game] = []
    root = Node(1, np.arange(len(data.answer_rows), dtype=np.int64))
    root.state = strategy.initial_state()
    stack = [root]
    while stack:
        node = stack.pop()
        if node.turn > max_turns:
            games.extend(
                Game(int(a), node.guesses, node.patterns, node.sizes, False) for a in node.answers
            )
            if progress is not None:
                progress.advance(len(node.answers))
            continue
        guess = strategy.guess(node)
        guesses = (*node.guesses, guess)
        sizes = (*node.sizes, len(node.answers))
        if len(node.answers) == 1:  # one answer left: no need to sort replies
            answers = [node.answers]
            values = [int(data.matrix[guess, node.answers[0]])]
        else:
            order, starts, values = bucket_layout(data.matrix[guess, node.answers])
            # a stable sort keeps each bucket's answers ascending
            answers = [node.answers[order[starts[b] : starts[b + 1]]] for b in range(len(values))]
            values = values.tolist()
        for members, pattern in zip(reversed(answers), reversed(values), strict=True):
            patterns = (*node.patterns, pattern)
            if pattern == data.green:
                games.append(Game(int(members[0]), guesses, patterns, sizes, True))
                if progress is not None:
                    progress.advance()
                continue
            state = strategy.child_state(node, guess, pattern)
            stack.append(Node(node.turn + 1, members, guesses, patterns, sizes, state))
    games.sort(key=lambda game: game.answer)
    return games


def play_unit(
    data: GameData,
    strategy: Mapping[str, Any],
    opener_slice: Sequence[int] | None,
    max_turns: int,
) -> list[tuple[str, str, list[Game]]]:
    """(strategy label, opener word, games) of one unit (see pipeline.analysis.benchmark.units):
    a strategy, or greedy_entropy after each opener of a slice of the opener ranking
    ([first, last, step], see pipeline.analysis.benchmark.units)."""
    label = label_of(strategy)
    began = time.perf_counter()
    if strategy["name"] == OPENER_BENCHMARK:
        params = {k: v for k, v in strategy.items() if k not in ("name", "label")}
        check_parameters(OPENER_BENCHMARK, params, ("top", "pool"))
        first, last, step = opener_slice
        ranking = opener_ranking(data, int(strategy.get("pool", 100)))[first:last:step]
        progress = Progress(f"{label} ranks {first}::{step}", len(ranking) * len(data.answer_rows))
        results = []
        for opener in ranking:
            player = PartitionStrategy(data, opener, "entropy")
            games = play_tree(player, data, max_turns, progress)
            results.append((label, data.words[opener], games))
    elif strategy["name"] in OPTIMAL_MODES:
        results = [(label, *play_optimal(data, strategy, max_turns))]
    else:
        _, player = make_strategy(data, strategy)
        games = play_tree(player, data, max_turns, Progress(label, len(data.answer_rows)))
        results = [(label, data.words[games[0].guesses[0]], games)]
    log.info("%s %s: %.2f s", label, opener_slice or "", time.perf_counter() - began)
    return results


def play_optimal(
    data: GameData, strategy: Mapping[str, Any], max_turns: int
) -> tuple[str | None, list[Game]]:
    """(opener, games) of `optimal` or `optimal_hard`: the stored tree of the configured
    opener (default the best proven opener of the mode), checked while it is played; no
    games (and no opener) when the optimal search proved that no tree wins every answer."""
    name = strategy["name"]
    params = {k: v for k, v in strategy.items() if k not in ("name", "label")}
    check_parameters(name, params, ("opener",))
    if data.optimal_trees is None:
        raise PipelineError(f"strategy {name!r} needs the stored optimal trees")
    mode, opener = OPTIMAL_MODES[name], params.get("opener")
    tree = data.optimal_trees(mode, opener)
    if tree is None:
        which = f"opener {opener!r}" if opener else "any opener"
        log.warning(
            "%s: no tree of %s wins every answer within the optimal search's guesses in %s "
            "mode (optimal_openers.parquet); it plays no games",
            label_of(strategy), which, mode,
        )  # fmt: skip
        return None, []
    games = play_tree(OptimalTreeStrategy(data, tree), data, max_turns)
    check_played(tree, games)
    return tree.opener, games


def play_strategies(
    data: GameData,
    strategies: Sequence[Mapping[str, Any]],
    max_turns: int,
    openers_per_job: int = 10,
) -> list[tuple[str, str, list[Game]]]:
    """Every unit of every configured strategy, in order (tests and benchmarks; the
    workflow runs each unit as a job of its own)."""
    results: list[tuple[str, str, list[Game]]] = []
    for unit in play_units(strategies, openers_per_job).values():
        results.extend(play_unit(data, unit["strategy"], unit["opener_slice"], max_turns))
    return results
