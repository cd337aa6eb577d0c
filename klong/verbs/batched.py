"""The evaluation of a batched body: Each over the rows of a matrix (or the numbers of a
vector) run once for all rows.
compiler/passes/batching.py makes a body's plan (nested tuples); `compiled` turns it, once,
into closures that apply each verb's batching rule (batching.py) to operands holding one
value per row (`Rows`), and `each` runs them on a matrix, or gives None when the loop must
run instead. A module apart from the rules because it reads the registry the rules are
part of."""
from .. import backends
from ..backends import HOST, arrays
from . import VERBS, adverbs, batching, fused
from ..runtime import kinds, limits, values
from ..runtime.functions import Lambda
from ..runtime.values import MAX_DIMS
from ..backends.base import SEQUENTIAL_ROWS
from .batching import ADVERBS, Declined, Rows, _kind, _rank, _repeated


def each(body, a, reads):
    """f'a for the monad whose batched body is `body` (compiled() of its plan, made by
    passes/batching.py), the names it reads around it already read (`reads`), on a matrix
    of numbers a (or an array of more axes), or a vector of numbers (its rows are numbers, as
    a row's sum is: the rules take both): the stacked results of every row, or None (the loop
    runs)."""
    # (the tests of _numbers written out: this runs at every Each of a literal that batches)
    if not isinstance(a, arrays.ARRAY_TYPES):
        return None
    shape = a.shape
    if not (shape and shape[0] and (len(shape) == 1 or shape[1])) \
            or arrays.dtype_kind(a.dtype) not in _NUMERIC and not _numbers(a):
        return None
    backend = backends.running.backend
    if backend.dtype != "float64":
        return None         # a row's single reals are 64-bit, the batch's narrow (numbers.md)
    if backend.differentiates and not body.differentiable and _tracked(backend, (a,), reads):
        return None         # differentiated: the loop's steps are the graph's
    direct = body.direct
    if direct is not None:      # a part of each row of a matrix: no run, no Rows
        r = direct(a)
        if r is not None:
            return r
    n = shape[0]
    try:
        if body.calm or not backend.warns:
            r = body(_Run(_rows_of(a), reads, n, chain=(body,)))
        else:
            with backend.quiet():
                r = body(_Run(_rows_of(a), reads, n, chain=(body,)))
        return _results(r, n)
    except Exception:       # Declined, or an error some row raises: the loop says which
        return None


def pairs(body, a, b, reads, rows):
    """The dyad whose batched body is `body` applied to pairs, once for all of them: `rows`
    says which operands hold one value per pair along their first axis (1: a, 2: b, 3:
    both, of one length; the other is the same for every pair): a f'b is 3, a f:\\b is
    f(a; each of b), 2, and a f:/b f(each of b; a), 1, with the operands in f's order. The
    stacked results, or None (the loop runs)."""
    backend = backends.current()
    if backend.dtype != "float64":
        return None
    n = None
    if rows & 1:
        if not _numbers(a):
            return None
        n = a.shape[0]
    if rows & 2:
        if not _numbers(b) or n not in (None, b.shape[0]):
            return None
        n = b.shape[0]
    if backend.differentiates and not body.differentiable \
            and _tracked(backend, (a, b), reads):
        return None
    direct = body.direct_pairs
    if direct is not None:      # a column of a matrix: no run, no Rows
        r = direct(a, b, rows)
        if r is not None:
            return r
    run = _Run(Rows.of(a) if rows & 1 else a, reads, n, Rows.of(b) if rows & 2 else b,
               chain=(body,))
    try:
        if body.calm or not backend.warns:
            r = body(run)
        else:
            with backend.quiet():
                r = body(run)
        return _results(r, n)
    except Exception:
        return None


_NUMERIC = ("i", "f")
_rows_of = Rows.of


def _numbers(v):
    """Whether v is an array of integers or reals with at least one row."""
    if isinstance(v, arrays.ARRAY_TYPES) and v.ndim and v.shape[0]:
        kind = values.array_kind(v)
        return kind == "i" or kind == "f"
    return False


def _tracked(backend, operands, reads):
    """Whether an operand or a name read is being differentiated (never on numpy)."""
    if backend.differentiates:
        for group in (operands, reads):
            for v in group:
                if backend.is_tracked(v):
                    return True
    return False


def _results(r, n):
    """The list the loop would make of every row's result r. Rows as they are, also where
    they are a view of an operand (a row's first element, its first few) or of an array
    not laid out row by row: Klong's values are immutable, and an Amend in place
    (verbs/inplace.py) writes only an array that owns its memory and that no view holds
    (Backend.writable_alone, with the references counted), so neither a view nor the
    array it shows can change under the other."""
    t = type(r)
    if t is Rows:
        a = r.a
        if a.shape[0] != n or a.ndim > MAX_DIMS or a.ndim > 1 and a.shape[1] == 0:
            raise Declined
        b = r.bounds
        if b is not None:   # (what the rules knew of the integers, for the verbs after)
            limits.current().remember(a, max(-b[0], b[1]))
        return a
    if t is int or t is float:      # the same number for every row (a row's tally, say;
        # an integer beyond int64 overflows the library's: the loop's Python integers)
        return backends.running.backend.full((n,), r, "i" if t is int else "f")
    if _rank(r) == 0 and kinds.kind(r) not in ("i", "f") \
            or _rank(r) and 0 in tuple(r.shape):
        raise Declined      # an integer beyond int64 (Python integers), an empty list
    return _repeated(r, n)  # the same number or array for every row


class _Run:
    """One batched evaluation: the rows (x, and y of a dyad), the names read around the
    literal, its locals."""
    __slots__ = ("x", "y", "reads", "n", "locals", "up", "chain")

    def __init__(self, x, reads, n, y=None, up=None, chain=()):
        self.x = x
        self.y = y
        self.reads = reads
        self.n = n
        self.locals = {}
        self.up = up            # a loop's literal's: the locals of the body around it
        self.chain = chain      # the bodies running, the callers' (a call of one declines)


# the rules that only move elements (no arithmetic: no warning of the library to silence):
# first, reverse, size, shape; index, rotate, join, take, drop
_CALM_MONADS = {"*", "|", "#", "^"}
_CALM_DYADS = {"@", ":+", ",", "#", "_"}


def assigns(plan):
    """Whether a plan assigns a local: a hook on its name must see every row's value, so the
    renderers let the loop run while any hook is registered."""
    if type(plan) is not tuple:
        return False
    return bool(plan) and plan[0] == "set" or any(assigns(p) for p in plan)


def compiled(plan):
    """The plan of a batched body (nested tuples: passes/batching.py) as a function of a
    _Run, made once for the literal (the renderers call this), so that a run interprets
    nothing: each node is a closure that evaluates its operands and applies its rule. Its
    `calm`: whether the plan only moves elements, so that the run needs no Backend.quiet."""
    body = _compiled(plan)
    body.calm = _calm(plan)
    body.differentiable = _differentiable(plan)
    body.direct = _direct(plan)
    body.direct_pairs = _direct_pairs(plan)
    return body


def _direct(plan):
    """For a body that only picks a part of each row, of one kind of plan node on x alone
    (x@i, *x, *|x, c#|x; #x), a function of the matrix itself giving the stacked results
    its run gives, or None where it would decline or do more (a matrix of other than two
    axes, an index outside the rows): each() calls it first, without making a run and its
    Rows, the whole cost of these bodies. None for any other plan."""
    if plan[0] == "seq" and len(plan[1]) == 1:
        plan = plan[1][0]       # (a literal's body: its one expression)
    x = ("x",)
    if plan[0] == "dyad" and plan[1] == "@" and plan[2] == x and plan[3][0] == "const" \
            and type(plan[3][1]) is int:
        i = plan[3][1]
        return lambda a: a[:, i] if a.ndim == 2 and 0 <= i < a.shape[1] else None
    if plan[0] == "dyad" and plan[1] == "#" and plan[2][0] == "const" \
            and type(plan[2][1]) is int and plan[3] == ("monad", "|", x):
        c = plan[2][1]
        return lambda a: _last_reversed(a, c) if a.ndim == 2 else None
    if plan == ("monad", "*", x):
        return lambda a: a[:, 0] if a.ndim == 2 else None
    if plan == ("monad", "*", ("monad", "|", x)):
        return lambda a: a[:, -1] if a.ndim == 2 else None
    if plan == ("monad", "#", x):
        return lambda a: backends.running.backend.full((a.shape[0],), a.shape[1], "i") \
            if a.ndim == 2 else None
    return _column_arithmetic(plan)


def _direct_pairs(plan):
    """For a dyad's body that is At of the rows by the operand the same for every pair
    (`{y@x}(i;)'m`, `{x@y}(;i)'m`: the column i of a matrix m), a function (a, b, rows) of
    pairs' operands giving the column as each() gives _direct's picks, or None where the run
    must decide (an index that is no integer within the rows: the loop's error). None for
    any other plan."""
    if plan[0] == "seq" and len(plan[1]) == 1:
        plan = plan[1][0]
    if plan == ("dyad", "@", ("y",), ("x",)):
        return lambda a, b, rows: _column(b, a) if rows == 2 else None
    if plan == ("dyad", "@", ("x",), ("y",)):
        return lambda a, b, rows: _column(a, b) if rows == 1 else None
    return None


def _column(m, i):
    """m[:, i] for a matrix m and an integer i within its rows, else None."""
    if type(i) is int and m.ndim == 2 and 0 <= i < m.shape[1]:
        return m[:, i]
    return None


# the dyads of _column_arithmetic: one IEEE operation on two reals, the library's on
# arrays of them as Python's on the loop's floats
_COLUMN_DYADS = {"+": lambda p, q: p + q, "-": lambda p, q: p - q, "*": lambda p, q: p * q}


def _column_arithmetic(plan):
    """For a body that is + - * of its row's elements at constant places and of real
    constants (`(x@0)-x@1`, `(2.0*x@1)+x@3`): a function of a matrix of reals giving each
    row's result, one operation of the library on whole columns for each of the body's,
    the loop's operations on each row's Python floats; None where the matrix holds other
    than reals (integers: the rule's checks) or a place lies outside its rows (the loop's
    error). None for any other plan, and for a plan reading no element."""
    places = []

    def column(p):
        """A function of the matrix giving p's value in every row, or None."""
        if p[0] == "dyad" and p[1] == "@" and p[2] == ("x",) and p[3][0] == "const" \
                and type(p[3][1]) is int and p[3][1] >= 0:
            i = p[3][1]
            places.append(i)
            return lambda a: a[:, i]
        if p[0] == "const" and (type(p[1]) is float
                                or type(p[1]) is int and -batching._EXACT < p[1] < batching._EXACT):
            v = float(p[1])     # (an integer beside a real: the real it converts to exactly)
            return lambda a: v
        if p[0] == "dyad" and p[1] in _COLUMN_DYADS:
            op, right, left = _COLUMN_DYADS[p[1]], column(p[3]), column(p[2])
            if right is None or left is None:
                return None
            return lambda a: op(left(a), right(a))
        return None
    if plan[0] != "dyad" or plan[1] not in _COLUMN_DYADS:
        return None
    whole = column(plan)
    if whole is None or not places:
        return None
    end = max(places)

    def run(a):
        if not (a.ndim == 2 and end < a.shape[1] and arrays.dtype_kind(a.dtype) == "f"):
            return None
        backend = backends.running.backend
        if not backend.warns:
            return whole(a)
        with backend.quiet():       # (an overflow is inf, silently, as in the loop)
            return whole(a)
    return run


def _calm(plan):
    what = plan[0]
    if what in ("x", "y", "const", "read", "get"):
        return True
    if what == "set":
        return _calm(plan[2])
    if what == "seq":
        return all(_calm(p) for p in plan[1])
    if what == "monad" and plan[1] in _CALM_MONADS:
        return _calm(plan[2])
    if what == "dyad" and plan[1] in _CALM_DYADS:
        return _calm(plan[2]) and _calm(plan[3])
    return False


# the nodes of a plan whose rules, on operands being differentiated, take only steps of the
# library on them (torch's, which autograd records; a sum's values folded outside the graph,
# Backend.fold_rows), never a value read out of them: + - * % of reals, -x, +/ |/ &/, the
# element-wise math functions
_GRAPH_DYADS = {"+", "-", "*", "%"}
_GRAPH_FOLDS = {"+", "|", "&"}


def _differentiable(plan):
    """Whether a plan's batched run may take operands being differentiated (the gradient
    then flows through the rules' steps, as through the loop's)."""
    what = plan[0]
    if what in ("x", "y", "const", "read", "get", "up"):
        return True
    if what == "set":
        return _differentiable(plan[2])
    if what == "seq":
        return all(_differentiable(p) for p in plan[1])
    if what == "call":
        # what the global called holds is known as it runs: _call declines there where it
        # is a literal whose body is not differentiable (an element-wise math function is)
        return _differentiable(plan[2])
    if what == "call2":
        return _differentiable(plan[2]) and _differentiable(plan[3])
    if what == "monad":
        return plan[1] == "-" and _differentiable(plan[2])
    if what == "dyad" and plan[3][0] == "const" and type(plan[3][1]) is int \
            and (plan[1] == "@" or plan[1] == "^" and plan[3][1] in batching.GRAPH_POWERS):
        # x@i, a view of each row's element (_element); x^2, x^3: the library's power of
        # every row's number, as the loop's (batching.power)
        return _differentiable(plan[2])
    if what == "dyad":
        return plan[1] in _GRAPH_DYADS and _differentiable(plan[2]) and _differentiable(plan[3])
    if what == "adverb":
        return plan[1] == "/" and plan[2] in _GRAPH_FOLDS and _differentiable(plan[3])
    return False


def _compiled(plan):
    what = plan[0]
    if what == "x":
        return lambda run: run.x
    if what == "y":
        return lambda run: run.y
    if what == "const":
        value = plan[1]
        return lambda run: value
    if what == "read":
        i = plan[1]
        return lambda run: run.reads[i]
    if what == "get":
        name = plan[1]
        return lambda run: run.locals[name]
    if what == "up":
        name = plan[1]
        return lambda run: run.up[name]
    if what == "set":
        name, value = plan[1], _compiled(plan[2])

        def assign(run):
            v = run.locals[name] = value(run)
            return v
        return assign
    if what == "seq":
        steps = [_compiled(p) for p in plan[1]]
        if len(steps) == 1:
            return steps[0]

        def sequence(run):
            v = None
            for step in steps:
                v = step(run)
            return v
        return sequence
    if what == "monad" and plan[1] == "*" and plan[2][0] == "monad" and plan[2][1] in "<>":
        return _first_of_grade(plan[2][1] == ">", _compiled(plan[2]), _compiled(plan[2][2]))
    if what == "monad" and plan[1] == "*" and plan[2][0] == "dyad" and plan[2][1] == "?":
        largest = plan[2][3] == ("adverb", "/", "|", plan[2][2])        # *x?|/x
        return _first_found(_compiled(plan[2]), _compiled(plan[2][2]), _compiled(plan[2][3]),
                            largest)
    if what == "monad" and plan[1] == "*" and plan[2][0] == "monad" and plan[2][1] == "|":
        return _last(_compiled(plan[2]), _compiled(plan[2][2]))
    if what == "dyad" and plan[1] == "@" and plan[3][0] == "monad" and plan[3][1] in "<>" \
            and plan[3][2] == plan[2]:                                  # x@<x, x@>x
        return _sorted(plan[3][1] == ">", _dyad(plan), _compiled(plan[2]))
    if what == "dyad" and plan[1] == "#" and plan[3][0] == "monad" and plan[3][1] == "|":
        return _take_reversed(_compiled(plan[3]), _compiled(plan[2]), _compiled(plan[3][2]))
    if what == "monad" and plan[1] == "#" and plan[2][0] == "monad" and plan[2][1] == "&":
        return _count_where(_compiled(plan[2]), _compiled(plan[2][2]))
    if what in ("dyad", "monad", "adverb") and fused.fusable(plan):
        return fused.compiled(plan, _compiled)      # integer verbs' checks made once
    if what == "monad":
        entry, arg = VERBS[plan[1]], _compiled(plan[2])
        verb, rule = entry.monad, entry.batch_monad
        if rule is None:
            rule = _no_rule     # (`!#x`: planned for a plain operand, Rows as it runs)

        def monad(run):
            x = arg(run)
            return rule(x, run.n) if type(x) is Rows else verb(x)
        return monad
    if what == "dyad" and plan[1] == "@" and plan[3][0] == "const" and type(plan[3][1]) is int:
        return _element(plan[3][1], _compiled(plan[2]))
    if what == "dyad" and plan[1] in batching.DIRECT:
        entry = VERBS[plan[1]]
        return _direct_dyad(batching.DIRECT[plan[1]], entry.batch_dyad, entry.dyad,
                            _compiled(plan[2]), _compiled(plan[3]))
    if what == "dyad":
        return _dyad(plan)
    if what == "adverb" and plan[1:3] == ("/", "+") and plan[3][0] == "dyad" \
            and plan[3][1] == "*":
        times = plan[3]
        return _sum_of_products(_compiled(plan[:3] + (("x",),)), _compiled(times),
                                _compiled(times[2]), _compiled(times[3]))
    if what == "adverb" and plan[1:3] == ("/", "+") and _truths(plan[3]):
        if plan[3][1] == "=":
            return _count_equal(_compiled(plan[:3] + (("x",),)), _compiled(plan[3][2]),
                                _compiled(plan[3][3]))
        return _count_true(_compiled(plan[:3] + (("x",),)), _compiled(plan[3]))
    if what == "adverb":
        op, entry = plan[2], VERBS[plan[2]]
        rule, arg = ADVERBS[plan[1]][op](op, entry.dyad), _compiled(plan[3])
        over = plan[1] == "/"

        def adverb(run):
            x = arg(run)
            if type(x) is not Rows:     # the same for every row: the adverb itself, once
                if over:
                    return adverbs.over(entry.dyad, x, entry.reduce, entry.fold)
                return adverbs.scan(entry.dyad, x, entry.reduce, None)
            return rule(x, run.n)
        return adverb
    if what == "call":
        return _call(_compiled(plan[1]), _compiled(plan[2]))
    if what == "call2":
        return _call_dyad(_compiled(plan[1]), _compiled(plan[2]), _compiled(plan[3]))
    if what == "each":
        return _each(_compiled(plan[1]), _compiled(plan[2]))
    if what == "while":
        return _while(_compiled(plan[1]), _compiled(plan[2]), _compiled(plan[3]), plan[4])
    if what == "cond":
        clauses = [(_compiled(p), _compiled(c)) for p, c in plan[1]]
        return _conditional(clauses, _compiled(plan[2]))
    raise ValueError(f"no such plan node: {what}")


def _call(fn, arg):
    """f(a) in a batched body, f a global: where it holds an element-wise math function of
    the backend (sysfns/python.py BackendFunction.elementwise), f of all rows' numbers at
    once, which are the loop's numbers of each row; where it holds a monad literal with a
    batched body of its own (LambdaFacts.batched), that body on the rows (`called`), through
    the literal's whole form, which reads the names it reads as the literal does; anything
    else declines."""
    def call(run):
        f = fn(run)
        if type(f) is Lambda:
            facts = f.facts
            if f.arity != 1 or not facts.batched or facts.effects or f.whole is None:
                raise Declined
            r = f.whole(arg(run), caller=run)
            if r is None:
                raise Declined  # (its body declined, or a row's error: the loop's)
            return r
        if getattr(f, "elementwise", False) is not True:
            raise Declined      # (a projection, say: the loop calls it)
        x = arg(run)
        if type(x) is not Rows:
            return f.call([x])  # the same for every row: called once
        if _kind(x) not in ("i", "f"):
            raise Declined
        return Rows(f.call([x.a]))
    return call


def _call_dyad(fn, left, right):
    """f(a;b) in a batched body, f a global: where it holds a dyad literal with a batched
    body of its own (LambdaFacts.batched), that body on the rows (`called`), as _call runs a
    monad's; anything else declines."""
    def call(run):
        f = fn(run)
        if type(f) is not Lambda:
            raise Declined
        facts = f.facts
        if f.arity != 2 or not facts.batched or facts.effects or f.whole is None:
            raise Declined
        y = right(run)              # (the right operand first, as Klong evaluates them)
        r = f.whole(left(run), y, 0, caller=run)
        if r is None:
            raise Declined  # (its body declined, or a row's error: the loop's)
        return r
    return call


def called(body, x, reads, caller, y=None):
    """The batched body `body` of a literal called in the batched body running as `caller`
    (_call, _call_dyad), on its arguments x (and y, for a dyad's), each Rows or a value the
    same for every row, the names it reads read where the literal reads them (`reads`).
    Declines where the literal is one
    of those running (recursion: every branch of a conditional runs on every row, so it
    would not end), and where differentiated operands would meet a rule that is not the
    graph's (_differentiable), in this body or in a caller's, which its result goes
    through (their own operands were not tracked: each, pairs and this decide so)."""
    chain = caller.chain
    if body in chain:
        raise Declined
    backend = backends.current()
    if backend.differentiates \
            and _tracked(backend, tuple(v.a if type(v) is Rows else v for v in (x, y)), reads) \
            and not (body.differentiable and all(b.differentiable for b in chain)):
        raise Declined
    return body(_Run(x, reads, caller.n, y, chain=chain + (body,)))


def _element(i, arg):
    """x@i, i a constant integer (`x@0`): each row's element i where every row has one, a
    view, as batching.at gives it, without the steps on the way; anything else as the
    dyad's other nodes apply the verb or its rule."""
    entry = VERBS["@"]
    verb, rule = entry.dyad, entry.batch_dyad

    def element(run):
        x = arg(run)
        if type(x) is not Rows:
            return verb(x, i)
        a = x.a
        if a.ndim > 1 and 0 <= i < a.shape[1]:
            return Rows.of(a[:, i], x.bounds)     # (a part of the rows: within their bounds)
        return rule(x, i, run.n)
    return element


def _direct_dyad(direct, rule, verb, left, right):
    """A dyad whose rule first tries to apply the library's operation straight to
    operands of one kind (batching.DIRECT): that first, without the rule's own calls on the
    way (a small batch's run is mostly such calls), then the rule where it does not settle
    the result."""
    direct_rows = batching.direct_rows

    def dyad(run):
        b = right(run)              # the right operand first, as Klong evaluates them
        a = left(run)
        if type(a) is Rows:
            r = direct_rows(direct, a, b, run.n, True)
        elif type(b) is Rows:
            r = direct_rows(direct, b, a, run.n, False)
        else:
            return verb(a, b)
        return r if type(r) is Rows else rule(a, b, run.n)
    return dyad


def _dyad(plan):
    """A dyad's node: its rule where an operand is Rows, else the verb itself."""
    entry, left, right = VERBS[plan[1]], _compiled(plan[2]), _compiled(plan[3])
    verb, rule = entry.dyad, entry.batch_dyad

    def dyad(run):
        b = right(run)          # the right operand first, as Klong evaluates them
        a = left(run)
        if type(a) is Rows or type(b) is Rows:
            return rule(a, b, run.n)
        return verb(a, b)
    return dyad


def _each(body, arg):
    """f'v in a batched body, v a list in every row (each row's own, of one length): f's
    body on the elements of all rows at once, as rows of their own (the first two axes
    made one), and its results shaped back, one list of them per row."""
    def each(run):
        v = arg(run)
        if type(v) is not Rows or v.rank == 0 or v.a.shape[1] == 0:
            raise Declined      # (f of a number, an empty list: not batched)
        a = v.a
        n, k = a.shape[0], a.shape[1]
        elements = Rows.of(a.reshape((n * k,) + tuple(a.shape[2:])))
        r = body(_Run(elements, run.reads, n * k, chain=run.chain))
        if r is elements:
            return v
        r = _results(r, n * k)
        return Rows(r.reshape((n, k) + tuple(r.shape[1:])))
    return each


# the most steps a batched While takes before the loop runs instead: the batch runs every
# row's loop, also of rows whose own run would have ended before it (an error in a later
# statement of an earlier row, a branch of a conditional not taken) and whose loop might
# not end; past this the loop decides, as it would have
WHILE_STEPS = 4096


def _while(predicate, body, start, names):
    """p f:~s in a batched body, p and f literal monads: every row's loop at once, in lock
    step. Each step evaluates p on the rows still looping; those where it is false are done
    (their value is kept aside), f runs on the others, and the loop ends when none is left.
    A row's value goes through the same steps as in its own loop, so its result is the
    same; p must give one number per row (or the same value for all), and the rows' results
    must be of one kind and shape (else the loop: a mixed or ragged list). `names`: the
    locals of the body around that p and f read (("up", name)), taken row by row along.
    The rows' values go from step to step as Rows, with their bounds (Rows.bounds), so
    that the checks a step's rules make need not scan them where the bounds settle them."""
    def loop(run):
        backend = backends.current()
        s = start(run)
        n = run.n
        x = s if type(s) is Rows else _repeated_rows(backend, s, n)
        up = {name: run.locals[name] for name in names}
        lanes = None            # the rows still looping (None: all, in order)
        done = []               # (rows, their values) of the rows done
        # (one run for p and one for f, each step's rows and a fresh start of its locals
        # put in: a step of a small batch is a few microseconds a node)
        tests = _Run(x, run.reads, n, chain=run.chain)
        steps = _Run(x, run.reads, n, chain=run.chain)
        for _ in range(WHILE_STEPS + 1):
            a = x.a
            m = a.shape[0]
            tests.x, tests.n, tests.up, tests.locals = x, m, up, {}
            p = predicate(tests)
            if type(p) is Rows:
                if p.a.ndim != 1:
                    raise Declined      # (a list as a predicate: its length decides)
                if not backend.all(p.a):        # (a row goes on where its p is not 0)
                    go = p.a != 0
                    stop = backend.where(p.a == 0)
                    done.append((stop if lanes is None else backend.take(lanes, stop),
                                 backend.take(a, stop)))
                    if stop.shape[0] == m:
                        break
                    keep = backend.where(go)
                    lanes = keep if lanes is None else backend.take(lanes, keep)
                    # (some of the rows: within their bounds)
                    x = Rows.of(backend.take(a, keep), x.bounds)
                    up = {k: Rows.of(backend.take(v.a, keep), v.bounds) if type(v) is Rows
                          else v for k, v in up.items()}
            elif not values.is_true(p):
                done.append((lanes, a))
                break
            steps.x, steps.n, steps.up, steps.locals = x, x.a.shape[0], up, {}
            r = body(steps)
            x = r if type(r) is Rows else _repeated_rows(backend, r, steps.n)
        else:
            raise Declined
        return Rows(_gathered(backend, done, n))
    return loop


def _repeated_rows(backend, v, n):
    """Rows of the plain value v (a number or numeric array) for each of n rows, with the
    bounds of its integers (one scan of v, not of the n copies)."""
    bounds = None
    if type(v) is int:
        bounds = v, v
    elif values.is_array(v) and 0 not in tuple(v.shape) and values.array_kind(v) == "i":
        bounds = backend.bounds(v)
    return Rows.of(_repeated(v, n), bounds)


def _gathered(backend, done, n):
    """The rows' values from the parts kept aside as they were done, each back in its
    row's place; the parts must hold numbers of one kind, rows of one shape."""
    if len(done) == 1 and done[0][0] is None:
        return done[0][1]
    kind, shape = values.array_kind(done[0][1]), tuple(done[0][1].shape[1:])
    if any(values.array_kind(v) != kind or tuple(v.shape[1:]) != shape for _, v in done):
        raise Declined          # a mixed or ragged list in the loop
    rows = backend.concat([backend.arange(n) if r is None else r for r, _ in done])
    parts = backend.concat([v for _, v in done])
    if parts.ndim == 1:
        return backend.put(backend.copy(parts), rows, parts)
    # (rows of rows: each row's part found by its place among the parts, one gather of
    # the rows; every row is done once, so the places cover the parts. A write of rows at
    # their places costs ten times more on numpy)
    places = backend.put(backend.full((n,), 0, "i"), rows, backend.arange(n))
    return backend.take(parts, places)


def _take_reversed(reversed_, count, arg):
    """c#|x, the last c elements of each row in reverse order (the first -c of them, for a
    negative c), where they are in the row: only those reversed, not the whole row first."""
    entry = VERBS["#"]

    def take(run):
        x = arg(run)                # (the right operand first, as Klong evaluates them)
        c = count(run)
        r = _last_reversed(x.a, c) if type(x) is Rows and x.rank and type(c) is int \
            else None
        if r is None:
            r = reversed_(run)      # (x again: the body has no effects)
            return entry.batch_dyad(c, r, run.n) if type(r) is Rows or type(c) is Rows \
                else entry.dyad(c, r)
        return Rows.of(r)
    return take


def _last_reversed(a, c):
    """c#|x of each row of a (rows along its first axis), the integer c within the rows'
    length: a view of the last c columns read backwards (the first -c, for a negative c);
    None for any other c."""
    k = a.shape[1]
    if not 0 < abs(c) <= k:
        return None
    kept = a[:, k - c:] if c > 0 else a[:, :-c]
    return backends.running.backend.flip_each_row(kept)


def _sorted(descending, indexed, arg):
    """x@<x and x@>x: each row's elements in order. Which of two equal elements comes first
    is the grade's (ordering.py) but they are the same number, so the library's sort of
    each row gives the same elements, where equal means alike: not for a NaN (where it
    goes is the grade's), nor 0.0 beside -0.0 (which print apart). Rows of numpy's memory
    (torch's on the CPU); anything else: the body's own steps (`indexed`)."""
    def sort(run):
        x = arg(run)
        backend = backends.current()
        host = backend.on_host(x.a) if type(x) is Rows and x.rank == 1 else None
        if host is None or host.dtype.kind not in "if" or host.shape[1] == 0 \
                or host.dtype.kind == "f" and (HOST.any(host != host)
                                                or HOST.has_negative_zero(host)):
            return indexed(run)     # (x again: the body has no effects)
        r = HOST.array_module().sort(host, axis=1)
        return Rows.of(backend.from_host(r[:, ::-1] if descending else r))
    return sort


def _no_rule(x, n):
    raise Declined


def _count_where(where, arg):
    """#&x, how many positions Where gives for each row of counts: each row's sum of its
    counts (the positions themselves, a ragged list in general, are not made)."""
    size = VERBS["#"].monad

    def count(run):
        x = arg(run)
        if type(x) is not Rows or x.rank != 1:
            r = where(run)              # (x again: the body has no effects)
            return batching.size(r, run.n) if type(r) is Rows else size(r)
        return batching.count_where(x, run.n)
    return count


def _sum_of_products(plus_over, times, left, right):
    """+/x*w, each row x of reals times a plain vector w of its length (`{+/x*!#x}'m`) or a
    plain matrix w of as many rows (`{+/x*w}'m`): the loop multiplies each x@j by w@j and
    folds the products left to right (a row of at most SEQUENTIAL_ROWS: Backend.fold_reals).
    Here every product of every row at once and one fold along the rows: the same products
    and the same additions in the same order, so the loop's bits. The products (by a
    vector one per element, by a matrix p per element) laid out column by column (the j-th
    products of all rows side by side) and folded as columns (Backend.fold_columns),
    without the rows' products made and then moved, by numpy where the memory is its (a
    numpy array, a torch tensor on the CPU); elsewhere a vector's products where they are
    (Backend.fold_each_row). The sums are left as they lie. Being differentiated: rows_by.
    Anything else: the body's own steps (+/ of `times`)."""
    def fold(run):
        b = right(run)              # (the right operand first, as Klong evaluates them)
        a = left(run)
        row, w = (a, b) if type(a) is Rows else (b, a)
        if not (type(row) is Rows and type(w) is not Rows and row.rank == 1
                and values.is_array(w) and w.ndim <= 2 and w.shape[0] == row.a.shape[1]
                and row.a.shape[1] <= SEQUENTIAL_ROWS and "f" in (_kind(row), _kind(w))
                and {_kind(row), _kind(w)} <= {"i", "f"} and 0 not in tuple(w.shape)):
            # (the operands again: the body has no effects)
            return plus_over(_Run(times(run), run.reads, run.n))
        n = row.a.shape[0]
        limits.check_elements(n * limits.elements_of(w))    # (over the size guard: the loop)
        return Rows(rows_by(row.a, w))
    return fold


def rows_by(a, w):
    """+/x*w for each row x of a (n x k, as the loop pairs them: element j by w@j, w of k
    reals or a k x p matrix): the loop's products summed as the loop sums them; being
    differentiated, as the result of the library's matrix product, whose backward is two
    matrix products (the gradient's sums in the library's order), holding those sums.
    The loop of a traced Each takes this step too, for all rows (wholearray.dot)."""
    backend = backends.current()
    if backend.is_tracked(a) or backend.is_tracked(w):
        return backend.graph_holding(_product, _each_row_summed, a, w)
    return _products_summed(a, w)


def _product(a, w):
    backend = backends.current()
    return _reals(backend, a) @ _reals(backend, w)


def _each_row_summed(a, w):
    """The rows of a (n x k) each times w (k, or k x p), summed as the loop sums them: all
    the products, then each row's (Backend.fold_each_row), its k products of each column
    of w side by side. (A replay repeats these few steps, recorded as one, torch_capture.py:
    fewer calls than _products_summed's.)"""
    backend = backends.current()
    a, w = _reals(backend, a), _reals(backend, w)
    return backend.fold_each_row("+", a * w if w.ndim == 1 else a[:, :, None] * w)


def _products_summed(a, w):
    """The rows of a (n x k) each times w (k, or k x p), summed as the loop sums them."""
    backend = backends.current()
    n, k = a.shape
    rest = tuple(w.shape[1:])
    if w.ndim == 1 and backend.scans_rows:
        # the products of each row where they are, folded by the library's scan along the
        # rows: cheaper than numpy's copy of them into columns (torch's CPU memory). One
        # operand is real: the library converts the other's integers as it multiplies,
        # exactly as _reals would first (`!#x`: no conversion of its own)
        return backend.fold_each_row("+", a * w)
    # numpy's steps on the same memory where it may take them (torch's CPU memory): the
    # same bits, at a lower cost per call; by a matrix, the library's own products where
    # they cost less (its fold_columns then numpy's on the same memory)
    lib, x, v = HOST, backend.on_host(a), backend.on_host(w)
    if x is None or v is None or rest and backend.broadcasts_cheaply:
        if w.ndim == 1:     # the products of each row where they are: one per element
            return backend.fold_each_row("+", _reals(backend, a) * _reals(backend, w))
        lib, x, v = backend, a, w
    # (as the loop's reals; the columns of x, each laid out as one row: the products are
    # made where the fold reads them, not made row by row and then moved)
    x = lib.laid_out(lib.swap01(_reals(lib, x)))
    v = _reals(lib, v)
    if rest:
        # (by a matrix of p columns: the j-th products by its column q at q*n+i, each
        # inner loop of the library as long as the rows are many)
        products = v.reshape(k, rest[0], 1) * x.reshape(k, 1, n)
    elif lib is HOST and x.flags.owndata:
        # (x is the copy laid_out made: the products by a vector made in its place)
        products = HOST.array_module().multiply(v.reshape(k, 1), x, out=x)
    else:
        products = v.reshape(k, 1) * x
    sums = lib.fold_columns("+", products.reshape(k, -1))
    if rest:
        sums = lib.swap01(sums.reshape(rest + (n,)))      # (a view, as it lies)
    return sums if lib is backend else backend.from_host(sums)


def _reals(lib, a):
    """The numeric array a of the backend `lib` as reals (itself where it holds reals)."""
    return a if values.array_kind(a) == "f" else lib.astype(a, "f")


# the dyads whose every element is 0 or 1 (an integer): a sum of n of them is at most n
_TRUTHS = {"=", "<", ">"}


def _truths(plan):
    """Whether the plan's every element is 0 or 1: a comparison, or Min or Max of two such
    (`(x>-0.1)&x<0.1`)."""
    return plan[0] == "dyad" and (plan[1] in _TRUTHS or plan[1] in ("&", "|")
                                  and _truths(plan[2]) and _truths(plan[3]))


def _count_true(plus_over, arg):
    """+/ of a comparison (`+/b=x`): each row's sum of its 0s and 1s, which no row's
    length can take out of int64 (so no pass over them for their magnitude)."""
    return lambda run: _sum_of_truths(plus_over, arg(run), run)


def _sum_of_truths(plus_over, x, run):
    if type(x) is Rows and x.rank == 1 and values.array_kind(x.a) == "i":
        return Rows.of(x.a.sum(1))
    return plus_over(_Run(x, run.reads, run.n))     # (a number, rows of rows, ...)


# A tally of a vector's values is made where they span at most this many more values than
# the vector holds (the counts' vector is then no larger than a few times the vector)
_TALLY_SPAN = 1024


def _count_equal(plus_over, left, right):
    """+/a=b where one operand is a number in each row (an integer) and the other a plain
    integer vector, the same for every row (`{+/v=x}'!k`, a histogram): how often each
    row's number occurs in the vector, from one tally of the vector's values (one pass over
    it, not one per row); the counts the rows' sums of 0s and 1s give. Anything else: the
    comparison and _count_true's sums."""
    entry = VERBS["="]

    def count(run):
        b = right(run)              # (the right operand first, as Klong evaluates them)
        a = left(run)
        keys, pool = (a, b) if type(a) is Rows else (b, a)
        if type(keys) is Rows and type(pool) is not Rows:
            r = _tally(keys, pool, run.n)
            if r is not None:
                return r
        x = entry.batch_dyad(a, b, run.n) if type(keys) is Rows else entry.dyad(a, b)
        return _sum_of_truths(plus_over, x, run)
    return count


def _tally(keys, pool, n):
    """Rows of how often each row's number (keys: Rows of integers) occurs in the integer
    vector pool, or None where the tally does not apply (see _count_equal)."""
    if not (keys.rank == 0 and values.array_kind(keys.a) == "i" and values.is_array(pool)
            and pool.ndim == 1 and pool.shape[0] and values.array_kind(pool) == "i"):
        return None
    backend = backends.current()
    lo, hi = backend.bounds(pool)
    low, high = backend.bounds(keys.a)
    lo, hi = min(lo, low), max(hi, high)     # counted over the keys' values too
    span = hi - lo + 1
    if span > pool.shape[0] + n + _TALLY_SPAN:
        return None
    # (within int64: the span is small; every key is a place in the counts)
    counts = backend.occurrences(pool - lo if lo else pool, span)
    return Rows.of(backend.take(counts, keys.a - lo if lo else keys.a))


def _first_found(found, left, right, largest):
    """*x?c, the first place where each row of numbers x holds c (batching.first_found),
    without the others Find gives; anything else: * of the body's own Find. `largest`:
    c is |/x, each row's largest element."""
    def first(run):
        if largest:     # (c is |/x: x alone decides, where it settles it; no effects)
            x = left(run)
            if type(x) is Rows:
                places = batching.first_largest(x)
                if places is not None:
                    return places
        c = right(run)              # (the right operand first, as Klong evaluates them)
        x = left(run)
        if type(x) is Rows and x.rank == 1 and (type(c) is Rows or _rank(c) == 0):
            return batching.first_found(x, c, run.n, largest and type(c) is Rows)
        r = found(run)              # (the operands again: the body has no effects)
        return batching.first(r, run.n) if type(r) is Rows else VERBS["*"].monad(r)
    return first


def _last(reversed_, arg):
    """*|x, each row's last element, without reversing the rows first."""
    def last(run):
        x = arg(run)
        if type(x) is not Rows or x.rank == 0:
            return batching.first(reversed_(run), run.n) if type(x) is Rows \
                else VERBS["*"].monad(reversed_(run))       # (x again: no effects)
        return Rows.of(x.a[:, -1])
    return last


def _first_of_grade(descending, graded, arg):
    """*>x and *<x (the place of a row's largest or smallest element): where it is the only
    one in every row, it is what the library's argmax or argmin gives; where it is not, the
    grade (`graded`) decides which of them comes first, as it orders equal elements."""
    first = VERBS["*"].monad

    def fused(run):
        x = arg(run)
        if type(x) is not Rows or x.rank != 1:
            r = graded(run)             # (x again: the body has no effects)
            return batching.first(r, run.n) if type(r) is Rows else first(r)
        places, ties = backends.current().extreme_places(x.a, descending)
        if ties:        # (or a NaN, which the grade declines: where it goes is the library's)
            return batching.first(graded(run), run.n)
        return Rows.of(places)
    return fused


def _conditional(clauses, otherwise):
    """:[p;c;...;a]: a plain predicate picks a branch, as for each row; a predicate of one
    number per row evaluates every branch on every row and picks by mask."""
    def cond(run, start=0):
        for i in range(start, len(clauses)):
            predicate, consequent = clauses[i]
            p = predicate(run)
            if type(p) is Rows:
                return _select(run, p, consequent(run), cond(run, i + 1))
            if values.is_true(p):
                return consequent(run)
        return otherwise(run)
    return cond


def _select(run, p, chosen, other):
    mask = p.a
    if mask.ndim != 1:
        raise Declined          # a list as a predicate: the loop's rule, row by row
    t = type(chosen)
    if t is Rows and type(other) is Rows:
        # (the common case first, its tests made once: two Rows of one dtype and shape)
        a, b = chosen.a, other.a
        if a.dtype == b.dtype and a.shape == b.shape:
            if a.ndim > 1:
                mask = mask.reshape((run.n,) + (1,) * (a.ndim - 1))
            return Rows.of(backends.current().select_nonzero(mask, a, b),
                           batching._union(chosen.bounds, other.bounds))
    if t is type(other) and (t is float or t is int and limits.fits_int64(chosen)
                             and limits.fits_int64(other)):
        # two plain numbers of one kind (`:[(+/x)>0;1;-1]`): the library's choice of them
        # for each row, without each made a vector first
        return Rows.of(backends.current().select_nonzero(p.a, chosen, other))
    chosen = chosen.a if type(chosen) is Rows else _repeated(chosen, run.n)
    other = other.a if type(other) is Rows else _repeated(other, run.n)
    kind = values.array_kind(chosen)
    if kind != values.array_kind(other) or chosen.shape != other.shape:
        raise Declined          # a mixed list in the loop
    if chosen.ndim > 1:
        mask = mask.reshape((run.n,) + (1,) * (chosen.ndim - 1))
    # (the rows of one kind of number, chosen: Rows of that kind)
    return Rows.of(backends.current().select_nonzero(mask, chosen, other))
