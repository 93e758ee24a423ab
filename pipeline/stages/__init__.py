"""The stage layer: one function per Snakemake rule. A stage reads its inputs through the
artifact layer, calls the analysis and kernels, and writes through the artifact layer.
Its keyword arguments are exactly the rule's named inputs, outputs, params (and threads).

Every job imports this package before numpy, and so runs with one BLAS thread
(pipeline.core.one_blas_thread).
"""

import pipeline.core.one_blas_thread  # noqa: F401 (sets the BLAS thread count on import)
