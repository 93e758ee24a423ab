"""The solver benchmark's strategies on the days the NYT really played.

A day whose answer is on the edition's list is the strategy's game in
benchmark_games.parquet (every strategy is deterministic, so it is joined by answer,
never replayed). A day whose answer is not on the list is replayed here: the strategy
plays as it does, its candidates filtered by the real replies, until they run out; then
it plays on as the assistant does (pipeline.analysis.advice.fallback): every allowed word
consistent with the replies, weighted by p_common, the estimate's best guess, legal in
the strategy's mode. An optimal tree plays on the same way: such a day is never dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from pipeline.analysis.advice.estimate import ScoreCurve
from pipeline.analysis.advice.fallback import commonness_weights, consistent, rank_guesses
from pipeline.analysis.benchmark.game_state import GameData, Node
from pipeline.analysis.benchmark.strategies import Strategy
from pipeline.core import hard_mode
from pipeline.core.wordle import MAX_GUESSES
from pipeline.kernels.feedback import feedback_matrix


@dataclass(frozen=True)
class Replayed:
    """One game against an answer outside the list."""

    guesses: tuple[int, ...]  # word_ids
    patterns: tuple[int, ...]
    finished: bool  # the answer was guessed within max_turns
    fallback_turn: int | None  # the first guess chosen over the allowed words (1-based)


@dataclass
class ReplayMemo:
    """What the replays of one job share: the same in every game that asks for it."""

    first_guesses: dict[Strategy, int] = field(default_factory=dict)
    # the fallback's guess by (hard, guesses, replies), whatever the strategy
    fallback_guesses: dict[tuple[bool, tuple[int, ...], tuple[int, ...]], int] = field(
        default_factory=dict
    )
    # every word's reply to an answer, by the answer's word_id
    replies: dict[int, np.ndarray] = field(default_factory=dict)


def play_outside(
    data: GameData,
    strategy: Strategy,
    answer: int,
    max_turns: int,
    curve: ScoreCurve,
    hard: bool,
    memo: ReplayMemo | None = None,
) -> Replayed:
    """`strategy`'s game against word_id `answer`, with the fallback once the replies
    rule out every answer of the list; hard: the fallback's guesses keep every hint."""
    memo = ReplayMemo() if memo is None else memo
    node = Node(1, np.arange(len(data.answer_rows), dtype=np.int64))
    node.state = strategy.initial_state()
    if answer not in memo.replies:
        replies = feedback_matrix(data.encoded, data.encoded[[answer]], engine="jit")
        memo.replies[answer] = replies[:, 0]
    replies = memo.replies[answer]
    fallback_turn = None
    while node.turn <= max_turns:
        if node.turn == 1:
            if strategy not in memo.first_guesses:
                memo.first_guesses[strategy] = strategy.guess(node)
            guess = memo.first_guesses[strategy]
        elif node.answers.size:
            guess = strategy.guess(node)
        else:
            fallback_turn = fallback_turn or node.turn
            key = (hard, node.guesses, node.patterns)
            if key not in memo.fallback_guesses:
                memo.fallback_guesses[key] = fallback_guess(data, node, curve, hard)
            guess = memo.fallback_guesses[key]
        reply = int(replies[guess])
        guesses, patterns = (*node.guesses, guess), (*node.patterns, reply)
        if reply == data.green:
            return Replayed(guesses, patterns, True, fallback_turn)
        answers = node.answers[data.matrix[guess, node.answers] == reply]
        state = strategy.child_state(node, guess, reply) if answers.size else None
        sizes = (*node.sizes, len(node.answers))
        node = Node(node.turn + 1, answers, guesses, patterns, sizes, state)
    return Replayed(node.guesses, node.patterns, False, fallback_turn)


def fallback_guess(data: GameData, node: Node, curve: ScoreCurve, hard: bool) -> int:
    """The estimate's best guess over the allowed words consistent with the node's
    replies, weighted by p_common (the assistant's fallback)."""
    everyone = np.arange(len(data.words))
    candidates = consistent(data.encoded, everyone, node.guesses, node.patterns, "jit")
    if candidates.size == 0:  # cannot happen with real replies; kept as a clear failure
        raise ValueError(f"no allowed word fits the replies of guesses {node.guesses}")
    guesses = everyone
    if hard:
        colours = hard_mode.pattern_colours(list(node.patterns), data.length)
        rule = hard_mode.requirements(data.encoded[list(node.guesses)], colours)
        guesses = everyone[hard_mode.legal_mask(data.encoded, rule)]
    weights = commonness_weights(data.p_common, candidates)
    best = rank_guesses(
        data.encoded, guesses, candidates, weights, curve, 3**data.length, 1, engine="jit"
    )
    return int(guesses[best.order[0]])


def player(data: GameData, config: dict, opener: str) -> Strategy:
    """The strategy of one (config, opener) pair of benchmark_games.parquet."""
    from pipeline.analysis.benchmark.optimal_strategy import OptimalTreeStrategy
    from pipeline.analysis.benchmark.strategies import PartitionStrategy, make_strategy
    from pipeline.analysis.benchmark.units import OPENER_BENCHMARK, OPTIMAL_MODES

    name = config["name"]
    if name == OPENER_BENCHMARK:
        return PartitionStrategy(data, data.word_id(opener), "entropy")
    if name in OPTIMAL_MODES:
        return OptimalTreeStrategy(data, data.optimal_trees(OPTIMAL_MODES[name], opener))
    return make_strategy(data, config)[1]


@dataclass(frozen=True)
class Day:
    """One played day: its date (ISO), puzzle number and answer."""

    date: str
    puzzle: int
    answer: str


def history_rows(
    data: GameData,
    days: list[Day],
    played: dict[tuple[str, str], dict[str, tuple[int, bool]]],
    configs: dict[str, dict],
    modes: dict[str, str],
    max_turns: int,
    curve: ScoreCurve,
    success_turns: int = MAX_GUESSES,
    on_done: Callable[[int], None] | None = None,
) -> list[dict]:
    """One row per (strategy, opener) of `played` and day. played: (strategy, opener) ->
    answer -> (guesses, solved) of benchmark_games; answers outside it are replayed.
    on_done(1) after each (strategy, opener) (a job's progress)."""
    listed = {data.words[row] for row in data.answer_rows}
    rows, memo = [], ReplayMemo()
    for (label, opener), games in played.items():
        replays: dict[str, Replayed] = {}
        strategy = None
        for day in days:
            outside = day.answer not in listed
            if outside and day.answer not in replays:
                strategy = strategy or player(data, configs[label], opener)
                hard = modes[label] != "normal"
                replays[day.answer] = play_outside(
                    data, strategy, data.word_id(day.answer), max_turns, curve, hard, memo
                )
            if outside:
                game = replays[day.answer]
                guesses = len(game.guesses) if game.finished else max_turns + 1  # as capped
                solved = game.finished and guesses <= success_turns
                fallback = game.fallback_turn
            else:
                (guesses, solved), fallback = games[day.answer], None
            rows.append({
                "date": day.date, "puzzle": day.puzzle, "answer": day.answer,
                "strategy": label, "mode": modes[label], "opener": opener,
                "guesses": guesses, "solved": solved, "outside_list": outside,
                "fallback_turn": fallback,
            })  # fmt: skip
        if on_done is not None:
            on_done(1)
    return rows


def year_summary(rows: list[dict]) -> list[dict]:
    """Per (strategy, opener, year) of history_rows: days, mean guesses, failures, days
    outside the list, the most guesses and the days that needed them."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["strategy"], row["opener"], row["date"][:4]), []).append(row)
    result = []
    for (label, opener, year), days in sorted(groups.items()):
        guesses = [d["guesses"] for d in days]
        most = max(guesses)
        result.append({
            "strategy": label, "mode": days[0]["mode"], "opener": opener, "year": int(year),
            "days": len(days), "mean_guesses": sum(guesses) / len(days),
            "failures": sum(not d["solved"] for d in days),
            "outside_list": sum(d["outside_list"] for d in days), "max_guesses": most,
            "hardest_days": [f"{d['date']}:{d['answer']}" for d in days if d["guesses"] == most],
        })  # fmt: skip
    return result
