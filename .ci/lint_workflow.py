"""CI's workflow gates, run before pytest as the Snakemake template workflows run them:
snakefmt must leave every workflow file unchanged (its settings are pyproject.toml's
[tool.snakefmt]), and `snakemake --lint` may report only the one documented lint.

The documented lint (docs/operating.md): rules run the installed `pipeline` package of the
environment that runs Snakemake, so no rule names a conda environment or container.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ALLOWED = {"Specify a conda environment or container for each rule."}


def lint_titles(report: str) -> set[str]:
    """The lint titles of a `snakemake --lint` text report (its `* title:` lines)."""
    return set(re.findall(r"^\s+\* (.+?):?$", report, flags=re.MULTILINE))


def main() -> int:
    formatted = subprocess.run(
        [BIN / "snakefmt", "--check", "Snakefile", "workflow"], cwd=ROOT, check=False
    )
    if formatted.returncode != 0:
        print("lint: snakefmt would change the files above (run snakefmt Snakefile workflow)")
        return 1
    linted = subprocess.run(
        [BIN / "snakemake", "--lint", "--cores", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    report = linted.stdout + linted.stderr
    titles = lint_titles(report)
    if not titles and linted.returncode != 0:
        print(report[-3000:])
        print("lint: snakemake --lint did not run")
        return 1
    if titles - ALLOWED:
        print(report)
        print(
            f"lint: snakemake --lint reports {sorted(titles - ALLOWED)}, beyond the documented one"
        )
        return 1
    print("lint: snakefmt clean; snakemake --lint reports only the documented lint")
    return 0


if __name__ == "__main__":
    sys.exit(main())
