"""The `wordle-assist` console script: the assistant's `cli` with one BLAS thread.

numpy's OpenBLAS starts a thread per core when it loads, about 0.06 s of a one-shot
answer's wall time and 0.15 s of its CPU here; the assistant does no BLAS work. The
variable must be set before numpy is imported, hence this module (only the script's
process sees it; a value the user set wins).
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from pipeline.commands.assistant import cli  # noqa: E402

__all__ = ["cli"]
