"""run_stage ends a successful job's log with the job's exact CPU time and peak memory,
and how much of that CPU went on starting and on compiling kernels; it runs the job
without pandas and scipy and without a BLAS thread per core."""

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
    from pipeline.kernels.jit import njit  # a kernel compiled in the job, as a stage's is

    njit(lambda n: sum([i * i for i in range(n)]))(10)
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
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_DISABLE_JIT"}
    subprocess.run([sys.executable, "-c", PARENT, JOB, str(log)], check=True, cwd=tmp_path, env=env)
    resources, split = log.read_text().splitlines()[-2:]
    found = re.search(r"resources: ([\d.]+) s CPU .*, peak memory ([\d.]+) MB$", resources)
    assert found, resources
    cpu, peak = float(found.group(1)), float(found.group(2))
    assert 0.5 <= cpu < 10.0  # the spin plus the interpreter's start and imports
    assert 250.0 <= peak < 600.0  # its own 250 MB and libraries, not the parent's 700 MB
    found = re.search(r"of which: ([\d.]+) s CPU starting, ([\d.]+) s CPU compiling$", split)
    assert found, split
    starting, compiling = float(found.group(1)), float(found.group(2))
    assert 0.05 < starting < 5.0  # the interpreter and numpy, before the stage began
    assert 0.01 < compiling < 5.0  # the kernel the stage compiled
    assert cpu - starting - compiling >= 0.5  # the stage's own work: the spin at least


# A job whose stage does `work` and writes its result and whether `module` was imported.
LIBRARY_JOB = """
import sys
from types import SimpleNamespace
from pipeline.stages.adapter import run_stage

class Named(dict):
    pass

def stage(*, out):
    {work}
    with open(out, "w") as file:
        file.write(f"{{result}} {{'{module}' in sys.modules}}")

job = SimpleNamespace(input=Named(), output=Named(out=sys.argv[1]), params=Named(), threads=1,
                      log=[], rule="library")
run_stage(job, stage)
"""

# pyarrow imports pandas on its first array; numba imports scipy's BLAS when it first
# loads a compiled kernel (for np.dot, which no kernel uses)
LIBRARY_WORK = {
    "pandas": ("import pyarrow as pa; result = pa.array([3, 1, 2]).to_numpy().sum()", "6"),
    "scipy.linalg": (
        "from pipeline.core.wordle import encode_words; "
        "from pipeline.kernels.feedback import feedback_matrix; "
        "codes = encode_words(['crane', 'nacre']); "
        "result = feedback_matrix(codes, codes, engine='jit').tolist()",
        "[[242, 202], [202, 242]]",  # every letter yellow but the green e
    ),
}


@pytest.mark.parametrize("module", LIBRARY_WORK)
def test_a_job_does_not_import_what_no_stage_uses(tmp_path: Path, module: str):
    """pandas and scipy are installed here (the publish extras bring them), and pyarrow
    and numba import them on their own: about 0.5 s of CPU in every job. run_stage hides
    them; the work still runs and gives the same result."""
    work, expected = LIBRARY_WORK[module]
    out = tmp_path / "out.txt"
    job = LIBRARY_JOB.format(work=work, module=module)
    subprocess.run([sys.executable, "-c", job, str(out)], check=True, cwd=tmp_path)
    assert out.read_text() == f"{expected} False"
    probe = f"import sys\n{work}\nprint(result, {module!r} in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert shown.stdout.strip() == f"{expected} True"  # without run_stage, it is imported


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
