# Sigmoid commonness: how likely each guess word is to be a common word.


rule build_commonness:
    input:
        words=sealed(catalog.WORDS),
        frequency=get_raw("frequency"),
    output:
        commonness=sealed(catalog.COMMONNESS),
    params:
        code("pipeline.stages.build_commonness"),
        **config["commonness"],
    resources:
        # The frequency file is streamed and only the index's words are kept: a 200 MB file
        # peaks at about 170 MB (benchmarks/frequency_memory.py).
        mem_mb=500,
    message:
        JOB_MESSAGE
    log:
        "logs/build_commonness/commonness.log",
    benchmark:
        "logs/benchmarks/build_commonness/commonness.tsv"
    script:
        "../scripts/build_commonness.py"
