"""The interpreter whose Klong code runs in this thread, as the code deep inside the verbs
reaches it without being handed it: its backend (`backends.current()`, which the verbs ask
most often), its own limits (`limits.current()`) and the settings it evaluates under.

Who is running is recorded in one place, the thread-local `backends.running` (the backends
room owns it, as the verbs ask it for the backend; this module puts the interpreter's
Context there). `entered(context)` makes an interpreter's context the running one for a
with-block; the interpreter enters its own around everything it runs. Per thread, so two
interpreters in two threads, or one calling the other through Python, each see their own.
"""
import contextlib

from .. import backends


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
    return backends.running.context


@contextlib.contextmanager
def entered(context):
    """Run a with-block as `context`'s interpreter: its backend active, its limits in force,
    and, when it starts evaluating (not when it calls itself), its settings held."""
    evaluation = context.evaluation
    starting = evaluation.active and backends.running.backend is not context.backend
    with backends.using(context.backend, context):
        if starting:
            with evaluation.held():
                yield context
        else:
            yield context


@contextlib.contextmanager
def handing_out(context):
    """A with-block in which values go from `context`'s interpreter to Python: its context
    is the current one (a Klong function handed out remembers it), its backend not entered."""
    with backends.using(backends.running.backend, context):
        yield context
