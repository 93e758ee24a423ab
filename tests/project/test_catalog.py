"""What the Snakemake workflow catalog and snakedeploy read of the repository, checked as
their own code reads it (snakemake-workflow-catalog's scripts/generate-catalog.py,
snakedeploy's deploy.py), and config/README.md written from the schema."""

from __future__ import annotations

import yaml

from pipeline.plan import config_readme
from tests.support.fixtures import REPO


def test_the_catalog_finds_a_standardized_workflow():
    # generate-catalog.py: workflow/ exists, so the Snakefile must be workflow/Snakefile,
    # and a rules folder must hold .smk files; standardized usage needs both files below.
    assert (REPO / "workflow" / "Snakefile").is_file()
    assert any(path.suffix == ".smk" for path in (REPO / "workflow" / "rules").iterdir())
    assert (REPO / "config" / "README.md").is_file()
    settings = yaml.safe_load((REPO / ".snakemake-workflow-catalog.yml").read_text())
    usage = settings["usage"]
    assert isinstance(usage["mandatory-flags"]["desc"], str)
    assert usage["report"] is True
    assert set(usage["software-stack-deployment"]) == {"conda", "singularity", "singularity+conda"}


def test_config_readme_is_written_from_the_schema():
    schema = yaml.safe_load((REPO / config_readme.SCHEMA).read_text(encoding="utf-8"))
    expected = config_readme.render(schema)
    assert (REPO / config_readme.README).read_text(encoding="utf-8") == expected, (
        "config/README.md is out of date: run python -m pipeline.plan.config_readme"
    )
    for key in schema["properties"]:
        assert f"## `{key}`" in expected
    assert "`optimal.top`" in expected and "`editions.<name>.answers`" in expected
