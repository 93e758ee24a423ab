# Proven-optimal decision trees. First solve_optimal jobs for the top of the two-step
# ranking (a checkpoint) and the openers named in config, up to optimal.openers_per_job
# openers each; then, to certify the top list, bound jobs per (mode, part) bound every
# allowed word, the lowest-bounded openers are proven by more solve_optimal jobs, and
# screen jobs per (mode, part) prove those whose bound does not exclude them. The parts
# are merged in (mode, opener) order.


rule solve_optimal:
    wildcard_constraints:
        mode="normal|hard",
        batch=r"[a-z]+(\+[a-z]+)*",
    input:
        words=sealed(catalog.WORDS),
        patterns=get_answer_matrix,
    output:
        summary=sealed(catalog.OPTIMAL_SUMMARY),
        tree=sealed(catalog.OPTIMAL_TREE),
    params:
        code("pipeline.stages.solve_optimal"),
        mode=lambda wildcards: wildcards.mode,
        openers=get_batch_openers,
        max_guesses=config["optimal"]["max_guesses"],
    threads: 1
    resources:
        mem_mb=1500,
    message:
        JOB_MESSAGE
    log:
        "logs/solve_optimal/{edition}/{mode}-{batch}.log",
    benchmark:
        "logs/benchmarks/solve_optimal/{edition}/{mode}-{batch}.tsv"
    script:
        "../scripts/solve_optimal.py"


rule bound_openers:
    wildcard_constraints:
        mode="normal|hard",
        part=r"\d+",
    input:
        words=sealed(catalog.WORDS),
        patterns=get_answer_matrix,
        proven=get_first_parts,
    output:
        bounds=sealed(catalog.BOUNDS_PART),
    params:
        code("pipeline.stages.bound_openers"),
        mode=lambda wildcards: wildcards.mode,
        part=lambda wildcards: int(wildcards.part),
        parts=config["optimal"]["screen_parts"],
        top=get_optimal_setting("top"),
        max_guesses=config["optimal"]["max_guesses"],
    threads: bound_threads()
    resources:
        mem_mb=1500,
    message:
        JOB_MESSAGE
    log:
        "logs/bound_openers/{edition}/{mode}-{part}.log",
    benchmark:
        "logs/benchmarks/bound_openers/{edition}/{mode}-{part}.tsv"
    script:
        "../scripts/bound_openers.py"


checkpoint merge_bounds:
    wildcard_constraints:
        mode="normal|hard",
    input:
        words=sealed(catalog.WORDS),
        parts=get_bound_parts,
    output:
        bounds=sealed(catalog.BOUNDS),
    params:
        code("pipeline.stages.merge_bounds"),
        mode=lambda wildcards: wildcards.mode,
    message:
        JOB_MESSAGE
    log:
        "logs/merge_bounds/{edition}/{mode}.log",
    benchmark:
        "logs/benchmarks/merge_bounds/{edition}/{mode}.tsv"
    script:
        "../scripts/merge_bounds.py"


rule screen_openers:
    wildcard_constraints:
        mode="normal|hard",
        part=r"\d+",
    input:
        words=sealed(catalog.WORDS),
        patterns=get_answer_matrix,
        bounds=sealed(catalog.BOUNDS),
        proven=get_optimal_parts(catalog.OPTIMAL_SUMMARY),
    output:
        summary=sealed(catalog.SCREEN_SUMMARY),
        tree=sealed(catalog.SCREEN_TREE),
    params:
        code("pipeline.stages.screen_openers"),
        mode=lambda wildcards: wildcards.mode,
        part=lambda wildcards: int(wildcards.part),
        parts=config["optimal"]["screen_parts"],
        top=get_optimal_setting("top"),
        max_guesses=config["optimal"]["max_guesses"],
    threads: 1
    resources:
        mem_mb=1500,
    message:
        JOB_MESSAGE
    log:
        "logs/screen_openers/{edition}/{mode}-{part}.log",
    benchmark:
        "logs/benchmarks/screen_openers/{edition}/{mode}-{part}.tsv"
    script:
        "../scripts/screen_openers.py"


rule merge_optimal:
    input:
        words=sealed(catalog.WORDS),
        summaries=get_optimal_parts(catalog.OPTIMAL_SUMMARY),
        trees=get_optimal_parts(catalog.OPTIMAL_TREE),
        screen_summaries=get_screen_parts(catalog.SCREEN_SUMMARY),
        screen_trees=get_screen_parts(catalog.SCREEN_TREE),
        bounds=get_merged_bounds,
    output:
        optimal_openers=sealed(catalog.OPTIMAL_OPENERS),
        optimal_trees=sealed(catalog.OPTIMAL_TREES),
    params:
        code("pipeline.stages.merge_optimal"),
        top=get_optimal_setting("top"),
        certify=get_optimal_setting("certify"),
        max_guesses=config["optimal"]["max_guesses"],
    message:
        JOB_MESSAGE
    log:
        "logs/merge_optimal/{edition}/optimal.log",
    benchmark:
        "logs/benchmarks/merge_optimal/{edition}/optimal.tsv"
    script:
        "../scripts/merge_optimal.py"
