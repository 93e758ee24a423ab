# Publishing: the manifest that lets anyone verify and read the artifacts.


rule build_manifest:
    input:
        artifacts=get_artifacts,
        provenance=expand("data/raw/{source}.provenance.json", source=SOURCES),
        code=pipeline_code("manifest", "parquet"),
    output:
        manifest=MANIFEST,
    params:
        config=get_manifest_config(),
    log:
        "logs/build_manifest/manifest.log",
    shell:
        "wordle-pipeline build-manifest --artifacts {input.artifacts}"
        " --provenance {input.provenance} --config {params.config:q}"
        " --output {output.manifest} > {log} 2>&1"
