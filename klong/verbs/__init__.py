"""Klong's verbs: one registry, VERBS, holds every fact the rest of the interpreter knows
about a verb (its name in each form, its implementation, whether adverbs and compiled code
may take shortcuts with it). Each verb's meaning lives in exactly one function in atomic.py or
structural.py; MONADS and DYADS map a symbol to those functions."""
from . import atomic, batching, structural
from .adverbs import join_all, join_pairs

MONADS = {**atomic.MONADS, **structural.MONADS}
DYADS = {**atomic.DYADS, **structural.DYADS}


class Verb:
    """One verb's entry in the registry: what is known of the verb symbol.

    monad, dyad        the implementations (None where the verb has no such form)
    monad_name, ...    what an error message calls each form ("times", "negate")
    atomic_monad/dyad  the form maps over lists element by element, so applying it to a whole
                       array equals applying it to each element (Each may do that at once)
    numeric_monad/dyad additionally safe in a function body applied to a whole numeric array
                       (never raises on numbers, keeps numbers numbers)
    reduce             the backend reduction (Backend.reduce) that folding with the dyad equals
    fold               folds a whole list of items with the dyad at once, or returns None
    each               Each of the dyad over two numeric lists of one length at once, or None
    scalar_monad/dyad  Python expression for two plain Python numbers (int or float) giving
                       exactly the verb's result; {a} and {b} stand for the operands
    scalar_guard       a further Python condition on the two numbers for scalar_dyad (else
                       the verb itself runs)
    compare            the Python comparison operator that the dyad is, on two numbers
    host_monad/dyad    a form the interpreter applies (the differentiation operators): how,
                       as a HostForm
    batch_monad/dyad   the batching rule (batching.py): the form applied to the rows of a
                       matrix at once, rule(x, n) or rule(x, y, n), an operand being
                       batching.Rows (one value per row) or a value the same for every row;
                       it gives what the form gives on each row, stacked, or raises
                       batching.Declined. Numeric atomic forms get theirs by default
    """
    __slots__ = ("symbol", "monad", "dyad", "monad_name", "dyad_name", "atomic_monad",
                 "atomic_dyad", "numeric_monad", "numeric_dyad", "reduce", "fold", "each", "scalar_monad",
                 "scalar_dyad", "scalar_guard", "compare", "host_monad", "host_dyad",
                 "batch_monad", "batch_dyad")

    def __init__(self, symbol, monad_name=None, dyad_name=None, atomic="", numeric="",
                 reduce=None, fold=None, each=None, scalar_monad=None, scalar_dyad=None, scalar_guard=None,
                 compare=None, host_monad=None, host_dyad=None, batch_monad=None,
                 batch_dyad=None):
        self.symbol = symbol
        self.monad = MONADS.get(symbol)
        self.dyad = DYADS.get(symbol)
        self.monad_name = monad_name
        self.dyad_name = dyad_name
        self.atomic_monad = "m" in atomic
        self.atomic_dyad = "d" in atomic
        self.numeric_monad = "m" in numeric
        self.numeric_dyad = "d" in numeric
        self.reduce = reduce
        self.fold = fold
        self.each = each
        self.scalar_monad = scalar_monad
        self.scalar_dyad = scalar_dyad
        self.scalar_guard = scalar_guard
        self.compare = compare
        self.host_monad = host_monad
        self.host_dyad = host_dyad
        if batch_monad is None and self.atomic_monad and self.numeric_monad:
            batch_monad = batching.atomic_monad(symbol, self.monad)
        if batch_dyad is None and self.atomic_dyad and self.numeric_dyad:
            batch_dyad = batching.atomic_dyad(symbol, self.dyad)
        self.batch_monad = batch_monad
        self.batch_dyad = batch_dyad

    def name(self, arity):
        return (self.monad_name if arity == 1 else self.dyad_name) or self.symbol


class HostForm:
    """How a form of a differentiation operator is applied: action(d, variable) gives the
    Python function of its operands, d being the interpreter's Differentiation
    (runtime/autograd.py) and `variable` the global that a bare name as the operand `point`
    ("left" or "right"; None: the operator has no variable mode) names, else None (variable
    mode, system.md B.2: the variable itself is rebound while differentiating)."""
    __slots__ = ("action", "point")

    def __init__(self, action, point=None):
        self.action = action
        self.point = point


def _track(x):
    """˙x: x itself (it marks, in the source, a value that will be differentiated)."""
    return x


def _table(*verbs):
    return {v.symbol: v for v in verbs}


VERBS = _table(
    Verb("@", "atom", "at", batch_dyad=batching.at),
    Verb(",", "list", "join", fold=join_all, each=join_pairs, batch_dyad=batching.join),
    Verb("!", "enumerate", "remainder", atomic="d", numeric="d"),
    Verb("#", "size", "take", batch_monad=batching.size, batch_dyad=batching.take),
    Verb("<", "grade-up", "less", atomic="d", numeric="d", compare="<",
         batch_monad=batching.grade(False),
         scalar_dyad="1 if {a} < {b} else 0"),
    Verb(">", "grade-down", "more", atomic="d", numeric="d", compare=">",
         batch_monad=batching.grade(True),
         scalar_dyad="1 if {a} > {b} else 0"),
    Verb("=", "group", "equal", atomic="d", numeric="d", compare="==",
         scalar_dyad="1 if {a} == {b} else 0"),
    # a product of integers inline only while it cannot near the integer size limit (limits.py):
    # repeated squaring would otherwise run for hours instead of raising a range error
    Verb("*", "first", "times", atomic="d", numeric="d", reduce="*", scalar_dyad="{a} * {b}",
         batch_monad=batching.first,
         scalar_guard="(type({a}) is float and type({b}) is float"
                      " or -0x80000000 < {a} < 0x80000000 and -0x80000000 < {b} < 0x80000000)"),
    Verb("+", "transpose", "plus", atomic="d", numeric="d", reduce="+", scalar_dyad="{a} + {b}"),
    Verb("-", "negate", "minus", atomic="md", numeric="md", scalar_monad="-{a}",
         scalar_dyad="{a} - {b}"),
    Verb("_", "floor", "drop", atomic="m", numeric="m", batch_dyad=batching.drop),
    Verb("~", "not", "match", atomic="m", numeric="m", scalar_monad="0 if {a} else 1",
         batch_dyad=batching.match),
    Verb("$", "format", "format2", atomic="md"),
    Verb("?", "range", "find", batch_dyad=batching.find),
    Verb("%", "reciprocal", "divide", atomic="md", numeric="md"),
    Verb("|", "reverse", "max", atomic="d", numeric="d", reduce="|", batch_monad=batching.reverse,
         scalar_dyad="{a} if {a} >= {b} else {b}"),
    Verb("^", "shape", "power", atomic="d", numeric="d", batch_monad=batching.shape),
    Verb("&", "expand", "min", atomic="d", numeric="d", reduce="&",
         scalar_dyad="{a} if {a} < {b} else {b}"),
    Verb(":#", "char", "split", atomic="m"),
    Verb(":_", "undefined", "cut"),
    Verb(":=", None, "amend"),
    Verb(":-", None, "amend-in-depth"),
    Verb("::", None, "define"),
    Verb(":$", None, "form", atomic="d"),
    Verb(":@", None, "index-in-depth"),
    Verb(":%", None, "integer-divide", atomic="d", numeric="d"),
    Verb(":+", None, "rotate", batch_dyad=batching.rotate),
    Verb(":^", None, "reshape"),
    # the differentiation operators: f:>p, ∇f and p∇f, p∂f, ˙x
    Verb(":>", None, "autograd",
         host_dyad=HostForm(lambda d, var: lambda f, p: d.gradient(f, p, var), point="right")),
    Verb("\u2207", "gradient", "numeric-gradient",
         host_monad=HostForm(lambda d, var: d.gradient_function),
         host_dyad=HostForm(lambda d, var: lambda p, f: d.numeric(p, f, var), point="left")),
    Verb("\u2202", None, "jacobian", host_dyad=HostForm(lambda d, var: d.jacobian)),
    Verb("\u02d9", "track", None, host_monad=HostForm(lambda d, var: _track)),
)
