"""The stage layer: one function per Snakemake rule. A stage reads its inputs through the
artifact layer, calls the analysis and kernels, and writes through the artifact layer.
Its keyword arguments are exactly the rule's named inputs, outputs, params (and threads).

Every job imports this package before numpy. numpy's OpenBLAS starts a thread per core
when it loads (0.1 s of CPU per job on 2 cores, more on many); no stage does BLAS work,
and a job's threads are the ones Snakemake gave it, so jobs ask for one BLAS thread (a
value the user set wins).
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
