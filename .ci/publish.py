#!/usr/bin/env python3
"""CI's publishing steps, one command each, in the order the artifacts and release jobs
run them (.github/workflows/artifacts.yml calls them step by step; a test runs them all
on the fixture):

  install   create .venv the README's way (the pipeline install line, no test extras);
            --extra publish adds the validators and huggingface_hub (bundle and hub need them)
  pipeline  run the whole workflow (README's pipeline command)
  report    build the Snakemake report, report.html
  verify    check data/derived against its datapackage.json
  bundle    validate, then pack data/derived into dist/wordle-artifacts-TAG.tar.zst (+ its
            descriptor)
  all       every step above, in order (installing the publish extra)
  hub       validate, then push data/derived (its README.md is the dataset card) to the
            Hugging Face dataset repository $HF_DATASET_REPO with the token $HF_TOKEN;
            without both, say so and push nothing (exit 0). After bundle TAG, whose copy
            of the descriptor has the same bytes, verify stands in for the validators.

Before publishing anything, bundle and hub run the standards' own validators: `frictionless
validate` on datapackage.json (every row of every resource) and mlcroissant on each
edition's croissant.json (its warnings do not count); the first error stops the step. A
validator that is not installed fails the step too, saying what to install.

A failing step stops the script with one line naming the step and what failed, and exit
status 1; the bundle and its descriptor are written under temporary names and renamed
only when complete, so no partial bundle is ever left in dist/. Runs with the system
Python (3.11+); the steps after `install` use .venv's programs.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tarfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VENV = REPO / ".venv" / "bin"
PROFILE = ["--workflow-profile", "workflow/profiles/default"]
STEPS = ("install", "pipeline", "report", "verify", "bundle")
DERIVED = REPO / "data" / "derived"
# What validating needs in .venv: frictionless reads Parquet through pandas.
VALIDATORS = ("frictionless", "pandas", "mlcroissant")
INSTALL_HINT = "python3 .ci/publish.py install --extra publish"
# Run by .venv's Python: which of the modules named as arguments it cannot import.
FIND_MISSING = """
import importlib.util, sys
print(*(name for name in sys.argv[1:] if importlib.util.find_spec(name) is None))
"""


class StepFailed(Exception):
    """A step did not succeed; its message names the step and what failed."""


def run(step: str, command: list[str]) -> None:
    """Run one command of a step in the repository, failing the step if it fails."""
    print(f"publish: {step}: {shlex.join(command)}", flush=True)
    try:
        subprocess.run(command, cwd=REPO, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise StepFailed(f"step {step} failed: {error}") from None


def install(args: argparse.Namespace) -> None:
    run("install", [sys.executable, "-m", "venv", ".venv"])
    run("install", [str(VENV / "pip"), "install", "-q", "uv"])
    python = str(VENV / "python")
    uv_install = [str(VENV / "uv"), "pip", "install", "-q", "--compile-bytecode"]
    target = f".[{args.extra}]" if args.extra else "."
    run("install", [*uv_install, "--python", python, "-e", target])


def pipeline(args: argparse.Namespace) -> None:
    extra = shlex.split(args.snakemake_args)
    run("pipeline", [str(VENV / "snakemake"), *PROFILE, "--cores", str(args.cores), *extra])


def report(args: argparse.Namespace) -> None:
    extra = shlex.split(args.snakemake_args)
    command = [str(VENV / "snakemake"), *PROFILE, "--cores", "1", *extra]
    run("report", [*command, "--report", "report.html"])
    if not (REPO / "report.html").is_file():
        raise StepFailed("step report failed: snakemake wrote no report.html")


def verify(args: argparse.Namespace) -> None:
    run("verify", [str(VENV / "wordle-pipeline"), "verify", "data/derived/datapackage.json"])


def bundle(args: argparse.Namespace) -> None:
    """A reproducible tar (sorted names, no owners or times) of data/derived, zstd level 19,
    beside a copy of its descriptor; nothing is written unless the validators accept it."""
    descriptor = DERIVED / "datapackage.json"
    if not descriptor.is_file():
        raise StepFailed(f"step bundle failed: {descriptor} is missing (run the pipeline)")
    validate("bundle")
    dist = REPO / "dist"
    dist.mkdir(exist_ok=True)
    target = dist / f"wordle-artifacts-{args.tag}.tar.zst"
    copy = dist / f"datapackage-{args.tag}.json"
    partials = [path.with_name(f".{path.name}.partial") for path in (target, copy)]
    try:
        write_bundle(DERIVED, partials[0])
        partials[1].write_bytes(descriptor.read_bytes())
        os.replace(partials[1], copy)
        os.replace(partials[0], target)
    except (OSError, tarfile.TarError, ImportError) as error:
        raise StepFailed(f"step bundle failed: {error}") from None
    finally:
        for partial in partials:
            partial.unlink(missing_ok=True)
    print(f"publish: bundle: {target.relative_to(REPO)} ({target.stat().st_size} bytes)")


def validate(step: str, needs: tuple[str, ...] = ()) -> None:
    """Fail `step` unless frictionless accepts data/derived/datapackage.json with its data
    and mlcroissant every edition's croissant.json: the first error, on one line, names the
    file. `needs`: more modules the step needs in .venv."""
    missing = missing_modules((*VALIDATORS, *needs))
    if missing:
        raise StepFailed(
            f"step {step} failed: {', '.join(missing)} not installed in .venv; "
            f"install the publish extra: {INSTALL_HINT}"
        )
    checks = [(DERIVED / "datapackage.json", frictionless_error)]
    checks += [(path, croissant_error) for path in sorted(DERIVED.glob("*/croissant.json"))]
    for path, first_error in checks:
        name = path.relative_to(REPO)
        started = time.monotonic()
        error = first_error(path)
        if error is not None:
            raise StepFailed(f"step {step} failed: {name} is invalid: {' '.join(error.split())}")
        print(f"publish: {step}: {name} valid ({time.monotonic() - started:.1f} s)", flush=True)


def missing_modules(modules: tuple[str, ...]) -> list[str]:
    """Which of `modules` .venv's Python cannot import (all of them without a .venv)."""
    if not (VENV / "python").exists():
        return list(modules)
    command = [str(VENV / "python"), "-c", FIND_MISSING, *modules]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    return result.stdout.split() if result.returncode == 0 else list(modules)


def frictionless_error(descriptor: Path) -> str | None:
    """The first error of `frictionless validate` (every row of every resource), or None."""
    command = [str(VENV / "frictionless"), "validate", "--json", descriptor.name]
    result = subprocess.run(
        command, cwd=descriptor.parent, capture_output=True, text=True, check=False
    )
    try:
        report = json.loads(result.stdout)
    except ValueError:  # it failed before writing its report
        return f"frictionless: {last_line(result.stderr) or f'exited with {result.returncode}'}"
    if report["valid"] and result.returncode == 0:
        return None
    if report["errors"]:
        return f"frictionless: {report['errors'][0]['message']}"
    task = next((task for task in report["tasks"] if task["errors"]), None)
    if task is None:
        return f"frictionless: exited with {result.returncode}, naming no error"
    return f"frictionless: resource {task['name']}: {task['errors'][0]['message']}"


def croissant_error(path: Path) -> str | None:
    """The first error of `mlcroissant validate`, or None; its warnings do not count."""
    command = [str(VENV / "mlcroissant"), "validate", "--jsonld", str(path)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode == 0:
        return None
    # Its report: "Found the following N error(s) ...", then a "  -  " line per error.
    lines = result.stderr.splitlines()
    for header, line in zip(lines, lines[1:], strict=False):
        if "error(s)" in header and line.lstrip().startswith("- "):
            return f"mlcroissant: {line.strip().removeprefix('-').strip()}"
    return f"mlcroissant: {last_line(result.stderr) or f'exited with {result.returncode}'}"


def last_line(text: str) -> str:
    """The last non-blank line of `text` (a traceback's is the exception)."""
    return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")


def write_bundle(folder: Path, output: Path) -> None:
    import zstandard  # from the pipeline's environment (run the install step first)

    def normalised(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        info.mtime = 0
        info.mode = 0o755 if info.isdir() else 0o644
        return info

    with (
        open(output, "wb") as raw,
        zstandard.ZstdCompressor(level=19).stream_writer(raw) as compressed,
        tarfile.open(fileobj=compressed, mode="w|", format=tarfile.PAX_FORMAT) as tar,
    ):
        for path in sorted(folder.rglob("*")):
            if path.name.endswith((".damaged", ".tmp")) or path.name == ".gitkeep":
                continue
            tar.add(path, path.relative_to(folder).as_posix(), False, filter=normalised)


# The push, run by .venv's Python once huggingface_hub is there: repository, tag.
UPLOAD = """
import sys
from huggingface_hub import HfApi
api = HfApi()  # the token from HF_TOKEN
api.create_repo(sys.argv[1], repo_type="dataset", exist_ok=True)
api.upload_folder(
    folder_path="data/derived", repo_id=sys.argv[1], repo_type="dataset",
    commit_message=f"Wordle data {sys.argv[2]}",
    ignore_patterns=["*.damaged", "*.tmp", ".gitkeep"],
)
"""


def hub(args: argparse.Namespace) -> None:
    repo = os.environ.get("HF_DATASET_REPO", "")
    if not os.environ.get("HF_TOKEN") or not repo:
        print("publish: hub: HF_TOKEN and HF_DATASET_REPO are not both set; nothing pushed")
        return
    if validated_by_bundle(args.tag):
        # The descriptor pins every file's sha256 (croissant.json's too): verify the files
        # against it instead of running the validators a second time (minutes on a full build).
        print(f"publish: hub: datapackage.json is the one bundle {args.tag} validated")
        verify(args)
        if missing_modules(("huggingface_hub",)):
            raise StepFailed(f"step hub failed: huggingface_hub not installed; {INSTALL_HINT}")
    else:
        validate("hub", needs=("huggingface_hub",))
    run("hub", [str(VENV / "python"), "-c", UPLOAD, repo, args.tag])


def validated_by_bundle(tag: str) -> bool:
    """Whether bundle `tag` validated this very descriptor: bundle writes its copy,
    dist/datapackage-TAG.json, only after the validators accepted it."""
    copy = REPO / "dist" / f"datapackage-{tag}.json"
    descriptor = DERIVED / "datapackage.json"
    return copy.is_file() and descriptor.is_file() and copy.read_bytes() == descriptor.read_bytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=(*STEPS, "all", "hub"))
    parser.add_argument("--tag", default="dev", help="name of the bundle (a version tag)")
    parser.add_argument("--extra", help="install: an optional dependency group (publish)")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--snakemake-args", default="", help="more snakemake arguments")
    args = parser.parse_args(argv)
    steps = STEPS if args.step == "all" else (args.step,)
    if args.step == "all" and args.extra is None:
        args.extra = "publish"  # bundle validates
    try:
        for step in steps:
            if step == "bundle" and bundle_needs_python_path():
                os.execv(str(VENV / "python"), [str(VENV / "python"), __file__, *sys.argv[1:]])
            globals()[step](args)
    except StepFailed as error:
        print(f"publish: {error}", file=sys.stderr)
        return 1
    return 0


def bundle_needs_python_path() -> bool:
    """Whether this is the system Python, which lacks zstandard: bundle then re-runs in .venv."""
    return Path(sys.prefix).resolve() != (REPO / ".venv").resolve() and (VENV / "python").exists()


if __name__ == "__main__":
    sys.exit(main())
