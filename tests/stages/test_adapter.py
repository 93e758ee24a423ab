"""run_stage ends a successful job's log with the job's exact CPU time and peak memory,
and runs the job without pandas and without a BLAS thread per core."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

JOB = """
import sys, time
from types import SimpleNamespace
import numpy as np
from pipeline.stages.adapter import run_stage

class Named(dict):
    pass

def stage(*, out, threads):
    block = np.ones(250_000_000 // 8)  # 250 MB, touched
    began = time.process_time()
    while time.process_time() - began < 0.5:  # 0.5 s of CPU
        block[:1000] += 1.0

job = SimpleNamespace(input=Named(), output=Named(out="x"), params=Named(), threads=1,
                      log=[sys.argv[1]], rule="spin")
run_stage(job, stage)
"""


# A parent 700 MB large starts the job, as Snakemake (large itself) does: the kernel
# keeps ru_maxrss across exec, so the job must not report the parent's size.
PARENT = """
import subprocess, sys
import numpy as np
held = np.ones(700_000_000 // 8)
subprocess.run([sys.executable, "-c", sys.argv[1], sys.argv[2]], check=True)
"""


def test_the_log_ends_with_the_jobs_cpu_and_peak_memory(tmp_path: Path):
    log = tmp_path / "job.log"
    subprocess.run([sys.executable, "-c", PARENT, JOB, str(log)], check=True, cwd=tmp_path)
    last = log.read_text().splitlines()[-1]
    found = re.search(r"resources: ([\d.]+) s CPU .*, peak memory ([\d.]+) MB$", last)
    assert found, last
    cpu, peak = float(found.group(1)), float(found.group(2))
    assert 0.5 <= cpu < 10.0  # the spin plus the interpreter's start and imports
    assert 250.0 <= peak < 600.0  # its own 250 MB and libraries, not the parent's 700 MB


PYARROW_JOB = """
import sys
from types import SimpleNamespace
from pipeline.stages.adapter import run_stage

class Named(dict):
    pass

def stage(*, out):
    import pyarrow as pa
    values = pa.array([3, 1, 2]).to_numpy()  # pyarrow imports pandas here when it can
    with open(out, "w") as file:
        file.write(f"{values.sum()} {'pandas' in sys.modules}")

job = SimpleNamespace(input=Named(), output=Named(out=sys.argv[1]), params=Named(), threads=1,
                      log=[], rule="arrow")
run_stage(job, stage)
"""


def test_a_job_that_uses_arrow_does_not_import_pandas(tmp_path: Path):
    """pandas is installed here (frictionless needs it), and pyarrow imports it on its
    first array: 0.3 s of CPU in every job. run_stage hides it; the Arrow work still runs."""
    out = tmp_path / "out.txt"
    subprocess.run([sys.executable, "-c", PYARROW_JOB, str(out)], check=True, cwd=tmp_path)
    assert out.read_text() == "6 False"
    probe = "import pyarrow as pa, sys; pa.array([1]); print('pandas' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert shown.stdout.strip() == "True"  # without run_stage, pyarrow does import it


THREADS_AFTER_NUMPY = (
    "import sys\n"
    "{first}"
    "import numpy\n"
    "status = open('/proc/self/status').read()\n"
    "print(status.split('Threads:')[1].split()[0])\n"
)


@pytest.mark.skipif(
    (os.cpu_count() or 1) < 2 or not Path("/proc/self/status").exists(),
    reason="needs Linux's /proc and 2 cores (OpenBLAS starts no extra thread on one)",
)
def test_a_job_imports_numpy_without_blas_threads():
    """A job's script imports pipeline.stages before numpy, so OpenBLAS starts no thread
    per core; a plain process with the same environment does (the test's own check)."""
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}

    def threads(first: str) -> int:
        code = THREADS_AFTER_NUMPY.format(first=first)
        shown = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=environment
        )
        return int(shown.stdout)

    assert threads("from pipeline.stages.adapter import run_stage\n") == 1
    assert threads("") > 1
