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
    resources:
        mem_mb=1500,
    log:
        "logs/compute_entropy/entropy.log",
    benchmark:
        "logs/benchmarks/compute_entropy/entropy.tsv"
    script:
        "../scripts/compute_entropy.py"
