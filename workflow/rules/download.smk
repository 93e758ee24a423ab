# Raw inputs: downloaded from pinned sources, copied from a mirror folder, or local files.
# A fetch reruns exactly when its source entry changes (the spec param) or, for a local
# source, when the user's file changes (an input). Where bytes are read from (network,
# mirror, local copy) is deliberately not a param, so it never reruns anything.


rule fetch_source:
    input:
        local=get_local_source,
    output:
        raw=sealed(catalog.RAW),
    params:
        code("pipeline.stages.fetch_source"),
        name=lambda wildcards: wildcards.source,
        spec=get_source_spec,
        timeout=config["download"]["timeout"],
        retries=config["download"]["retries"],
        deadline=config["download"]["deadline"],
    message:
        JOB_MESSAGE
    log:
        "logs/fetch_source/{source}.log",
    benchmark:
        "logs/benchmarks/fetch_source/{source}.tsv"
    script:
        "../scripts/fetch_source.py"
