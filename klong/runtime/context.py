"""The interpreter whose Klong code runs in this thread, as the code deep inside the verbs
reaches it without being handed it: its backend (`backends.current()`, which the verbs ask
most often), its own limits (`limits.current()`) and the settings it evaluates under.

Who is running is recorded in one place, the thread-local `backends.running` (the backends
room owns it, as the verbs ask it for the backend; this module puts the interpreter's
Context there). `entered(context)` makes an interpreter's context the running one for a
with-block; the interpreter enters its own around everything it runs. Per thread, so two
interpreters in two threads, or one calling the other through Python, each see their own.
"""
from .. import backends

running = backends.running      # who runs Klong code in this thread


class Context:
    """What one interpreter's running code reaches: its backend, its
    klong.runtime.limits.Limits (the size guard and the known magnitudes of its integer
    arrays) and its klong.runtime.settings.Evaluation (what holds while it evaluates)."""
    __slots__ = ("backend", "limits", "evaluation")

    def __init__(self, backend, limits, evaluation):
        self.backend = backend
        self.limits = limits
        self.evaluation = evaluation


def current():
    """The running interpreter's Context in this thread, or None outside any."""
    return running.context


class entered(backends.using):
    """with entered(context): run the block as `context`'s interpreter: its backend active,
    its limits in force, and, when it starts evaluating (not when it calls itself), its
    settings held."""
    __slots__ = ("held",)

    def __init__(self, context):
        super().__init__(context.backend, context)
        self.held = None

    def __enter__(self):
        evaluation = self.context.evaluation
        if evaluation.active and running.backend is not self.backend:
            self.held = evaluation.held()
        super().__enter__()
        if self.held is not None:
            try:
                self.held.__enter__()
            except BaseException:
                super().__exit__()
                raise
        return self.context

    def __exit__(self, *exc):
        try:
            if self.held is not None:
                return self.held.__exit__(*exc)
        finally:
            super().__exit__()


def handing_out(context):
    """A with-block in which values go from `context`'s interpreter to Python: its context
    is the current one (a Klong function handed out remembers it), its backend not entered."""
    return backends.using(running.backend, context)
