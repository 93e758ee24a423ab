# Solver benchmark: every strategy played against every answer. Each strategy, and each
# share of the opener benchmark's openers, is a job of its own (a "unit"); their games are
# merged in a fixed order, so the split changes no byte of any artifact.


rule play_strategy:
    input:
        words=sealed(catalog.WORDS),
        commonness=get_commonness,
        patterns=get_answer_matrix,
        openers=get_unit_file(catalog.OPENERS, needs_rankings),
        second_guesses=get_unit_file(catalog.SECOND_GUESSES, needs_second_guesses),
        optimal_openers=get_unit_file(catalog.OPTIMAL_OPENERS, needs_optimal),
        optimal_trees=get_unit_file(catalog.OPTIMAL_TREES, needs_optimal),
    output:
        games=sealed(catalog.GAMES),
    params:
        code("pipeline.stages.play_strategy"),
        strategy=lambda wildcards: PLAY_UNITS[wildcards.unit]["strategy"],
        opener_slice=lambda wildcards: PLAY_UNITS[wildcards.unit]["opener_slice"],
        max_turns=config["solver"]["max_turns"],
    threads: unit_threads()
    priority: play_priority
    resources:
        mem_mb=1500,
    message:
        JOB_MESSAGE
    log:
        "logs/play_strategy/{edition}/{unit}.log",
    benchmark:
        "logs/benchmarks/play_strategy/{edition}/{unit}.tsv"
    script:
        "../scripts/play_strategy.py"


rule summarize_benchmarks:
    input:
        parts=sealed(*[catalog.GAMES.replace("{unit}", unit) for unit in PLAY_UNITS]),
        optimal_openers=get_optimum_openers,
    output:
        games=sealed(catalog.BENCHMARK_GAMES),
        summary=sealed(catalog.BENCHMARK_SUMMARY),
        score_model=sealed(catalog.SCORE_MODEL),
    params:
        code("pipeline.stages.summarize_benchmarks"),
        max_turns=config["solver"]["max_turns"],
        bin_bits=config["solver"]["bin_bits"],
        strategies=config["solver"]["strategies"],
    message:
        JOB_MESSAGE
    log:
        "logs/summarize_benchmarks/{edition}/benchmarks.log",
    benchmark:
        "logs/benchmarks/summarize_benchmarks/{edition}/benchmarks.tsv"
    script:
        "../scripts/summarize_benchmarks.py"


rule play_history:
    input:
        history=sealed(catalog.HISTORY),
        words=sealed(catalog.WORDS),
        commonness=get_commonness,
        patterns=get_answer_matrix,
        games=sealed(catalog.BENCHMARK_GAMES),
        score_model=sealed(catalog.SCORE_MODEL),
        openers=get_played_file(catalog.OPENERS, needs_rankings),
        second_guesses=get_played_file(catalog.SECOND_GUESSES, needs_second_guesses),
        optimal_openers=get_played_file(catalog.OPTIMAL_OPENERS, needs_optimal),
        optimal_trees=get_played_file(catalog.OPTIMAL_TREES, needs_optimal),
    output:
        benchmark_history=sealed(catalog.BENCHMARK_HISTORY),
        summary=sealed(catalog.BENCHMARK_HISTORY_SUMMARY),
    params:
        code("pipeline.stages.play_history"),
        strategies=config["solver"]["strategies"],
        max_turns=config["solver"]["max_turns"],
    resources:
        mem_mb=1500,
    message:
        JOB_MESSAGE
    log:
        "logs/play_history/{edition}/history.log",
    benchmark:
        "logs/benchmarks/play_history/{edition}/history.tsv"
    script:
        "../scripts/play_history.py"
