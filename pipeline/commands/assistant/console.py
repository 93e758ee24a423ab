"""What the one-shot answer (cli) and a game session (play) share on the terminal: exit
statuses, the CPU budget of an answer, and writing to a reader that may leave early."""

from __future__ import annotations

import os
import sys

# CPU seconds an answer may take before it stops waiting for the search
# (pipeline.commands.assistant.budget): a one-shot answer counts from the command's start
# (its imports before that take about 0.15 s here), so that it stays within 2 s; a turn of
# play counts from the turn's start and keeps within 0.3 s.
ONE_SHOT_BUDGET, TURN_BUDGET = 1.7, 0.2
EXIT_OK, EXIT_DATA, EXIT_USAGE, EXIT_INTERRUPT = 0, 1, 2, 130


def emit(text: str, stream=None) -> None:
    """Write text; when the reader has gone (`| head`), stop quietly: stdout is pointed
    at /dev/null so that Python's flush at exit raises nothing either."""
    stream = stream or sys.stdout
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        raise
