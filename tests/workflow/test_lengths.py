"""Every documented word length runs through the default workflow: small lists of 1, 6 and
10 letters build every artifact, and the optimal stage's proven totals equal a brute force
over all trees (tests.support.optimal_reference) in both modes. One-letter words
have no tree that wins 8 answers within 6 guesses (a reply says only right or wrong), so there the
optimal strategies play no games and the run still completes."""

from __future__ import annotations

import random

import polars as pl
import pytest

from pipeline.artifacts import benchmark as store
from tests.support.fixtures import FIXTURE_UNTIL, history_days, history_json
from tests.support.optimal_reference import INF, BruteForce
from tests.support.workflow_helpers import EDITION, make_checkout, snakemake


def word_lists(length: int) -> tuple[list[str], list[str]]:
    """16 allowed words (7 of them answers); 1-letter: 12 letters and 8 answers."""
    if length == 1:
        letters = list("abcdefghijkl")
        return letters, letters[:8]
    rng = random.Random(length)
    stem = "".join(rng.choice("abcdefghij") for _ in range(length - 1))
    answers = sorted({stem[:2] + c + stem[2:] for c in "klmnopq"})
    words = set(answers)
    while len(words) < 16:
        words.add("".join(rng.choice("abcdefghijklmnopq") for _ in range(length)))
    return sorted(words), answers


def write_mirror(checkout, allowed: list[str], answers: list[str]) -> None:
    mirror = checkout / "mirror"
    (mirror / "allowed.txt").write_text("\n".join(allowed) + "\n")
    (mirror / "answers.txt").write_text("\n".join(answers) + "\n")
    counts = "".join(f"{word},{1000 * (i + 1)}\n" for i, word in enumerate(allowed))
    (mirror / "unigram_freq.csv").write_text("word,count\n" + counts)
    # The edition's answers are [answers, history]: dated answers of this length, whose
    # days up to the fixture's history.until add no answer.
    played, until = history_days(allowed, answers)
    assert until == FIXTURE_UNTIL
    (mirror / "history" / "wordle_solutions.json").write_text(history_json(played))


@pytest.mark.parametrize("length", [6, 10, 1])
def test_every_length_runs_end_to_end(tmp_path, length):
    allowed, answers = word_lists(length)
    checkout = make_checkout(tmp_path / "c")
    write_mirror(checkout, allowed, answers)
    snakemake(checkout)
    derived = checkout / "data" / "derived"
    assert (derived / "datapackage.json").is_file()
    words = sorted(set(allowed) | set(answers))
    openers = pl.read_parquet(derived / EDITION / "optimal_openers.parquet")
    summary = pl.from_arrow(store.read_summary(derived / EDITION / "benchmark_summary.parquet"))
    for mode in ("normal", "hard"):
        rows = openers.filter(pl.col("mode") == mode)
        assert rows["opener"].sort().to_list() == words  # every word, certified by default
        reference = BruteForce(words, answers, mode == "hard")
        for row in rows.iter_rows(named=True):
            expected = reference.opener(words.index(row["opener"]), 6)
            if row["proven"]:
                assert row["total_guesses"] == (None if expected == INF else expected)
            else:  # bounded above the top list, never above its optimum
                assert row["total_guesses"] is None and row["lower_bound"] <= expected
        top = rows.filter("in_top")["total_guesses"]  # certified: below every other bound
        assert top.len() == 0 or top.max() < rows.filter(~pl.col("in_top"))["lower_bound"].min()
        best = rows["total_guesses"].min()
        strategy = "optimal" if mode == "normal" else "optimal_hard"
        played = summary.filter(pl.col("strategy") == strategy)
        if best is None:  # every opener proven to have no tree within 6 guesses
            assert length == 1 and played.height == 0
            assert rows["reason"].str.starts_with("no tree wins every answer within 6").all()
        else:
            assert played["total_guesses"].to_list() == [best]
