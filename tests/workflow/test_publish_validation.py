"""Bad input to publishing (.ci/publish.py bundle, hub): a descriptor or a croissant.json
that its standard's validator rejects stops the step with the validator's first error on
one line, and leaves no bundle. The damaged files pass `verify`: they are resealed as the
pipeline seals what it writes, so only the validators can tell."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.artifacts.seal import read_seal, write_seal
from pipeline.core.files import sha256_file
from tests.support.fixtures import REPO
from tests.support.workflow_helpers import EDITION, fixture_env

CROISSANT = f"{EDITION}/croissant.json"
# A push that would be tried (and must not be): no real token, and the Hub client offline.
HUB = {"HF_TOKEN": "not-a-token", "HF_DATASET_REPO": "nobody/nothing", "HF_HUB_OFFLINE": "1"}


@pytest.fixture
def checkout(built_checkout: Path, tmp_path: Path) -> Path:
    """What the release job has: the publishing script, .venv (this one, which holds the
    validators) and the fixture build's data/derived."""
    checkout = tmp_path / "c"
    (checkout / ".ci").mkdir(parents=True)
    shutil.copy2(REPO / ".ci" / "publish.py", checkout / ".ci" / "publish.py")
    (checkout / ".venv").symlink_to(sys.prefix)
    shutil.copytree(built_checkout / "data" / "derived", checkout / "data" / "derived")
    return checkout


def publish(checkout: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(checkout / ".ci" / "publish.py"), *args],
        cwd=checkout, capture_output=True, text=True, env={**fixture_env(), **env}, check=False,
    )  # fmt: skip


def reseal(path: Path) -> None:
    """Seal `path` again as the pipeline sealed it (same inputs, settings and extra), as if
    the pipeline had written its bytes now."""
    old = read_seal(path)
    inputs = {role: path.parent / entry["path"] for role, entry in old.inputs.items()}
    write_seal(path, inputs=inputs, settings=old.settings, extra=old.extra)


def rewrite(derived: Path, relative: str, document: dict) -> None:
    """Replace a resource with `document` and reseal it and the descriptor, which records
    the resource's new size and sha256."""
    path = derived / relative
    path.write_text(json.dumps(document, indent=2) + "\n")
    reseal(path)
    descriptor = derived / "datapackage.json"
    package = json.loads(descriptor.read_text())
    if relative != "datapackage.json":
        entry = next(r for r in package["resources"] if r["path"] == relative)
        entry.update(bytes=path.stat().st_size, hash=f"sha256:{sha256_file(path)}")
        descriptor.write_text(json.dumps(package, indent=2) + "\n")
    reseal(descriptor)


def assert_stopped(result: subprocess.CompletedProcess, checkout: Path, step: str) -> str:
    """The step failed with one line (no traceback) and left nothing in dist/."""
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith(f"publish: step {step} failed: ")
    dist = checkout / "dist"
    assert not dist.exists() or not any(dist.iterdir())
    return result.stderr


def test_a_valid_build_is_validated_then_bundled(checkout):
    result = publish(checkout, "bundle", "--tag", "v0-test")
    assert result.returncode == 0, result.stderr
    assert "publish: bundle: data/derived/datapackage.json valid" in result.stdout
    assert f"publish: bundle: data/derived/{CROISSANT} valid" in result.stdout
    dist = sorted(path.name for path in (checkout / "dist").iterdir())
    assert dist == ["datapackage-v0-test.json", "wordle-artifacts-v0-test.tar.zst"]


def test_the_hub_push_after_bundle_verifies_instead_of_validating_again(checkout):
    """The release job bundles, then pushes: the push checks the files against the
    descriptor bundle validated (same bytes) rather than rerunning the validators; with a
    descriptor changed since, it validates again."""
    assert publish(checkout, "bundle", "--tag", "v1").returncode == 0
    result = publish(checkout, "hub", "--tag", "v1", **HUB)
    assert "publish: hub: datapackage.json is the one bundle v1 validated" in result.stdout
    assert "wordle-pipeline verify data/derived/datapackage.json" in result.stdout
    assert " valid (" not in result.stdout  # no validator ran
    assert "upload_folder" in result.stdout  # the push was tried (and fails offline)
    derived = checkout / "data" / "derived"
    document = json.loads((derived / CROISSANT).read_text())
    document["recordSet"][0]["@type"] = "cr:Field"
    rewrite(derived, CROISSANT, document)
    result = publish(checkout, "hub", "--tag", "v1", **HUB)
    assert result.returncode == 1 and "is the one bundle" not in result.stdout
    assert f"data/derived/{CROISSANT} is invalid: mlcroissant: " in result.stderr


def test_a_descriptor_frictionless_rejects_stops_the_bundle(checkout):
    """A text column declared an integer: the descriptor is well formed and sealed, but
    its data contradicts it."""
    derived = checkout / "data" / "derived"
    package = json.loads((derived / "datapackage.json").read_text())
    resource = next(r for r in package["resources"] if r["format"] == "parquet")
    field = next(f for f in resource["schema"]["fields"] if f["type"] == "string")
    field["type"] = "integer"
    rewrite(derived, "datapackage.json", package)
    assert publish(checkout, "verify").returncode == 0
    error = assert_stopped(publish(checkout, "bundle", "--tag", "bad"), checkout, "bundle")
    assert "data/derived/datapackage.json is invalid: frictionless: " in error
    assert f"resource {resource['name']}: Type error in the cell" in error
    assert f'field "{field["name"]}"' in error and 'type is "integer' in error


@pytest.mark.parametrize(
    "damage, message",
    [
        ("record set typed as a field", 'should have an attribute "@type"'),
        ("field read from a missing file", 'reference to node with UUID "missing.parquet"'),
    ],
)
def test_a_croissant_mlcroissant_rejects_stops_the_bundle(checkout, damage, message):
    derived = checkout / "data" / "derived"
    document = json.loads((derived / CROISSANT).read_text())
    record_set = document["recordSet"][0]
    if damage == "record set typed as a field":
        record_set["@type"] = "cr:Field"
    else:
        record_set["field"][0]["source"]["fileObject"]["@id"] = "missing.parquet"
    rewrite(derived, CROISSANT, document)
    assert publish(checkout, "verify").returncode == 0
    error = assert_stopped(publish(checkout, "bundle", "--tag", "bad"), checkout, "bundle")
    assert f"data/derived/{CROISSANT} is invalid: mlcroissant: " in error and message in error
    assert "datePublished" not in error  # a warning, which does not count


def test_the_hub_push_validates_first(checkout):
    """With a token and a repository set, a croissant.json mlcroissant rejects stops the
    push before anything is sent."""
    derived = checkout / "data" / "derived"
    document = json.loads((derived / CROISSANT).read_text())
    document["recordSet"][0]["@type"] = "cr:Field"
    rewrite(derived, CROISSANT, document)
    result = publish(checkout, "hub", "--tag", "bad", **HUB)
    error = assert_stopped(result, checkout, "hub")
    assert f"data/derived/{CROISSANT} is invalid: mlcroissant: " in error
    assert "upload_folder" not in result.stdout  # the push's command was never run


def test_without_the_validators_bundle_and_hub_say_what_to_install(checkout):
    """A .venv without the publish extra (here: an empty one) fails, never skips."""
    (checkout / ".venv").unlink()
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(checkout / ".venv")],
                   check=True)  # fmt: skip
    hint = "install the publish extra: python3 .ci/publish.py install --extra publish"
    error = assert_stopped(publish(checkout, "bundle"), checkout, "bundle")
    missing = "frictionless, pandas, mlcroissant not installed in .venv"
    assert error == f"publish: step bundle failed: {missing}; {hint}\n"
    error = assert_stopped(publish(checkout, "hub", **HUB), checkout, "hub")
    assert f"{missing.replace(' not', ', huggingface_hub not')}; {hint}" in error
