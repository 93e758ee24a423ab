"""`wordle-pipeline fetch SOURCE [--into DIR]`: use the artifacts without building them.

A release's bundle (`wordle-artifacts-TAG.tar.zst`) and its descriptor
(`datapackage-TAG.json`), the pair `.ci/publish.py bundle` writes and CI attaches to each
release, are downloaded, every file is checked against the descriptor, and the folder is
unpacked where `wordle-assist` reads by default, or replaces nothing at all.

The modules, in the order they import one another: `locate` (SOURCE as the two files:
a tag, an https URL, a local file), `transfer` (an https download into a file),
`unpack` (the bundle into a new folder, refusing unsafe members), `install` (the checks
and the swap into place). This module only adds the command line to `wordle-pipeline`;
the rest is imported when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

DESCRIPTION = (
    "Download a release's artifacts (a tag such as v0.3.0, the https URL of a "
    "wordle-artifacts-TAG.tar.zst bundle, or such a file), check every file against the "
    "release's descriptor datapackage-TAG.json found beside it, and unpack them where "
    "wordle-assist reads: $WORDLE_DATA, else data/derived in this folder. Nothing is "
    "changed unless every check passes. A damaged, truncated, foreign or unsafe bundle, a "
    "bundle of another package version, or a network failure is one line with exit "
    "status 1. Tags are looked up in the GitHub releases of the repository the package "
    "metadata names ([project.urls] Repository), or under $WORDLE_RELEASES/TAG/."
)


def register(commands: Any) -> None:
    """Add `fetch` to wordle-pipeline's subcommands (argparse's subparsers object)."""
    parser = commands.add_parser(
        "fetch", help="Download, check and unpack a release's artifacts", description=DESCRIPTION
    )
    parser.set_defaults(run=run)
    parser.add_argument(
        "source",
        metavar="SOURCE",
        help="a release tag, the https URL of a bundle, or a bundle file",
    )
    parser.add_argument(
        "--into",
        type=Path,
        default=None,
        metavar="DIR",
        help="the folder to unpack into (default: $WORDLE_DATA, else data/derived here)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace a folder that already holds artifacts (only once the new ones passed)",
    )
    parser.add_argument(
        "--any-version",
        action="store_true",
        help="take a bundle of another wordle-pipeline version than the installed one, warning",
    )


def run(args: argparse.Namespace) -> None:
    """The command: one line on stdout says what was fetched, and where."""
    from pipeline.commands.fetch.install import fetch

    print(fetch(args.source, args.into, force=args.force, any_version=args.any_version))
