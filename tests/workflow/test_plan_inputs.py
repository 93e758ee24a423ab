"""The rules' input functions (pipeline.plan.inputs) on the fixture's built folder: the
optimal jobs the plan chooses from the checkpoints' outputs are exactly those the
workflow ran, and every published artifact it names is there."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from snakemake.io import IOFile

from pipeline.artifacts import catalog, seal
from pipeline.artifacts import optimal as store
from pipeline.artifacts.openers import ranked_words
from pipeline.plan.config_checks import SCHEMA, check_config
from pipeline.plan.inputs import Inputs
from pipeline.sources.fetch import MIRROR_ENV
from tests.support.workflow_helpers import EDITION, read_config

pytestmark = pytest.mark.slow  # reads the fixture's built folder (conftest.built_checkout)


class Checkpoint:
    """What the plan uses of a Snakemake checkpoint: its rule, and get() of one output."""

    def __init__(self, rule: str, name: str, pattern: str) -> None:
        self.rule, self.name, self.pattern = rule, name, pattern

    def get(self, **wildcards: str) -> SimpleNamespace:
        path = self.pattern.format(**wildcards)
        files = (IOFile(path), IOFile(str(seal.seal_path(path))))
        return SimpleNamespace(output=SimpleNamespace(**{self.name: files}))


def fixture_plan(built_checkout, monkeypatch) -> Inputs:
    """The plan of the fixture's config, in its built checkout."""
    monkeypatch.chdir(built_checkout)
    monkeypatch.delenv(MIRROR_ENV, raising=False)  # check_config exports the mirror
    config = read_config(built_checkout)
    settings = SimpleNamespace(overwrite_config={})
    check_config(
        config,
        SimpleNamespace(config_settings=settings, configfiles=[]),
        built_checkout / SCHEMA,
    )
    checkpoints = SimpleNamespace(
        build_word_index=Checkpoint("build_word_index", "words", catalog.WORDS),
        rank_openers=Checkpoint("rank_openers", "openers", catalog.OPENERS),
        merge_bounds=Checkpoint("merge_bounds", "bounds", catalog.BOUNDS),
    )
    workflow = SimpleNamespace(is_main_process=True, output_settings=SimpleNamespace(dryrun=True))
    return Inputs(config, workflow, checkpoints)


def test_the_plan_chooses_the_optimal_jobs_the_workflow_ran(built_checkout, monkeypatch):
    plan = fixture_plan(built_checkout, monkeypatch)
    optimal = plan.config["optimal"]
    ranking = ranked_words(catalog.OPENERS.format(edition=EDITION), "answers")
    first = plan.first_jobs(EDITION)
    assert optimal["certify"]  # so the ranking's top 2K come first
    assert first == [(m, w) for m in optimal["modes"] for w in ranking[: 2 * optimal["top"]]]
    jobs = first + [
        job for mode in optimal["modes"] for job in plan.next_jobs(EDITION, mode, first)
    ]
    assert len(set(jobs)) == len(jobs) > len(first)
    batches = plan.optimal_batches(EDITION)
    folder = built_checkout / catalog.OPTIMAL_SUMMARY.format(edition=EDITION, mode="x", batch="x")
    parts = [p for p in folder.parent.parent.glob("*/*.summary.parquet")
             if p.parent.name in optimal["modes"]]  # fmt: skip
    assert set(batches) == {(p.parent.name, p.name.split(".")[0]) for p in parts}
    # each job proves the openers the plan gave it, and every opener the plan chose once
    for (mode, batch), openers in batches.items():
        part = catalog.OPTIMAL_SUMMARY.format(edition=EDITION, mode=mode, batch=batch)
        rows = store.read_part_summary(built_checkout / part).to_pylist()
        assert [(r["mode"], r["opener"]) for r in rows] == [(mode, o) for o in openers]
        params = SimpleNamespace(edition=EDITION, mode=mode, batch=batch)
        assert plan.batch_openers(params) == openers
    assert sorted((m, o) for (m, _), openers in batches.items() for o in openers) == sorted(jobs)


def test_every_published_artifact_the_plan_names_is_built(built_checkout, monkeypatch):
    plan = fixture_plan(built_checkout, monkeypatch)
    files = plan.sealed_artifacts(None)
    assert catalog.DATAPACKAGE not in files and catalog.EDITIONS_TABLE in files
    assert [f for f in files if not (built_checkout / f).is_file()] == []
