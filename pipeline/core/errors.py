"""Errors that the commands report as one clear line instead of a traceback."""

from __future__ import annotations

from pathlib import Path


def one_line(text: str) -> str:
    """`text` with every character that is not printable (a line break such as U+0085 or
    U+2028 included) written as its escape, so a user's value cannot split an error line."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


class PipelineError(Exception):
    """A problem the user can fix (bad input, missing data, no network); never a bug."""


class InputError(PipelineError):
    """A problem in an input file, located by file and (when known) line."""

    def __init__(self, path: str | Path, problem: str, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        self.problem = problem
        where = self.path if line is None else f"{self.path}, line {line}"
        super().__init__(f"{where}: {problem}")


class ArtifactError(PipelineError):
    """A built artifact that is missing, damaged, foreign or stale: never read, always named."""


class UsageError(PipelineError):
    """A bad command line (exit status 2), as opposed to missing or damaged data (1)."""
