"""The interpreter whose Klong code runs in this thread, as the code deep inside the verbs
reaches it without being handed it: its backend (`backends.current()`, which the verbs ask
most often), its own limits (`limits.current()`) and the settings it evaluates under.

Who is running is recorded in one place, the thread-local `backends.running` (the backends
room owns it, as the verbs ask it for the backend; this module puts the interpreter's
Context there). `entered(context)` makes an interpreter's context the running one for a
with-block; the interpreter enters its own around everything it runs. Per thread, so two
interpreters in two threads, or one calling the other through Python, each see their own.

Entering also holds the interpreter's lock (one interpreter shared by threads runs one
evaluation at a time; re-entrant, so a Python callback may call back in) and raises Python's
recursion limit for deep Klong recursion while any evaluation runs (`Recursion`).
"""
import contextlib
import sys
import threading

from .. import backends

running = backends.running      # who runs Klong code in this thread


class Context:
    """What one interpreter's running code reaches: its backend, its
    klong.runtime.limits.Limits (the size guard and the known magnitudes of its integer
    arrays), its klong.runtime.settings.Evaluation (what holds while it evaluates) and its
    lock."""
    __slots__ = ("backend", "limits", "evaluation", "lock")

    def __init__(self, backend, limits, evaluation):
        self.backend = backend
        self.limits = limits
        self.evaluation = evaluation
        self.lock = threading.RLock()   # its evaluations one at a time, callbacks re-entering


RECURSION_LIMIT = 12000     # deep Klong recursion needs more than Python's default 1,000


class Recursion:
    """Python's recursion limit belongs to the process (and to the program embedding klong):
    it is raised to RECURSION_LIMIT when the first evaluation starts, in any thread or
    interpreter, and given back as it was when the last one ends. Process-wide state, so
    counted process-wide."""

    def __init__(self):
        self.lock = threading.Lock()
        self.running = 0
        self.saved = None       # the limit to give back, when it was raised

    def __enter__(self):
        with self.lock:
            if self.running == 0:
                limit = sys.getrecursionlimit()
                self.saved = limit if limit < RECURSION_LIMIT else None
                if self.saved is not None:
                    sys.setrecursionlimit(RECURSION_LIMIT)
            self.running += 1

    def __exit__(self, *exc):
        with self.lock:
            self.running -= 1
            # given back unless someone else changed it meanwhile
            if self.running == 0 and self.saved is not None \
                    and sys.getrecursionlimit() == RECURSION_LIMIT:
                sys.setrecursionlimit(self.saved)


recursion = Recursion()


def current():
    """The running interpreter's Context in this thread, or None outside any."""
    return running.context


@contextlib.contextmanager
def entered(context):
    """Run a with-block as `context`'s interpreter: its lock held, its backend active, its
    limits in force, and, when it starts evaluating (not when it calls itself), its
    settings held."""
    with context.lock, recursion:
        evaluation = context.evaluation
        starting = evaluation.active and running.backend is not context.backend
        with backends.using(context.backend, context):
            if starting:
                with evaluation.held():
                    yield context
            else:
                yield context


@contextlib.contextmanager
def handing_out(context):
    """A with-block in which values go from `context`'s interpreter to Python: its context
    is the current one (a Klong function handed out remembers it), its backend not entered;
    its lock held (what is handed out is not changed meanwhile by another thread)."""
    with context.lock, recursion, backends.using(running.backend, context):
        yield context
