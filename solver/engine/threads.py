"""Run a GIL-releasing kernel over slices of the work on several threads."""
import os
from concurrent.futures import ThreadPoolExecutor


def default_threads():
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_parallel(work, count, threads=None, per_thread=4):
    """Call work(slice) over 0..count in contiguous slices, on `threads` threads at once."""
    threads = threads or default_threads()
    n_slices = max(1, min(count, threads * per_thread))
    bounds = [count * i // n_slices for i in range(n_slices + 1)]
    slices = [slice(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
    if threads == 1 or len(slices) == 1:
        for block in slices:
            work(block)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(work, slices))
