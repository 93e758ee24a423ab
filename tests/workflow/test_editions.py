"""Two editions side by side, through the real workflow: one allowed list shared, two
answer lists. Each edition gets its own folder of artifacts; what depends on the allowed
list alone (the raw list, the commonness, the square entropy pass, the prior-mode
ranking) is built once; editing one edition's answer
list reruns that edition's jobs and the shared ones it feeds, nothing of the other; the
assistant plays the newest edition unless told otherwise."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from pipeline.artifacts.history import editions_of, read_history
from tests.support.fixtures import FIXTURE_ALLOWED, FIXTURE_ANSWERS, FIXTURE_UNTIL, built_once
from tests.support.workflow_helpers import COMMONNESS_FILE, EDITION, make_checkout, snakemake

OTHER = "later"  # the second edition: another answer list over the same allowed list
OTHER_ANSWERS = ["bench", "cigar", "dwarf", "focal", "grade", "karma", "model", "quiet"]
ASSIST = [sys.executable, "-m", "pipeline.commands.assistant"]


def two_edition_checkout(path: Path) -> Path:
    """The fixture as EDITION and OTHER, with few solver and optimal jobs (the sharing
    and the reruns are what is tested, not the strategies)."""
    checkout = make_checkout(
        path,
        solver={"strategies": [{"name": "greedy_entropy"}, {"name": "optimal"}]},
        optimal={"top": 1, "modes": ["normal"]},
    )
    (checkout / "later-answers.txt").write_text("\n".join(OTHER_ANSWERS) + "\n")
    config = json.loads(json.dumps(read_yaml(checkout / "test-config.yaml")))
    config["sources"]["answers_later"] = {"kind": "local", "path": "later-answers.txt"}
    config["editions"][OTHER] = {
        "title": "a later answer list",
        "allowed": "allowed",
        "answers": "answers_later",
    }
    (checkout / "test-config.yaml").write_text(json.dumps(config))
    return checkout


def read_yaml(path: Path) -> dict:
    import yaml

    return yaml.safe_load(path.read_text())


def planned_outputs(checkout: Path) -> list[str]:
    """The first output of every job a dry run schedules (the rules' one-line messages)."""
    output = snakemake(checkout, "--dry-run").stdout
    jobs = re.findall(r"^Job \d+: (\w+): (\S+)", output, flags=re.MULTILINE)
    return [first for rule, first in jobs if rule != "all"]


@pytest.fixture(scope="module")
def editions_checkout(tmp_path_factory) -> Path:
    """The two-edition build, once for every worker (read it; copy it to change it)."""

    def build(folder: Path) -> None:
        snakemake(two_edition_checkout(folder))

    return built_once(tmp_path_factory, "editions-checkout", build)


def test_each_edition_has_its_folder_and_shares_the_allowed_list(editions_checkout):
    derived = editions_checkout / "data" / "derived"
    for edition, answers in ((EDITION, FIXTURE_ANSWERS), (OTHER, OTHER_ANSWERS)):
        words = pl.read_parquet(derived / edition / "words.parquet")
        assert words["word"].to_list() == sorted(FIXTURE_ALLOWED)
        assert words.filter(pl.col("is_answer"))["word"].to_list() == sorted(answers)
        assert (derived / edition / "optimal_openers.parquet").is_file()
    shared = sorted(path.name for path in (derived / "shared").iterdir())
    assert shared == ["allowed", "history.parquet", "history.parquet.seal.json"]
    history = read_history(derived / "shared" / "history.parquet")
    assert editions_of(history) == [EDITION, OTHER]  # one column per enabled edition
    assert (editions_checkout / COMMONNESS_FILE).is_file()
    for rule in ("build_commonness", "compute_square_entropy", "rank_prior_openers"):
        logs = sorted(path.name for path in (editions_checkout / "logs" / rule).iterdir())
        assert logs == ["allowed.log"], rule  # one job for both editions
    fetched = sorted(path.stem for path in (editions_checkout / "logs" / "fetch_source").iterdir())
    assert fetched == ["allowed", "answers", "answers_later", "frequency", "history"]
    descriptor = json.loads((derived / "datapackage.json").read_text())
    editions = descriptor["wordle_pipeline"]["editions"]
    assert [entry["name"] for entry in editions] == [EDITION, OTHER]
    paths = [resource["path"] for resource in descriptor["resources"]]
    assert paths[0] == "shared/allowed/commonness.parquet"
    assert f"{EDITION}/words.parquet" in paths and f"{OTHER}/words.parquet" in paths
    assert paths[-5:] == [
        "tables/editions.html",
        "schema.sql",
        "README.md",
        f"{EDITION}/croissant.json",
        f"{OTHER}/croissant.json",
    ]  # the artifacts in the workflow's order, then what describes them
    table = (derived / "tables" / "editions.html").read_text()
    assert f"<td>{EDITION}</td>" in table and f"<td>{OTHER}</td>" in table


def test_editing_one_answer_list_reruns_only_its_edition(editions_checkout, tmp_path):
    import shutil

    checkout = shutil.copytree(editions_checkout, tmp_path / "c", symlinks=True)
    assert planned_outputs(checkout) == []
    (checkout / "later-answers.txt").write_text("\n".join(OTHER_ANSWERS[:-1]) + "\n")
    planned = planned_outputs(checkout)
    assert planned, "the edited list reruns its edition"
    shared = {"data/raw/answers_later.txt", "data/derived/datapackage.json"}
    shared |= {"data/derived/tables/editions.html", "data/work/report/headline.rst"}
    shared |= {"data/derived/shared/history.parquet"}  # its in_<edition> columns
    others = [p for p in planned if f"/{OTHER}/" not in p and p not in shared]
    assert others == []
    assert any(p.startswith(f"data/derived/{OTHER}/words.parquet") for p in planned)


def assist(checkout: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*ASSIST, *argv], cwd=checkout, capture_output=True, text=True, check=False
    )


def test_the_assistant_plays_the_newest_edition_unless_told(editions_checkout):
    newest = assist(editions_checkout, "--top", "3")
    assert newest.returncode == 0, newest.stderr
    # Of the 5 days the fixture's archive keeps, OTHER's answers hold cigar (played twice).
    first = f"edition: {OTHER}: a later answer list; covers 2 of 5 played answers"
    assert newest.stdout.splitlines()[0] == first
    assert "(8 words, equally likely)" in newest.stdout
    older = assist(editions_checkout, "--edition", EDITION, "--json")
    assert older.returncode == 0, older.stderr
    document = json.loads(older.stdout)
    assert document["edition"] == EDITION and document["pool"] == len(FIXTURE_ANSWERS)
    assert document["played_answers"] == {"covered": 5, "played": 5, "until": FIXTURE_UNTIL}
    unknown = assist(editions_checkout, "--edition", "nope")
    assert unknown.returncode == 2
    assert unknown.stderr.strip() == (
        f"wordle-assist: error: --edition nope: no such edition in data/derived "
        f"(built: {EDITION}, {OTHER})"
    )
