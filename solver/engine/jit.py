"""numba for every kernel: where compiled kernels are cached, and the shared compile flags.

Kernel modules import `njit` from here, never from numba.  numba picks a function's cache
directory once, when `njit(cache=True)` decorates it (Dispatcher.enable_caching -> FunctionCache
-> the first cache locator that accepts the function: UserProvidedCacheLocator when
numba.config.CACHE_DIR is set and writable, else InTreeCacheLocator, `__pycache__` beside the
source).  numba's default puts the cache inside the installed package: files pip does not know
about, which survive an uninstall and turn the leftover `solver/` folder into a namespace package
that shadows the next install.  So the cache goes to the user cache directory instead:
engine/kernel_cache.py's folder: $KNIFFEL_KERNEL_CACHE, else numba's own $NUMBA_CACHE_DIR when
the user set it, else `kernels/` beside the tables' default folder; in it, a folder for each
version of the sources the kernels share (SHARED_SOURCES), so that a cached kernel never meets a
type or function changed since.

`njit` sets numba.config.CACHE_DIR only while it decorates, and puts the old value back: setting
it once at import would not last (numba's config.reload_config(), run by every compile, resets
it from the environment as soon as any NUMBA_* variable changed, so a kernel module imported
later would cache into the package again) and would move the cache of other numba code in the
process too.  When the folder cannot be created or written, the kernels are compiled without a
disk cache, never cached into the package.
"""
import inspect
import os
import sys
import tempfile
import warnings

import llvmlite.binding as llvm
import numba
from numba.core import config
from numba.extending import register_jitable  # noqa: F401 (kernel modules import it from here)

from .kernel_cache import kernel_cache_dir, sweep


def _target_without_scipy():
    """Import numba's array maths (which the first kernel call or cache load imports anyway)
    without letting it import scipy.linalg, when scipy is installed and not yet imported.

    numba.np.arraymath imports scipy.linalg only to learn whether BLAS is there
    (numba.np.arraymath._check_blas); scipy.linalg takes 0.1-0.2 s to import, a fifth of the
    start-up of `kniffel advise --batch`, and no kernel of this package calls BLAS.  With the
    probe refused, one numba helper (an inner product) uses its own loop instead; np.dot and
    np.linalg in jitted code still work, as they import scipy themselves when compiled."""
    name = "scipy.linalg.cython_blas"
    if "numba.np.arraymath" in sys.modules or name in sys.modules:
        return
    sys.modules[name] = None  # `import` of a None entry fails at once, without its parents
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if sys.modules.get(name, 0) is None:
            del sys.modules[name]


_target_without_scipy()


KERNEL_CACHE = kernel_cache_dir()


def _writable(directory):
    try:
        os.makedirs(directory, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
        return True
    except OSError:
        return False


_NEW = not KERNEL_CACHE.exists()
CACHE_OK = _writable(KERNEL_CACHE)
if CACHE_OK and _NEW:
    sweep(KERNEL_CACHE)
if not CACHE_OK:
    warnings.warn(f"kniffel: cannot write the kernel cache {KERNEL_CACHE} "
                  "(set KNIFFEL_KERNEL_CACHE); kernels are compiled in every process",
                  RuntimeWarning, stacklevel=2)


def njit(*args, **options):
    """numba.njit; with cache=True the compiled code is cached in KERNEL_CACHE, never the
    package."""
    if args and inspect.isfunction(args[0]):  # bare @njit
        return njit(*args[1:], **options)(args[0])
    if not options.get("cache"):
        return numba.njit(*args, **options)
    if not CACHE_OK:
        return numba.njit(*args, **dict(options, cache=False))

    def decorate(func):
        saved = config.CACHE_DIR
        config.CACHE_DIR = str(KERNEL_CACHE)
        try:
            return numba.njit(*args, **options)(func)
        finally:
            config.CACHE_DIR = saved

    return decorate

# LLVM vectorises a loop over rows that may overlap only behind run-time overlap checks, at most
# 8 by default: too few for a row compared with five others (target._lex_best_of), which would
# then run one value at a time.  (An LLVM-wide option: it only lets more loops vectorise.)
llvm.set_option("kniffel", "-runtime-memory-check-threshold=64")

# Lets LLVM use vector max instructions; sums keep their order (no reassociation), so values
# do not depend on how the compiler vectorises.
FAST = {"nnan", "ninf", "nsz"}


@njit(cache=True)
def popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count
