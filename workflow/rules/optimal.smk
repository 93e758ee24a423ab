# Proven-optimal decision trees: one job per (mode, opener), so --cores and cluster
# executors spread the searches; their parts are merged in (mode, opener) order. The
# openers are the top of the two-step ranking (a checkpoint) plus those named in config.


rule solve_optimal:
    wildcard_constraints:
        mode="normal|hard",
        opener="[a-z]+",
    input:
        words=sealed(catalog.WORDS),
        patterns=get_answer_matrix,
    output:
        summary=sealed(catalog.OPTIMAL_SUMMARY),
        tree=sealed(catalog.OPTIMAL_TREE),
    params:
        code("pipeline.stages.solve_optimal"),
        mode=lambda wildcards: wildcards.mode,
        opener=lambda wildcards: wildcards.opener,
        max_guesses=config["optimal"]["max_guesses"],
    threads: 1
    resources:
        mem_mb=1500,
    message:
        JOB_MESSAGE
    log:
        "logs/solve_optimal/{edition}/{mode}-{opener}.log",
    benchmark:
        "logs/benchmarks/solve_optimal/{edition}/{mode}-{opener}.tsv"
    script:
        "../scripts/solve_optimal.py"


rule merge_optimal:
    input:
        words=sealed(catalog.WORDS),
        summaries=get_optimal_parts(catalog.OPTIMAL_SUMMARY),
        trees=get_optimal_parts(catalog.OPTIMAL_TREE),
    output:
        optimal_openers=sealed(catalog.OPTIMAL_OPENERS),
        optimal_trees=sealed(catalog.OPTIMAL_TREES),
    params:
        code("pipeline.stages.merge_optimal"),
    message:
        JOB_MESSAGE
    log:
        "logs/merge_optimal/{edition}/optimal.log",
    benchmark:
        "logs/benchmarks/merge_optimal/{edition}/optimal.tsv"
    script:
        "../scripts/merge_optimal.py"
