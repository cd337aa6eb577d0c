"""Klong's verbs: one registry, VERBS, holds every fact the rest of the interpreter knows
about a verb (its name in each form, its implementation, whether adverbs and compiled code
may take shortcuts with it). Each verb's meaning lives in exactly one function in atomic.py or
structural.py; MONADS and DYADS map a symbol to those functions."""
import operator
from typing import Callable, Optional

from . import atomic, batching, structural
from .adverbs import join_all, join_pairs
from .atomic import (DYAD_PARTS, atomic_dyad, differentiated, int_arith, int_remainder,
                     mixed_with_reals, plain_comparison, real_arith, real_divide, real_extreme,
                     real_power)
from ..runtime.records import field, record

MONADS = {**atomic.MONADS, **structural.MONADS}
DYADS = {**atomic.DYADS, **structural.DYADS}      # the verbs with shortcuts replace theirs below

# A product of two integers each below this in magnitude is inline Python arithmetic
# (scalar_guard of *): it has under 62 bits, so it can never near the integer size limit
# (limits.py), which repeated squaring would otherwise reach only after hours.
INLINE_FACTOR = 2**31

# Where a^b is Python's a**b as it stands (scalar_guard of ^): a positive power below 64 of a
# number below 1e4 in magnitude (a real power of a positive one) can neither overflow nor
# be complex nor leave the integer size limit; elsewhere the verb decides (atomic._power)
POWER_GUARD = ("(type({b}) is int and 0 < {b} < 64 and -1e4 < {a} < 1e4"
               " or type({b}) is float and 0 < {b} < 64 and 0 < {a} < 1e4)")


# Where Remainder and Integer-Divide are Python's % and // as they stand (their scalar_guard):
# integers, a dividend not negative and a divisor above 0, so that Python's floor and Klong's
# truncation agree; elsewhere the verb decides (a zero divisor, a real, a sign)
NATURAL_OPERANDS = ("(type({a}) is int and type({b}) is int and {a} >= 0 and {b} > 0)")


# A key read from a dictionary's table (dict_dyad of Find and At): a missing key's entry,
# NO_ENTRY, holds the undefined value
DICT_LOOKUP = "{a}.table.get({b}, NO_ENTRY)[1]"


@record(slots=True, eq=False)
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
    element_dyad       Python expression giving exactly the verb's result where {a} is a
                       vector of the interpreter's backend, {T} its array type, and {b} an
                       int inside it, on a backend whose element(a, i) is a.item(i)
                       (Backend.element_is_item): At's commonest case (x@0 of a pair in a
                       loop), which generated code writes inline under element_guard
    element_guard      the Python condition on {a} and {b} for element_dyad
    dict_dyad          Python expression giving exactly the dyad's result where {a} is a
                       dictionary (its type is DICT in generated code) and {b} an integer
                       or a string (their own keys, runtime/values.Dict): the entry read
    text_monad/dyad    Python expression giving exactly the form's result where its operand
                       or both operands are strings (type str): a word reversed, compared
    any_monad          Python expression giving exactly the monad's result for any operand
                       {a}, which generated code writes inline without a test
    test_monad         a Python condition on any operand {a}, true exactly where the monad's
                       result is a true value: a conditional's predicate written inline
    shortcuts          the dyad's shortcuts (atomic.py): each shortcut(a, b) gives what the
                       verb gives, by a shorter way, for the operands it knows, else None;
                       a numeric atomic dyad also takes atomic.differentiated, last
    compare            the Python comparison operator that the dyad is, on two numbers
    host_monad/dyad    a form the interpreter applies (the differentiation operators): how,
                       as a HostForm
    each_of_vectors    Each of the monad over a list whose every item is a non-empty vector
                       of the backend (the groups of =): the list of its results, as the
                       monad gives each one, from the list of items
    each_of_chars      Each of the monad over the characters of a non-empty string: its
                       results as one value (what the loop's list would be), or None
    batch_monad/dyad   the batching rule (batching.py): the form applied to the rows of a
                       matrix at once, rule(x, n) or rule(x, y, n), an operand being
                       batching.Rows (one value per row) or a value the same for every row;
                       it gives what the form gives on each row, stacked, or raises
                       batching.Declined. Numeric atomic forms get theirs by default
    """
    symbol: str
    monad_name: Optional[str] = None
    dyad_name: Optional[str] = None
    atomic: str = ""
    numeric: str = ""
    reduce: Optional[Callable] = None
    fold: Optional[Callable] = None
    each: Optional[Callable] = None
    scalar_monad: Optional[str] = None
    scalar_dyad: Optional[str] = None
    scalar_guard: Optional[str] = None
    element_dyad: Optional[str] = None
    element_guard: Optional[str] = None
    dict_dyad: Optional[str] = None
    text_monad: Optional[str] = None
    text_dyad: Optional[str] = None
    any_monad: Optional[str] = None
    test_monad: Optional[str] = None
    shortcuts: tuple = ()
    compare: Optional[str] = None
    host_monad: Optional["HostForm"] = None
    host_dyad: Optional["HostForm"] = None
    batch_monad: Optional[Callable] = None
    batch_dyad: Optional[Callable] = None
    each_of_vectors: Optional[Callable] = None
    each_of_chars: Optional[Callable] = None
    # made from the above
    monad: Optional[Callable] = field(init=False)
    dyad: Optional[Callable] = field(init=False)
    atomic_monad: bool = field(init=False)
    atomic_dyad: bool = field(init=False)
    numeric_monad: bool = field(init=False)
    numeric_dyad: bool = field(init=False)

    def __post_init__(self):
        symbol = self.symbol
        self.monad, self.dyad = MONADS.get(symbol), DYADS.get(symbol)
        self.atomic_monad, self.atomic_dyad = "m" in self.atomic, "d" in self.atomic
        self.numeric_monad, self.numeric_dyad = "m" in self.numeric, "d" in self.numeric
        parts = DYAD_PARTS.get(symbol)
        if parts is not None and self.numeric_dyad:
            # after the verb's own: those take real arrays (a training step) without delay
            self.shortcuts = tuple(self.shortcuts) + (differentiated(parts[0]),)
        self.shortcuts = tuple(self.shortcuts)
        if self.shortcuts:
            self.dyad = atomic_dyad(*parts, shortcuts=self.shortcuts)
        if self.batch_monad is None and self.atomic_monad and self.numeric_monad:
            self.batch_monad = batching.atomic_monad(symbol, self.monad)
        if self.batch_dyad is None and self.atomic_dyad and self.numeric_dyad:
            self.batch_dyad = batching.atomic_dyad(symbol, self.dyad)

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
    Verb("@", "atom", "at", scalar_monad="1", batch_dyad=batching.at, dict_dyad=DICT_LOOKUP,
         # (structural.at's first test)
         element_dyad="{a}.item({b})",
         element_guard="(type({a}) is {T} and type({b}) is int and {a}.ndim == 1"
                       " and 0 <= {b} < {a}.shape[0])"),
    Verb(",", "list", "join", fold=join_all, each=join_pairs, batch_dyad=batching.join,
         text_dyad="{a} + {b}"),
    Verb("!", "enumerate", "remainder", atomic="d", numeric="d", scalar_dyad="{a} % {b}",
         scalar_guard=NATURAL_OPERANDS, shortcuts=(int_remainder,)),
    Verb("#", "size", "take", batch_monad=batching.size, batch_dyad=batching.take,
         text_monad="len({a})", each_of_vectors=structural.sizes_of_vectors,
         each_of_chars=structural.codes_of_chars),
    Verb("<", "grade-up", "less", atomic="d", numeric="d", compare="<",
         batch_monad=batching.grade(False),
         scalar_dyad="1 if {a} < {b} else 0",
         shortcuts=(plain_comparison(operator.lt), mixed_with_reals("<"))),
    Verb(">", "grade-down", "more", atomic="d", numeric="d", compare=">",
         batch_monad=batching.grade(True),
         scalar_dyad="1 if {a} > {b} else 0",
         shortcuts=(plain_comparison(operator.gt), mixed_with_reals(">"))),
    Verb("=", "group", "equal", atomic="d", numeric="d", compare="==",
         scalar_dyad="1 if {a} == {b} else 0",
         shortcuts=(plain_comparison(operator.eq), mixed_with_reals("="))),
    Verb("*", "first", "times", atomic="d", numeric="d", reduce="*", scalar_dyad="{a} * {b}",
         batch_monad=batching.first, each_of_vectors=structural.firsts_of_vectors,
         scalar_guard=f"(type({{a}}) is float and type({{b}}) is float"
                      f" or -{INLINE_FACTOR:#x} < {{a}} < {INLINE_FACTOR:#x}"
                      f" and -{INLINE_FACTOR:#x} < {{b}} < {INLINE_FACTOR:#x})",
         shortcuts=(int_arith(operator.mul, operator.mul), real_arith(operator.mul),
                    mixed_with_reals("*"))),
    Verb("+", "transpose", "plus", atomic="d", numeric="d", reduce="+", scalar_dyad="{a} + {b}",
         shortcuts=(int_arith(operator.add, operator.add), real_arith(operator.add),
                    mixed_with_reals("+"))),
    Verb("-", "negate", "minus", atomic="md", numeric="md", scalar_monad="-{a}",
         scalar_dyad="{a} - {b}", shortcuts=(int_arith(operator.sub, operator.add),
                                             real_arith(operator.sub), mixed_with_reals("-"))),
    Verb("_", "floor", "drop", atomic="m", numeric="m", batch_dyad=batching.drop),
    Verb("~", "not", "match", atomic="m", numeric="m", scalar_monad="0 if {a} else 1",
         batch_dyad=batching.match, text_dyad="1 if {a} == {b} else 0"),
    Verb("$", "format", "format2", atomic="md"),
    Verb("?", "range", "find", batch_dyad=batching.find, dict_dyad=DICT_LOOKUP),
    Verb("%", "reciprocal", "divide", atomic="md", numeric="md",
         shortcuts=(real_divide, mixed_with_reals("%"))),
    Verb("|", "reverse", "max", atomic="d", numeric="d", reduce="|", batch_monad=batching.reverse,
         text_monad="{a}[::-1]", shortcuts=(real_extreme(True),),
         scalar_dyad="{a} if {a} >= {b} else {b}"),
    Verb("^", "shape", "power", atomic="d", numeric="d", shortcuts=(real_power,),
         batch_monad=batching.shape, scalar_dyad="{a} ** {b}", scalar_guard=POWER_GUARD),
    Verb("&", "expand", "min", atomic="d", numeric="d", reduce="&", batch_monad=batching.where,
         shortcuts=(real_extreme(False),), scalar_dyad="{a} if {a} < {b} else {b}"),
    Verb(":#", "char", "split", atomic="m"),
    Verb(":_", "undefined", "cut", any_monad="(1 if {a} is UNDEFINED else 0)",
         test_monad="{a} is UNDEFINED"),
    Verb(":=", None, "amend"),
    Verb(":-", None, "amend-in-depth"),
    Verb("::", None, "define"),
    Verb(":$", None, "form", atomic="d"),
    Verb(":@", None, "index-in-depth"),
    Verb(":%", None, "integer-divide", atomic="d", numeric="d", scalar_dyad="{a} // {b}",
         scalar_guard=NATURAL_OPERANDS),
    Verb(":+", None, "rotate", batch_dyad=batching.rotate),
    Verb(":^", None, "reshape"),
    # the differentiation operators: f:>p, ∇f and p∇f, p∂f, ˙x
    Verb(":>", None, "autograd",
         host_dyad=HostForm(lambda d, var: d.gradient_operator(var), point="right")),
    Verb("\u2207", "gradient", "numeric-gradient",
         host_monad=HostForm(lambda d, var: d.gradient_function),
         host_dyad=HostForm(lambda d, var: lambda p, f: d.numeric(p, f, var), point="left")),
    Verb("\u2202", None, "jacobian", host_dyad=HostForm(lambda d, var: d.jacobian)),
    Verb("\u02d9", "track", None, host_monad=HostForm(lambda d, var: _track)),
)

# the dyads as Klong runs them: with the shortcuts declared above
DYADS.update({symbol: verb.dyad for symbol, verb in VERBS.items() if verb.shortcuts})
