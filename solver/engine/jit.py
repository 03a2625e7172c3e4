"""numba for every kernel: where compiled kernels are cached, and the shared compile flags.

Kernel modules import `njit` from here, never from numba, so the cache directory is set before
the first `@njit(cache=True)` is decorated (numba picks a function's cache location then).
numba's default puts the cache in `__pycache__` beside the source, that is inside the installed
package: files pip does not know about, which survive an uninstall and turn the leftover
`solver/` folder into a namespace package that shadows the next install.  So the cache goes to
the user cache directory instead: $KNIFFEL_KERNEL_CACHE, else numba's own $NUMBA_CACHE_DIR when
the user set it, else `kernels/` beside the tables' default folder.
"""
import os
from pathlib import Path

import numba
from numba import njit  # noqa: F401  (re-exported: kernel modules decorate with this)

from .store import user_cache_dir


def kernel_cache_dir():
    """The folder numba caches compiled kernels in (see the module docstring)."""
    if os.environ.get("KNIFFEL_KERNEL_CACHE"):
        return Path(os.environ["KNIFFEL_KERNEL_CACHE"])
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return user_cache_dir() / "kernels"


numba.config.CACHE_DIR = str(kernel_cache_dir())

# Lets LLVM use vector max instructions; sums keep their order (no reassociation), so values
# do not depend on how the compiler vectorises.
FAST = {"nnan", "ninf", "nsz"}


@njit(cache=True)
def _popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count
