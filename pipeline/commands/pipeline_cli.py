"""`wordle-pipeline`: commands for users of built artifacts (the rules run stages directly):
`verify`, `validate` (every row, by frictionless's checks), and `fetch` (a release's artifacts,
without building; pipeline.commands.fetch).

A PipelineError (missing or damaged data) or a file that cannot be read or removed is
printed as one clear line and exits with status 1, a bad command line as one line with
status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from pipeline.core.errors import PipelineError, one_line

log = logging.getLogger("pipeline")


def _verify(args: argparse.Namespace) -> None:
    """Check a folder of artifacts against its data package descriptor: the descriptor
    against its own seal, then every artifact, and no file that is not in it. Each
    problem is one line on stderr; what was checked is one line on stdout."""
    from pipeline.artifacts.package_check import check_datapackage

    check = check_datapackage(args.datapackage, args.directory, remove_damaged=args.remove_damaged)
    problems = check.problems
    for problem in problems:
        log.error("%s", one_line(problem))
    totals = f"checked {check.count} artifacts ({check.size:,} bytes)"
    checked = one_line(f"{totals} against {args.datapackage}")
    if problems:
        print(f"{checked}: {len(problems)} problem(s)")
        raise PipelineError(f"{len(problems)} problem(s) found")
    from pipeline.artifacts.package_check import leftovers_of

    leftovers = leftovers_of(args.datapackage, args.directory)
    if leftovers:
        print(f"{checked}: all match; {leftovers} file(s) left by repair (see the warnings)")
    else:
        print(f"{checked}: all match, and nothing else is there")


def _validate(args: argparse.Namespace) -> None:
    """Check every row of every table of a data package, and every other resource,
    against its datapackage.json with frictionless's own checks (those of `frictionless
    validate`, with each Parquet table read by pyarrow instead of pandas, which makes the
    full build's check a matter of minutes instead of half an hour; see docs/operating.md).
    Each problem is one line on stderr, each resource a progress line; what was checked
    is one line on stdout."""
    from pipeline.artifacts.package_validation import validate_package

    result = validate_package(args.datapackage)
    for problem in result.problems:
        log.error("%s", one_line(problem))
    checked = one_line(
        f"validated {result.rows:,} rows of {result.tables} tables and {result.other} other "
        f"resources against {args.datapackage}"
    )
    if result.problems:
        print(f"{checked}: {len(result.problems)} problem(s)")
        raise PipelineError(f"{len(result.problems)} problem(s) found")
    print(f"{checked}: all valid")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, no usage block
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


DESCRIPTION = (
    "Commands for users of built artifacts. Missing or damaged data, or a file that cannot "
    "be read or removed, is one line with exit status 1; a bad command line is one line "
    "with exit status 2."
)


def _parser() -> argparse.ArgumentParser:
    import pipeline

    parser = _Parser(prog="wordle-pipeline", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"%(prog)s {pipeline.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    verify = commands.add_parser(
        "verify", help="Check artifacts against their datapackage.json", description=_verify.__doc__
    )
    verify.set_defaults(run=_verify)
    verify.add_argument("datapackage", type=Path, help="datapackage.json")
    verify.add_argument(
        "--directory", type=Path, default=None, help="folder of artifacts (default: beside it)"
    )
    verify.add_argument(
        "--remove-damaged",
        action="store_true",
        help="delete altered files (and the descriptor) so the next run rebuilds them",
    )
    validate = commands.add_parser(
        "validate",
        help="Check every row of a data package against its datapackage.json (frictionless)",
        description=_validate.__doc__,
    )
    validate.set_defaults(run=_validate)
    validate.add_argument("datapackage", type=Path, help="datapackage.json")
    from pipeline.commands import fetch  # its arguments; the command imports the rest

    fetch.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s", stream=sys.stderr)
    try:
        args.run(args)
    except PipelineError as error:
        log.error("%s", one_line(str(error)))
        return 1
    except OSError as error:  # a file that cannot be read or removed
        name = one_line(str(error.filename or "wordle-pipeline"))
        log.error("%s: %s", name, error.strerror or error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
