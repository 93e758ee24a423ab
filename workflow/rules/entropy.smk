# Entropy maps: how much each guess tells you, under each assumption about the answer.


rule compute_entropy:
    input:
        words=sealed(catalog.WORDS),
        commonness=get_commonness,
        patterns=get_answer_matrix,
        square=get_square_matrix,
    output:
        entropy=sealed(catalog.ENTROPY),
        distribution=sealed(catalog.PATTERN_DISTRIBUTION),
    params:
        code("pipeline.stages.compute_entropy"),
    # Beside the opener parts, with a part's share of the cores (about 2 s of CPU): a job
    # asking for every core would wait until no part runs, and the prior-opener ranking
    # waits for this one. First when ready (see PRIORITIES).
    threads: part_threads()
    priority: PRIORITIES["compute_entropy"]
    resources:
        mem_mb=1500,
    message:
        JOB_MESSAGE
    log:
        "logs/compute_entropy/{edition}/entropy.log",
    benchmark:
        "logs/benchmarks/compute_entropy/{edition}/entropy.tsv"
    script:
        "../scripts/compute_entropy.py"
