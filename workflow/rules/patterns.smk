# The guess x answer feedback-pattern matrix, one job per chunk of guess rows.


rule compute_pattern_chunk:
    input:
        words=sealed(catalog.WORDS),
    output:
        chunk=sealed(catalog.MATRIX_CHUNK),
    params:
        code("pipeline.stages.compute_pattern_chunk"),
        matrix=lambda wildcards: wildcards.matrix,
        number=lambda wildcards: int(wildcards.chunk),
        chunk_rows=config["patterns"]["chunk_rows"],
        zstd_level=config["patterns"]["zstd_level"],
    resources:
        mem_mb=get_chunk_mem_mb,
    message:
        JOB_MESSAGE
    log:
        "logs/compute_pattern_chunk/{edition}/{matrix}-{chunk}.log",
    benchmark:
        "logs/benchmarks/compute_pattern_chunk/{edition}/{matrix}-{chunk}.tsv"
    script:
        "../scripts/compute_pattern_chunk.py"


rule index_pattern_chunks:
    input:
        words=sealed(catalog.WORDS),
        chunks=get_pattern_chunks,
    output:
        index=sealed(catalog.MATRIX_INDEX),
    params:
        code("pipeline.stages.index_pattern_chunks"),
        matrix=lambda wildcards: wildcards.matrix,
        chunk_rows=config["patterns"]["chunk_rows"],
    message:
        JOB_MESSAGE
    log:
        "logs/index_pattern_chunks/{edition}/{matrix}.log",
    benchmark:
        "logs/benchmarks/index_pattern_chunks/{edition}/{matrix}.tsv"
    script:
        "../scripts/index_pattern_chunks.py"
