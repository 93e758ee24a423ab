# Entropy maps: how much each guess tells you, under each assumption about the answer.


rule compute_entropy:
    input:
        words=WORDS,
        commonness=COMMONNESS,
        patterns=lambda wildcards: pattern_files("patterns"),
        square=get_square_pattern_files,
        code=pipeline_code("entropy", "matrix", "patterns", "words", "parquet"),
    output:
        entropy=ENTROPY,
        distribution=PATTERN_DISTRIBUTION,
    params:
        square=lambda wildcards, input: (
            f"--square {input.square[0]}" if input.square else ""
        ),
    threads: 2
    resources:
        mem_mb=1500,
    log:
        "logs/compute_entropy/entropy.log",
    shell:
        "NUMBA_NUM_THREADS={threads} wordle-pipeline compute-entropy --words {input.words}"
        " --commonness {input.commonness} --patterns {input.patterns[0]} {params.square}"
        " --output {output.entropy} --distribution {output.distribution} > {log} 2>&1"
