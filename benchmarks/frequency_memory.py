"""Peak memory of the jobs that read the frequency file, on a 200 MB file in Kaggle's layout.

Run: `python benchmarks/frequency_memory.py [--size-mb 200] [--checkout DIR]`.

It writes an allowed list (the real one when a mirror is found, else the test fixture's)
and a frequency file: the real `unigram_freq.csv` rows when available, then generated rows
of random lower-case words up to the size asked, sealed in data/raw as the fetch step
leaves it. A fresh Python then runs each rule's script as Snakemake does (a stand-in for
the `snakemake` object, see tests/support/stage_runner.py) and reports its own peak resident
memory (VmHWM, Linux):
- build_commonness, which streams the file and keeps only the list's words (its rule
  declares mem_mb from this);
- fetch_source of the same file as a local source, which reads it whole and checks
  every row before writing it.
`--checkout DIR` runs another checkout's `pipeline` package and scripts instead of this
one's, to measure a baseline (for example the code before streaming).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # for the fixture lists in tests/conftest.py

from pipeline.artifacts import raw  # noqa: E402
from tests import conftest  # noqa: E402

_BLOCK_ROWS = 1 << 20
# The child: run a rule's script with a stand-in `snakemake`, then print its peak RSS (KiB).
# VmHWM, not ru_maxrss: a child started by a large parent inherits the parent's ru_maxrss.
_CHILD = """
import json, runpy, sys, types
job = json.loads(sys.argv[1])
snakemake = types.SimpleNamespace(input=job["input"], output=job["output"],
    params=job["params"], threads=1, log=[job["log"]], rule=job["rule"])
runpy.run_path(job["script"], init_globals={"snakemake": snakemake}, run_name="__main__")
with open("/proc/self/status") as status:
    print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
"""


def _random_rows(rng: np.random.Generator, rows: int, letters: int) -> bytes:
    """`rows` lines `word,count` of `letters`-letter words and 9-digit counts, at numpy speed."""
    width = letters + 1 + 9 + 1
    table = np.empty((rows, width), dtype=np.uint8)
    table[:, :letters] = rng.integers(ord("a"), ord("z") + 1, (rows, letters), dtype=np.uint8)
    table[:, letters] = ord(",")
    table[:, letters + 1 : letters + 10] = rng.integers(ord("0"), ord("9") + 1, (rows, 9))
    table[:, letters + 1] = rng.integers(ord("1"), ord("9") + 1, rows, dtype=np.uint8)
    table[:, -1] = ord("\n")
    return table.tobytes()


def write_frequency_file(path: Path, size_mb: int, real: Path | None) -> int:
    """Write about `size_mb` MB in Kaggle's layout; return the number of bytes written."""
    rng = np.random.default_rng(2026)
    target = size_mb * 1_000_000
    with open(path, "wb") as handle:
        if real is not None:
            handle.write((real / "unigram_freq.csv").read_bytes())
        else:
            rows = sorted(conftest.FIXTURE_COUNTS.items(), key=lambda item: -item[1])
            handle.write(b"word,count\n" + "".join(f"{w},{c}\n" for w, c in rows).encode())
        letters = 3
        while handle.tell() < target:
            rows = min(_BLOCK_ROWS, (target - handle.tell()) // (letters + 11) + 1)
            handle.write(_random_rows(rng, rows, letters))
            letters = 3 + (letters - 2) % 12  # 3 to 14 letters, block by block
        return handle.tell()


def write_inputs(folder: Path, size_mb: int, real: Path | None) -> int:
    """data/raw/{allowed,frequency}.txt sealed as fetched from local files (the commonness
    is built from the allowed list); returns the frequency file's size."""
    if real is not None:
        allowed = (real / "allowed.txt").read_bytes()
    else:
        allowed = "\n".join(conftest.FIXTURE_ALLOWED).encode()
    (folder / "my").mkdir()
    origin = {"source": "allowed", "kind": "local", "origin": "my/allowed.txt"}
    raw.write_raw(allowed, folder / "data/raw/allowed.txt", provenance=origin)
    size = write_frequency_file(folder / "my" / "freq.csv", size_mb, real)
    data = (folder / "my" / "freq.csv").read_bytes()
    origin = {"source": "frequency", "kind": "local", "origin": "my/freq.csv"}
    raw.write_raw(data, folder / "data/raw/frequency.txt", provenance=origin)
    return size


def _sealed(path: str) -> list[str]:
    return [path, f"{path}.seal.json"]


JOBS = {
    "build_commonness": {
        "input": {
            "allowed": _sealed("data/raw/allowed.txt"),
            "frequency": _sealed("data/raw/frequency.txt"),
        },
        "output": {"commonness": _sealed("data/derived/shared/allowed/commonness.parquet")},
        "params": {"n_common": 3000, "width": 10},
    },
    "fetch_source": {
        "input": {"local": ["my/freq.csv"]},
        "output": {"raw": _sealed("data/raw/frequency-fetched.txt")},
        "params": {
            "name": "frequency",
            "spec": json.dumps({"kind": "local", "path": "my/freq.csv"}),
            "timeout": 60,
            "retries": 3,
            "deadline": 600,
        },
    },
}


def peak_memory_mb(folder: Path, checkout: Path, rule: str) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of rule `rule`'s script run in `folder`."""
    job = {**JOBS[rule], "rule": rule, "log": f"logs/{rule}.log"}
    job["script"] = str(checkout / "workflow" / "scripts" / f"{rule}.py")
    env = {**os.environ, "PYTHONPATH": str(checkout)}  # checkout's `pipeline` comes first
    env.pop("WORDLE_MIRROR", None)
    (folder / "logs").mkdir(exist_ok=True)
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(job)],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{rule} failed:\n{result.stderr}")
    return int(result.stdout.split()[-1]) / 1024, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=200, help="size of the frequency file")
    parser.add_argument("--checkout", type=Path, default=REPO, help="checkout whose code runs")
    parser.add_argument("--rules", nargs="+", choices=sorted(JOBS), default=sorted(JOBS))
    args = parser.parse_args()
    real = conftest.real_mirror()
    checkout = args.checkout.resolve()
    with tempfile.TemporaryDirectory(prefix="wordle-freq-") as scratch:
        folder = Path(scratch)
        size = write_inputs(folder, args.size_mb, real)
        allowed = "the real list" if real is not None else "the fixture list"
        print(f"frequency file: {size / 1e6:.1f} MB in Kaggle's layout; allowed list: {allowed}")
        print(f"code: {checkout}")
        for rule in args.rules:
            peak, seconds = peak_memory_mb(folder, checkout, rule)
            print(f"{rule}: peak RSS {peak:.0f} MB, {seconds:.1f} s wall (target < 500 MB)")


if __name__ == "__main__":
    main()
