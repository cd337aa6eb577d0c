"""Function values: Klong lambdas, projections and built-ins, and how calls are made."""
from .errors import KlongError
from .values import Function

PARAMS = ("x", "y", "z")


# A frame holds the variables of one call, parameters and declared locals, in a dict. Two
# keys no Klong name can take hold the frame in which the function literal was evaluated
# (lexical scope) and the running function (what `.f` names). A plain dict is the cheapest
# thing Python can build per call.
PARENT = "^parent"
SELF = "^fn"


class Lambda(Function):
    """A function literal evaluated in a frame: its compiled body and its lexical parent.
    `atomic_op`, when set, says the body is exactly `x OP y` (so adverbs can use OP's fast
    paths); `elementwise` says the body only combines x with numbers through atomic verbs,
    so applying it to a whole numeric array equals applying it to each element."""
    __slots__ = ("body", "arity", "parent", "atomic_op", "elementwise", "backend")

    def __init__(self, body, arity, parent, atomic_op=None, elementwise=False, backend=None):
        self.body = body
        self.arity = arity
        self.parent = parent
        self.atomic_op = atomic_op
        self.elementwise = elementwise
        self.backend = backend      # the interpreter's, for calls made from Python

    def call(self, args):
        n = len(args)
        if n != self.arity:
            raise KlongError("arity", f"wrong arity: function of {self.arity} called with {n}")
        if n == 1:
            frame = {"x": args[0], PARENT: self.parent, SELF: self}
        elif n == 0:
            frame = {PARENT: self.parent, SELF: self}
        elif n == 2:
            frame = {"x": args[0], "y": args[1], PARENT: self.parent, SELF: self}
        else:
            frame = {"x": args[0], "y": args[1], "z": args[2], PARENT: self.parent, SELF: self}
        return self.body(frame)


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


class Builtin(Function):
    """A function written in Python. `impl` takes the arguments positionally."""
    __slots__ = ("impl", "arity", "name", "backend")

    def __init__(self, name, arity, impl, backend=None):
        self.name = name
        self.arity = arity
        self.impl = impl
        self.backend = backend      # the interpreter's, for calls made from Python

    def call(self, args):
        if len(args) != self.arity:
            raise KlongError("arity", f"wrong arity: {self.name} takes {self.arity} argument(s)")
        return self.impl(*args)


def call_value(fn, args):
    """Call a Klong value with a list of arguments; anything but a function is a type error."""
    if isinstance(fn, Function):
        return fn.call(args)
    raise KlongError("type", "not a function")


def project(fn, slots):
    if not isinstance(fn, Function):
        raise KlongError("type", "not a function")
    return Projection(fn, slots)
