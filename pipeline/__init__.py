"""Compute Wordle data artifacts: word index, commonness, feedback patterns and more.

Every stage is a plain function here; the Snakemake rules only call them.
"""

from importlib import metadata


def __getattr__(name: str) -> str:
    """`__version__`, looked up on first use: the lookup costs 30-40 ms per process."""
    if name != "__version__":
        raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
    try:
        return metadata.version("wordle-pipeline")
    except metadata.PackageNotFoundError:  # running from a source tree without installation
        return "0.0.0+unknown"
