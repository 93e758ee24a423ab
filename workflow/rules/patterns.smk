# The guess x answer feedback-pattern matrix, one job per chunk of guess rows.


rule compute_pattern_chunk:
    input:
        words=WORDS,
        code=pipeline_code("matrix", "patterns", "words"),
    output:
        chunk="data/derived/{matrix}/chunk-{chunk}.npy.zst",
    params:
        columns=lambda wildcards: PATTERN_MATRICES[wildcards.matrix],
        chunk_rows=config["patterns"]["chunk_rows"],
        zstd_level=config["patterns"]["zstd_level"],
    threads: 1
    resources:
        mem_mb=get_chunk_mem_mb,
    log:
        "logs/compute_pattern_chunk/{matrix}-{chunk}.log",
    shell:
        "wordle-pipeline compute-pattern-chunk --words {input.words} --chunk {wildcards.chunk}"
        " --chunk-rows {params.chunk_rows} --columns {params.columns}"
        " --zstd-level {params.zstd_level} --output {output.chunk} > {log} 2>&1"


rule index_pattern_chunks:
    input:
        words=WORDS,
        chunks=get_pattern_chunks,
        code=pipeline_code("matrix"),
    output:
        index="data/derived/{matrix}/index.json",
    params:
        columns=lambda wildcards: PATTERN_MATRICES[wildcards.matrix],
        chunk_rows=config["patterns"]["chunk_rows"],
    log:
        "logs/index_pattern_chunks/{matrix}.log",
    shell:
        "wordle-pipeline index-pattern-chunks --words {input.words} --chunks {input.chunks}"
        " --chunk-rows {params.chunk_rows} --columns {params.columns}"
        " --output {output.index} > {log} 2>&1"
