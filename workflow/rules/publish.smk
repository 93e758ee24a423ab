# Publishing: the Data Package descriptor that lets anyone verify and read the artifacts.


rule build_datapackage:
    input:
        code("pipeline.stages.build_datapackage"),
        artifacts=get_sealed_artifacts,
        raw=sealed(*[layout.raw(source) for source in SOURCES]),
    output:
        datapackage=sealed(DATAPACKAGE),
    params:
        config=get_published_config(),
    log:
        "logs/build_datapackage/datapackage.log",
    benchmark:
        "logs/benchmarks/build_datapackage/datapackage.tsv"
    script:
        "../scripts/build_datapackage.py"
