"""`python -m pipeline.commands.assistant`: the `wordle-assist` command."""

from pipeline.commands.assistant.cli import cli

cli()
