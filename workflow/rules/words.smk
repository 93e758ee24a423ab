# The word index: the row (guess) and column (answer) order of every matrix.


checkpoint build_word_index:
    input:
        code("pipeline.stages.build_word_index"),
        allowed=get_raw("allowed"),
        answers=get_raw("answers"),
    output:
        words=sealed(WORDS),
    log:
        "logs/build_word_index/words.log",
    benchmark:
        "logs/benchmarks/build_word_index/words.tsv"
    script:
        "../scripts/build_word_index.py"
