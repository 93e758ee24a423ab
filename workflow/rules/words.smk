# The word index: the row (guess) and column (answer) order of every matrix.


checkpoint build_word_index:
    input:
        allowed=get_raw("allowed"),
        answers=get_raw("answers"),
    output:
        words=sealed(catalog.WORDS),
    params:
        code("pipeline.stages.build_word_index"),
    message:
        JOB_MESSAGE
    log:
        "logs/build_word_index/words.log",
    benchmark:
        "logs/benchmarks/build_word_index/words.tsv"
    script:
        "../scripts/build_word_index.py"
