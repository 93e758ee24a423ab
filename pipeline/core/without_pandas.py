"""Run a process as if pandas were not installed.

When pandas is installed (frictionless brings it), pyarrow imports it on its first
array or to_numpy, to recognise pandas types: about 0.3 s of CPU in every process that
touches Arrow, which is every pipeline job and every assistant answer. Nothing in the
package uses pandas. A meta-path finder that reports it missing (not a None in
sys.modules, which pyarrow's compiled pandas shim does not take for "absent") saves
that. Only whole processes of our own do this (a job, the console script); never a
function that runs inside other programs or tests.
"""

from __future__ import annotations

import sys


class _WithoutPandas:
    """An import finder that reports pandas as not installed."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def hide_pandas() -> None:
    """From now on this process finds no pandas (unless it is imported already)."""
    if _WithoutPandas not in sys.meta_path:
        sys.meta_path.insert(0, _WithoutPandas)
