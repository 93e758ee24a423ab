"""What the Snakefile asks, before and while it builds the job graph (the workflow side).

- config_checks: the config completed from the schema and checked, as one call.
- editions: the built-in and the user's editions, and what each one reads.
- inputs: the rules' input functions and computed params.
- optimal_stage: the optimal stage's job plan (its settings: analysis.optimal.edition_plan).
- checkpoints: a checkpoint's output read while the graph is built.
- scheduling: the jobs' threads, priorities and memory.
- code_version: the version of a rule's code, from its stage's import closure.
- repair: the damaged, foreign or stale files a run moves aside.

Only the workflow (Snakefile, workflow/rules) imports this package; it stands below every
layer of the package (tests/project/test_layers.py).
"""
