# Entropy maps: how much each guess tells you, under each assumption about the answer.


rule compute_entropy:
    input:
        code("pipeline.stages.compute_entropy"),
        words=sealed(WORDS),
        commonness=sealed(COMMONNESS),
        patterns=get_answer_matrix,
        square=get_square_matrix,
    output:
        entropy=sealed(ENTROPY),
        distribution=sealed(PATTERN_DISTRIBUTION),
    threads: max_threads()
    # First when ready: it asks for every core, so once the opener parts hold some it
    # would wait for all of them; the prior-opener ranking waits for it (see PRIORITIES).
    priority: PRIORITIES["compute_entropy"]
    resources:
        mem_mb=1500,
    log:
        "logs/compute_entropy/entropy.log",
    benchmark:
        "logs/benchmarks/compute_entropy/entropy.tsv"
    script:
        "../scripts/compute_entropy.py"
