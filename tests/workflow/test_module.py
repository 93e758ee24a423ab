"""The workflow used as a module of another workflow, in the form `snakedeploy
deploy-workflow` writes (docs/deploying.md): the consumer's own folder, its own config
file, `module` with `snakefile` and `config`, `use rule * from ... as ...`. Its build is
byte-identical to the project's own, and a bad key in its config is one line."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from tests.support.bad_inputs import CONSUMER_CONFIG_CASES
from tests.support.fixtures import REPO, write_fixture_mirror
from tests.support.workflow_helpers import (
    FIXTURE_CONFIG,
    SNAKEMAKE,
    derived_digests,
    fixture_env,
)

CONSUMER_SNAKEFILE = """\
configfile: "config/config.yaml"


module wordle:
    snakefile:
        "{snakefile}"
    config:
        config


use rule * from wordle as wordle_*
"""


def make_consumer(folder: Path, config: dict) -> Path:
    """A consumer workflow in `folder`, away from the project, reading the fixture mirror."""
    (folder / "workflow").mkdir(parents=True)
    snakefile = (REPO / "workflow" / "Snakefile").as_posix()
    (folder / "workflow" / "Snakefile").write_text(CONSUMER_SNAKEFILE.format(snakefile=snakefile))
    (folder / "config").mkdir()
    (folder / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    write_fixture_mirror(folder / "mirror")
    return folder


def run_consumer(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*SNAKEMAKE, "--cores", "2", *args], cwd=folder, capture_output=True, text=True,
        env=fixture_env(), check=False, timeout=1200,
    )  # fmt: skip


def test_a_consumer_builds_the_projects_bytes_into_its_own_folder(built_checkout, tmp_path):
    consumer = make_consumer(tmp_path / "consumer", FIXTURE_CONFIG)
    result = run_consumer(consumer)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "wordle_build_word_index" in result.stderr  # the consumer's names for the rules
    built = derived_digests(consumer)
    assert built == derived_digests(built_checkout)
    assert not (REPO / "data" / "derived" / "tiny").exists(), "nothing is written beside the module"
    again = run_consumer(consumer, "--dry-run")
    assert "Nothing to be done" in again.stdout, again.stdout[-2000:]


@pytest.mark.parametrize("case", list(CONSUMER_CONFIG_CASES))
def test_a_bad_key_in_a_consumers_config_is_one_line(tmp_path, case):
    keys, start = CONSUMER_CONFIG_CASES[case]
    config = {**FIXTURE_CONFIG}
    for section, values in keys.items():
        config[section] = {**FIXTURE_CONFIG.get(section, {}), **values}
    consumer = make_consumer(tmp_path / "consumer", config)
    result = run_consumer(consumer, "--dry-run")
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("config:")]
    assert lines == [lines[0]] and lines[0].startswith(start), result.stderr
    assert "Traceback" not in result.stderr
