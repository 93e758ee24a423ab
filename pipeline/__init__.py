"""Compute Wordle data artifacts: word index, commonness, feedback patterns and more.

Every stage is a plain function here; the Snakemake rules only call them.
"""


def __getattr__(name: str) -> str:
    """`__version__`, looked up on first use: importing importlib.metadata and the lookup
    cost 40-80 ms per process, which wordle-assist's one-shot answer does not pay."""
    if name != "__version__":
        raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
    from importlib import metadata

    try:
        return metadata.version("wordle-pipeline")
    except metadata.PackageNotFoundError:  # running from a source tree without installation
        return "0.0.0+unknown"
