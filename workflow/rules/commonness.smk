# Sigmoid commonness: how likely each guess word is to be a common word. It depends on an
# allowed list alone, so it is built once per list, for every edition that names it.


rule build_commonness:
    input:
        allowed=sealed(catalog.ALLOWED_LIST),
        frequency=get_raw(catalog.FREQUENCY),
    output:
        commonness=sealed(catalog.COMMONNESS),
    params:
        code("pipeline.stages.build_commonness"),
        **config["commonness"],
    resources:
        # The frequency file is streamed and only the list's words are kept: a 200 MB file
        # peaks at about 170 MB (benchmarks/frequency_memory.py).
        mem_mb=500,
    message:
        JOB_MESSAGE
    log:
        "logs/build_commonness/{wordlist}.log",
    benchmark:
        "logs/benchmarks/build_commonness/{wordlist}.tsv"
    script:
        "../scripts/build_commonness.py"
