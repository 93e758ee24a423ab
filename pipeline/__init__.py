"""Compute Wordle data artifacts: word index, commonness, feedback patterns and more.

Every stage is a plain function here; the Snakemake rules only call them.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("wordle-pipeline")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"
