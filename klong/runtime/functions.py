"""Function values: Klong lambdas, projections and built-ins, and how calls are made."""
import types
from typing import Optional

from .. import backends
from .display import write
from ..errors import KlongError
from .records import field, record
from .mixed import MixedNumbers, general
from .values import Function

# The closure renderer (render/closures.py) keeps the variables of one call, parameters and declared
# locals, in a dict: its frame. Two keys no Klong name can take hold the frame in which the
# function literal was evaluated (lexical scope) and the running function (what `.f` names).
# Generated code (render/pysource.py) keeps them in Python locals and closure cells instead.
PARENT = "^parent"
SELF = "^fn"


@record(eq=False, slots=True)
class LambdaFacts:
    """What is known of a function literal (a lambda), one record from the compiler to the
    running function: the compiler's lowering (compiler/lower/) fills in what the literal
    says, its passes the shortcuts, and every function value made from the literal shares it.

    arity, source, name  its parameter count, its source text and the name it is defined
                 under (for messages: label())
    effects      it may assign something other than its own variables (a global, or a
                 variable of a literal around it), here or in a literal nested in it. Not
                 known: True
    reads        the globals it reads, nested literals included, as keys of `globals` (the
                 interpreter's): functions among them may have effects of their own, which
                 only the running program can tell
    names_self   it reads .f (so its body cannot run inline, in the code that applies it)
    outer        it reads or assigns a variable of a literal around it (so what it computes
                 depends on more than its arguments and the globals: never captured)
    unused       the positions of the parameters its body never uses the value of ({x;...})

    The shortcuts adverbs may take (compiler/passes/):
    dyad_op      '+' for {x+y}: the body is exactly x OP y, OP a numeric atomic verb
    elementwise  applied to a numeric array it equals applying it to each element
    dot          it is the inner product of its arguments ({+/x*y})
    fold_op      '+' or '*' for a dyad {x+g(y)} or {x*g(y)} whose whole-array form is g's
    joins        the text t of a dyad {x,t,y} (t a string or character constant), "" for
                 {x,y}: Over of a list of strings joins them with t
    with_constant  (op, c, x_right) for a monad {c OP x} (x_right) or {x OP c}, OP a
                 primitive verb and c a number, character or string: Each over a list of
                 strings applies the verb to each without the literal's call (forms.py)
    batched      a monad or dyad whose whole form (Lambda.whole) is a batched body
                 (passes/batching.py): whole(x, caller=run), whole(x, y, 0, caller=run),
                 runs that body on the rows of the batched body `run` that calls it
                 (verbs/batched.py _call, _call_dyad)

    Learnt while the program runs (the interpreter's own, as the literal is):
    untraced     the (dtype, row shape) of arrays on which tracing Each over the whole array
                 failed (verbs/wholearray.py): a failed trace costs as much as a few loops
                 and would fail again, so the loop runs at once
    """
    arity: int
    source: Optional[str] = None
    name: Optional[str] = None
    effects: bool = True
    reads: frozenset = frozenset()
    names_self: bool = False
    outer: bool = False
    unused: tuple = ()
    globals: Optional[dict] = None
    dyad_op: Optional[str] = None
    elementwise: bool = False
    dot: bool = False
    fold_op: Optional[str] = None
    joins: Optional[str] = None
    with_constant: Optional[tuple] = None
    batched: bool = False
    untraced: set = field(default_factory=set)

    def label(self):
        """How an error message names the function: its name, else its (shortened) source."""
        if self.name:
            return self.name
        text = self.source or "{...}"
        return text if len(text) <= 24 else text[:20] + "...}"


class _Positional(Function):
    """A function of a fixed arity whose `run` takes the arguments positionally; what a
    call with the wrong number of them is told, `wrong_arity(n)`, is each kind's own.
    `backend` is the interpreter's, for calls made from Python."""
    __slots__ = ("run", "arity", "backend")

    def __init__(self, run, arity, backend):
        self.run, self.arity, self.backend = run, arity, backend

    def call(self, args):
        if len(args) != self.arity:
            raise KlongError("arity", "wrong arity: " + self.wrong_arity(len(args)))
        return self.run(*args)


class Lambda(_Positional):
    """A function literal evaluated in some scope: a function value. `run` takes the
    arguments positionally (exactly `arity` of them) and runs the body; `facts` (LambdaFacts)
    are its literal's. `whole`, when set, is an array operation (compiler/passes/wholes.py,
    rendered by compiler/render/) that returns None where it cannot help: for a monad, the
    function applied to every element of a numeric array at once; for a dyad with a
    `fold_op`, the g of its body x+g(y) applied to every element. `derived` keeps the forms
    the adverbs applied to it have made (verbs/forms.py), by adverbs."""
    __slots__ = ("facts", "whole", "derived")

    def __init__(self, run, facts, whole=None, backend=None):
        # (_Positional's fields set here, not by its __init__: a literal in a loop's body
        # is made anew at every step, and a call more is a fifth of the making)
        self.run, self.arity, self.backend = run, facts.arity, backend
        self.facts = facts
        self.whole = whole
        self.derived = None
        if run is not None:
            context = backends.running.context
            if context is not None and context.capture is not None and context.capture.enabled:
                context.capture.adopt(self)       # capture and replay (capture.py)

    def runs(self, run):
        """Give the value its Python function, made after it (the closure path's names
        the value)."""
        self.run = run
        self._adopt()

    def _adopt(self):
        context = backends.running.context
        if context is not None and context.capture is not None and context.capture.enabled:
            context.capture.adopt(self)       # capture and replay (capture.py)

    def wrong_arity(self, n):
        return f"function of {self.arity} called with {n}"

    def __repr__(self):
        return self.facts.source or "{...}"


def frame_runner(body, lam, parent):
    """`run` for a lambda of the closure path: a fresh frame dict per call, then the body."""
    label = lam.facts.label

    def failed(e):
        return e.within(label()) if isinstance(e, KlongError) else e

    arity = lam.arity
    if arity == 0:
        def run():
            try:
                return body({PARENT: parent, SELF: lam})
            except KlongError as e:
                raise failed(e)
    elif arity == 1:
        def run(x):
            try:
                return body({"x": x, PARENT: parent, SELF: lam})
            except KlongError as e:
                raise failed(e)
    elif arity == 2:
        def run(x, y):
            try:
                return body({"x": x, "y": y, PARENT: parent, SELF: lam})
            except KlongError as e:
                raise failed(e)
    else:
        def run(x, y, z):
            try:
                return body({"x": x, "y": y, "z": z, PARENT: parent, SELF: lam})
            except KlongError as e:
                raise failed(e)
    return run


# the code of the functions frame_runner makes (one per arity)
_RUNNER_CODES = frozenset(c for c in frame_runner.__code__.co_consts
                          if isinstance(c, types.CodeType) and c.co_name == "run")


def lambda_running_in(frame):
    """The Lambda whose body the Python frame `frame` runs (generated code or the closure
    path), or None when it runs something else."""
    code = frame.f_code
    if code.co_name == "run" and code.co_filename == "<klong>":
        return frame.f_locals.get("self_")
    if code in _RUNNER_CODES:
        return frame.f_locals.get("lam")
    return None


class Projection(Function):
    """A function with some arguments fixed; the empty slots (None) are filled in order."""
    __slots__ = ("fn", "slots", "arity")

    def __init__(self, fn, slots):
        self.fn = fn
        self.slots = slots
        self.arity = sum(1 for s in slots if s is None)

    @property
    def backend(self):
        return getattr(self.fn, "backend", None)

    def call(self, args):
        if len(args) != self.arity:
            raise KlongError("arity", f"wrong arity: projection of {self.arity} called with {len(args)}")
        it = iter(args)
        return self.fn.call([next(it) if s is None else s for s in self.slots])

    def __repr__(self):
        slots = ";".join("" if s is None else write(s) for s in self.slots)
        return f"{self.fn!r}({slots})"


class Builtin(_Positional):
    """A function written in Python. `run` takes the arguments positionally."""
    __slots__ = ("name",)

    def __init__(self, name, arity, run, backend=None):
        super().__init__(_general_arguments(run), arity, backend)
        self.name = name

    def wrong_arity(self, n):
        return f"{self.name} takes {self.arity} argument(s)"

    def __repr__(self):
        return self.name


def _general_arguments(run):
    """run, given the general list for each argument that is a MixedNumbers: functions
    written in Python know only the ordinary forms (runtime/mixed.py)."""
    def run_general(*args):
        if MixedNumbers in map(type, args):
            args = [general(a) for a in args]
        return run(*args)
    return run_general


def call_value(fn, args, name=None):
    """Call a Klong value with a list of arguments; anything but a function is a type error
    (which says what `name` the value was read from, when it is known)."""
    if isinstance(fn, Function):
        return fn.call(args)
    raise KlongError("type", f"{name} is not a function" if name else "not a function")


def project(fn, slots):
    if not isinstance(fn, Function):
        raise KlongError("type", "not a function")
    return Projection(fn, slots)


class Variadic(Builtin):
    """A function written in Python taking from `least` to `most` arguments."""
    __slots__ = ("least", "most")

    def __init__(self, name, least, most, run, backend=None):
        super().__init__(name, least, run, backend)
        self.least, self.most = least, most

    def call(self, args):
        if not self.least <= len(args) <= self.most:
            raise KlongError("arity", f"wrong arity: {self.name} takes {self.least} to "
                                      f"{self.most} arguments")
        return self.run(*args)
