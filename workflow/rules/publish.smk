# Publishing: the Data Package descriptor that lets anyone verify and read the artifacts,
# the DuckDB script that shows every column's description where DuckDB users look, and
# the dataset card a Hugging Face dataset repository shows.


rule build_datapackage:
    input:
        artifacts=get_sealed_artifacts,
        raw=get_edition_raw,
    output:
        datapackage=sealed(catalog.DATAPACKAGE),
        schema=sealed(catalog.DUCKDB_SCHEMA),
        card=sealed(catalog.DATASET_CARD),
        croissant=expand_editions(catalog.CROISSANT),
    params:
        code("pipeline.stages.build_datapackage"),
        config=get_published_config(),
        editions=enabled_editions(config),
    message:
        JOB_MESSAGE
    log:
        "logs/build_datapackage/datapackage.log",
    benchmark:
        "logs/benchmarks/build_datapackage/datapackage.tsv"
    script:
        "../scripts/build_datapackage.py"
