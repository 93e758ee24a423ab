# Sigmoid commonness: how likely each guess word is to be a common word.


rule build_commonness:
    input:
        words=WORDS,
        frequency=get_raw("frequency"),
        code=pipeline_code("commonness", "frequency", "words", "parquet"),
    output:
        commonness=COMMONNESS,
    params:
        n_common=config["commonness"]["n_common"],
        width=config["commonness"]["width"],
    log:
        "logs/build_commonness/commonness.log",
    shell:
        "wordle-pipeline build-commonness --words {input.words} --frequency {input.frequency}"
        " --n-common {params.n_common} --width {params.width}"
        " --output {output.commonness} > {log} 2>&1"
