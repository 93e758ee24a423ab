# The word index: the row (guess) and column (answer) order of every matrix.


checkpoint build_word_index:
    input:
        allowed=get_word_list("allowed"),
        answers=get_word_list("answers"),
    output:
        words=sealed(catalog.WORDS),
    params:
        code("pipeline.stages.build_word_index"),
        until=history_until,
    message:
        JOB_MESSAGE
    log:
        "logs/build_word_index/{edition}/words.log",
    benchmark:
        "logs/benchmarks/build_word_index/{edition}/words.tsv"
    script:
        "../scripts/build_word_index.py"


# The answers as the NYT played them, by day, shared by every edition: which editions'
# answer lists hold each one (a column per enabled edition).
rule build_history:
    input:
        source=get_raw(catalog.HISTORY_SOURCE),
        words=expand_editions(catalog.WORDS),
    output:
        history=sealed(catalog.HISTORY),
    params:
        code("pipeline.stages.build_history"),
        editions=enabled_editions(config),
        until=config["history"]["until"],
    message:
        JOB_MESSAGE
    log:
        "logs/build_history/history.log",
    benchmark:
        "logs/benchmarks/build_history/history.tsv"
    script:
        "../scripts/build_history.py"


# The history prior of the edition's answers for the day after history.until (how the
# NYT has drawn them), and the backtest that chose and checks it.
rule build_prior:
    input:
        words=sealed(catalog.WORDS),
        history=sealed(catalog.HISTORY),
    output:
        prior=sealed(catalog.HISTORY_PRIOR),
        backtest_file=sealed(catalog.HISTORY_PRIOR_BACKTEST),
    params:
        code("pipeline.stages.build_prior"),
    message:
        JOB_MESSAGE
    log:
        "logs/build_prior/{edition}/prior.log",
    benchmark:
        "logs/benchmarks/build_prior/{edition}/prior.tsv"
    script:
        "../scripts/build_prior.py"
