# Raw inputs: downloaded from pinned sources, or copied from a mirror folder.


rule fetch_source:
    input:
        code=pipeline_code("sources"),
    output:
        raw="data/raw/{source}.txt",
        provenance="data/raw/{source}.provenance.json",
    params:
        spec=get_source_spec,
        fingerprint=get_source_fingerprint,
        timeout=config["download"]["timeout"],
        retries=config["download"]["retries"],
    log:
        "logs/fetch_source/{source}.log",
    shell:
        "{PIPELINE} fetch-source --name {wildcards.source} --spec {params.spec:q}"
        " --mirror {MIRROR:q} --fingerprint {params.fingerprint:q}"
        " --timeout {params.timeout} --retries {params.retries}"
        " --output {output.raw} --provenance {output.provenance} > {log} 2>&1"
