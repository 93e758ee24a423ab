"""numba's `njit` for every kernel, with an on-disk cache that cannot go stale.

numba keys a cached kernel by its own module's source alone, and a kernel's compiled
code holds every kernel it calls and every constant it reads (core's ALPHABET_SIZE, say):
after a pull that changed only a callee's module, the caller kept running the old callee.
Here each cache entry of a function defined in the kernel package or in pipeline/core (the
layers let kernels import nothing else of the package) is stamped with one digest of the
source of both: editing any of them recompiles every kernel once, an unchanged tree reuses
them all. The files are named as numba names them, in `__pycache__` beside the module,
or numba's per-user cache when the package is read-only (a stale entry is overwritten in
place, so nothing piles up), or under NUMBA_CACHE_DIR when it is set, in one folder per
source digest that every checkout of that source shares (the test suite sets it, so that
its many copies of the workflow compile once; an old source's folder may be deleted).
numba writes each file atomically, and a process compiles a kernel only when no other is
compiling it (compiling.py), so parallel jobs compile each kernel once.

A cache file is read as untrusted input: a truncated or otherwise unreadable index or
data file (cut by a full disk, or copied half-way between checkouts) is treated as no
entry, with one warning line on stderr per process, so the kernel is recompiled and the
entry written anew; an index of another numba version is already ignored by numba.

Every kernel module takes `njit` from here (ruff's TID251 bans numba's own), so the
locators below are in place before numba builds the first kernel's cache.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path

from numba import config, njit
from numba.core import caching

from pipeline.kernels import compiling

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
    source_digest() instead of their own file's hash; numba recompiles on a mismatch.
    Their compiles take a lock, so that processes compile each once (compiling.py)."""

    compile_once = True

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _compiled_from_here(py_file):
            return None
        return super().from_function(py_func, py_file)

    def get_source_stamp(self) -> str:
        return source_digest()


class UserProvidedLocator(_WholeSourceStamp, caching.UserProvidedCacheLocator):
    """Under NUMBA_CACHE_DIR, when the user set it: in a folder named by the source
    digest, then by the module's folder in the package (numba's own names the folder by
    the module's absolute path). Every copy of the same source, wherever it lies (a test
    checkout, a module's consumer, another clone), then reads and writes one compiled
    copy, and copies of other source never overwrite it."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        folder = Path(py_file).resolve().parent.relative_to(_PACKAGE)
        version = f"wordle-pipeline-{source_digest()[:16]}"
        self._cache_path = str(Path(config.CACHE_DIR, version, *folder.parts))


class InTreeLocator(_WholeSourceStamp, caching.InTreeCacheLocator):
    """In `__pycache__` beside the module (moves with the checkout)."""


class UserWideLocator(_WholeSourceStamp, caching.UserWideCacheLocator):
    """In numba's per-user cache, when the package is read-only."""


_warned: list[str] = []  # the cache file already named in this process, if any


def _warn_damaged(path: str, error: Exception) -> None:
    _warn_once(path, f"is damaged ({_reason(error)}); recompiling")


def _warn_once(path: str, what: str) -> None:
    """One warning line per process, whatever goes wrong with the cache how often."""
    if not _warned:
        _warned.append(path)
        sys.stderr.write(f"warning: compiled-kernel cache file {path} {what}\n")


def _reason(error: Exception) -> str:
    return f"{type(error).__name__}: {error}".splitlines()[0][:120]


class CheckedCacheFile(caching.IndexDataCacheFile):
    """numba's index and data files, with damage read as a missing entry. numba itself
    handles a missing file (and an index of another numba version); anything else that
    fails to unpickle would otherwise end the user's command in a traceback."""

    def _load_index(self) -> dict:
        try:
            return super()._load_index()
        except OSError:
            raise  # unreadable, not damaged: numba's own behaviour
        except Exception as error:  # noqa: BLE001 - any unpickling failure is damage
            _warn_damaged(self._index_path, error)
            return {}  # no entries: the next save writes a whole new index

    def _load_data(self, name: str) -> object:
        try:
            return super()._load_data(name)
        except OSError:
            raise
        except Exception as error:  # noqa: BLE001
            _warn_damaged(self._data_path(name), error)
            raise OSError(f"damaged cache file {name}") from error  # load(): no entry

    def save(self, key: object, data: object) -> None:
        """A full disk, a file size limit or a read-only folder: the kernel runs compiled
        but uncached, with one warning, instead of ending the command in a traceback."""
        try:
            super().save(key, data)
        except OSError as error:
            _warn_once(self._index_path, f"cannot be written ({_reason(error)}); not cached")


def _install() -> None:
    """Put the locators above before numba's own (or the user's NUMBA_CACHE_LOCATOR_CLASSES).
    numba reads the list each time it decorates a function with cache=True."""
    ours = ",".join(
        f"{__name__}.{locator.__name__}"
        for locator in (UserProvidedLocator, InTreeLocator, UserWideLocator)
    )
    if not config.CACHE_LOCATOR_CLASSES.startswith(ours):
        config.CACHE_LOCATOR_CLASSES = f"{ours},{config.CACHE_LOCATOR_CLASSES or _NUMBA_LOCATORS}"
    # numba's Cache looks the class up in its module each time it makes a cache file.
    caching.IndexDataCacheFile = CheckedCacheFile
    compiling.install()


_install()
