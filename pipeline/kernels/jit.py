"""numba's `njit` for every kernel, with an on-disk cache that cannot go stale.

numba keys a cached kernel by its own module's source alone, and a kernel's compiled
code holds every kernel it calls and every constant it reads (core's ALPHABET_SIZE, say):
after a pull that changed only a callee's module, the caller kept running the old callee.
Here each cache entry of a function defined in the kernel package or in pipeline/core (the
layers let kernels import nothing else of the package) is stamped with one digest of the
source of both: editing any of them recompiles every kernel once, an unchanged tree reuses
them all. The files stay where numba puts them, named as numba names them: `__pycache__`
beside the module, or under NUMBA_CACHE_DIR when the user set it, or numba's per-user
cache when the package is read-only. A stale entry is overwritten in place, so nothing
piles up, and numba writes each file atomically, so parallel jobs may compile at once.

Every kernel module takes `njit` from here (ruff's TID251 bans numba's own), so the
locators below are in place before numba builds the first kernel's cache.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from numba import config, njit
from numba.core import caching

__all__ = ["njit", "source_digest"]

_PACKAGE = Path(__file__).resolve().parent.parent
# Where numba compiles from: the kernels, and the core modules they call or read.
COMPILED_FROM = (_PACKAGE / "kernels", _PACKAGE / "core")
# numba's own locators, in numba's order: they serve every function not compiled from here.
_NUMBA_LOCATORS = (
    "UserProvidedCacheLocator,InTreeCacheLocator,UserWideCacheLocator,"
    "IPythonCacheLocator,ZipCacheLocator"
)


@functools.cache
def source_digest() -> str:
    """sha256 of the name and bytes of every module in COMPILED_FROM (about 1 ms: read
    once per process, when numba builds the first kernel's cache)."""
    digest = hashlib.sha256()
    for path in sorted(p for folder in COMPILED_FROM for p in folder.rglob("*.py")):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(_PACKAGE).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _compiled_from_here(py_file: str) -> bool:
    return any(Path(py_file).resolve().is_relative_to(folder) for folder in COMPILED_FROM)


class _WholeSourceStamp:
    """Claims the functions defined in COMPILED_FROM and stamps their cache entries with
    source_digest() instead of their own file's hash; numba recompiles on a mismatch."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _compiled_from_here(py_file):
            return None
        return super().from_function(py_func, py_file)

    def get_source_stamp(self) -> str:
        return source_digest()


class UserProvidedLocator(_WholeSourceStamp, caching.UserProvidedCacheLocator):
    """Under NUMBA_CACHE_DIR, when the user set it."""


class InTreeLocator(_WholeSourceStamp, caching.InTreeCacheLocator):
    """In `__pycache__` beside the module (moves with the checkout)."""


class UserWideLocator(_WholeSourceStamp, caching.UserWideCacheLocator):
    """In numba's per-user cache, when the package is read-only."""


def _install() -> None:
    """Put the locators above before numba's own (or the user's NUMBA_CACHE_LOCATOR_CLASSES).
    numba reads the list each time it decorates a function with cache=True."""
    ours = ",".join(
        f"{__name__}.{locator.__name__}"
        for locator in (UserProvidedLocator, InTreeLocator, UserWideLocator)
    )
    if not config.CACHE_LOCATOR_CLASSES.startswith(ours):
        config.CACHE_LOCATOR_CLASSES = f"{ours},{config.CACHE_LOCATOR_CLASSES or _NUMBA_LOCATORS}"


_install()
