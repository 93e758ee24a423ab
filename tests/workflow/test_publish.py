"""CI's publishing steps (.ci/publish.py) on the fixture, exactly as the workflow runs them:
a fresh checkout, the README's pipeline install line (no test extras; the publish extra,
the validators, for the bundle), the pipeline, the report, the verification and the
release bundle. Bad input to bundle and hub: tests/workflow/test_publish_validation.py."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import zstandard

from tests.support.fixtures import REPO
from tests.support.workflow_helpers import clone_checkout, fixture_env, make_checkout


def publish(checkout: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(checkout / ".ci" / "publish.py"), *args],
        cwd=checkout,
        capture_output=True,
        text=True,
        env=fixture_env(),
        check=False,
    )


def checkout_with_ci(path: Path) -> Path:
    checkout = make_checkout(path)
    (checkout / ".ci").mkdir()
    (checkout / ".ci" / "publish.py").write_bytes((REPO / ".ci" / "publish.py").read_bytes())
    for name in ("pyproject.toml", "README.md"):
        (checkout / name).write_bytes((REPO / name).read_bytes())
    return checkout


def members(bundle: Path) -> dict[str, bytes]:
    data = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(bundle.read_bytes())).read()
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}


def test_every_publishing_step_works_from_a_fresh_checkout(built_checkout, tmp_path):
    """The checkout never reads `built_checkout`; asking for it gives the checkout the shared
    fixture build's compiled numba kernels (about 100 s of CPU not spent compiling them
    again), as tests/project/test_readme_commands.py does."""
    checkout = checkout_with_ci(tmp_path / "c")
    result = publish(checkout, "all", "--tag", "v0-test", "--cores", "2",
                     "--snakemake-args", "--configfile test-config.yaml")  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    installed = subprocess.run(
        [str(checkout / ".venv" / "bin" / "pip"), "list", "--format", "json"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    names = {package["name"].lower() for package in json.loads(installed)}
    assert "pytest" not in names and "pygments" in names  # the README's install, no test extras
    assert {"mlcroissant", "pandas"} <= names  # but the publish extra, which bundle needs
    assert "publish: bundle: data/derived/datapackage.json valid" in result.stdout
    report = (checkout / "report.html").read_text()
    assert "Wordle strategy data" in report and "benchmark-summary.html" in report
    derived = checkout / "data" / "derived"
    bundle = checkout / "dist" / "wordle-artifacts-v0-test.tar.zst"
    packed = members(bundle)
    on_disk = {
        path.relative_to(derived).as_posix(): path.read_bytes()
        for path in derived.rglob("*")
        if path.is_file() and path.name != ".gitkeep"
    }
    assert packed == on_disk
    descriptor = json.loads((checkout / "dist" / "datapackage-v0-test.json").read_text())
    assert {r["path"] for r in descriptor["resources"]} <= set(packed)
    again = publish(checkout, "bundle", "--tag", "v0-again")
    assert again.returncode == 0
    assert (
        checkout / "dist" / "wordle-artifacts-v0-again.tar.zst"
    ).read_bytes() == bundle.read_bytes()


def test_a_failing_step_is_named_and_leaves_no_partial_bundle(built_checkout, tmp_path):
    checkout = clone_checkout(built_checkout, tmp_path / "c")
    (checkout / ".ci").mkdir(exist_ok=True)
    (checkout / ".ci" / "publish.py").write_bytes((REPO / ".ci" / "publish.py").read_bytes())
    (checkout / ".venv").symlink_to(sys.prefix)  # the steps after install use .venv
    (checkout / "data" / "derived" / "datapackage.json").unlink()
    result = publish(checkout, "bundle", "--tag", "broken")
    assert result.returncode == 1
    assert "publish: step bundle failed:" in result.stderr and "datapackage.json" in result.stderr
    assert not (checkout / "dist").exists() or not any((checkout / "dist").iterdir())
    result = publish(checkout, "verify")
    assert result.returncode == 1 and "publish: step verify failed" in result.stderr
    assert "datapackage.json: the data package descriptor is missing" in result.stderr
