# Entropy maps: how much each guess tells you, under each assumption about the answer.


rule compute_entropy:
    input:
        words=sealed(catalog.WORDS),
        commonness=get_commonness,
        patterns=get_answer_matrix,
        square_entropy=get_square_entropy,
    output:
        entropy=sealed(catalog.ENTROPY),
        distribution=sealed(catalog.PATTERN_DISTRIBUTION),
    params:
        code("pipeline.stages.compute_entropy"),
    # Beside the opener parts, with a part's share of the cores: a job asking for every
    # core would wait until no part runs. First when ready (see PRIORITIES).
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


# The prior and allowed entropies depend on the allowed list alone: one square pass per list,
# for every edition that names it (about 2 s of CPU), with a part's share of the cores; the
# prior-opener ranking waits for it, so it goes first when ready (see PRIORITIES).
rule compute_square_entropy:
    input:
        allowed=sealed(catalog.ALLOWED_LIST),
        commonness=sealed(catalog.COMMONNESS),
    output:
        square_entropy=sealed(catalog.SQUARE_ENTROPY),
    params:
        code("pipeline.stages.compute_square_entropy"),
    threads: part_threads()
    priority: PRIORITIES["compute_entropy"]
    resources:
        mem_mb=1500,
    message:
        JOB_MESSAGE
    log:
        "logs/compute_square_entropy/{wordlist}.log",
    benchmark:
        "logs/benchmarks/compute_square_entropy/{wordlist}.tsv"
    script:
        "../scripts/compute_square_entropy.py"
