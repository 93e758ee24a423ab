"""pipeline.stages.build_prior on the fixture's artifact set: the prior of the answers for
the day after history.until, worked out by hand, and its backtest."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from pipeline.analysis.history.archive import FIRST_DAY
from pipeline.artifacts import catalog
from pipeline.artifacts import prior as prior_artifact
from tests.support.artifact_set import EDITION, shared_artifact_set
from tests.support.fixtures import FIXTURE_ANSWERS


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    return shared_artifact_set(tmp_path_factory, "fixture")


def test_the_prior_is_the_hand_computed_one(artifacts):
    # The fixture's days: cigar, rebut, sissy, awake, cigar again (history.until), so one
    # repeat in five days: p = (1 + 1/2) / (5 + 1) = 1/4 with the Jeffreys pseudo-count.
    # 4 played, 4 unplayed: played / unplayed per word = (1/4 / 4) / (3/4 / 4) = 1/3.
    table = prior_artifact.read_prior(artifacts.root / catalog.HISTORY_PRIOR.format(
        edition=EDITION)).to_pylist()  # fmt: skip
    assert {row["day"] for row in table} == {FIRST_DAY + dt.timedelta(days=5)}
    rows = {row["word"]: row for row in table}
    assert sorted(rows) == sorted(FIXTURE_ANSWERS)
    assert [row["word_id"] for row in table] == sorted(row["word_id"] for row in table)
    played = {"cigar", "rebut", "sissy", "awake"}
    for word, row in rows.items():
        assert row["class"] == ("played" if word in played else "unplayed")
        assert row["weight"] == (1 if word in played else 3)
        assert row["probability"] == pytest.approx(row["weight"] / 16)
    assert rows["cigar"]["times_played"] == 2
    assert rows["cigar"]["last_played"] == FIRST_DAY + dt.timedelta(days=4)
    assert rows["awake"]["times_played"] == 1
    assert rows["naval"]["times_played"] == 0 and rows["naval"]["last_played"] is None


def test_the_backtest_names_its_models_and_the_one_chosen(artifacts):
    table = prior_artifact.read_backtest(artifacts.root / catalog.HISTORY_PRIOR_BACKTEST.format(
        edition=EDITION)).to_pydict()  # fmt: skip
    assert table["model"] == ["30", "60", "120", "240", "480", "all", "online", "uniform"]
    assert table["chosen"] == [True] + [False] * 7  # every window sees all five days: a tie
    assert set(table["days"]) == {5} and table["first_day"][0] == FIRST_DAY
    assert table["mean_log_likelihood"][-1] == pytest.approx(-math.log(8))
