"""Reading a checkpoint's output while the job graph is built: whether it is done for this
run, and the word index behind its checkpoint."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from snakemake.exceptions import IncompleteCheckpointException
from snakemake.io import checkpoint_target

from pipeline.artifacts import seal
from pipeline.artifacts.words import read_word_index
from pipeline.core.errors import PipelineError
from pipeline.core.word_index import WordIndex
from pipeline.plan.config_checks import stop
from pipeline.plan.repair import quarantine, quarantined


def checkpoint_output(checkpoint: Any, name: str, **wildcards: str) -> Any:
    """The sealed output `name` of a checkpoint job, once it is built for this run.

    Snakemake counts a checkpoint's output that exists when the run starts as built. A
    config change on a built folder (optimal.max_guesses, say) reruns the jobs that output
    was built from, so it turns stale while this run is rebuilding it; read then, it
    would fail its seal inside an input function, which Snakemake shows with a traceback.
    A stale output, or one the rerun has removed before rebuilding it, is therefore a
    checkpoint not done yet: Snakemake waits for its job and asks again.
    """
    path, path_seal = getattr(checkpoint.get(**wildcards).output, name)
    not_done = IncompleteCheckpointException(checkpoint.rule, checkpoint_target(path))
    for file in (path, path_seal):
        if not file.is_storage and not os.path.exists(file):
            raise not_done
        with file.open("rb"):  # Snakemake fetches it first from remote storage, if any
            pass
    if is_stale(path):
        raise not_done
    return path


def checkpoint_word_index(checkpoint: Any, edition: str, *, main_process: bool,
                          dry_run: bool) -> WordIndex:  # fmt: skip
    """The word index of `edition` (the output `words` of `checkpoint`), once it is built.

    Opened through Snakemake (IOFile.open): with a default storage provider the file and
    its seal live in the bucket, and their local copies may be gone in a later run. An
    index that is sealed but unreadable stops the run as one line (Snakemake shows an
    input function's error with a traceback), moved aside like any damaged file (not in
    a dry run, nor by a process other than the main one), so the next run rebuilds it.
    """
    words, words_seal = checkpoint.get(edition=edition).output.words
    for file in (words, words_seal):
        with file.open("rb"):
            pass
    try:
        return word_index(str(words))
    except PipelineError as error:
        problem = str(error).removesuffix(f"; {seal.REBUILD_HINT}")
        if not (main_process and os.path.isfile(words)):
            stop(f"wordle: {error}")
        if dry_run:
            stop(f"wordle: {problem}; a run without -n moves it to {quarantined(words)}")
        stop(f"wordle: {problem}; moved it to {quarantine(words)}: run snakemake again")


def word_index(path: str) -> WordIndex:
    """The checked word index (read_word_index), read once per version (mtime and size) of
    the file and its seal: the input functions of about 70 jobs ask for it each time
    Snakemake updates the job graph (after each checkpoint, while the run waits)."""
    files = (Path(path), seal.seal_path(path))
    return _read_word_index(path, tuple((f.stat().st_mtime_ns, f.stat().st_size) for f in files))


@cache
def _read_word_index(path: str, versions: tuple[tuple[int, int], ...]) -> WordIndex:
    return read_word_index(path)


def is_stale(path: str | Path) -> bool:
    """Whether `path` matches its seal but one of its inputs changed since: in a running
    workflow, a file whose inputs are being rebuilt, so it will be rebuilt too (an input
    function must wait for it, not read it)."""
    return seal.problem(path, check_inputs=False) is None and seal.problem(path) is not None
