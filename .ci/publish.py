#!/usr/bin/env python3
"""CI's publishing steps, one command each, in the order the artifacts and release jobs
run them (.github/workflows/artifacts.yml calls them step by step; a test runs them all
on the fixture):

  install   create .venv the README's way (the pipeline install line, no test extras)
  pipeline  run the whole workflow (README's pipeline command)
  report    build the Snakemake report, report.html
  verify    check data/derived against its datapackage.json
  bundle    pack data/derived into dist/wordle-artifacts-TAG.tar.zst (+ its descriptor)
  all       every step above, in order
  hub       push data/derived (its README.md is the dataset card) to the Hugging Face
            dataset repository $HF_DATASET_REPO with the token $HF_TOKEN; without both,
            say so and push nothing (exit 0)

A failing step stops the script with the step named and exit status 1; the bundle is
written under a temporary name and renamed only when complete, so no partial bundle is
ever left in dist/. Runs with the system Python (3.11+); the steps after `install` use
.venv's programs.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VENV = REPO / ".venv" / "bin"
PROFILE = ["--workflow-profile", "workflow/profiles/default"]
STEPS = ("install", "pipeline", "report", "verify", "bundle")


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
    run("install", [*uv_install, "--python", python, "-e", "."])


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
    beside a copy of its descriptor."""
    derived = REPO / "data" / "derived"
    descriptor = derived / "datapackage.json"
    if not descriptor.is_file():
        raise StepFailed(f"step bundle failed: {descriptor} is missing (run the pipeline)")
    dist = REPO / "dist"
    dist.mkdir(exist_ok=True)
    target = dist / f"wordle-artifacts-{args.tag}.tar.zst"
    partial = target.with_name(f".{target.name}.partial")
    try:
        write_bundle(derived, partial)
        os.replace(partial, target)
        (dist / f"datapackage-{args.tag}.json").write_bytes(descriptor.read_bytes())
    except (OSError, tarfile.TarError, ImportError) as error:
        raise StepFailed(f"step bundle failed: {error}") from None
    finally:
        partial.unlink(missing_ok=True)
    print(f"publish: bundle: {target.relative_to(REPO)} ({target.stat().st_size} bytes)")


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
    run("hub", [str(VENV / "python"), "-m", "pip", "install", "-q", "huggingface_hub>=0.24"])
    run("hub", [str(VENV / "python"), "-c", UPLOAD, repo, args.tag])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=(*STEPS, "all", "hub"))
    parser.add_argument("--tag", default="dev", help="name of the bundle (a version tag)")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--snakemake-args", default="", help="more snakemake arguments")
    args = parser.parse_args(argv)
    steps = STEPS if args.step == "all" else (args.step,)
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
