"""The assistant on real game states: cold one-shot answers and turns of `play`.

The states are the positions of real games, the solver benchmark's own games
(benchmark_games.parquet): a deterministic sample of answers per strategy, every state
before each of their guesses. greedy_entropy's games are asked in answers mode,
commonness's in prior mode (the strategy that plays without the answer list) and
greedy_entropy_hard's with --hard.

- one-shot: `wordle-assist TURNS...` in a fresh process each time (interpreter start,
  imports, reads and the answer: what a user waits for): the opener list and prior mode
  against the 0.5 s target, a state after a guess in answer-list mode (the search made
  on the spot: a proof, or the policy's exact play-out) against the 2 s target;
- play: a Session started once per game (start-up not timed), then each turn timed in
  process (with play's budget), against the 0.3 s target;
- issue 51's cases: the opener list, `tarse BYBBG`, `--hard crane BYBBY` and `--json
  --hard tarse BYBBG` without optimal_openers.parquet, each the median of three fresh
  processes' CPU, against its target;
- the promise: from four human openers, the advice followed against every answer (in
  process), the mean it achieves beside the proven optimum after that opener (the
  optimal search, solved here), and the time per answer.

The targets are wall times. On a machine whose cores other work shares, wall time also
counts the time spent waiting for a core, so each fresh process's CPU time (user +
system, from the kernel's accounting of finished children) is printed too: what the
answer costs, whatever the load.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.first_run import children_cpu
from pipeline.artifacts.benchmark import GAMES_FILE, read_games
from pipeline.commands.assistant.advisor import Advisor
from pipeline.commands.assistant.console import TURN_BUDGET
from pipeline.commands.assistant.data import OPTIMAL_OPENERS_FILE, load
from pipeline.commands.assistant.play import Session
from pipeline.core.wordle import pattern_string

# strategy whose games are replayed -> the assistant's options for them
KINDS = {
    "greedy_entropy": [],
    "commonness": ["--mode", "prior"],
    "greedy_entropy_hard": ["--hard"],
}
ONE_SHOT_TARGET = 0.5
SEARCHED_TARGET = 2.0  # a one-shot state valued by the search on the spot
TURN_TARGET = 0.3
PROMISE_OPENERS = (("normal", "adieu"), ("normal", "crane"), ("hard", "crane"), ("hard", "stare"))


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


def timed_output(argv: list[str], env: dict[str, str] = CHILD_ENV) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, standard output) of one fresh process; an error if it
    fails."""
    cpu, start = children_cpu(), time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True, check=False, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {result.stderr.strip()}")
    return elapsed, children_cpu() - cpu, result.stdout


def timed_run(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process; an error if it fails."""
    return timed_output(argv)[:2]


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
                searched = k > 0 and "--mode" not in KINDS[strategy]
                kind = f"{strategy}, searched" if searched else strategy
                wall.setdefault(kind, []).append(seconds)
                cpu.setdefault(kind, []).append(cpu_seconds)
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
        advisor = Advisor(
            data, prior="prior" in options, hard="--hard" in options, budget=TURN_BUDGET
        )
        advisor.preload(search=True)  # as `play` does at start-up
        for game in played:
            session = Session(advisor)
            for word, colours in game:
                start, start_cpu = time.perf_counter(), time.process_time()
                session.play(word, colours)
                wall.setdefault(strategy, []).append(time.perf_counter() - start)
                cpu.setdefault(strategy, []).append(time.process_time() - start_cpu)
    return wall, cpu


def describe(name: str, times: dict[str, list[float]], target: float) -> None:
    """min/median/max per kind and over all (a kind named baseline... is not counted);
    a kind "..., searched" is held to SEARCHED_TARGET."""
    kinds = {k: v for k, v in times.items() if not k.startswith("baseline")}
    every = [t for v in kinds.values() for t in v]
    searched = any(k.endswith("searched") for k in kinds)
    also = f" ({SEARCHED_TARGET} s searched)" if searched else ""
    print(f"  {name}: {len(every)} states, target <= {target} s{also}")

    def over(label: str, values: list[float]) -> int:
        return sum(v > (SEARCHED_TARGET if label.endswith("searched") else target) for v in values)

    total_over = sum(over(k, v) for k, v in kinds.items())
    for label, values in [*times.items(), ("all", every)]:
        count = total_over if label == "all" else over(label, values)
        print(
            f"    {label:<32} min {min(values):6.3f}  median {statistics.median(values):6.3f}  "
            f"max {max(values):6.3f} s  (over target: {count})"
        )


def bench_promise(derived: Path) -> None:
    """The advice followed from each of PROMISE_OPENERS against every answer: the mean it
    achieves (which must equal the E shown for the opener), the proven optimum after the
    opener, and the CPU time per answer."""
    from pipeline.commands.assistant.selfplay import play_advice
    from pipeline.kernels.optimal_search import solve_opener

    data = load(derived)
    index = data.index
    print(f"assistant: the advice followed against all {index.answer_rows.size} answers")
    print("    mode    opener  shown E   achieved  proven optimum  lost  CPU per answer")
    for mode, opener in PROMISE_OPENERS:
        advisor = Advisor(data, hard=mode == "hard")
        advisor.preload()
        start = time.process_time()
        result = play_advice(advisor, opener)
        per_answer = (time.process_time() - start) / index.answer_rows.size
        optimum = solve_opener(
            data.answer_matrix(), index.answer_rows, index.encoded, index.word_id(opener),
            hard=mode == "hard",
        )  # fmt: skip
        best = "none" if optimum.mean is None else f"{optimum.mean:.4f}"
        shown = "-" if result.shown is None else f"{result.shown:.4f}"
        achieved = result.total / index.answer_rows.size
        print(
            f"    {mode:<7} {opener:<6}  {shown:>7}  {achieved:9.4f}  {best:>14}  "
            f"{len(result.lost):>4}  {1000 * per_answer:9.2f} ms"
        )


# Issue 51's one-shot cases: (arguments, leave optimal_openers.parquet out, CPU target s)
CASES = {
    "opener list": ([], False, 0.7),
    "tarse BYBBG": (["tarse", "BYBBG"], False, 1.5),
    "--hard crane BYBBY": (["--hard", "crane", "BYBBY"], False, 2.0),
    "--json --hard tarse BYBBG, no optimal_openers": (
        ["--json", "--hard", "tarse", "BYBBG"], True, 2.0),
}  # fmt: skip


def without_openers(derived: Path, scratch: Path) -> Path:
    """An edition folder of links to `derived`'s files, optimal_openers.parquet left out."""
    folder = scratch / derived.name
    folder.mkdir()
    for path in derived.iterdir():
        if not path.name.startswith(OPTIMAL_OPENERS_FILE):
            (folder / path.name).symlink_to(path.resolve())
    return folder


def bench_cases(derived: Path, runs: int = 3) -> None:
    """CPU and wall time of each of CASES, the median of `runs` fresh processes."""
    import tempfile

    print(f"assistant: one-shot cases, median of {runs} fresh processes")
    with tempfile.TemporaryDirectory() as scratch:
        missing = without_openers(derived, Path(scratch))
        for name, (arguments, leave_out, target) in CASES.items():
            folder = missing if leave_out else derived
            argv = [*command(), "--data", str(folder), *arguments]
            times = [timed_run(argv) for _ in range(runs)]
            wall = statistics.median(t[0] for t in times)
            cpu = statistics.median(t[1] for t in times)
            print(f"    {name:<48} CPU {cpu:6.2f} s (target {target} s)  wall {wall:6.2f} s")


FIRST_ANSWER = ("tarse", "BYBBG", "--top", "3", "--json")  # the case issue 72 measured
FIRST_ANSWER_TARGET = 20.0  # wall seconds, with `wordle-pipeline fetch` before it


def bench_first_answer(derived: Path) -> None:
    """The first answer after a fresh install (numba's cache empty, so every kernel it
    needs compiles) beside the second (the same process start, the kernels loaded): their
    wall and CPU, and whether they give the same suggestions and values, as they must
    (compile time is left out of the search's budget)."""
    import json
    import shutil
    import tempfile

    cache = Path(tempfile.mkdtemp(prefix="wordle-first-answer-"))
    argv = [*command(), "--data", str(derived), *FIRST_ANSWER]
    env = CHILD_ENV | {"NUMBA_CACHE_DIR": str(cache)}
    answers, times = [], []
    try:
        for _ in range(2):
            wall, cpu_seconds, output = timed_output(argv, env)
            times.append((wall, cpu_seconds))
            answers.append(json.loads(output)["suggestions"])
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(f"first answer after a fresh install: wordle-assist {' '.join(FIRST_ANSWER)}")
    for label, (wall, cpu_seconds) in zip(("first (cold cache)", "second"), times, strict=True):
        print(f"  {label:<20} wall {wall:7.2f} s, CPU {cpu_seconds:7.2f} s")
    same = "the same" if answers[0] == answers[1] else "NOT the same"
    print(
        f"  suggestions and values: {same} (target: the same; first <= "
        f"{FIRST_ANSWER_TARGET:.0f} s wall with the fetch)"
    )


def bench_assistant(derived: Path, per_kind: int = 6) -> None:
    """Print the distributions of one-shot and per-turn times over real game states."""
    bench_first_answer(derived)
    games = sample_games(derived, per_kind)
    timed_run([*command(), "--data", str(derived)])  # writes the bytecode, as a first use does
    bench_cases(derived)
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
    bench_promise(derived)
