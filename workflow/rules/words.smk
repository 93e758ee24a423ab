# The word index: the row (guess) and column (answer) order of every matrix.


checkpoint build_word_index:
    input:
        allowed=get_word_list("allowed"),
        answers=get_word_list("answers"),
    output:
        words=sealed(catalog.WORDS),
    params:
        code("pipeline.stages.build_word_index"),
    message:
        JOB_MESSAGE
    log:
        "logs/build_word_index/{edition}/words.log",
    benchmark:
        "logs/benchmarks/build_word_index/{edition}/words.tsv"
    script:
        "../scripts/build_word_index.py"
