# Solver benchmark: every strategy played against every answer, and the report's plots.


rule play_benchmarks:
    input:
        words=WORDS,
        commonness=COMMONNESS,
        patterns=lambda wildcards: pattern_files("patterns"),
        openers=OPENERS,
        second_guesses=SECOND_GUESSES,
        code=pipeline_code("solver", "matrix", "patterns", "words", "parquet"),
    output:
        games=BENCHMARK_GAMES,
        summary=BENCHMARK_SUMMARY,
        score_model=SCORE_MODEL,
    params:
        settings=json.dumps(config["solver"], sort_keys=True),
    threads: 2
    resources:
        mem_mb=2000,
    log:
        "logs/play_benchmarks/benchmarks.log",
    shell:
        "wordle-pipeline play-benchmarks --words {input.words} --commonness {input.commonness}"
        " --patterns {input.patterns[0]} --settings {params.settings:q}"
        " --openers {input.openers} --second-guesses {input.second_guesses}"
        " --games {output.games} --summary {output.summary}"
        " --score-model {output.score_model} > {log} 2>&1"


rule plot_report:
    input:
        artifacts=get_plot_inputs,
        code=pipeline_code("report"),
    output:
        plot=report(
            "data/derived/plots/{plot}.png",
            caption="../report/plot.rst",
            category="Plots",
        ),
    log:
        "logs/plot_report/{plot}.log",
    shell:
        "wordle-pipeline plot {wildcards.plot} --inputs {input.artifacts}"
        " --output {output.plot} > {log} 2>&1"
