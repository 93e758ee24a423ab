# The word index: the row (guess) and column (answer) order of every matrix.


checkpoint build_word_index:
    input:
        allowed=get_raw("allowed"),
        answers=get_raw("answers"),
        code=pipeline_code("words", "parquet"),
    output:
        words=WORDS,
    log:
        "logs/build_word_index/words.log",
    shell:
        "wordle-pipeline build-word-index --allowed {input.allowed} --answers {input.answers}"
        " --output {output.words} > {log} 2>&1"
