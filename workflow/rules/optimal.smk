# Proven-optimal decision trees: one job per (mode, opener), so --cores and cluster
# executors spread the searches; their parts are merged in (mode, opener) order. The
# openers are the top of the two-step ranking (a checkpoint) plus those named in config.


rule solve_optimal:
    wildcard_constraints:
        mode="normal|hard",
        opener="[a-z]+",
    input:
        code("pipeline.stages.solve_optimal"),
        words=sealed(WORDS),
        patterns=get_answer_matrix,
    output:
        summary=sealed("data/work/optimal/{mode}/{opener}.summary.parquet"),
        tree=sealed("data/work/optimal/{mode}/{opener}.tree.parquet"),
    params:
        mode=lambda wildcards: wildcards.mode,
        opener=lambda wildcards: wildcards.opener,
        max_guesses=config["optimal"]["max_guesses"],
    threads: 1
    resources:
        mem_mb=1500,
    log:
        "logs/solve_optimal/{mode}-{opener}.log",
    benchmark:
        "logs/benchmarks/solve_optimal/{mode}-{opener}.tsv"
    script:
        "../scripts/solve_optimal.py"


rule merge_optimal:
    input:
        code("pipeline.stages.merge_optimal"),
        words=sealed(WORDS),
        summaries=get_optimal_parts("summary"),
        trees=get_optimal_parts("tree"),
    output:
        optimal_openers=sealed(OPTIMAL_OPENERS),
        optimal_trees=sealed(OPTIMAL_TREES),
    log:
        "logs/merge_optimal/optimal.log",
    benchmark:
        "logs/benchmarks/merge_optimal/optimal.tsv"
    script:
        "../scripts/merge_optimal.py"
