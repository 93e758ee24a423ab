"""The artifact layer: one writer and one reader per artifact, with its path and schema.

Every file the pipeline writes is sealed (pipeline.artifacts.seal): a reader never uses
a file it did not check against its seal.
"""
