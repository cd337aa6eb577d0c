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
import sys
import threading

from .. import backends

running = backends.running      # who runs Klong code in this thread


class Context:
    """What one interpreter's running code reaches: its backend, its
    klong.runtime.limits.Limits (the size guard and the known magnitudes of its integer
    arrays), its klong.runtime.settings.Evaluation (what holds while it evaluates) and its
    lock."""
    __slots__ = ("backend", "limits", "evaluation", "lock", "capture")

    def __init__(self, backend, limits, evaluation):
        self.capture = None     # its klong.runtime.capture.Capture, where it has one
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
        self.lock.acquire()     # (not `with`, which costs more: entered around every call)
        try:
            if self.running == 0:
                limit = sys.getrecursionlimit()
                self.saved = limit if limit < RECURSION_LIMIT else None
                if self.saved is not None:
                    sys.setrecursionlimit(RECURSION_LIMIT)
            self.running += 1
        finally:
            self.lock.release()

    def __exit__(self, *exc):
        self.lock.acquire()
        try:
            self.running -= 1
            # given back unless someone else changed it meanwhile
            if self.running == 0 and self.saved is not None \
                    and sys.getrecursionlimit() == RECURSION_LIMIT:
                sys.setrecursionlimit(self.saved)
        finally:
            self.lock.release()


recursion = Recursion()


def current():
    """The running interpreter's Context in this thread, or None outside any."""
    return running.context


class entered:
    """with entered(context): run the block as `context`'s interpreter: its lock held, its
    backend active, its limits in force, and, when it starts evaluating (not when it calls
    itself), its settings held. A class rather than a generator, and backends.using's two
    assignments made here rather than through a using object: it is entered around every
    run and every call from Python (k("1") costs a few microseconds, most of them here)."""
    __slots__ = ("context", "previous", "held")

    def __init__(self, context):
        self.context = context

    def __enter__(self):
        context = self.context
        context.lock.acquire()
        recursion.__enter__()
        evaluation = context.evaluation
        previous = self.previous = running.backend, running.context
        running.backend, running.context = context.backend, context
        self.held = None
        if evaluation.active and previous[0] is not context.backend:    # starting to evaluate
            held = evaluation.held()
            try:
                held.__enter__()
            except BaseException:
                self._leave()
                raise
            self.held = held
        return context

    def __exit__(self, *exc):
        try:
            if self.held is not None:
                self.held.__exit__(*exc)
        finally:
            self._leave()

    def _leave(self):
        running.backend, running.context = self.previous
        recursion.__exit__()
        self.context.lock.release()


class handing_out:
    """with handing_out(context): values go from `context`'s interpreter to Python: its
    context is the current one (a Klong function handed out remembers it), its backend not
    entered; its lock held (what is handed out is not changed meanwhile by another thread)."""
    __slots__ = ("context", "using")

    def __init__(self, context):
        self.context = context

    def __enter__(self):
        self.context.lock.acquire()
        recursion.__enter__()
        self.using = backends.using(running.backend, self.context)
        self.using.__enter__()
        return self.context

    def __exit__(self, *exc):
        self.using.__exit__()
        recursion.__exit__()
        self.context.lock.release()
