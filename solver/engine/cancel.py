"""Stopping a long solve between its steps: the error it stops with and the check it asks.  A
module of its own, without numba, so that the one door (ask/answer.py) can tell a stopped solve
without loading the kernels."""
import contextvars


class Cancelled(Exception):
    """A backward pass stopped between two levels because its cancel check said so."""


# The cancel check of the passes started in this context, when the caller cannot pass one down
# (the web server's workers set it around a request: a win request's pass is deep inside).
CANCEL = contextvars.ContextVar("backward_cancel", default=None)


def cancel_check(cancel):
    """A callable from a `cancel` argument: a callable, a threading.Event (its is_set) or None
    (never)."""
    if cancel is None:
        return lambda: False
    import threading
    return cancel.is_set if isinstance(cancel, threading.Event) else cancel
