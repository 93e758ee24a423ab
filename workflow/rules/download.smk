# Raw inputs: downloaded from pinned sources, or copied from a mirror folder.
# The job reruns exactly when the bytes it would read change (params.fingerprint) or the
# source entry itself changes; a touched file, a moved mirror or an edit of the download
# code rebuilds nothing, because identical bytes must not rerun the whole pipeline.


rule fetch_source:
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
        "wordle-pipeline fetch-source --name {wildcards.source} --spec {params.spec:q}"
        " --fingerprint {params.fingerprint:q}"
        " --timeout {params.timeout} --retries {params.retries}"
        " --output {output.raw} --provenance {output.provenance} > {log} 2>&1"
