"""The loop benchmark's reading of pytest's durations (benchmarks/dev_loop.py), on a
command that prints what `pytest --durations=0` prints."""

from __future__ import annotations

import sys

from benchmarks.dev_loop import Timed, print_loop, timed

DURATIONS = """\
============================= slowest durations ==============================
309.35s setup    tests/workflow/test_workflow.py::test_run_builds_every_artifact
62.36s call     tests/workflow/test_workflow.py::test_two_clean_runs[a-b]
0.50s teardown tests/workflow/test_workflow.py::test_two_clean_runs[a-b]
12.00s call     tests/project/test_readme_commands.py::test_every_block
1 passed in 3.00s
"""


def printing(text: str, code: int = 0) -> list[str]:
    return [sys.executable, "-c", f"import sys; print({text!r}); sys.exit({code})"]


def test_test_seconds_are_summed_by_file(tmp_path):
    run = timed(printing(DURATIONS), tmp_path)
    assert run.ok and run.wall > 0 and run.cpu > 0
    assert run.by_file == {
        "tests/workflow/test_workflow.py": 309.35 + 62.36 + 0.50,
        "tests/project/test_readme_commands.py": 12.0,
    }


def test_a_failing_command_is_reported_with_its_output(tmp_path, capsys):
    run = timed(printing("the last words", code=3), tmp_path)
    assert not run.ok
    failed = capsys.readouterr().out
    assert "FAILED (3)" in failed and "the last words" in failed


def test_the_loop_is_reported_in_fixture_builds(capsys):
    print_loop({"fixture build": Timed(10.0, 15.0), "fast lane": Timed(250.0, 480.0, ok=False)})
    lines = capsys.readouterr().out.splitlines()
    ratio = next(line for line in lines if "fast lane: wall in fixture builds" in line)
    assert float(ratio.split()[-2]) == 25.0
    assert any("fast lane: wall" in line and line.endswith("(FAILED)") for line in lines)
