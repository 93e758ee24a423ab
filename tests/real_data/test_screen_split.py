"""Issue 62's measurement M0 (benchmarks/screen_split.py) on the real lists: its saved
sample holds the words the hard-mode bound pass leaves at or below T (their published
totals: the counts measured, every opener of the top 20 among them), and the timed
sample is the seeded one; a few words are bounded
again here, on both sides of T."""

from __future__ import annotations

import json
import random

import numpy as np

from benchmarks import screen_split as ss


def test_the_saved_sample_is_labelled_and_reproducible(mirror):
    sample = json.loads(ss.SAMPLE_PATH.read_text())
    lists, published = ss.read_lists(mirror)
    below = ss.labels(sample, published)
    assert sample["threshold"] == ss.threshold(published) == 11700
    assert sample["at_or_below"] == sorted(below)
    assert sample["sample"] == ss.seeded_sample(below, 100)
    infeasible = sum(total is None for total in below.values())
    assert (len(below), infeasible) == (5102, 2868)
    top = {word for word, total in published.items() if total is not None and total <= 11700}
    assert len(top) == 20 and top <= set(below)  # no bound exceeds a published total
    rng = random.Random(1)
    inside = rng.sample(sorted(below), 3)
    outside = rng.sample(sorted(set(lists.words) - set(below)), 3)
    rows = np.array([lists.words.index(word) for word in inside + outside], dtype=np.int64)
    bounds = ss.hard_bounds(lists, rows, sample["cap"], threads=1).tolist()
    assert all(bound <= sample["threshold"] for bound in bounds[:3]), (inside, bounds)
    assert all(bound > sample["threshold"] for bound in bounds[3:]), (outside, bounds)
