"""Stage of rule rank_opener_part: mode answers, the openers of one part of the word list."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.analysis.openers import two_step
from pipeline.analysis.openers.tables import part_table
from pipeline.artifacts import openers as store
from pipeline.artifacts import patterns as patterns_artifact
from pipeline.artifacts import words as words_artifact
from pipeline.core.errors import PipelineError
from pipeline.core.progress import Progress
from pipeline.core.ties import TIE_TOLERANCE
from pipeline.kernels.opener_search import CountSearch
from pipeline.kernels.threads import map_ranges, thread_count


def rank_opener_part(
    *, words: Path, patterns: Sequence[Path], part: Path, number: int, parts: int, threads: int
) -> None:
    """Mode answers: second guesses and figures of the openers of part `number` of
    `parts` (every `parts`-th word_id), written as a part file for the merge."""
    index = words_artifact.read_word_index(words)
    matrix = patterns_artifact.read_pattern_matrix(patterns, index, words, columns="answers")
    try:
        openers = two_step.part_openers(len(index.words), number, parts)
    except ValueError as error:
        raise PipelineError(str(error)) from None
    search = CountSearch(matrix.full(), index.answer_rows, index.encoded)
    progress = Progress(f"answers openers, part {number} of {parts}", len(openers))

    def solve(first: int, last: int) -> list[two_step.SecondGuesses]:
        results = []
        for opener in openers[first:last]:
            results.append(two_step.answer_second_guesses(search, int(opener)))
            progress.advance()
        return results

    count = len(openers)
    results = map_ranges(solve, 0, count, thread_count(threads, count, count, 8))
    store.write_part(
        part_table("answers", index.words, results),
        part,
        inputs={"words": words, "patterns": patterns[0]},
        settings={
            "mode": "answers",
            "part": number,
            "parts": parts,
            "tie_tolerance": TIE_TOLERANCE,
        },
    )
