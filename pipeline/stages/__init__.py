"""The stage layer: one function per Snakemake rule. A stage reads its inputs through the
artifact layer, calls the analysis and kernels, and writes through the artifact layer.
Its keyword arguments are exactly the rule's named inputs, outputs, params (and threads)."""
