"""The worker side of `kniffel serve`'s pool (web/work.py): the loop of a worker process, the
run of one task with its cancel flag, and the solve of a background job.

A task is a function of the worker's tables, the request's parts and the server's guard in
seconds (the app's TASKS, web/tasks.py).  It runs with the worker's cancel flag in
engine/cancel.CANCEL (asked between levels); an error comes back as the exception the app's
`error_of` makes of it.  A request's own budget is counted in work (advice/cost.py) and decides
its answer the same in a server as anywhere else.
"""
import contextvars
import os
import signal
import sys
import threading
import time


def run_task(tables, tasks, error_of, name, args, cancel, levels):
    """("ok", result) or ("error", error_of(exception)) of tasks[name](tables, *args); `cancel`
    (an Event, or a shared byte) stops a backward pass between levels, `levels[0]` counts the
    levels begun (a job's progress).  The last of `args` is the server's guard in seconds (or
    None): it does not change an answer, it only stops work that runs past it."""
    from ..engine.cancel import CANCEL

    def stop():
        levels[0] += 1
        return bool(cancel.is_set() if isinstance(cancel, threading.Event) else cancel.value)

    def run():
        CANCEL.set(stop)
        return tasks[name](tables, *args)

    try:
        return "ok", contextvars.copy_context().run(run)
    except Exception as exc:  # noqa: BLE001 - every error goes back to its request
        return "error", error_of(exc)


class Counter:
    """levels[0] on a shared multiprocessing Value."""

    def __init__(self, value):
        self.value = value

    def __getitem__(self, index):
        return self.value.value

    def __setitem__(self, index, number):
        self.value.value = number


def serve(connection, cancel, levels, tables, tasks, error_of):
    """The loop of a worker process: say "ready" once imported (it compiles nothing: a request
    whose kernels are not compiled starts a job, ask/warm.py), then answer (name, args) messages
    until the pipe closes.  The server stops it with SIGKILL; it ignores SIGINT (Ctrl-C reaches
    the whole process group: the server decides) and ends itself when the server is gone."""
    from ..ask import warm
    _as_a_child()
    warm.COMPILES[0] = False  # a compile in a request would outlive its time limit: a job's
    try:
        os.nice(5)  # the server's event loop (the page, /api/info) goes first
    except OSError:
        pass
    connection.send("ready")
    counter = Counter(levels)
    while True:
        try:
            name, args = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        connection.send(run_task(tables, tasks, error_of, name, args, cancel, counter))


def run_job(tables, tasks, error_of, kind, subject, progress):
    """("ok", result) or ("error", error_of(exception)) of the job tasks["job"] of `kind` on
    `subject` (web/work.Job), reporting into `progress` ([fraction, eta, levels])."""
    levels = _Slot(progress, 2)
    return run_task(tables, tasks, error_of, "job", (kind, subject, progress, None),
                    threading.Event(), levels)


def job_main(connection, tables, tasks, error_of, kind, subject, progress):
    """A job process: run_job, its ("ok", ...) or ("error", ...) sent, end.  SIGTERM (the
    server stopping) ends it through its `finally` blocks (a file being written is removed, a
    lock released), without waiting for the kernels' threads; so does the server's end."""
    _as_a_child(clean_up=True)

    def stop(signum, frame):
        raise SystemExit(143)

    signal.signal(signal.SIGTERM, stop)
    try:
        connection.send(run_job(tables, tasks, error_of, kind, subject, progress))
    except SystemExit:
        pass
    finally:
        sys.stdout.flush()
        os._exit(0)


class _Slot:
    """levels[0] on one slot of a shared array."""

    def __init__(self, array, index):
        self.array, self.index = array, index

    def __getitem__(self, _):
        return int(self.array[self.index])

    def __setitem__(self, _, number):
        self.array[self.index] = number


def _as_a_child(clean_up=False):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_orphan_watch, args=(os.getppid(), clean_up), daemon=True).start()


def _orphan_watch(parent, clean_up):
    """End this process when the server that started it is gone (killed without a word): at
    once, or (clean_up: a job writing files) by a SIGTERM to itself, which ends it through its
    `finally` blocks, and for good a few seconds later."""
    while os.getppid() == parent:
        time.sleep(0.5)
    if clean_up:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    sys.stdout.flush()
    os._exit(0)
