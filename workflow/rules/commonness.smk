# Sigmoid commonness: how likely each guess word is to be a common word.


rule build_commonness:
    input:
        code("pipeline.stages.build_commonness"),
        words=sealed(WORDS),
        frequency=get_raw("frequency"),
    output:
        commonness=sealed(COMMONNESS),
    params:
        **config["commonness"],
    resources:
        # The frequency file is streamed and only the index's words are kept: a 200 MB file
        # peaks at about 170 MB (benchmarks/frequency_memory.py).
        mem_mb=500,
    log:
        "logs/build_commonness/commonness.log",
    benchmark:
        "logs/benchmarks/build_commonness/commonness.tsv"
    script:
        "../scripts/build_commonness.py"
