"""`wordle-assist`: the best next Wordle guesses, and a rating of the guesses played.

    wordle-assist                            the best openers
    wordle-assist tarse BYBBG doily BBGBB    after two guesses: each rated, then the best next
    wordle-assist play                       an interactive game session
    wordle-assist --mode prior --hard ...    answer list unknown; NYT hard mode

Every E shown is a promise kept: the exact mean of a strategy the player can follow
(pipeline.commands.assistant.values says which). The command only reads artifacts (data),
checks the turns and values states (advisor), and prints (report, text; play for a
session, imported only then). numba is imported only when a state needs the search
(after the first guess): the opener list stays under half a second.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Sequence

from pipeline.commands.assistant import report
from pipeline.commands.assistant.advisor import Advisor
from pipeline.commands.assistant.budget import busy, clock
from pipeline.commands.assistant.console import (
    EXIT_DATA,
    EXIT_INTERRUPT,
    EXIT_OK,
    EXIT_USAGE,
    ONE_SHOT_BUDGET,
    TURN_BUDGET,
    emit,
)
from pipeline.commands.assistant.data import data_folder, load
from pipeline.commands.assistant.input import (
    COLOUR_HELP,
    NoCandidateError,
    TurnError,
    split_turns,
)
from pipeline.commands.assistant.text import legend, render
from pipeline.core.errors import PipelineError, UsageError, one_line
from pipeline.core.hidden_modules import hide_unused_modules

PROG = "wordle-assist"
MODES = ("answers", "prior")
DEFAULT_TOP = 10
DEFAULT_LIST = 50  # remaining candidates are listed when at most this many
DESCRIPTION = f"""\
The best next Wordle guesses from the pipeline's artifacts, and a rating of each guess
played beside the best one at that turn. Give each guess followed by its colours
({COLOUR_HELP});
without guesses it lists the best openers. `{PROG} play` starts an interactive game
instead.

E is the mean number of guesses to finish, this guess included, for a player who plays
it and then follows the advice at every later turn: every E shown is kept. "proven" is
the optimum after the guess (a stored optimal tree, the optimal stage's certified top
openers, or a search made on the spot when few candidates are left); "policy" is the
exact mean of the assistant's own play (states of at most 60 candidates solved in full,
the best of the search's first 10 guesses above). A guess after which some candidate
cannot be won within six guesses is marked with the share at risk and ranked below every
guess that wins them all. Order: wins every candidate, then lower E, then proven, then a
possible answer, then word order. Prior mode (any allowed word, weighted by p_common) has
no exact E: an estimate orders its guesses and no E is shown.
"""
EPILOG = f"""\
data: --data DIR, else $WORDLE_DATA, else data/derived in the current folder, else
data/derived beside the project; in it, the edition --edition NAME, else the newest built
(the first line of every answer names it). --data may also name one edition's folder.
exit codes: {EXIT_OK} ok; {EXIT_DATA} data missing, damaged or stale, or no allowed word fits
the replies; {EXIT_USAGE} bad command line; {EXIT_INTERRUPT} interrupted. A reader that stops
early (| head) is no error: what it left unread is dropped quietly ({EXIT_OK}).
example: {PROG} tarse BYBBG doily BBGBB --top 5"""


def _epilog() -> str:
    """EPILOG after the legend: an answer prints its own columns' part only with --explain,
    so --help is where the whole of it is always found."""
    columns = "columns (--explain ends an answer with those it shows): " + legend()
    return f"{textwrap.fill(columns, 88)}\n{EPILOG}"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, no usage block, like any UsageError
        raise UsageError(f"{message} (see {self.prog} --help)")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


class _Version(argparse.Action):
    """--version, looked up only when asked (the lookup costs 30-40 ms)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"{PROG} {_version()}")
        parser.exit(EXIT_OK)


def parser() -> argparse.ArgumentParser:
    result = _Parser(
        prog=PROG,
        description=DESCRIPTION,
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    result.add_argument(
        "turns", nargs="*", metavar="WORD COLOURS", help="a guess and its colours, e.g. tarse BYBBG"
    )
    result.add_argument(
        "--mode",
        choices=MODES,
        default="answers",
        help="answers: the answer is on the answer list (default); prior: any allowed word, "
        "weighted by p_common",
    )
    result.add_argument(
        "--hard", action="store_true", help="NYT hard mode: only guesses that keep every hint"
    )
    result.add_argument(
        "--top", type=_positive, default=DEFAULT_TOP, metavar="N",
        help=f"guesses to list ({DEFAULT_TOP})",
    )  # fmt: skip
    result.add_argument(
        "--list", type=_positive, default=DEFAULT_LIST, dest="list_limit", metavar="N",
        help=f"list the remaining candidates when at most this many ({DEFAULT_LIST})",
    )  # fmt: skip
    result.add_argument(
        "--budget", type=_seconds, metavar="SECONDS",
        help="CPU seconds an answer may take; a guess the search has not valued by then is "
        f"shown as not valued in time ({ONE_SHOT_BUDGET:g}; {TURN_BUDGET:g} a turn of play)",
    )  # fmt: skip
    result.add_argument("--json", action="store_true", help="print one JSON document")
    result.add_argument(
        "--explain", action="store_true",
        help="end the answer with what its columns mean (else one line says this option)",
    )  # fmt: skip
    result.add_argument("--data", metavar="DIR", help="folder of the built artifacts")
    result.add_argument(
        "--edition", metavar="NAME",
        help="the word-list edition to play (default: the newest built, e.g. nyt2023)",
    )  # fmt: skip
    result.add_argument("--version", action=_Version, nargs=0, help="print the version")
    return result


def _version() -> str:
    import pipeline

    return pipeline.__version__


def _guarded(run: Callable[[], int], as_json: bool = False) -> int:
    """Run; every failure becomes one line on stderr and its exit code, and with --json
    also one JSON document on stdout (see error_document)."""
    try:
        return run()
    except BrokenPipeError:  # the reader has gone (| head): no error, nothing more to say
        return EXIT_OK
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return _failed(as_json, "interrupted", "interrupted", EXIT_INTERRUPT)
    except UsageError as error:
        kind = "input" if isinstance(error, TurnError) else "usage"
        return _failed(as_json, kind, f"{PROG}: error: {error}", EXIT_USAGE)
    except PipelineError as error:
        kind = "inconsistent" if isinstance(error, NoCandidateError) else "data"
        return _failed(as_json, kind, f"{PROG}: {error}", EXIT_DATA)


def error_document(kind: str, message: str, exit_code: int) -> dict:
    """--json's answer to a failure: what kind it is (usage: an option; input: a guess or
    its colours; inconsistent: no candidate fits the replies; data: artifacts missing,
    damaged or stale; interrupted), the line printed on stderr, and the exit status."""
    return {"error": {"kind": kind, "message": message, "exit_code": exit_code}}


def _failed(as_json: bool, kind: str, line: str, exit_code: int) -> int:
    line = one_line(line)  # a user's value in it (a path, an argument) cannot split it
    if kind != "interrupted":
        print(line, file=sys.stderr)
    if as_json:
        with contextlib.suppress(BrokenPipeError):  # the reader has gone: the status says it
            emit(json.dumps(error_document(kind, line, exit_code), indent=2) + "\n")
    return exit_code


def asks_for_json(argv: Sequence[str]) -> bool:
    """Whether the command line asks for --json (or an abbreviation argparse accepts),
    read before parsing so that a command line argparse refuses is answered in JSON too."""
    return any(len(a) >= 3 and "--json".startswith(a.split("=")[0]) for a in argv)


def one_shot(args: argparse.Namespace) -> int:
    origin = clock()  # the budget counts from here
    pairs = split_turns(args.turns)
    data = load(data_folder(args.data), args.edition)
    budget = args.budget or ONE_SHOT_BUDGET
    advisor = Advisor(data, prior=args.mode == "prior", hard=args.hard, top=args.top, budget=budget)
    advisor.valuer.origin = origin
    turns = advisor.turns(pairs)
    version = _version() if args.json else ""
    answer = report.build(advisor, turns, version)
    if args.json:
        document = report.as_json(answer, args.list_limit)
        emit(json.dumps(document, indent=2) + "\n")
    else:
        width = shutil.get_terminal_size().columns
        emit(render(answer, args.list_limit, width, explain=args.explain) + "\n")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return the exit status (see EPILOG)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    return _guarded(lambda: _run(argv), as_json=asks_for_json(argv))


def _run(argv: list[str]) -> int:
    try:
        args = parser().parse_intermixed_args(argv)
    except SystemExit as stop:  # --help or --version, printed (errors raise UsageError)
        return stop.code if isinstance(stop.code, int) else EXIT_OK
    if args.turns and args.turns[0] == "play" and len(args.turns) % 2 == 1:
        from pipeline.commands.assistant.play import play

        args.turns = args.turns[1:]
        return play(args)
    return one_shot(args)


def cli() -> None:
    """The console script: main() in a process of its own, without pandas and scipy (see
    pipeline.core.hidden_modules: 0.3 s of a 0.5 s answer), and ended at once when a
    search job is still running; never in main(), which runs inside other programs and
    tests."""
    hide_unused_modules()
    status = main()
    if busy():  # a search job the answer stopped waiting for: end without it
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError):
                stream.flush()
        os._exit(status)  # the interpreter's exit would wait for the job (0.6 s here)
    sys.exit(status)


if __name__ == "__main__":
    cli()
