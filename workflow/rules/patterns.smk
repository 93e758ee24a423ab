# The guess x answer feedback-pattern matrix, one job per chunk of guess rows.


rule compute_pattern_chunk:
    input:
        code("pipeline.stages.compute_pattern_chunk"),
        words=sealed(WORDS),
    output:
        chunk=sealed("data/derived/{matrix}/chunk-{chunk}.npy.zst"),
    params:
        matrix=lambda wildcards: wildcards.matrix,
        number=lambda wildcards: int(wildcards.chunk),
        chunk_rows=config["patterns"]["chunk_rows"],
        zstd_level=config["patterns"]["zstd_level"],
    resources:
        mem_mb=get_chunk_mem_mb,
    log:
        "logs/compute_pattern_chunk/{matrix}-{chunk}.log",
    benchmark:
        "logs/benchmarks/compute_pattern_chunk/{matrix}-{chunk}.tsv"
    script:
        "../scripts/compute_pattern_chunk.py"


rule index_pattern_chunks:
    input:
        code("pipeline.stages.index_pattern_chunks"),
        words=sealed(WORDS),
        chunks=get_pattern_chunks,
    output:
        index=sealed("data/derived/{matrix}/index.json"),
    params:
        matrix=lambda wildcards: wildcards.matrix,
        chunk_rows=config["patterns"]["chunk_rows"],
    log:
        "logs/index_pattern_chunks/{matrix}.log",
    benchmark:
        "logs/benchmarks/index_pattern_chunks/{matrix}.tsv"
    script:
        "../scripts/index_pattern_chunks.py"
