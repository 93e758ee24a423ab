"""The history prior (pipeline.analysis.history.prior): integer class weights computed by hand on
small histories, positive weights whatever the history, no look-ahead, the backtest's
scores equal to the prior the pipeline would use, and on the real archive a prior that
beats the uniform one out of sample."""

from __future__ import annotations

import datetime as dt
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from pipeline.analysis.history.archive import History, parse_history
from pipeline.analysis.history.prior import (
    Scores,
    backtest,
    choose_window,
    class_weights,
    history_prior,
    online_choices,
    repeat_rate,
    score_days,
    uniform_prior,
)
from pipeline.analysis.words.word_lists import parse_word_list

DAY0 = dt.date(2024, 1, 1)
ANSWERS = ("aaaaa", "bbbbb", "ccccc", "ddddd")


def days(words: list[str]) -> History:
    """A history of consecutive days from DAY0."""
    dates = tuple(DAY0 + dt.timedelta(days=n) for n in range(len(words)))
    return History("h.json", dates, tuple(words))


def many_words(count: int) -> list[str]:
    return ["".join(letters) for letters in itertools.islice(
        itertools.product("abcdefghijklmnopqrstuvwxyz", repeat=5), count)]  # fmt: skip


# aaaaa, bbbbb, aaaaa again (a repeat), zzzzz (off the list: counts for the rate only)
SMALL = days(["aaaaa", "bbbbb", "aaaaa", "zzzzz"])
AFTER = DAY0 + dt.timedelta(days=4)


def test_all_days_by_hand():
    """1 repeat in 4 days: p = 1.5 / 5 = 3/10; 2 played, 2 unplayed: per-word ratio
    (3/10 / 2) / (7/10 / 2) = 3/7, so played 3, unplayed 7."""
    prior = history_prior(SMALL, ANSWERS, AFTER, None)
    assert prior.repeat_rate == Fraction(3, 10)
    assert (prior.played_weight, prior.unplayed_weight) == (3, 7)
    assert prior.weights.dtype == np.int64 and prior.weights.tolist() == [3, 3, 7, 7]
    assert prior.played.tolist() == [True, True, False, False]
    assert prior.times_played.tolist() == [2, 1, 0, 0]
    assert prior.last_played == (DAY0 + dt.timedelta(days=2), DAY0 + dt.timedelta(days=1),
                                 None, None)  # fmt: skip
    assert prior.words == ANSWERS and prior.day == AFTER and prior.window is None


def test_windows_by_hand():
    """Window 2 (a repeat, zzzzz): p = 1.5 / 3 = 1/2, ratio 1. Window 1 (zzzzz): p = 1/4,
    ratio (1/4) / (3/4) = 1/3."""
    two = history_prior(SMALL, ANSWERS, AFTER, 2)
    assert two.repeat_rate == Fraction(1, 2) and two.weights.tolist() == [1, 1, 1, 1]
    one = history_prior(SMALL, ANSWERS, AFTER, 1)
    assert one.repeat_rate == Fraction(1, 4) and one.weights.tolist() == [1, 1, 3, 3]
    assert history_prior(SMALL, ANSWERS, AFTER, 100).weights.tolist() == [3, 3, 7, 7]


def test_played_words_weigh_more_when_repeats_are_common():
    """aaaaa three times: p = 2.5 / 4 = 5/8; 1 played, 4 unplayed: ratio
    (5/8) / (3/8 / 4) = 20/3, so played 20, unplayed 3."""
    history = days(["aaaaa"] * 3)
    answers = (*ANSWERS, "eeeee")
    prior = history_prior(history, answers, DAY0 + dt.timedelta(days=3), None)
    assert prior.repeat_rate == Fraction(5, 8)
    assert prior.weights.tolist() == [20, 3, 3, 3, 3]


def test_no_repeat_at_all_keeps_both_classes_positive():
    """2,999 new answers: p = 0.5 / 3000 is clamped to 1/1000; the ratio (1/1000) /
    (999/1000 * 2999) rounds to 0 and is floored to 1/1000: played 1, unplayed 1000."""
    words = many_words(3000)
    history = days(words[:2999])
    prior = history_prior(history, words, DAY0 + dt.timedelta(days=2999), None)
    assert prior.repeat_rate == Fraction(1, 1000)
    assert (prior.played_weight, prior.unplayed_weight) == (1, 1000)
    assert prior.weights.min() == 1 and prior.weights[-1] == 1000


def test_only_repeats_keeps_both_classes_positive():
    """2,999 repeats in 3,000 days: p = 2999.5 / 3001 is clamped to 999/1000; 1 played,
    2 unplayed: ratio 999 * 2 = 1998, its inverse rounds to 1/1000: played 1000."""
    history = days(["aaaaa"] * 3000)
    prior = history_prior(history, ANSWERS[:3], DAY0 + dt.timedelta(days=3000), None)
    assert prior.repeat_rate == Fraction(999, 1000)
    assert prior.weights.tolist() == [1000, 1, 1]


def test_an_empty_class_and_no_history_are_uniform():
    assert uniform_prior(ANSWERS).tolist() == [1, 1, 1, 1]
    assert uniform_prior(ANSWERS).dtype == np.int64
    assert history_prior(SMALL, ANSWERS, DAY0).weights.tolist() == [1, 1, 1, 1]
    assert class_weights(Fraction(1, 2), 0, 4) == (1, 1)
    assert class_weights(Fraction(1, 2), 4, 0) == (1, 1)
    every = days(list(ANSWERS))  # every word played: one class, uniform
    assert history_prior(every, ANSWERS, AFTER, None).weights.tolist() == [1, 1, 1, 1]


def test_repeat_rate_and_weights_are_reduced_and_bounded():
    assert repeat_rate(0, 0) == Fraction(1, 2)
    assert repeat_rate(3, 9) == Fraction(7, 20)
    assert class_weights(Fraction(1, 2), 6, 4) == (2, 3)  # (1/2/6) / (1/2/4) = 4/6
    played, unplayed = class_weights(Fraction(1, 7), 1000, 3)
    assert math.gcd(played, unplayed) == 1 and max(played, unplayed) <= 1000


def test_no_later_day_changes_the_prior():
    """The prior for day 6 reads days 0-5 only: rewriting days 6-9 changes nothing."""
    words = ["aaaaa", "bbbbb", "aaaaa", "ccccc", "bbbbb", "zzzzz"]
    day = DAY0 + dt.timedelta(days=6)
    for window in (2, 4, None):
        before = history_prior(days(words + ["aaaaa"] * 4), ANSWERS, day, window)
        after = history_prior(days(words + ["ddddd", "ccccc", "yyyyy", "ddddd"]), ANSWERS,
                              day, window)  # fmt: skip
        assert before.weights.tolist() == after.weights.tolist()
        assert before.repeat_rate == after.repeat_rate
        assert before.times_played.tolist() == after.times_played.tolist()
        assert before.last_played == after.last_played
    first = score_days(days(words + ["aaaaa"] * 4), ANSWERS, DAY0, (2, None))
    second = score_days(days(words + ["ddddd"] * 4), ANSWERS, DAY0, (2, None))
    assert np.array_equal(first.log_likelihoods[:5], second.log_likelihoods[:5])


def test_the_backtest_scores_the_integer_prior_the_pipeline_uses():
    """Each day's score is log(weight / total weight) of history_prior on that day; days
    off the list are skipped and counted; uniform is -log(4)."""
    history = days(["aaaaa", "bbbbb", "aaaaa", "zzzzz", "ccccc", "bbbbb", "yyyyy", "ddddd"])
    windows = (1, 3, None)
    result = backtest(history, ANSWERS, DAY0 + dt.timedelta(days=1), windows, default=3)
    scores = result.scores
    assert scores.skipped == 2 and len(scores.dates) == 5
    assert result.uniform_mean == pytest.approx(-math.log(4))
    for row, day in zip(scores.log_likelihoods, scores.dates, strict=True):
        answer = history.words[history.dates.index(day)]
        for value, window in zip(row, windows, strict=True):
            prior = history_prior(history, ANSWERS, day, window)
            weight = prior.weights[ANSWERS.index(answer)]
            assert value == pytest.approx(math.log(weight / prior.weights.sum()), abs=1e-12)
    assert result.means == pytest.approx(tuple(scores.log_likelihoods.mean(axis=0)))
    assert result.online[0] == 3
    table = result.table(chosen=3).to_pydict()
    assert table["model"] == ["1", "3", "all", "online", "uniform"]
    assert table["chosen"] == [False, True, False, False, False]
    assert table["days"] == [5] * 5 and table["first_day"][0] == scores.dates[0]
    assert table["mean_log_likelihood"][-1] == pytest.approx(-math.log(4))


def test_the_online_choice_uses_only_earlier_days():
    """Day 0: the default; then the best total so far, near-ties to the earlier window."""
    table = np.array([[-1.0, -2.0], [-3.0, -1.0], [-1.0, -5.0], [0.0, 0.0], [0.0, 0.0]])
    scores = Scores(tuple(DAY0 + dt.timedelta(days=n) for n in range(5)), (1, 2), table,
                    -1.0, 0)  # fmt: skip
    # totals before each day: -, (-1, -2), (-4, -3), (-5, -8), (-5, -8)
    assert online_choices(scores, default=2) == (2, 1, 2, 1, 1)
    tied = Scores(scores.dates[:2], (1, 2), np.array([[-1.0, -1.0], [0.0, 0.0]]), -1.0, 0)
    assert online_choices(tied, default=2) == (2, 1)


def test_choose_window_agrees_with_the_online_choice():
    history = days(["aaaaa", "bbbbb", "aaaaa", "ccccc", "bbbbb", "aaaaa", "ddddd", "ccccc"])
    result = backtest(history, ANSWERS, DAY0, (1, 2, None), default=2)
    for day, chosen in zip(result.scores.dates, result.online, strict=True):
        assert choose_window(history, ANSWERS, day, DAY0, (1, 2, None), default=2) == chosen


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="window"):
        history_prior(SMALL, ANSWERS, AFTER, 0)
    with pytest.raises(ValueError, match="once"):
        history_prior(SMALL, ("aaaaa", "aaaaa"), AFTER)
    with pytest.raises(ValueError, match="default"):
        backtest(SMALL, ANSWERS, DAY0, (1, 2), default=3)


@pytest.mark.mirror
def test_the_real_archive_beats_uniform_out_of_sample(mirror):
    """From 2023-07-01 (1,192 days, 4 off nyt2023's list) every window and the online
    choice beat the uniform prior; the prior for 2026-10-05 has 1,897 played words, and
    an unplayed word is several times as likely as a played one."""
    history = parse_history((mirror / "history/wordle_solutions.json").read_bytes(), "h.json")
    answers = parse_word_list((mirror / "nyt20230701/answers.txt").read_bytes(), "a").words
    start = dt.date(2023, 7, 1)
    result = backtest(history, answers, start)
    assert result.scores.skipped == 4 and len(result.scores.dates) == 1188
    assert result.uniform_mean == pytest.approx(-math.log(3158))
    assert result.online_mean > result.uniform_mean
    assert min(result.means) > result.uniform_mean
    assert result.online_mean == pytest.approx(-7.6010, abs=1e-4)
    day = dt.date(2026, 10, 5)
    window = choose_window(history, answers, day, start)
    assert window == 120
    prior = history_prior(history, answers, day, window)
    assert int(prior.played.sum()) == 1897 and int((~prior.played).sum()) == 1261
    assert prior.repeat_rate == Fraction(3, 22)  # 16 repeats in 120 days: 16.5 / 121
    assert (prior.played_weight, prior.unplayed_weight) == (91, 867)
    assert prior.unplayed_weight > 5 * prior.played_weight
