"""Run a GIL-releasing kernel over parts of the work on several threads: the one thread helper
of the package (the backward pass, simulation, batch advice and distributions all use it)."""
import contextlib
import os
from concurrent.futures import ThreadPoolExecutor


def default_threads():
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def map_parallel(work, parts, threads=None, pool=None):
    """Call work(part) for every part of `parts`, on `threads` threads at once (in this thread
    when there is one thread or one part).  pool: a ThreadPoolExecutor of `threads` workers to
    run them on (a loop of many short calls keeps one; default: a new one for this call)."""
    threads = threads or default_threads()
    if threads == 1 or len(parts) <= 1:
        for part in parts:
            work(part)
        return
    if pool is not None:
        list(pool.map(work, parts))
        return
    with executor(threads) as pool:
        list(pool.map(work, parts))


@contextlib.contextmanager
def executor(threads):
    """A ThreadPoolExecutor of `threads` workers that, left by an exception (Ctrl-C, SIGTERM),
    does not wait for the parts still running: a kernel cannot be interrupted, and the command
    it serves ends at once (cli/__init__.py) instead of after the level."""
    pool = ThreadPoolExecutor(max_workers=threads)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def run_parallel(work, count, threads=None, per_thread=4):
    """Call work(slice) over 0..count in contiguous slices, on `threads` threads at once."""
    threads = threads or default_threads()
    n_slices = max(1, min(count, threads * per_thread))
    bounds = [count * i // n_slices for i in range(n_slices + 1)]
    map_parallel(work, [slice(a, b) for a, b in zip(bounds, bounds[1:]) if b > a], threads)
