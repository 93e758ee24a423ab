"""The `wordle-assist` console script: the assistant's `cli` with one BLAS thread.

OpenBLAS's threads cost about 0.06 s of a one-shot answer's wall time and 0.15 s of its
CPU here; this module is the script's entry point, so it asks for one BLAS thread
(pipeline.core.one_blas_thread) before numpy is imported. Only the script's process
sees it.
"""

import pipeline.core.one_blas_thread  # noqa: F401 (first: before numpy loads)
from pipeline.commands.assistant.cli import cli

__all__ = ["cli"]
