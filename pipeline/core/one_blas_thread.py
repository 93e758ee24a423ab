"""Importing this module asks numpy's OpenBLAS for one thread (a value the user set wins).

OpenBLAS starts a thread per core when numpy loads: 0.1-0.15 s of CPU per process on 2
cores, more on many. Nothing in the product does BLAS work, and a job's threads are the
ones Snakemake gave it. The variable is read when numpy loads, so the entry points (the
stage package, the wordle-assist script) import this module before anything else.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
