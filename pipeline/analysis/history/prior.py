"""The history prior: how likely each answer-list word is to be day D's answer, given
only the days played before D.

Until 2026 the NYT never repeated an answer, so a word already played was (almost)
never the answer; since 2026-02-02 some days repeat one. No date is written here: the
repeat rate p is estimated from the last `window` played days before D, with a Jeffreys
pseudo-count (a = b = 1/2, the uninformative Beta prior of a rate, so an empty or
repeat-free window gives a small p, never 0), and clamped to [P_FLOOR, 1 - P_FLOOR] so
both classes keep weight whatever the window holds. Played words share p equally, the
unplayed share 1 - p.

The pipeline weighs answers by integers (exact sums, no float order to tie-break), so a
prior is one integer weight per class: the ratio of the two per-word probabilities as a
fraction with both terms at most MAX_DENOMINATOR, the rarer class at least 1. What the
backtest scores is that integer prior itself (probability = weight / total weight).

The window is chosen by a backtest that never peeks: each day's answer is scored under
the prior fitted on the days before it, and the window used on day D is the one with the
best total log-likelihood over the backtest days before D.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pyarrow as pa

from pipeline.analysis.history.archive import History
from pipeline.core.ties import TIE_TOLERANCE

Window = int | None  # the number of played days before D; None: all of them

PSEUDO_COUNT = Fraction(1, 2)  # Jeffreys: a = b = 1/2
P_FLOOR = Fraction(1, 1000)  # the repeat rate stays in [P_FLOOR, 1 - P_FLOOR]
MAX_DENOMINATOR = 1000  # the larger class weight is at most this
WINDOWS: tuple[Window, ...] = (30, 60, 120, 240, 480, None)
DEFAULT_WINDOW: Window = 240  # the online choice's first day, before any score exists
# The backtest scores the days from the one the NYT's answer list became nyt2023's (an
# archive with no day from then on, as a test's, is scored from its first day).
BACKTEST_START = dt.date(2023, 7, 1)


@dataclass(frozen=True)
class Prior:
    """The history prior for `day` over the answer list `words` (in its order)."""

    day: dt.date
    words: tuple[str, ...]
    weights: np.ndarray  # int64, one per word: played_weight or unplayed_weight
    played: np.ndarray  # bool, one per word: played on a day before `day`
    times_played: np.ndarray  # int64, one per word: days before `day` it was the answer
    last_played: tuple[dt.date | None, ...]  # the latest such day, None if never
    repeat_rate: Fraction  # p: the chance the answer is a played word (clamped)
    window: Window
    played_weight: int
    unplayed_weight: int


def window_label(window: Window) -> str:
    """ "240" or "all": how a window is named in tables and reports."""
    return "all" if window is None else str(window)


def repeat_days(history: History) -> tuple[bool, ...]:
    """Whether each day's answer had been played on an earlier day."""
    seen: set[str] = set()
    flags = []
    for word in history.words:
        flags.append(word in seen)
        seen.add(word)
    return tuple(flags)


def repeat_rate(repeats: int, days: int) -> Fraction:
    """p = (repeats + a) / (days + a + b), clamped to [P_FLOOR, 1 - P_FLOOR]: a window
    with no repeat, or only repeats, still leaves both classes a chance."""
    rate = (repeats + PSEUDO_COUNT) / (days + 2 * PSEUDO_COUNT)
    return min(max(rate, P_FLOOR), 1 - P_FLOOR)


def class_weights(rate: Fraction, n_played: int, n_unplayed: int) -> tuple[int, int]:
    """(played, unplayed) integer weights, coprime, whose ratio is the per-word
    probability ratio (rate / n_played) / ((1 - rate) / n_unplayed), the smaller over the
    larger rounded to a fraction of denominator <= MAX_DENOMINATOR and at least
    1 / MAX_DENOMINATOR, so every weight is >= 1. An empty class leaves the other
    uniform: (1, 1)."""
    if n_played == 0 or n_unplayed == 0:
        return 1, 1
    ratio = rate * n_unplayed / ((1 - rate) * n_played)  # played per word / unplayed
    smaller = min(ratio, 1 / ratio)
    rounded = max(smaller.limit_denominator(MAX_DENOMINATOR), Fraction(1, MAX_DENOMINATOR))
    low, high = rounded.numerator, rounded.denominator  # already coprime
    return (high, low) if ratio >= 1 else (low, high)


def _window_start(end: int, window: Window) -> int:
    """The first index of the `window` played days before index `end`."""
    if window is not None and window < 1:
        raise ValueError(f"a window is a positive number of days or None (all), not {window}")
    return 0 if window is None else max(0, end - window)


def _days_before(history: History, day: dt.date) -> int:
    """How many of the history's days come before `day`: only those may shape its prior."""
    return sum(played < day for played in history.dates)


def history_prior(
    history: History, answers: Sequence[str], day: dt.date, window: Window = DEFAULT_WINDOW
) -> Prior:
    """The prior for `day` over `answers`, from the history's days before `day` only."""
    words = tuple(answers)
    if len(set(words)) != len(words) or not words:
        raise ValueError("the answer list must be non-empty and hold each word once")
    end = _days_before(history, day)
    repeats = repeat_days(history)[:end]
    start = _window_start(end, window)
    rate = repeat_rate(sum(repeats[start:]), end - start)
    position = {word: index for index, word in enumerate(words)}
    times = np.zeros(len(words), dtype=np.int64)
    last: list[dt.date | None] = [None] * len(words)
    for played_day, word in zip(history.dates[:end], history.words[:end], strict=True):
        if (index := position.get(word)) is not None:
            times[index] += 1
            last[index] = played_day
    played = times > 0
    n_played = int(played.sum())
    w_played, w_unplayed = class_weights(rate, n_played, len(words) - n_played)
    weights = np.where(played, w_played, w_unplayed).astype(np.int64)
    return Prior(
        day, words, weights, played, times, tuple(last), rate, window, w_played, w_unplayed
    )


def uniform_prior(answers: Sequence[str]) -> np.ndarray:
    """Weight 1 for every word: the prior with no history."""
    return np.ones(len(answers), dtype=np.int64)


@dataclass(frozen=True)
class Scores:
    """Each backtest day's log-likelihood (natural log) of its answer, by window."""

    dates: tuple[dt.date, ...]  # the days scored: answer on the list, on or after start
    windows: tuple[Window, ...]
    log_likelihoods: np.ndarray  # float64, days x windows
    uniform: float  # -log(len(answers)), the same every day
    skipped: int  # days from start whose answer is not on the list


def score_days(
    history: History,
    answers: Sequence[str],
    start: dt.date,
    windows: Sequence[Window] = WINDOWS,
    until: dt.date | None = None,
) -> Scores:
    """Score every day from `start` (before `until`, when given) under the integer prior
    each window gives, fitted on the days before it. The prior's class counts are kept
    running, so this is history_prior's weights without rebuilding them each day."""
    listed = frozenset(answers)
    repeats = repeat_days(history)
    cumulative = np.concatenate([[0], np.cumsum(repeats, dtype=np.int64)])
    seen: set[str] = set()
    dates, rows, skipped = [], [], 0
    for index, (day, word) in enumerate(zip(history.dates, history.words, strict=True)):
        if until is not None and day >= until:
            break
        if day >= start and word not in listed:
            skipped += 1
        elif day >= start:
            rows.append([_log_likelihood(index, w, cumulative, len(seen), len(listed), word in seen)
                         for w in windows])  # fmt: skip
            dates.append(day)
        if word in listed:
            seen.add(word)
    table = np.array(rows, dtype=np.float64).reshape(len(rows), len(windows))
    return Scores(tuple(dates), tuple(windows), table, -math.log(len(listed)), skipped)


def _log_likelihood(
    end: int, window: Window, cumulative: np.ndarray, n_played: int, size: int, repeat: bool
) -> float:
    """log P(answer) on the day of index `end` under the integer prior of `window`."""
    start = _window_start(end, window)
    rate = repeat_rate(int(cumulative[end] - cumulative[start]), end - start)
    w_played, w_unplayed = class_weights(rate, n_played, size - n_played)
    total = n_played * w_played + (size - n_played) * w_unplayed
    return math.log((w_played if repeat else w_unplayed) / total)


def _best(totals: np.ndarray) -> int:
    """The index of the best total; near-ties (the tie rule's tolerance) go to the
    earlier candidate."""
    return int(np.flatnonzero(totals >= totals.max() - TIE_TOLERANCE)[0])


def online_choices(scores: Scores, default: Window = DEFAULT_WINDOW) -> tuple[Window, ...]:
    """The window used on each scored day: the best total log-likelihood over the scored
    days before it, `default` on the first day (nothing has been scored yet)."""
    choices: list[Window] = []
    totals = np.zeros(len(scores.windows))
    for row in scores.log_likelihoods:
        choices.append(scores.windows[_best(totals)] if choices else default)
        totals += row
    return tuple(choices)


def choose_window(
    history: History,
    answers: Sequence[str],
    day: dt.date,
    start: dt.date,
    windows: Sequence[Window] = WINDOWS,
    default: Window = DEFAULT_WINDOW,
) -> Window:
    """The window for `day`: the best total log-likelihood over the backtest days from
    `start` before `day`; `default` when none was scored."""
    scores = score_days(history, answers, start, windows, until=day)
    if not scores.dates:
        return default
    return scores.windows[_best(scores.log_likelihoods.sum(axis=0))]


@dataclass(frozen=True)
class Backtest:
    """The backtest's mean log-likelihoods per scored day (natural log)."""

    scores: Scores
    means: tuple[float, ...]  # per window, in scores.windows order
    online: tuple[Window, ...]  # the window chosen on each scored day
    online_mean: float
    uniform_mean: float

    def table(self, chosen: Window) -> pa.Table:
        """One row per model: each window, "online" (the model used) and "uniform"; the
        window the next day's prior uses (`chosen`) is marked."""
        names = [window_label(w) for w in self.scores.windows] + ["online", "uniform"]
        means = [*self.means, self.online_mean, self.uniform_mean]
        dates = self.scores.dates
        return pa.table({
            "model": pa.array(names, pa.string()),
            "days": pa.array([len(dates)] * len(names), pa.int32()),
            "first_day": pa.array([dates[0]] * len(names), pa.date32()),
            "last_day": pa.array([dates[-1]] * len(names), pa.date32()),
            "mean_log_likelihood": pa.array(means, pa.float64()),
            "chosen": pa.array([name == window_label(chosen) for name in names], pa.bool_()),
        })  # fmt: skip


def backtest_start(history: History) -> dt.date:
    """BACKTEST_START, or the history's first day when it has none from then on."""
    late = [day for day in history.dates if day >= BACKTEST_START]
    return BACKTEST_START if late or not history.dates else history.dates[0]


def prior_table(prior: Prior, word_ids: Sequence[int]) -> pa.Table:
    """The prior as prior.parquet's rows (word_ids: each word's, in the prior's order)."""
    total = int(prior.weights.sum())
    return pa.table({
        "day": pa.array([prior.day] * len(prior.words), pa.date32()),
        "word_id": pa.array(word_ids, pa.int32()),
        "word": pa.array(prior.words, pa.string()),
        "class": pa.array(["played" if p else "unplayed" for p in prior.played.tolist()]),
        "times_played": pa.array(prior.times_played, pa.int32()),
        "last_played": pa.array(prior.last_played, pa.date32()),
        "weight": pa.array(prior.weights, pa.int64()),
        "probability": pa.array(prior.weights / total, pa.float64()),
    })  # fmt: skip


def backtest(
    history: History,
    answers: Sequence[str],
    start: dt.date,
    windows: Sequence[Window] = WINDOWS,
    default: Window = DEFAULT_WINDOW,
) -> Backtest:
    """Every day from `start` to the history's last scored under the uniform prior, each
    window's history prior and the online choice of window (see online_choices)."""
    if default not in windows:
        raise ValueError(f"the default window {window_label(default)} is not a candidate")
    scores = score_days(history, answers, start, windows)
    if not scores.dates:
        raise ValueError(f"no day from {start} has its answer on the list")
    online = online_choices(scores, default)
    picked = [scores.windows.index(w) for w in online]
    online_ll = scores.log_likelihoods[np.arange(len(picked)), picked]
    means = tuple(float(m) for m in scores.log_likelihoods.mean(axis=0))
    return Backtest(scores, means, online, float(online_ll.mean()), scores.uniform)
