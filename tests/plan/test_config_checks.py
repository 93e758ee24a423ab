"""The Snakefile's config checks as one call (pipeline.plan.config_checks.check_config):
the schema's defaults filled in, a bad value one line naming its key; and what the plan
reads of the checked config (pipeline.plan.inputs)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import yaml

from pipeline.artifacts import catalog
from pipeline.plan.config_checks import SCHEMA
from pipeline.plan.inputs import Inputs
from tests.support.bad_inputs import UNTIL_CASES
from tests.support.config_check import checked_config
from tests.support.fixtures import REPO


def test_the_schema_alone_gives_the_defaults():
    schema = yaml.safe_load((REPO / SCHEMA).read_text(encoding="utf-8"))["properties"]
    config = checked_config({})
    for key in ("top", "certify", "openers", "modes", "screen_parts", "max_guesses"):
        assert config["optimal"][key] == schema["optimal"]["properties"][key]["default"], key
    assert (config["optimal"]["top"], config["optimal"]["certify"]) == (20, True)
    assert list(config["editions"]) == list(schema["editions"]["default"])


@pytest.mark.parametrize(
    ("given", "line"),
    [
        ({"optimal": {"top": 0}}, "config: optimal.top: "),
        ({"editions": {"nyt2022": {"enabled": False}, "nyt2023": {"enabled": False}}},
         "config: editions: no edition is enabled; set enabled: true on one"),
    ],
)  # fmt: skip
def test_a_bad_config_stops_as_one_line_naming_the_key(capsys, given, line):
    with pytest.raises(SystemExit) as stopped:
        checked_config(given)
    assert stopped.value.code == 1
    message = capsys.readouterr().err.splitlines()
    assert message[0].startswith(line)
    assert len(message) <= 2 and all(not m.startswith("Traceback") for m in message)


@pytest.mark.parametrize("until", list(UNTIL_CASES))
def test_a_history_until_that_is_no_day_stops_as_one_line(capsys, until):
    with pytest.raises(SystemExit) as stopped:
        checked_config({"history": {"until": until}})
    assert stopped.value.code == 1
    message = capsys.readouterr().err.splitlines()
    assert message[0].startswith(UNTIL_CASES[until]), message
    assert all(line.startswith("hint: until: ") for line in message[1:]), message  # schema's
    assert len(message) <= 2


def test_history_until_only_for_an_edition_whose_answers_include_the_history():
    config = checked_config({"history": {"until": "2024-06-30"}})
    plan = Inputs(config, workflow=None, checkpoints=None)
    assert plan.history_until(SimpleNamespace(edition="nyt2026")) == "2024-06-30"
    assert plan.history_until(SimpleNamespace(edition="nyt2022")) == ""


def test_the_optimal_inputs_follow_each_editions_own_settings():
    config = checked_config({"editions": {"nyt2022": {"optimal": {"certify": False}}}})
    plan = Inputs(config, workflow=None, checkpoints=None)
    old, new = SimpleNamespace(edition="nyt2022"), SimpleNamespace(edition="orig")
    assert plan.optimal_param("certify")(old) is False
    assert plan.optimal_param("top")(new) == 20
    screen = plan.screen_parts(catalog.BOUNDS)
    assert screen(old) == []
    parts = config["optimal"]["screen_parts"] * len(config["optimal"]["modes"])
    assert len(screen(new)) == 2 * parts  # each part file with its seal
