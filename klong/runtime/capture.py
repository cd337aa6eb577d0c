"""Capture and replay of Klong functions (docs/performance.md): a function called again and
again (a training step) is the same tensor operations each time, so the second call is
recorded and later calls replay the record, without Klong's dispatch.

No decorator: what the compiler knows of a function literal (its LambdaFacts) says which
can be captured: those whose only effects are assignments of globals, which read no
variable of a literal around them, and call no system function with effects (printing,
I/O, random numbers). Whether the functions it calls qualify is known when it runs.

A function value of such a literal gets a `Runner` in place of its `run`; what is known
of the literal (`Records`) is shared by its function values, as they compute alike. Its
life:

1. the first call runs as usual;
2. the second is recorded (the backend's capture part, backends/torch_capture.py): it runs
   as usual, then once more from the same globals with the recorder on; the record is kept
   only when the two give the same bits;
3. later calls replay a record whose guards hold (the kinds, shapes, dtypes and devices of
   the arguments and of the globals read, the functions names are bound to, every branch
   and integer check taken); the first VERIFIED replays also run the ordinary evaluation
   and compare, and a difference drops capture for the function;
4. a call no record fits runs as usual, and is recorded as a new variant, up to VARIANTS;
   after that, or after a recording fails, the function stays with ordinary evaluation.

The ordinary evaluation is always the fallback, and a replay writes the globals only once
all its guards have held. `explain()` says what was captured and why something was not.
"""
import os
import time

from ..errors import KlongError
from .mixed import MixedNumbers
from .values import Dict, Function

VARIANTS = 4            # records kept per function value, then it stops trying
VERIFIED = 2            # replays checked against the ordinary evaluation, per record
# A checked replay slower than SLOWER times the ordinary evaluation plus SLACK seconds
# (both the best of the checks) drops its record: capture must never cost time. (The
# margin keeps a small function's record, whose replay and evaluation take alike, and
# keeps a busy machine's pauses from dropping a good one: what it catches is a loop
# recorded through, ten times slower or more. Timed as this thread's processor time: the
# moments the machine gives to other work count for neither.)
SLOWER, SLACK = 2.0, 2e-3
MISSES = 64             # calls no record fits before a function stops being recorded
REPORTS = 64            # functions the explanation remembers
LITERALS = 1024         # function literals whose records are kept (as rendered chunks are)
# system functions without effects that a captured function may call
PURE_SYSTEM = frozenset({".bkf", ".jacobian", ".hessian", ".rs", ".rank", ".world"})


def enabled_by_default():
    return os.environ.get("KLONG_CAPTURE", "1").strip().lower() not in ("0", "false", "no", "off")


def literal_verdict(facts):
    """Why a function literal can never be captured, or None when it may be."""
    if facts.outer:
        return "it reads or assigns a variable of a function around it"
    if facts.names_self:
        return "it reads .f"
    if facts.name is not None and facts.name in facts.reads:
        # recursion: its depth comes from data, and a runner would add a Python frame to
        # every level of it
        return "it calls itself"
    if facts.arity > 3:
        return "it takes more than three arguments"
    return None


class Capture:
    """Capture and replay for one interpreter: `enabled` (KLONG_CAPTURE, the capture=
    keyword, ]o capture), the runners' reports for `explain`."""

    def __init__(self, interp, enabled):
        self.interp = interp
        self.enabled = bool(enabled) and interp.backend.capture is not None
        self.available = interp.backend.capture is not None
        self.busy = False           # a recording or a check runs: nested runners stand by
        self.grad_enabled = interp.backend.capture.grad_enabled if self.available else None
        self.differentiation = interp.differentiation
        self.backend = interp.backend
        self.reports = {}           # label -> Records, the latest REPORTS
        self.records = {}           # LambdaFacts -> its Records

    def adopt(self, lam):
        """Called for each new function value: a runner in place of its run, when its
        literal may be captured."""
        facts = lam.facts
        records = self.records.get(facts)
        if records is None:
            if len(self.records) >= LITERALS:
                self.records.clear()
            records = self.records[facts] = Records(facts)
            why = literal_verdict(facts)
            if why is not None:
                records.stopped = records.never = why
                if facts.name is not None:      # a named function: the report says why
                    self.note(records)
        if records.never is None:
            lam.run = Runner(self, lam, lam.run, records)

    def note(self, records):
        label = records.facts.label()
        self.reports.pop(label, None)
        if len(self.reports) >= REPORTS:
            self.reports.pop(next(iter(self.reports)))
        self.reports[label] = records

    def set_enabled(self, on):
        self.enabled = bool(on) and self.available

    # -- what a captured function may read
    def reads(self, lam, args):
        """{global name: its value} for the globals the function reads, those of the
        functions it calls included; raises KlongError("capture", why) when one of them
        may have effects other than assignments of globals."""
        G = self.interp.globals
        seen, todo, out = set(), [lam.facts], {}
        for i, a in enumerate(args):
            if i not in lam.facts.unused:
                _no_dictionary(a, "an argument")
                self._callable(a, "an argument", todo)
        while todo:
            facts = todo.pop()
            if id(facts) in seen:
                continue
            seen.add(id(facts))
            why = literal_verdict(facts)
            if why is not None and facts is not lam.facts:
                raise KlongError("capture", f"it calls {facts.label()}, and {why}")
            for name in facts.reads:
                value = G.get(name)
                _no_dictionary(value, name)
                out[name] = value
                if name.startswith(".") and isinstance(value, Function):
                    if name not in PURE_SYSTEM:
                        raise KlongError("capture", f"it calls {name}, which has effects")
                    continue
                self._callable(value, name, todo)
        return out

    @staticmethod
    def _callable(value, name, todo):
        if not isinstance(value, Function):
            return
        facts = getattr(value, "facts", None)
        if facts is not None:
            todo.append(facts)
            return
        fn = getattr(value, "fn", None)          # a projection: its function
        if fn is None:
            fn = getattr(value, "compiles", None)    # .compile's: the function compiled
        if fn is not None and isinstance(fn, Function):
            Capture._callable(fn, name, todo)
            return
        if not getattr(value, "pure", False):
            raise KlongError("capture", f"it calls {name} ({value!r}), which may have effects")

    def blocked(self):
        """Why no recording or replay may happen now, or None."""
        interp = self.interp
        if interp.value_hooks:
            return "hooks on assignments are registered"
        if interp.strict:
            return "strict mode is on"
        if interp.differentiation.anomaly:
            return ".anomaly is on"
        if interp.backend.keep_tensors:
            return "a compiler is tracing"
        return None

    def explain(self):
        """A report, one line per function: what was captured, why something was not."""
        if not self.available:
            return "capture: not available on the numpy backend"
        graphs = self.enabled and getattr(self.backend.capture, "graphs", False)
        lines = [f"capture: {'on' if self.enabled else 'off'}"
                 + (", CUDA graphs where a record allows" if graphs else "")]
        for label, records in self.reports.items():
            lines.append(f"{label}: {records.status(self)}")
        if len(lines) == 1:
            lines.append("no function has been called twice yet")
        return "\n".join(lines)


class Variant:
    """One record: its replay function, what held when it was made, the checks left, and
    the best times of the checked replays and of the evaluations they were checked with."""
    __slots__ = ("replay", "source", "state", "checks", "replay_time", "plain_time")

    def __init__(self, replay, source, state):
        self.replay, self.source, self.state = replay, source, state
        self.checks = VERIFIED
        self.replay_time = self.plain_time = float("inf")


class Records:
    """What capture knows of one function literal, shared by its function values (which
    compute alike: a literal that reads variables around it is never captured): its
    variants, calls, replays, and why it stopped being recorded."""
    __slots__ = ("facts", "calls", "variants", "stopped", "replays", "misses", "never")

    def __init__(self, facts):
        self.facts = facts
        self.never = None           # why its literal is never captured
        self.calls = 0
        self.variants = []
        self.stopped = None         # why it is not (any more) recorded
        self.replays = 0
        self.misses = 0

    def status(self, capture):
        parts = []
        if self.variants:
            parts.append(f"captured, {len(self.variants)} variant(s), {self.replays} replays"
                         + (f", {self.misses} calls fitted no variant" if self.misses else ""))
            for v in self.variants:         # a replay through a CUDA graph (torch_graphs.py)
                graphed = getattr(v.replay, "graphed", None)
                if graphed is not None:
                    parts.append("no CUDA graph: " + graphed.failed if graphed.failed
                                 else f"{graphed.launches} CUDA graph launches")
        if self.stopped is not None:
            parts.append(f"not captured: {self.stopped}")
        elif not self.variants:
            why = capture.blocked()
            parts.append(f"not captured: {why}" if why
                         else "called once, captured when called again")
        return "; ".join(parts)

    def source(self):
        return "\n".join(v.source for v in self.variants)


class Runner:
    """What a capturable function value runs in place of its Python function (see the
    module's docstring)."""
    __slots__ = ("capture", "lam", "plain", "records")

    def __init__(self, capture, lam, plain, records):
        self.capture, self.lam, self.plain, self.records = capture, lam, plain, records

    def __call__(self, *args):
        capture = self.capture
        if capture.busy or not capture.enabled or capture.backend.keep_tensors:
            return self.plain(*args)        # (keep_tensors: inside torch.vmap or a compiler)
        if self.records.variants:
            state = (capture.grad_enabled(), capture.differentiation.order)
            G = capture.interp.globals
            for v in self.records.variants:
                if v.state != state:
                    continue
                started = time.thread_time() if v.checks else 0.0    # (a system call)
                try:
                    out = v.replay(G, *args)
                except Exception:
                    out = None              # as a failed guard: the ordinary evaluation says
                if out is None:
                    continue
                if v.checks:
                    v.replay_time = min(v.replay_time, time.thread_time() - started)
                    return self._checked(v, args, out)
                result, writes = out
                if writes:
                    G.update(writes)
                self.records.replays += 1
                return result
            records = self.records
            records.misses += 1
            if records.misses >= MISSES and records.misses > records.replays:
                # its calls rarely fit a record: trying them costs more than they save
                records.stopped = f"no record fitted {records.misses} calls"
                records.variants.clear()
        if self.records.stopped is not None:
            return self.plain(*args)
        self.records.calls += 1
        if self.records.calls < 2:
            return self.plain(*args)
        return self._record(args)

    def _record(self, args):
        capture = self.capture
        capture.note(self.records)
        interp = capture.interp
        why = capture.blocked()
        if why is not None:
            return self.plain(*args)        # (not stopped: it may pass later)
        if len(self.records.variants) >= VARIANTS:
            self.records.stopped = f"{VARIANTS} variants recorded, and none fitted a later call"
            return self.plain(*args)
        try:
            watched = capture.reads(self.lam, args)
        except KlongError as e:
            self.records.stopped = e.message
            return self.plain(*args)
        G = interp.globals
        same = interp.backend.capture.same
        before = dict(G)
        capture.busy = True             # the functions it calls run as usual meanwhile
        try:
            result = self.plain(*args)           # the call itself, as always
        finally:
            capture.busy = False
        after = dict(G)
        expected = {k: v for k, v in after.items() if before.get(k, _NOTHING) is not v}
        if MixedNumbers in map(type, [result, *args, *expected.values()]):
            # its integers are Python numbers, outside the operations a record follows
            self.records.stopped = "it takes or makes a list of integers and reals"
            return result
        capture.busy = True
        try:
            G.clear()
            G.update(before)
            state = _state(interp)
            known = interp.limits.recording()
            try:
                out, replay, source = interp.backend.capture.record(
                    self.plain, args, G, watched, (result, expected), self.lam.facts.unused)
            finally:
                interp.limits.recorded(known)
            G.clear()
            G.update(before)
            # the replay, on the inputs of this call, gives what the ordinary evaluation gave
            if out is None:
                self.records.stopped = "a guard failed on the call it was recorded from"
            elif not same(out[0], result) or out[1].keys() != expected.keys() \
                    or not all(same(out[1][k], expected[k]) for k in expected):
                self.records.stopped = "the recorded evaluation gave other bits than the ordinary one"
            else:
                self.records.variants.append(Variant(replay, source, state))
        except KlongError as e:
            self.records.stopped = f"the recorded evaluation failed: {e.message}"
        except Exception as e:      # Unfollowable, or anything the record met
            self.records.stopped = str(e) or type(e).__name__
        finally:
            G.clear()
            G.update(after)
            capture.busy = False
        return result

    def _checked(self, v, args, out):
        """A replay compared with the ordinary evaluation, which gives the answer."""
        capture = self.capture
        same = capture.interp.backend.capture.same
        G = capture.interp.globals
        before = dict(G)
        capture.busy = True
        started = time.thread_time()
        try:
            result = self.plain(*args)
        finally:
            capture.busy = False
        v.plain_time = min(v.plain_time, time.thread_time() - started)
        written = {k: x for k, x in G.items() if before.get(k, _NOTHING) is not x}
        replayed, writes = out
        if not (same(replayed, result) and writes.keys() == written.keys()
                and all(same(writes[k], written[k]) for k in writes)):
            self.records.variants.remove(v)
            self.records.stopped = "a replay differed from the ordinary evaluation"
            return result
        v.checks -= 1
        if v.checks == 0 and v.replay_time > SLOWER * v.plain_time + SLACK:
            self.records.variants.remove(v)
            self.records.stopped = (f"its replay took {v.replay_time * 1e3:.3g} ms, the "
                                    f"ordinary evaluation {v.plain_time * 1e3:.3g} ms")
        return result


_NOTHING = object()


def _no_dictionary(value, name):
    """Raises KlongError("capture", why) where value is or holds a dictionary: joining to
    one changes it in place (d,k,v), an effect a record could neither guard nor repeat."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, Dict):
            raise KlongError("capture", f"it reads {name}, which holds a dictionary "
                                        "(a join changes it in place)")
        if type(v) is list:
            todo.extend(v)


def _state(interp):
    """What the interpreter's state decides in an evaluation, beside its values: whether
    autograd records, how many derivatives are under way."""
    return (interp.backend.capture.grad_enabled(), interp.differentiation.order)
