"""The interpreter whose Klong code runs in this thread, as the code deep inside the verbs
reaches it without being handed it: its backend (through `backends.current()`, which the
verbs ask most often) and its own limits (`limits.current()`).

`entered(context)` makes an interpreter's context the running one for a with-block; the
interpreter enters its own around everything it runs. Per thread, so two interpreters in two
threads, or one calling the other through Python, each see their own.
"""
import contextlib
import threading

from .. import backends


class Context:
    """What one interpreter's running code reaches: its backend and its klong.runtime.limits.Limits
    (the size guard and the known magnitudes of its integer arrays)."""
    __slots__ = ("backend", "limits")

    def __init__(self, backend, limits):
        self.backend = backend
        self.limits = limits


class _Running(threading.local):
    context = None          # outside any interpreter: none


running = _Running()


def current():
    """The running interpreter's Context in this thread, or None outside any."""
    return running.context


@contextlib.contextmanager
def entered(context):
    """Run a with-block as `context`'s interpreter: its backend active, its limits in force."""
    previous, running.context = running.context, context
    try:
        with backends.using(context.backend):
            yield context
    finally:
        running.context = previous


@contextlib.contextmanager
def handing_out(context):
    """A with-block in which values go from `context`'s interpreter to Python: its context
    is the current one (a Klong function handed out remembers it), its backend not entered."""
    previous, running.context = running.context, context
    try:
        yield context
    finally:
        running.context = previous
