"""Opener bounds against Alex Selby's published optimum of every opener, on both NYT
answer lists and in both modes (issue 49 point 4), on a seeded sample of the allowed words.

The bound the stage stores (rule bound_openers: `opener_bounds` with cap = T + 1 and the
third level, `DEEPER`) must be at most the published total of its opener on SAMPLE words
per list and mode, and INF (no tree fits in six guesses) only where the published file says
Infinity. T is the published 20th-best total (the stage takes it from its own proofs). The
sample is dealt into CHUNKS tests so that pytest-xdist shares it between its workers.

A smaller uncapped check adds what the capped one cannot see: a capped bound stops adding
buckets once it reaches the cap, so most words' bounds there sum only a few buckets; the
uncapped second level sums them all, and must also be close (not vacuous). The files are
the mirror's `published/results_{easy,hard}_<list>` (README there); the pipeline never
reads them.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from benchmarks.bound_quality import FILE_MODE, read_published
from pipeline.analysis.optimal.certified_top import stop_total
from pipeline.kernels.optimal_search import WordLists, opener_bounds, prepare_lists
from pipeline.stages.bound_openers import DEEPER

SAMPLE = 1000  # words per list and mode, capped as the stage does
CHUNKS = 4  # tests per list and mode
UNCAPPED = 60  # words per list and mode, uncapped
TOP = 20  # the stage's default optimal.top
SEED = 49
# list name in the published files -> its answer list in the mirror
LISTS = {"nyt20220830": "answers.txt", "nyt20230701": "nyt20230701/answers.txt"}


@cache
def word_lists(mirror: Path, name: str) -> WordLists:
    allowed = (mirror / "allowed.txt").read_text(encoding="utf-8").split()
    answers = (mirror / LISTS[name]).read_text(encoding="utf-8").split()
    return prepare_lists(allowed, answers)


@cache
def published_totals(mirror: Path, name: str, mode: str) -> dict[str, int | None]:
    published = read_published(mirror / "published" / f"results_{FILE_MODE[mode]}_{name}")
    assert sorted(published) == word_lists(mirror, name).words  # every allowed word
    return published


def bounded(mirror: Path, name: str, mode: str, words: list[str], cap: int | None
            ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """(partition, second) bounds of `words`, as the stage computes them when capped."""
    w = word_lists(mirror, name)
    rows = np.array([w.words.index(word) for word in words])
    deeper = 0 if cap is None else DEEPER
    return opener_bounds(
        w.matrix, w.answer_rows, w.encoded, rows, hard=mode == "hard", cap=cap, deeper=deeper
    )


def above(words: list[str], bounds: np.ndarray, published: dict[str, int | None]) -> list:
    """(word, bound, total) of every bound above its published total (INF is above any)."""
    pairs = zip(words, bounds.tolist(), strict=True)
    return [(w, b, published[w]) for w, b in pairs if published[w] is not None and b > published[w]]


@pytest.mark.slow
@pytest.mark.mirror
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", sorted(LISTS))
@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_no_stored_bound_is_above_the_published_total(mirror, name, mode, chunk):
    published = published_totals(mirror, name, mode)
    cutoff = stop_total(published.values(), TOP)
    words = random.Random(SEED).sample(sorted(published), SAMPLE)[chunk::CHUNKS]
    first, second = bounded(mirror, name, mode, words, cutoff + 1)
    assert above(words, first, published) == [], "partition bounds above the published total"
    assert above(words, second, published) == [], "bounds above the published total"


@pytest.mark.slow
@pytest.mark.mirror
@pytest.mark.parametrize("name", sorted(LISTS))
@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_no_uncapped_bound_is_above_the_published_total(mirror, name, mode):
    published = published_totals(mirror, name, mode)
    words = random.Random(SEED).sample(sorted(published), UNCAPPED)
    first, second = bounded(mirror, name, mode, words, None)
    assert above(words, second, published) == [], "bounds above the published total"
    assert np.all(first <= second)
    gaps = [
        published[word] / high - 1
        for word, high in zip(words, second.tolist(), strict=True)
        if published[word] is not None
    ]
    assert gaps and max(gaps) < 0.15  # not vacuous: close below (at most 10 % measured)
