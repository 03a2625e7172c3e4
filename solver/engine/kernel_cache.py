"""Where the compiled kernels are cached, and which features' kernels are there already,
without numba: a front end asks whether a feature is ready before it decides to compile
(a server never compiles inside a request: ask/warm.py).

The folder is $KNIFFEL_KERNEL_CACHE, else numba's own $NUMBA_CACHE_DIR when the user set it,
else `kernels/` beside the tables' default folder; in it, a folder for each version of the
sources the kernels share (SHARED_SOURCES), so that a cached kernel never meets a type or
function changed since (engine/jit.py says why).  A feature whose kernels were all compiled
into it leaves a marker there, `ready-FEATURE-HASH`, HASH of every source of the package: a
kernel added or changed in any module (which the shared sources do not name) is compiled by the
feature's warm-up again, never inside a request.
"""
import hashlib
import os
import shutil
import time
from functools import lru_cache
from pathlib import Path

from .store import user_cache_dir

# The modules that define the types kernels take (named tuples of arrays) or the plain functions
# they compile from other files: numba's cache of a kernel is checked against the kernel's own
# file only, and a cached kernel names these types by module and name, so a change here (a type
# renamed, say) must start a cache of its own, never load a stale one.
SHARED_SOURCES = ("rules/scoring.py", "dice.py", "engine/objective.py", "engine/target/solve.py",
                  "duel/rules.py", "strategy/thumb.py", "engine/jit.py")
STALE_CACHE_DAYS = 7  # a cache of other shared sources unused this long is removed


def _fingerprint():
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in SHARED_SOURCES:
        try:
            digest.update((package / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return digest.hexdigest()[:12]


def kernel_cache_dir():
    """The folder numba caches compiled kernels in (module docstring)."""
    if os.environ.get("KNIFFEL_KERNEL_CACHE"):
        base = Path(os.environ["KNIFFEL_KERNEL_CACHE"])
    elif os.environ.get("NUMBA_CACHE_DIR"):
        base = Path(os.environ["NUMBA_CACHE_DIR"])
    else:
        base = user_cache_dir() / "kernels"
    return base / f"kernels-{_fingerprint()}"


def sweep(folder):
    """Remove the caches of other shared sources that no process used for STALE_CACHE_DAYS."""
    try:
        others = [p for p in folder.parent.iterdir() if p.name.startswith("kernels-")
                  and p != folder and p.is_dir()]
        for other in others:
            if time.time() - other.stat().st_mtime > STALE_CACHE_DAYS * 86400:
                shutil.rmtree(other, ignore_errors=True)
    except OSError:
        pass


@lru_cache(maxsize=1)
def _package_fingerprint():
    """A hash of every Python source of the package (read once a process)."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            pass
    return digest.hexdigest()[:12]


def _marker(feature):
    return kernel_cache_dir() / f"ready-{feature}-{_package_fingerprint()}"


def compiled(feature):
    """Whether every kernel of `feature` ("win", "duel", ...) is in the cache (its marker)."""
    return _marker(feature).exists()


def mark_compiled(feature):
    """Leave the marker of `feature` (its kernels all compiled into the cache); quietly nothing
    when the cache cannot be written (the kernels are then compiled in every process)."""
    try:
        marker = _marker(feature)
        marker.parent.mkdir(parents=True, exist_ok=True)
        for old in marker.parent.glob(f"ready-{feature}-*"):  # of other sources: no longer true
            old.unlink(missing_ok=True)
        marker.touch()
    except OSError:
        pass
