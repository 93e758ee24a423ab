# Two-step opener rankings: every opener, with the best second guess for every reply.
# Openers are dealt out to config openers.parts jobs; prior mode ranks the top K in one job
# (with a part's share of the cores, so it runs beside the parts), once per allowed list,
# for every edition that names it (prior mode never reads the answer list).
# The part files stay in data/work/ (not artifacts): when only the prior part must be
# redone (a new frequency file), the expensive answers-mode parts are reused.


rule rank_opener_part:
    input:
        words=sealed(catalog.WORDS),
        patterns=get_answer_matrix,
    output:
        part=sealed(catalog.ANSWERS_PART),
    params:
        code("pipeline.stages.rank_opener_part"),
        number=lambda wildcards: int(wildcards.part),
        parts=config["openers"]["parts"],
    threads: part_threads()
    priority: PRIORITIES["rank_opener_part"]
    resources:
        mem_mb=1000,
    message:
        JOB_MESSAGE
    log:
        "logs/rank_opener_part/{edition}/answers-{part}.log",
    benchmark:
        "logs/benchmarks/rank_opener_part/{edition}/answers-{part}.tsv"
    script:
        "../scripts/rank_opener_part.py"


rule rank_prior_openers:
    input:
        allowed=sealed(catalog.ALLOWED_LIST),
        commonness=sealed(catalog.COMMONNESS),
        square_entropy=sealed(catalog.SQUARE_ENTROPY),
    output:
        part=sealed(catalog.PRIOR_PART),
    params:
        code("pipeline.stages.rank_prior_openers"),
        prior_top_k=config["openers"]["prior_top_k"],
    threads: part_threads()
    priority: PRIORITIES["rank_prior_openers"]
    resources:
        mem_mb=1500,
    message:
        JOB_MESSAGE
    log:
        "logs/rank_prior_openers/{wordlist}.log",
    benchmark:
        "logs/benchmarks/rank_prior_openers/{wordlist}.tsv"
    script:
        "../scripts/rank_prior_openers.py"


# A checkpoint: the optimal stage's openers are the top of this ranking. It reads only the
# parts' opener figures (about a second), so the solver units that need the ranking alone
# (the opener benchmark) and the optimal searches start before the second guesses are merged.
checkpoint rank_openers:
    input:
        words=sealed(catalog.WORDS),
        parts=get_opener_parts,
    output:
        openers=sealed(catalog.OPENERS),
    params:
        code("pipeline.stages.rank_openers"),
    priority: PRIORITIES["rank_openers"]
    message:
        JOB_MESSAGE
    log:
        "logs/rank_openers/{edition}/openers.log",
    benchmark:
        "logs/benchmarks/rank_openers/{edition}/openers.tsv"
    script:
        "../scripts/rank_openers.py"


rule merge_second_guesses:
    input:
        words=sealed(catalog.WORDS),
        parts=get_opener_parts,
    output:
        second_guesses=sealed(catalog.SECOND_GUESSES),
    params:
        code("pipeline.stages.merge_second_guesses"),
    priority: PRIORITIES["merge_second_guesses"]
    message:
        JOB_MESSAGE
    log:
        "logs/merge_second_guesses/{edition}/second_guesses.log",
    benchmark:
        "logs/benchmarks/merge_second_guesses/{edition}/second_guesses.tsv"
    script:
        "../scripts/merge_second_guesses.py"
