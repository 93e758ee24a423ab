# Two-step opener rankings: every opener, with the best second guess for every reply.
# Openers are split into config openers.parts jobs; prior mode ranks the top K in one job.
# The part files stay in data/work/ (not artifacts): when only the prior part must be
# redone (a new frequency file), the expensive answers-mode parts are reused.


rule rank_opener_part:
    input:
        words=WORDS,
        patterns=lambda wildcards: pattern_files("patterns"),
        code=pipeline_code("openers", "matrix", "patterns", "words", "parquet"),
    output:
        part="data/work/opener_parts/answers-{part}.parquet",
    params:
        parts=config["openers"]["parts"],
    threads: 1
    resources:
        mem_mb=1000,
    log:
        "logs/rank_opener_part/answers-{part}.log",
    shell:
        "wordle-pipeline rank-opener-part --words {input.words} --patterns {input.patterns[0]}"
        " --part {wildcards.part} --parts {params.parts} --output {output.part} > {log} 2>&1"


rule rank_prior_openers:
    input:
        words=WORDS,
        commonness=COMMONNESS,
        code=pipeline_code("openers", "patterns", "words", "parquet"),
    output:
        part="data/work/opener_parts/prior.parquet",
    params:
        top_k=config["openers"]["prior_top_k"],
    threads: 1
    resources:
        mem_mb=1500,
    log:
        "logs/rank_prior_openers/prior.log",
    shell:
        "wordle-pipeline rank-prior-openers --words {input.words}"
        " --commonness {input.commonness} --top-k {params.top_k}"
        " --output {output.part} > {log} 2>&1"


rule merge_opener_rankings:
    input:
        words=WORDS,
        parts=get_opener_parts(),
        code=pipeline_code("openers", "parquet"),
    output:
        openers=OPENERS,
        second_guesses=SECOND_GUESSES,
    log:
        "logs/merge_opener_rankings/openers.log",
    shell:
        "wordle-pipeline merge-opener-rankings --words {input.words} --parts {input.parts}"
        " --openers {output.openers} --second-guesses {output.second_guesses} > {log} 2>&1"
