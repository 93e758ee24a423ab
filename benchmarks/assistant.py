"""The assistant on real game states: cold one-shot answers and turns of `play`.

The states are the positions of real games, the solver benchmark's own games
(benchmark_games.parquet): a deterministic sample of answers per strategy, every state
before each of their guesses. greedy_entropy's games are asked in answers mode,
commonness's in prior mode (the strategy that plays without the answer list) and
greedy_entropy_hard's with --hard.

- one-shot: `wordle-assist TURNS...` in a fresh process each time (interpreter start,
  imports, reads and the answer: what a user waits for), against the 0.5 s target;
- play: a Session started once per game (start-up not timed), then each turn timed in
  process, against the 0.2 s target.

The targets are wall times. On a machine whose cores other work shares, wall time also
counts the time spent waiting for a core, so each fresh process's CPU time (user +
system, from the kernel's accounting of finished children) is printed too: what the
answer costs, whatever the load.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from pipeline.artifacts.benchmark import GAMES_FILE, read_games
from pipeline.commands.assistant_data import load
from pipeline.commands.assistant_game import Advisor
from pipeline.commands.assistant_play import Session
from pipeline.core.wordle import pattern_string

# strategy whose games are replayed -> the assistant's options for them
KINDS = {
    "greedy_entropy": [],
    "commonness": ["--mode", "prior"],
    "greedy_entropy_hard": ["--hard"],
}
ONE_SHOT_TARGET = 0.5
TURN_TARGET = 0.2


def sample_games(derived: Path, per_kind: int) -> dict[str, list[list[tuple[str, str]]]]:
    """Per strategy of KINDS, `per_kind` games (evenly spaced answers) as (guess, colours)."""
    table = read_games(derived / GAMES_FILE).to_pydict()
    games: dict[str, list[list[tuple[str, str]]]] = {}
    for strategy in KINDS:
        rows = [i for i, s in enumerate(table["strategy"]) if s == strategy and table["solved"][i]]
        step = max(1, len(rows) // per_kind)
        games[strategy] = [
            [(g, pattern_string(p, len(g))) for g, p in zip(
                table["guesses"][i], table["patterns"][i], strict=True)]
            for i in rows[::step][:per_kind]
        ]  # fmt: skip
    return games


def command() -> list[str]:
    """The installed `wordle-assist` beside this interpreter, else the module."""
    script = Path(sys.executable).with_name("wordle-assist")
    return (
        [str(script)] if script.is_file() else [sys.executable, "-m", "pipeline.commands.assistant"]
    )


# The fresh processes import the package as a user's install does: from cached bytecode
# (pip and a first run write it). A shell with PYTHONDONTWRITEBYTECODE set would
# otherwise compile the package's modules again in every process (about 0.03 s here).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process; an error if it fails."""
    cpu, start = _children_cpu(), time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True, check=False, env=CHILD_ENV)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {result.stderr.strip()}")
    return elapsed, _children_cpu() - cpu


def baseline_times(count: int) -> tuple[list[float], list[float]]:
    """The floor of any answer: a fresh interpreter importing numpy and pyarrow.parquet
    (reported as "baseline: bare imports"); (wall times, CPU times)."""
    bare = [sys.executable, "-c", "import numpy, pyarrow.parquet"]
    runs = [timed_run(bare) for _ in range(count)]
    return [wall for wall, _ in runs], [cpu for _, cpu in runs]


def one_shot_times(
    derived: Path, games: dict[str, list[list[tuple[str, str]]]]
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """(wall times, CPU times) of a fresh `wordle-assist` per state (the state before
    each guess), per strategy."""
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for strategy, played in games.items():
        for game in played:
            for k in range(len(game)):
                argv = [*command(), *KINDS[strategy], "--data", str(derived)]
                argv += [part for turn in game[:k] for part in turn]
                seconds, cpu_seconds = timed_run(argv)
                wall.setdefault(strategy, []).append(seconds)
                cpu.setdefault(strategy, []).append(cpu_seconds)
    return wall, cpu


def play_turn_times(
    derived: Path, games: dict[str, list[list[tuple[str, str]]]]
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """(wall, CPU) seconds per turn of a Session, start-up excluded (one Advisor per
    kind), per strategy."""
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    data = load(derived)
    for strategy, played in games.items():
        options = KINDS[strategy]
        advisor = Advisor(data, prior="prior" in options, hard="--hard" in options)
        advisor.preload()  # as `play` does at start-up
        for game in played:
            session = Session(advisor)
            for word, colours in game:
                start, start_cpu = time.perf_counter(), time.process_time()
                session.play(word, colours)
                wall.setdefault(strategy, []).append(time.perf_counter() - start)
                cpu.setdefault(strategy, []).append(time.process_time() - start_cpu)
    return wall, cpu


def describe(name: str, times: dict[str, list[float]], target: float) -> None:
    """min/median/max per kind and over all (a kind named baseline... is not counted)."""
    every = [t for k, v in times.items() if not k.startswith("baseline") for t in v]
    print(f"  {name}: {len(every)} states, target <= {target} s")
    for label, values in [*times.items(), ("all", every)]:
        print(
            f"    {label:<24} min {min(values):6.3f}  median {statistics.median(values):6.3f}  "
            f"max {max(values):6.3f} s  (over target: {sum(v > target for v in values)})"
        )


def bench_assistant(derived: Path, per_kind: int = 6) -> None:
    """Print the distributions of one-shot and per-turn times over real game states."""
    games = sample_games(derived, per_kind)
    timed_run([*command(), "--data", str(derived)])  # writes the bytecode, as a first use does
    print(f"assistant: {per_kind} real games per kind, every state before each guess")
    one_shot, one_shot_cpu = one_shot_times(derived, games)
    base_wall, base_cpu = baseline_times(10)
    baseline = "baseline: bare imports"
    describe(
        "cold one-shot answer (fresh process), wall time",
        one_shot | {baseline: base_wall},
        ONE_SHOT_TARGET,
    )
    describe(
        "cold one-shot answer, CPU time (user + system; the load of other work excluded)",
        one_shot_cpu | {baseline: base_cpu},
        ONE_SHOT_TARGET,
    )
    turn_wall, turn_cpu = play_turn_times(derived, games)
    describe("play, one turn (in process), wall time", turn_wall, TURN_TARGET)
    describe("play, one turn, CPU time of this process", turn_cpu, TURN_TARGET)
