# The workflow lives in workflow/Snakefile, where the Snakemake workflow catalog and
# `snakedeploy` look for it; this file lets `snakemake` run from the checkout's root.


include: "workflow/Snakefile"


# Snakemake keeps an included file's rules but not its `default_target` (it restores the
# including file's own, which has none): name it again, so a bare `snakemake` builds `all`.
workflow.default_target = "all"
