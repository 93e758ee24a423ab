"""`wordle-assist play`: a game session in the terminal.

It asks for each guess and its colours (on one line, `tarse BYBBG`, or the guess first
and then its colours), shows the board as coloured tiles when the output is a terminal
and NO_COLOR is not set (plain letters otherwise), the remaining candidates and the best
next guesses, and stops when the game is solved or after six guesses, with every guess
rated beside the best at its turn. `undo` takes a turn back, `quit` (or end of input)
leaves.

`Session` is the loop's state without any terminal: the benchmark times its turns.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import textwrap
from collections.abc import Callable

from pipeline.commands.assistant.advisor import Advisor
from pipeline.commands.assistant.console import EXIT_OK, TURN_BUDGET, emit
from pipeline.commands.assistant.data import data_folder, load
from pipeline.commands.assistant.game import Turn
from pipeline.commands.assistant.input import COLOUR_HELP, split_turns
from pipeline.commands.assistant.report import Rating, Report, build
from pipeline.commands.assistant.text import (
    format_e,
    legend,
    rating_lines,
    state_lines,
    suggestion_lines,
    summary_lines,
)
from pipeline.core.errors import PipelineError, UsageError
from pipeline.core.wordle import MAX_GUESSES

RESET = "\x1b[0m"
TILE_STYLE = {"G": "\x1b[1;97;42m", "Y": "\x1b[1;30;43m", "B": "\x1b[1;97;100m"}
QUIT = {"quit", "q", "exit"}
HELP = (
    f"type a guess and its colours ({COLOUR_HELP}), e.g. tarse BYBBG, or the guess alone "
    "and then its colours; 'undo' takes the last guess back, 'quit' leaves"
)


def use_colour(stream) -> bool:
    """Coloured tiles only on a terminal, and never when NO_COLOR is set (no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def tiles(word: str, colours: str, colour: bool) -> str:
    """One guess as tiles: coloured letters on a terminal, `TARSE  BYBBG` otherwise."""
    if not colour:
        return f"{word.upper()}  {colours}"
    return "".join(
        f"{TILE_STYLE[c]} {letter.upper()} {RESET}" for letter, c in zip(word, colours, strict=True)
    )


class Session:
    """A game: turns played so far, their ratings, and the report after them."""

    def __init__(self, advisor: Advisor) -> None:
        self.advisor = advisor
        self.turns: list[Turn] = []
        self.ratings: list[Rating] = []
        self.report = build(advisor, [])

    def play(self, word: str, colours: str) -> Report:
        """Add a turn (checked: a bad one raises and changes nothing); the new report."""
        turn = self.advisor.turn(len(self.turns) + 1, word, colours)
        self.advisor.check_legal(self.turns, turn)
        report = build(self.advisor, [*self.turns, turn], ratings=self.ratings)
        self.turns.append(turn)
        self.ratings = report.turns
        self.report = report
        return report

    def undo(self) -> Report:
        if self.turns:
            self.turns.pop()
            self.ratings = self.ratings[: len(self.turns)]
            self.report = build(self.advisor, self.turns, ratings=self.ratings)
        return self.report

    @property
    def over(self) -> bool:
        return self.report.game_over


def board(session: Session, colour: bool) -> list[str]:
    return [tiles(t.word, t.colours, colour) for t in session.turns]


def view(session: Session, list_limit: int, colour: bool) -> str:
    """What the player sees after each turn."""
    report = session.report
    width = shutil.get_terminal_size().columns
    lines = board(session, colour)
    if report.turns and not report.game_over:
        lines.append(rating_line(report.turns[-1]))
    lines += state_lines(report, list_limit, width)
    if report.fallback is not None:  # the answer list ran out: say so (its note comes first)
        lines += textwrap.wrap("note: " + report.notes[0], width=max(width, 20))
    if report.game_over:
        lines += rating_lines(report.turns) + summary_lines(report)
    lines += suggestion_lines(report)
    return "\n".join(lines + [""])


def rating_line(rating: Rating) -> str:
    """The last guess beside the best one at its turn, and the reply's luck, in one line."""
    played, best = rating.played, rating.best
    line = f"{rating.guess}: E {format_e(played.expected_guesses)} ({played.evidence})"
    if best.guess == rating.guess:
        line += ", the best guess"
    else:
        line += f"; best was {best.guess}: E {format_e(best.expected_guesses)}"
        if rating.skill is not None:
            line += f", {rating.skill:+.3f} given up"
    if rating.luck is not None:
        after = rating.expected_after
        expected = "" if after is None else f" (expected {after:.1f})"
        line += f"; {rating.candidates_after} left{expected}, luck {rating.luck:+.3f}"
    return line


def _read_turn(ask: Callable[[str], str], number: int) -> tuple[str, str] | str | None:
    """The next (word, colours), a command ('undo', 'help'), or None to leave."""
    line = ask(f"guess {number}> ").strip()
    tokens = line.split()
    if not tokens:
        return "again"
    if tokens[0].lower() in QUIT:
        return None
    if tokens[0].lower() in ("undo", "help", "?"):
        return tokens[0].lower()
    if len(tokens) == 1:
        colours = ask(f"colours of {tokens[0]}> ").strip()
        return tokens[0], colours
    if len(tokens) == 2:
        return tokens[0], tokens[1]
    return tokens[0], "".join(tokens[1:])  # colours typed with spaces: B Y B B G


def play(args: argparse.Namespace) -> int:
    """The interactive loop; returns the exit status."""
    if args.json:
        raise UsageError("--json is for one answer, not for play")
    data = load(data_folder(args.data), args.edition)
    budget = args.budget or TURN_BUDGET
    advisor = Advisor(data, prior=args.mode == "prior", hard=args.hard, top=args.top, budget=budget)
    advisor.preload(search=True)
    session = Session(advisor)
    for word, colours in split_turns(args.turns):
        session.play(word, colours)
    colour = use_colour(sys.stdout)
    rules = "hard mode, " if args.hard else ""
    width = max(shutil.get_terminal_size().columns, 20)
    edition = f"edition {data.edition.name}, " if data.edition and data.edition.name else ""
    intro = f"wordle-assist play ({edition}{args.mode} mode, {rules}{MAX_GUESSES} guesses). {HELP}"
    emit("\n".join(textwrap.wrap(intro, width)) + "\n")
    emit(view(session, args.list_limit, colour))
    emit("\n".join(textwrap.wrap(legend(session.report), width)) + "\n")
    while not session.over:
        try:
            entry = _read_turn(input, len(session.turns) + 1)
        except EOFError:
            emit("\n")
            return EXIT_OK
        if entry is None:
            return EXIT_OK
        if entry == "again":
            continue
        if entry in ("help", "?"):
            emit(HELP + "\n")
            continue
        try:
            if entry == "undo":
                session.undo()
            else:
                session.play(*entry)
        except (UsageError, PipelineError) as error:
            emit(f"error: {error}\n")
            continue
        emit(view(session, args.list_limit, colour))
    return EXIT_OK
