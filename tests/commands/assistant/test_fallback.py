"""The assistant never strands a player whose answer is outside the edition's list.

The NYT played loris (2025-07-18), kefir (2025-08-13), spitz (2026-06-10) and capon
(2026-08-26), allowed guesses that nyt2023's 3,158 answers lack. On the real lists (the
mirror), a player who follows the first suggestion every turn, from tarse and from
crane, in both modes, wins each game: once the replies rule out every answer, the
assistant plays on over every allowed word consistent with them, weighted by
commonness (pipeline.analysis.advice.fallback), and says so.

The commonness is the pipeline's (the mirror's frequency file, the default sigmoid);
the score model's curve, which only orders the fallback's guesses, is a fixed one of
its shape (the commonness strategy's mean guesses left against bits), so the test
needs no built artifacts.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from pipeline.analysis.advice.estimate import ScoreCurve
from pipeline.analysis.words.commonness import commonness_table
from pipeline.analysis.words.frequency import parse_frequency_counts
from pipeline.commands.assistant.advisor import Advisor
from pipeline.core import hard_mode
from pipeline.core.wordle import MAX_GUESSES, pattern_string
from tests.support.advice_play import InMemoryData
from tests.support.assistant_fixture import WORDS, run
from tests.support.naive import feedback

PLAYED = ["loris", "kefir", "spitz", "capon"]  # NYT answers outside nyt2023's list
CURVE = ScoreCurve.from_bins(
    np.array([1.0, 2, 3, 4, 5, 6, 7, 8, 10, 12]),
    np.array([1.5, 1.9, 2.2, 2.5, 2.8, 3.1, 3.4, 3.7, 4.3, 4.9]),
    "commonness",
)
# (mode, opener, answer) -> guesses used, measured; every game is won within six
GUESSES = {
    ("normal", "tarse", "loris"): 4, ("normal", "tarse", "kefir"): 3,
    ("normal", "tarse", "spitz"): 3, ("normal", "tarse", "capon"): 6,
    ("normal", "crane", "loris"): 5, ("normal", "crane", "kefir"): 5,
    ("normal", "crane", "spitz"): 5, ("normal", "crane", "capon"): 5,
    ("hard", "tarse", "loris"): 6, ("hard", "tarse", "kefir"): 4,
    ("hard", "tarse", "spitz"): 5, ("hard", "tarse", "capon"): 6,
    ("hard", "crane", "loris"): 6, ("hard", "crane", "kefir"): 4,
    ("hard", "crane", "spitz"): 5, ("hard", "crane", "capon"): 5,
}  # fmt: skip


@pytest.fixture(scope="module")
def nyt2023(mirror):
    allowed = (mirror / "allowed.txt").read_text().split()
    answers = (mirror / "nyt20230701" / "answers.txt").read_text().split()
    assert not set(PLAYED) & set(answers) and set(PLAYED) <= set(allowed)
    data = InMemoryData.from_lists(allowed, answers)
    words = list(data.index.words)
    frequency = mirror / "unigram_freq.csv"
    counts = parse_frequency_counts(frequency.read_bytes(), str(frequency), words)
    data.p_common = commonness_table(words, counts, 3000, 10.0)["p_common"].to_numpy()
    data._cache["score_model"] = {"commonness": CURVE}
    return data


@pytest.fixture(scope="module")
def advisors(nyt2023):
    return {mode: Advisor(nyt2023, hard=mode == "hard", top=3) for mode in ("normal", "hard")}


def follow(advisor: Advisor, opener: str, answer: str) -> tuple[list[str], list[bool]]:
    """The guesses of a player who plays `opener`, then the first suggestion each turn;
    and, after each guess, whether the assistant has fallen back to the allowed words."""
    turns, guesses, fell_back = [], [], []
    guess = opener
    while True:
        turn = advisor.turn(len(turns) + 1, guess, pattern_string(feedback(guess, answer), 5))
        advisor.check_legal(turns, turn)  # hard mode: the suggestion keeps every hint
        turns.append(turn)
        guesses.append(guess)
        state = advisor.states(turns)[-1]
        fell_back.append(state.fallback)
        if guess == answer or len(turns) == MAX_GUESSES:
            return guesses, fell_back
        guess = advisor.data.index.words[advisor.table(state).order[0]]


@pytest.mark.mirror
@pytest.mark.parametrize(("mode", "opener", "answer"), sorted(GUESSES))
def test_an_answer_outside_the_list_is_still_won(advisors, mode, opener, answer):
    advisor = advisors[mode]
    guesses, fell_back = follow(advisor, opener, answer)
    assert guesses[-1] == answer, guesses
    assert len(guesses) == GUESSES[mode, opener, answer], guesses
    assert fell_back[-1] and not all(fell_back)  # played on after the list ran out
    if mode == "hard":  # every guess kept the hints of the turns before it
        for k in range(1, len(guesses)):
            turns = advisor.turns(
                [(g, pattern_string(feedback(g, answer), 5)) for g in guesses[: k + 1]]
            )
            rule = advisor.rule(turns[:k])
            assert not hard_mode.violation(advisor.encoded[turns[k].word_id], rule)


@pytest.mark.parametrize("hard", [False, True])
def test_the_command_plays_on_and_says_so(trees, capsys, hard):
    """On the assistant's fixture nanny is allowed but no answer: tarse leaves mamma, whose
    reply fits no answer; --json says fallback "allowed" from then on, no E is shown, and
    following the first suggestion wins in three."""
    mode = ["--hard"] if hard else []
    argv = ["--data", str(trees), "--json", *mode]
    turns: list[str] = []
    guess, seen = "tarse", []
    for _ in range(MAX_GUESSES):
        turns += [guess, pattern_string(feedback(guess, "nanny"), 5)]
        fallback, document = fallback_of(capsys, argv, turns)
        seen.append(fallback)
        if document["solved"]:
            break
        rows = document["suggestions"]
        if fallback:
            assert document["notes"][0].startswith(
                "no word of this edition's answer list fits these replies: playing on over "
                f"all {len(WORDS)} allowed words, weighted by commonness"
            )
            assert all(r["expected_guesses"] is None for r in rows)
            assert all(r["evidence"] == "estimate" for r in rows)
        guess = rows[0]["guess"]
    assert [t["guess"] for t in document["turns"]] == ["tarse", "mamma", "nanny"]
    assert seen == [None, "allowed", "allowed"]
    status, out, _ = run(capsys, *argv[:2], *mode, *turns[:4])
    assert status == 0 and "note: no word of this edition's answer list fits" in out
    assert "ordered by an estimate (no exact E in the fallback)" in out


def fallback_of(capsys, argv: list[str], turns: list[str]) -> tuple[str | None, dict]:
    status, out, err = run(capsys, *argv, *turns)
    assert status == 0, err
    document = json.loads(out)
    return document["fallback"], document
