"""The worker side of `kniffel serve`'s pool (web/work.py): the loop of a worker process, the
run of one task with its budget and cancel flag, and the solve of a background job.

A task is a function of the worker's tables, the request's parts and the budget (the app's
TASKS, web/app.py).  It runs with the budget in advice/cost.BUDGET (a win line predicted over it
is refused before it starts) and the worker's cancel flag in engine/backward.CANCEL (asked
between levels); an error comes back as the exception the app's `error_of` makes of it.
"""
import contextvars
import os
import signal
import sys
import threading
import time
import traceback


def run_task(tables, tasks, error_of, name, args, cancel, levels):
    """("ok", result) or ("error", error_of(exception)) of tasks[name](tables, *args); `cancel`
    (an Event, or a shared byte) stops a backward pass between levels, `levels[0]` counts the
    levels begun (a job's progress).  The last of `args` is (budget seconds, the workers that
    may compute at once) or None."""
    from ..advice.cost import BUDGET, SHARING
    from ..engine.cancel import CANCEL

    def stop():
        levels[0] += 1
        return bool(cancel.is_set() if isinstance(cancel, threading.Event) else cancel.value)

    def run():
        CANCEL.set(stop)
        if args[-1] is not None:
            BUDGET.set(args[-1][0])
            SHARING.set(args[-1][1])
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


def serve(connection, cancel, levels, tables, tasks, error_of, warm_up=None):
    """The loop of a worker process: warm up, say "ready", then answer (name, args) messages
    until the pipe closes.  The server stops it with SIGKILL; it ignores SIGINT (Ctrl-C reaches
    the whole process group: the server decides) and ends itself when the server is gone."""
    _as_a_child()
    try:
        os.nice(5)  # the server's event loop (the page, /api/info) goes first
    except OSError:
        pass
    if warm_up is not None:
        try:
            warm_up(tables)
        except Exception:  # noqa: BLE001 - a worker that cannot warm up still answers (slower)
            traceback.print_exc()
    connection.send("ready")
    counter = Counter(levels)
    while True:
        try:
            name, args = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        connection.send(run_task(tables, tasks, error_of, name, args, cancel, counter))


def solve_job(connection, tables, tasks, error_of, rules, levels):
    """A job process: tasks["solve"] for `rules`, its ("ok", ...) or ("error", ...) sent, end."""
    _as_a_child()
    connection.send(run_task(tables, tasks, error_of, "solve", (rules, None), threading.Event(),
                             Counter(levels)))


def _as_a_child():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_orphan_watch, args=(os.getppid(),), daemon=True).start()


def _orphan_watch(parent):
    """End this process when the server that started it is gone (killed without a word)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    sys.stdout.flush()
    os._exit(0)
