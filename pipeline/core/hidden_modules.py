"""Run a process as if pandas and scipy were not installed.

Nothing in the package uses either, but where they are installed (the publish extras
bring both) other libraries import them on their own: pyarrow imports pandas on its
first array or to_numpy, to recognise pandas types (about 0.3 s of CPU), and numba
imports scipy's BLAS when it first loads a compiled kernel, for the np.dot it offers
(about 0.1 s). Every pipeline job and every assistant answer would pay that. A
meta-path finder that reports them missing (not a None in sys.modules, which pyarrow's
compiled pandas shim does not take for "absent") saves it, and makes such a process
the same as one in the README's environment, which has neither. Only whole processes
of our own do this (a job, the console script); never a function that runs inside
other programs or tests.
"""

from __future__ import annotations

import sys

HIDDEN = ("pandas", "scipy")


class _HiddenModules:
    """An import finder that reports the HIDDEN modules (and theirs) as not installed."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> None:
        if any(name == hidden or name.startswith(hidden + ".") for hidden in HIDDEN):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def hide_unused_modules() -> None:
    """From now on this process finds neither pandas nor scipy, nor a part of either not
    imported already (`import numba` may have imported scipy's top package)."""
    if _HiddenModules not in sys.meta_path:
        sys.meta_path.insert(0, _HiddenModules)
