"""The Snakemake report: `summary_rows` (the benchmark summary's rows as the report reads
them), `figures` (the only module that loads matplotlib), `tables` (the report's tables as
HTML pages), `editions` (the editions side by side) and `headline` (the landing page's
numbers)."""
