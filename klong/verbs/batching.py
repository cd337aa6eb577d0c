"""Each over the rows of a matrix, evaluated once for all rows: the batching rules of the
verbs and adverbs, and the evaluator of a batched body (compiler/passes/batching.py decides
which bodies have one and writes their plan; both renderers make it into a function once,
with `compiled`, and call `each` with that).

While a batched body runs, a value is either `Rows` (one value per row, stacked: the batch
axis first; it may be a view of another, as a row's first element is: no rule writes into
an operand, and batched.each copies a result that shares memory with one) or a plain value,
the same for every row (a constant, a name read around the literal, the tally of a row).
A verb applied to plain values only is the verb itself, once; a verb applied to Rows is its
batching rule (the registry's `batch_monad`, `batch_dyad`; Over and Scan in ADVERBS below),
which gives what the verb gives on each row, stacked, or raises Declined.

The same answer or none: a rule declines (and `each` gives None, so that the loop runs)
wherever the loop's result could differ in a digit or an element type, and any failure at
all (an error a row would raise, a branch not taken that fails) ends the batched run the
same way: the loop then gives the error, as it would have. The checks the array verbs make
(integer magnitudes that could leave int64, mixed results) are made on the whole batch,
which is bounded by what each row has, so a batch passes only where every row would; where
a verb gives a mixed list instead of an array, the batch declines.
"""
import math

from .. import backends
from ..backends import HOST, arrays
from . import folds, ordering
from ..runtime import kinds, limits, values
from ..runtime.limits import magnitude
from ..errors import KlongError
from ..runtime.match import REAL_TOLERANCE
from ..runtime.values import MAX_DIMS
from ..backends.base import SEQUENTIAL_ROWS


_new = object.__new__


class Declined(Exception):
    """The batched evaluation gives no result for these rows: the loop runs."""


class Rows:
    """One value per row, stacked: `a` is a numeric array whose first axis is the batch.
    `bounds`: for integers, (least, largest) such that every element lies between them, where
    that is known without a scan (None where not): what the rules that make integer Rows from
    others know of their result (a comparison's 0 and 1, a sum of two such, a part of rows,
    the rows chosen from two), so that the checks of a batched body's later steps (exact
    integers, indices within a list, a dividend not negative) scan nothing where the bounds
    settle them: a While's steps carry them from one step to the next."""
    __slots__ = ("a", "bounds")

    def __init__(self, a):
        if not (values.is_array(a) and a.ndim and values.array_kind(a) in ("i", "f")):
            raise Declined      # a mixed list, an overflow to big integers, ...
        self.a = a
        self.bounds = None

    @classmethod
    def of(cls, a, bounds=None):
        """Rows of the numeric array a, known to be one (a part of Rows, the batch); the
        bounds of its integers where known."""
        r = _new(cls)           # (object.__new__ itself: a lookup of cls.__new__ costs more)
        r.a = a
        r.bounds = bounds
        return r

    @property
    def rank(self):
        """The rank of each row's value (0: a number)."""
        return self.a.ndim - 1


# integers below this convert to reals exactly (Python's int/int rounds once, the library's
# division converts first)
_EXACT = 2 ** 53


def _number(v):
    t = type(v)
    return t is int or t is float


def _rank(v):
    """The rank of a plain value a rule accepts: 0 for a number, its rank for a numeric
    array; anything else declines."""
    if _number(v):
        return 0
    if isinstance(v, arrays.ARRAY_TYPES) and values.array_kind(v) in ("i", "f"):
        if v.ndim:
            return v.ndim
        if backends.current().is_tracked(v):
            return 0        # a number being differentiated (a 0-d tensor): as a number
    raise Declined


def _kind(v):
    return values.array_kind(v.a) if isinstance(v, Rows) else kinds.kind(v)


def _bounds(v):
    """The bounds (Rows.bounds) of an operand: a plain integer's own, Rows' where known; None
    for anything else (a plain array: its magnitude may be remembered, limits.Limits)."""
    t = type(v)
    if t is Rows:
        return v.bounds
    if t is int:
        return v, v
    return None


def _union(p, q):
    """The bounds of values each within bounds p or q (None where either is unknown)."""
    if p is None or q is None:
        return None
    return min(p[0], q[0]), max(p[1], q[1])


def _sum_bounds(p, q):
    return p[0] + q[0], p[1] + q[1]


def _difference_bounds(p, q):
    return p[0] - q[1], p[1] - q[0]


def _product_bounds(p, q):
    ends = (p[0] * q[0], p[0] * q[1], p[1] * q[0], p[1] * q[1])
    return min(ends), max(ends)


def operand_magnitude(known, v):
    """An upper bound of |e| over the integers of an operand as it came (Rows, a plain
    integer or integer array): from Rows' bounds where known, else Limits.magnitude."""
    if type(v) is Rows:
        b = v.bounds
        if b is not None:
            return max(-b[0], b[1])
        v = v.a
    return known.magnitude(v)


def _stacked(v, n):
    """v as an operand of an array verb over the batch: Rows as they are, a number as it
    is (it pairs with every element), a plain array as the same row for every row (a view
    that the verbs read: what they give is a new array)."""
    if isinstance(v, Rows):
        return v.a
    if _rank(v) == 0:
        return v
    # (a view: Klong pairs the batch axes, and each row with this one, copied for none)
    limits.check_elements(n * limits.elements_of(v))     # (over the size guard: the loop)
    return backends.current().rows_of(v, n)


def _repeated(v, n):
    """The plain value v (a number or a numeric array) once for every row."""
    backend = backends.current()
    if _rank(v) == 0:
        return backend.full((n,), v, kinds.kind(v))
    limits.check_elements(n * limits.elements_of(v))     # (over the size guard: the loop)
    return backend.repeat(v.reshape((1,) + tuple(v.shape)), n)


def _small(v):
    """Whether every integer in v converts to a real exactly."""
    a = v.a if isinstance(v, Rows) else v
    if _kind(v) != "i":
        return True
    if isinstance(v, Rows) and v.bounds is not None and -_EXACT < v.bounds[0] \
            and v.bounds[1] < _EXACT:
        return True         # (settled by the bounds, without a scan)
    return (magnitude(a) if values.is_array(a) else abs(a)) < _EXACT


# ------------------------------------------------------------------ atomic verbs

# The loop applies a verb to two numbers (a row's sum and its tally, say) as Python does; the
# batch, as the library does. They agree for these verbs (IEEE operations on reals, exact
# integers checked by the array verbs); Divide and Reciprocal only while the integers convert
# exactly; the others (Power: the library's pow and Python's may differ in the last digit)
# are the verb itself on each row's Python numbers, as the loop calls it.
_NUMBER_SAFE = {"+", "-", "*", "<", ">", "=", "|", "&", "!", ":%", "_", "~"}


def _numbers(v, n):
    """The Python numbers of one number per row (Rows of rank 0, or a plain number)."""
    if isinstance(v, Rows):
        if backends.current().is_tracked(v.a):
            raise Declined      # (numbers read out would leave the gradient's graph)
        return v.a.tolist()
    return [v] * n


def _per_number(results):
    """The loop's results of a verb on each row's numbers, stacked: where they are all
    integers or all reals (else a mixed list, or :undefined: declined)."""
    if not all(type(r) is int for r in results) and not all(type(r) is float for r in results):
        raise Declined
    return Rows(values.make_list(results))


def atomic_monad(op, monad):
    """The batching rule of an atomic numeric monad: the monad on the whole batch; on one
    number per row, where the library could differ from Python, the monad itself on each
    row's number, as the loop calls it."""
    def rule(x, n):
        if x.rank == 0 and op not in _NUMBER_SAFE and not (op == "%" and _small(x)):
            return _per_number([monad(v) for v in _numbers(x, n)])
        return Rows(monad(x.a))
    return rule


def atomic_dyad(op, dyad):
    """The batching rule of an atomic numeric dyad: the dyad on the whole batch, a plain
    array operand repeated for every row (Klong pairs arrays along their first axis, so
    the batch axes pair, and then what each row pairs); ^ has a rule of its own (power)."""
    if op == "^":
        return power(dyad, _arrays(op, dyad))
    return _arrays(op, dyad)


def _arrays(op, dyad):
    real = _REAL_OPS.get(op)
    direct = _DIRECT.get(op)

    def rule(a, b, n):
        if real is not None:
            # reals of the rows and one real (`(+/x)%#x`, `x-0.5`): what the general steps
            # below come to, without them
            if type(a) is Rows and _exact_real(b) and values.array_kind(a.a) == "f":
                return Rows.of(real(a.a, float(b)))
            if type(b) is Rows and _exact_real(a) and values.array_kind(b.a) == "f":
                return Rows.of(real(float(a), b.a))
            # integers of the rows and one real (`1.0*x=!n`): made reals first, as the
            # verb's array form makes them (kinds.operands), then the same operation
            if op != "%" and type(b) is float and type(a) is Rows \
                    and values.array_kind(a.a) == "i":
                return Rows.of(real(backends.current().astype(a.a, "f"), b))
            if op != "%" and type(a) is float and type(b) is Rows \
                    and values.array_kind(b.a) == "i":
                return Rows.of(real(a, backends.current().astype(b.a, "f")))
            if type(a) is Rows and type(b) is Rows:
                pair = _real_rows(a.a, b.a, n)
                if pair is not None:
                    return Rows.of(real(*pair))
        if direct is not None:
            r = _direct(direct, a, b, n)
            if r is not None:
                return r
        ra = a.rank if isinstance(a, Rows) else _rank(a)
        rb = b.rank if isinstance(b, Rows) else _rank(b)
        if ra == 0 and rb == 0 and op not in _NUMBER_SAFE \
                and not (op == "%" and _small(a) and _small(b)):
            # the loop's own dyad on each row's two numbers (Python's a**b for ^, say)
            return _per_number([dyad(p, q) for p, q in zip(_numbers(a, n), _numbers(b, n))])
        if real is not None:
            pair = _real_pair(a, ra, b, rb)
            if pair is not None:
                return Rows.of(real(*pair))
        return Rows(dyad(_stacked(a, n), _stacked(b, n)))
    return rule


def _exact_real(v):
    """Whether v is a Python float, or an integer that converts to one exactly."""
    t = type(v)
    return t is float or t is int and -_EXACT < v < _EXACT


def _compared(op):
    def compare(x, y, kind, given):
        # (0s and 1s: their bounds go with them, and into Limits as the body's result,
        # batched._results)
        return Rows.of(backends.current().astype(op(x, y), "i"), _TRUTHS)
    return compare


_TRUTHS = (0, 1)


def _exactly(op, bound, bounds):
    """+ - * (op) on integers where no result can leave int64: known from the operands'
    bounds (`bounds`: the result's from theirs) where both are known, else from their
    magnitudes (`bound`: the result's magnitude from theirs)."""
    def arith(x, y, kind, given):
        if kind != "i":
            return Rows.of(op(x, y))
        p, q = _bounds(given[0]), _bounds(given[1])
        known = limits.current()
        b = None if p is None or q is None else bounds(p, q)
        if b is not None and max(-b[0], b[1]) <= limits.INT64_MAX:
            most = max(-b[0], b[1])
        else:       # (bounds not known, or too loose to settle it: the magnitudes)
            b = None
            most = bound(known.magnitude(given[0].a if type(given[0]) is Rows else given[0]),
                         known.magnitude(given[1].a if type(given[1]) is Rows else given[1]))
        if most > limits.INT64_MAX:
            return None         # (the verb's Python integers: the rule's own path declines)
        r = op(x, y)
        if b is None and math.prod(r.shape) >= limits.REMEMBERED:   # (else the bounds say it)
            known.remember(r, most)
        return Rows.of(r, b)
    return arith


def _integers(op, pick):
    """Max and Min of integers (of reals: which zero, which NaN they keep is the verb's); the
    result's bounds those of the operands' picked (`pick`: max or min) end by end."""
    def extreme(x, y, kind, given):
        if kind != "i":
            return None
        p, q = _bounds(given[0]), _bounds(given[1])
        return Rows.of(op(x, y), None if p is None or q is None
                       else (pick(p[0], q[0]), pick(p[1], q[1])))
    return extreme


def _naturals(op, bounded_by):
    """Integer-Divide and Remainder of integers none negative, by divisors none zero:
    truncated is floored there, and C's remainder Python's (else the verb's own steps).
    The result is at most the dividend (given[0]), a remainder below the divisor
    (given[1]): `bounded_by` says which; where that one's bound is known without a scan,
    the result's is remembered (`m+1` after `m::(+/x):%2` then scans nothing)."""
    def natural(x, y, kind, given):
        if kind != "i":
            return None
        p, q = _bounds(given[0]), _bounds(given[1])
        # (bounds that do not settle it, which may be loose: the operand scanned)
        if (p[0] if p is not None and p[0] >= 0 else _least(given[0])) < 0 \
                or (q[0] if q is not None and q[0] > 0 else _least(given[1])) <= 0:
            return None
        r = op(x, y)
        # (a quotient lies between the dividend's bounds' quotients by the divisor's; a
        # remainder is at most the dividend and below the divisor; every dividend is at
        # least 0, every divisor at least 1, whatever bounds that may be loose say)
        if bounded_by == 0:
            b = None if p is None or q is None else \
                (max(p[0], 0) // q[1], p[1] // max(q[0], 1))
        else:
            ends = [e for e in (p and p[1], q and q[1] - 1) if e is not None]
            b = (0, min(ends)) if ends else None
        if b is None and math.prod(r.shape) >= limits.REMEMBERED:   # (else the bounds say it)
            known = limits.current()
            v = given[bounded_by]
            bound = abs(v) if type(v) is int else \
                max(-v.bounds[0], v.bounds[1]) if type(v) is Rows and v.bounds is not None \
                else known.known(v.a if type(v) is Rows else v)
            if bound is not None:
                known.remember(r, bound)
        return Rows.of(r, b)
    return natural


def _least(v):
    if type(v) is Rows:
        v = v.a
    return int(v.min()) if values.is_array(v) else v


# the verbs a rule applies straight to operands of one kind (integers or reals), as their
# array forms do (atomic.py: a comparison's 0s and 1s, + - * exact on integers where the
# operands' magnitudes allow, the library's operation on reals), without the verb's
# dispatch: comparisons of an integer and a real (Python's exact comparison), and anything
# else, take the rule's general path
_DIRECT = {"<": _compared(lambda x, y: x < y), ">": _compared(lambda x, y: x > y),
           "=": _compared(lambda x, y: x == y),
           "+": _exactly(lambda x, y: x + y, lambda p, q: p + q, _sum_bounds),
           "-": _exactly(lambda x, y: x - y, lambda p, q: p + q, _difference_bounds),
           "*": _exactly(lambda x, y: x * y, lambda p, q: p * q, _product_bounds),
           ":%": _naturals(lambda x, y: x // y, 0), "!": _naturals(lambda x, y: x % y, 1),
           "|": _integers(lambda x, y: backends.current().maximum(x, y), max),
           "&": _integers(lambda x, y: backends.current().minimum(x, y), min)}
DIRECT = _DIRECT            # (batched.py applies them first, before the rule's other steps)


def _direct(fn, a, b, n):
    """fn on the operands a and b (Rows, or plain numbers or numeric arrays) of one kind
    of number, paired as Klong pairs each row's (along the first axes: the lower rank
    given trailing unit axes; a plain array a unit axis for the batch), or None."""
    if type(a) is Rows:
        r = direct_rows(fn, a, b, n, True)
        if r is not _UNSETTLED:
            return r
    elif type(b) is Rows:
        r = direct_rows(fn, b, a, n, False)
        if r is not _UNSETTLED:
            return r
    pa = _direct_operand(a, n)
    if pa is None:
        return None
    pb = _direct_operand(b, n)
    if pb is None:
        return None
    x, kind, rx = pa
    y, k, ry = pb
    if k != kind:
        # a plain integer beside reals, as the real it converts to exactly (`(+/x)>0`):
        # Python's exact comparison and arithmetic of a real and such an integer agree
        if kind == "f" and type(y) is int and -_EXACT < y < _EXACT:
            y = float(y)
        elif k == "f" and type(x) is int and -_EXACT < x < _EXACT:
            x, kind = float(x), "f"
        else:
            return None
    if rx and ry:
        common = min(rx, ry)
        if tuple(x.shape[1:1 + common]) != tuple(y.shape[1:1 + common]):
            return None         # lists of different lengths: the loop's error
    if rx < ry and values.is_array(x):
        x = x.reshape(tuple(x.shape) + (1,) * (ry - rx))
    elif ry < rx and values.is_array(y):
        y = y.reshape(tuple(y.shape) + (1,) * (rx - ry))
    # the operands as they came (Rows' bounds, a plain array's magnitude may be known):
    # the result's Rows, or None
    return fn(x, y, kind, (a, b))


_UNSETTLED = object()        # (direct_rows: the general steps decide)
_dtype_kind = arrays.dtype_kind


def direct_rows(fn, rows, v, n, left):
    """_direct's usual cases in fewer steps (a batched body of a small batch makes many
    such calls, each worth a few numpy operations): Rows x beside Rows, a number or a
    plain array v of its kind, either where it pairs with no reshaping of x (of one shape,
    of the same rank) or where x or Rows v holds one number per row; x (the array of Rows
    `rows`) is the left operand where `left`. The same result as _direct's general steps
    (Rows, or None), or _UNSETTLED where they decide."""
    x = rows.a
    kind = _dtype_kind(x.dtype)
    if kind is None:
        return _UNSETTLED
    gx = rows                       # (the operands as they came: see _direct)
    t = type(v)
    if t is Rows:
        y = v.a
        given = v
        if _dtype_kind(y.dtype) != kind:
            return _UNSETTLED
        if y.shape != x.shape:
            # one number per row beside each row's array (`x-(+/x)%#x`): the number
            # paired with every element of its row's, as the general steps pair them
            if y.ndim == 1:
                y = y.reshape((n,) + (1,) * (x.ndim - 1))
            elif x.ndim == 1:
                x = x.reshape((n,) + (1,) * (y.ndim - 1))
            else:
                return _UNSETTLED
    elif t is int:
        if kind != "i" or not limits.INT64_MIN <= v <= limits.INT64_MAX:
            return _UNSETTLED
        y = given = v
    elif t is float:
        if kind != "f":
            return _UNSETTLED
        y = given = v
    elif t is type(x) and v.ndim and _dtype_kind(v.dtype) == kind:
        shape = v.shape
        if x.ndim == 1:             # a number per row against each row's array
            # (paired with every row: the result's size against the guard, as _stacked;
            # beside rows of its shape, the result is no larger than they are)
            limits.check_elements(n * math.prod(shape))
            x = x.reshape((n,) + (1,) * len(shape))
        elif x.shape[1:] != shape:
            return _UNSETTLED
        given, y = v, v.reshape((1,) + tuple(shape))
    else:
        return _UNSETTLED
    return fn(x, y, kind, (gx, given)) if left else fn(y, x, kind, (given, gx))


def _direct_operand(v, n):
    """For _direct: (the operand as the library combines it, its kind, the rank of each
    row's value), or None where it is not a number or numeric array of int64 or reals."""
    t = type(v)
    if t is Rows:
        x = v.a
        return x, values.array_kind(x), x.ndim - 1
    if t is int:
        return (v, "i", 0) if limits.fits_int64(v) else None
    if t is float:
        return v, "f", 0
    if values.is_array(v):
        k = values.array_kind(v)
        if k == "i" or k == "f":
            # (paired with every row: the result's size against the guard, as _stacked)
            limits.check_elements(n * limits.elements_of(v))
            return v.reshape((1,) + tuple(v.shape)), k, v.ndim
    return None


def _divide(x, y):
    if (backends.current().any_zero(y) if values.is_array(y) else y == 0):
        raise Declined          # :undefined in the loop: a mixed list
    return backends.current().divide(x, y)


# the verbs that are one IEEE operation of the library on reals, as the verb computes them
# (Divide by Backend.divide, correctly rounded), so that the batch may apply it directly
_REAL_OPS = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
             "%": _divide}


def _real_rows(x, y, n):
    """_real_pair's common case in fewer steps: the reals of two Rows of one shape, or one
    number per row beside each row's array (`x%+/x`), given trailing unit axes; None
    elsewhere (the general steps decide)."""
    if _dtype_kind(x.dtype) != "f" or _dtype_kind(y.dtype) != "f":
        return None
    if x.shape == y.shape:
        return x, y
    if y.ndim == 1:
        return x, y.reshape((n,) + (1,) * (x.ndim - 1))
    if x.ndim == 1:
        return x.reshape((n,) + (1,) * (y.ndim - 1)), y
    return None


def _real_pair(a, ra, b, rb):
    """a and b, reals both (Rows, a Python float, a plain real array), as the library's
    operands that pair their elements as Klong pairs each row's (along the first axes: the
    lower rank given trailing unit axes; a plain array a unit axis for the batch), without
    repeating a plain array for every row; None where one is not real."""
    rank = max(ra, rb)
    shapes, parts = [], []
    for v, r in ((a, ra), (b, rb)):
        if isinstance(v, Rows):
            x = v.a
            if values.array_kind(x) != "f":
                return None
            shapes.append(tuple(x.shape[1:]))
            if r < rank:
                x = x.reshape(tuple(x.shape) + (1,) * (rank - r))
        elif type(v) is float:
            x = v
        elif r and values.array_kind(v) == "f":
            shapes.append(tuple(v.shape))
            x = v.reshape((1,) + tuple(v.shape) + (1,) * (rank - r))
        else:
            return None
        parts.append(x)
    if len(shapes) == 2:
        common = min(len(shapes[0]), len(shapes[1]))
        if shapes[0][:common] != shapes[1][:common]:
            raise Declined          # lists of different lengths: the loop's error
    return parts


# the integer powers that the library computes as products (torch's x*x, x*x*x), of one
# number or of a batch alike (batched.py's differentiated bodies may hold them)
GRAPH_POWERS = (2, 3)


def power(dyad, arrays):
    """The batching rule of ^: on arrays, the verb on the whole batch, as atomic_dyad; on one
    number per row, as the loop computes each row's a^b: integers by the verb on the whole
    batch (exact, or declined by Rows where they leave int64); a real a or b by C's pow for
    every element (Backend.pow_each_normal), as Python's a**b calls it, where the verb's own
    Python steps would give the same: no real result where Klong gives :undefined (a
    negative base, a fractional exponent; zero to a negative power), nothing outside the
    normal reals (Python's range errors). An integer exponent 0 (the integer 1) or below (1
    divided by the power): the verb on each row's numbers. A real to an integer power where
    Each traces (torch): declined, as the loop then traces. `arrays`: the rule of atomic
    dyads."""

    def rule(a, b, n):
        ra = a.rank if isinstance(a, Rows) else _rank(a)
        rb = b.rank if isinstance(b, Rows) else _rank(b)
        if ra or rb or _kind(a) == "i" and _kind(b) == "i":
            return Rows(dyad(_stacked(a, n), _stacked(b, n))) if ra == rb == 0 \
                else arrays(a, b, n)
        x, y = _stacked(a, n), _stacked(b, n)
        backend = backends.current()
        if _kind(b) == "i":
            if (int(y.min()) if values.is_array(y) else y) <= 0:
                # the integer 1, or 1 divided by a power: the verb on each row's numbers
                return _per_number([dyad(p, q) for p, q in zip(_numbers(a, n), _numbers(b, n))])
            if type(backend).vmap is not backends.Backend.vmap:
                # where Each traces (torch), the loop's trace raises a batch of reals to an
                # integer power with the library's power (x*x*x for 3), not C's pow: the
                # same for reals being differentiated (each row's power is the library's
                # there), where the power is products (GRAPH_POWERS)
                if type(b) is int and b in GRAPH_POWERS and backend.is_tracked(x):
                    return Rows(backend.power(x, b))
                raise Declined
        r = backend.pow_each_normal(x, y)
        if r is None:
            raise Declined
        return Rows(r)
    return rule


# ------------------------------------------------------------------ structural verbs

def first(x, n):
    """*x: each row's first element (a number row is its own first)."""
    if x.rank == 0:
        return x
    if x.a.shape[1] == 0:
        raise Declined
    return Rows.of(x.a[:, 0], x.bounds)     # (a view: batched.each copies a result that is one)


def reverse(x, n):
    """|x: each row reversed."""
    if x.rank == 0:
        return x
    # (on numpy a view of the rows, read backwards: Klong's values are never written)
    return Rows.of(backends.current().flip_each_row(x.a))


def size(x, n):
    """#x: the length of a row, the same for every row."""
    if x.rank == 0:
        raise Declined      # the magnitude of each number: not batched yet
    return x.a.shape[1]


def at(a, b, n):
    """x@i: each row indexed by the plain integer i, or a plain vector of them, or by its
    own integer (or vector of integers) i (as `x@<x` indexes each row by its grade); a
    plain list of numbers indexed by each row's integer, or vector of them (`v@m`)."""
    if type(a) is not Rows:
        return _at_plain(a, b)
    x = a.a
    if x.ndim == 1:
        raise Declined
    k = x.shape[1]
    if type(b) is int:          # (the common case first: a column)
        if not 0 <= b < k:
            raise Declined      # (out of range: the loop's error)
        return Rows.of(x[:, b], a.bounds)
    if type(b) is Rows:
        return _at_rows(a, b, n, k)
    if values.is_array(b) and b.ndim == 1 and b.shape[0] and values.array_kind(b) == "i" \
            and 0 <= int(b.min()) and int(b.max()) < k:
        return Rows(a.a[:, b])
    raise Declined


def _at_plain(a, b):
    """The plain array a (the same for every row) indexed by each row's integers b: its
    elements (or rows) at them, gathered for all rows at once."""
    if not (type(b) is Rows and values.is_array(a) and b.a.ndim <= 2
            and values.array_kind(a) in ("i", "f") and values.array_kind(b.a) == "i"):
        raise Declined
    i = b.a
    if i.ndim == 2 and i.shape[1] == 0:
        raise Declined          # (an empty index: the loop)
    backend = backends.current()
    known = b.bounds            # (what they do not settle is scanned: they may be loose)
    if known is None or known[0] < 0:
        known = b.bounds = backend.bounds(i)    # (both ends at once: one pass on torch)
    elif known[1] >= a.shape[0]:
        known = b.bounds = known[0], int(i.max())   # (the largest only: the least is known)
    lo, hi = known
    if lo < 0 or hi >= a.shape[0]:
        raise Declined          # (an index out of range: the loop's error)
    if a.ndim > 1:              # (rows of a matrix for each index: the size guard)
        limits.check_elements(limits.elements_of(i) * limits.elements_of(a[0]))
    # (a's elements, of its kind of number, as many as i's, so at least one: Rows)
    return Rows.of(backend.take(a, i))


def _at_rows(a, b, n, k):
    """Each row of numbers a indexed by the same row's integers b: a gather from the flat
    batch, each row's positions offset by where its row starts."""
    i = b.a
    if a.rank != 1 or b.rank > 1 or values.array_kind(i) != "i" \
            or b.rank == 1 and i.shape[1] == 0:
        raise Declined          # (an index out of range, an empty index: the loop)
    if int(i.min()) < 0 or int(i.max()) >= k:
        raise Declined
    backend = backends.current()
    start = (backend.arange(n) * k).reshape((n,) + (1,) * b.rank)
    return Rows(backend.take(a.a.reshape(-1), i + start))


def take(a, b, n):
    """c#x: the first c (or last -c) elements of each row, a plain integer count c; more
    than a row holds cycles through it, as the loop does."""
    if type(a) is not int or not isinstance(b, Rows) or b.rank == 0 or a == 0:
        raise Declined          # (0#x is an empty row; an atom or a real count: an error)
    backend = backends.current()
    k = b.a.shape[1]
    if 0 < a <= k:
        return Rows.of(b.a[:, :a])
    if -k <= a < 0:
        return Rows.of(b.a[:, k + a:])
    limits.check_elements(n * abs(a) * limits.elements_of(b.a[0]) // k)
    start = 0 if a > 0 else k + a
    positions = (backend.arange(abs(a)) + start) % k
    return Rows(backend.swap01(backend.take(backend.swap01(b.a), positions)))


def drop(a, b, n):
    """c_x: each row without its first c (or last -c) elements, a plain integer count c."""
    if type(a) is not int or not isinstance(b, Rows) or b.rank == 0:
        raise Declined
    k = b.a.shape[1]
    kept = b.a[:, a:] if a >= 0 else b.a[:, :max(k + a, 0)]
    return Rows.of(kept)


def rotate(a, b, n):
    """c:+x: each row rotated by the plain integer c (a number row is its own rotation,
    whatever c is)."""
    if not isinstance(b, Rows) or isinstance(a, Rows):
        raise Declined
    if b.rank == 0:
        return b
    if type(a) is not int:
        raise Declined          # a real count: the loop's error
    r = a % b.a.shape[1]
    if r == 0:
        return b
    # the last r elements of each row, then the others (a new array)
    k = b.a.shape[1]
    return Rows(backends.current().concat_each_row((b.a[:, k - r:], b.a[:, :k - r])))


def where(x, n):
    """&x: the positions of each row of counts (each i repeated x@i times), only where every
    row gives as many of them, and some (else a ragged result: the loop; #&x is counted
    without them, count_where)."""
    counts = _counts(x)
    m = int(counts[0])
    if m == 0 or backends.current().any(counts != m):
        raise Declined
    backend = backends.current()
    a = x.a.reshape(-1)
    k = x.a.shape[1]
    if int(a.max()) <= 1:
        positions = backend.where(a)        # a mask: its positions, as the verb takes them
    else:
        positions = backend.repeat(backend.arange(n * k), a)
    return Rows(positions.reshape(n, m) % k)


def count_where(x, n):
    """#&x for Rows x: each row's sum of its counts, where the loop's Where would give
    their positions (non-negative integer counts, within the size the loop may make)."""
    return Rows(_counts(x))


def _counts(x):
    """The number of positions Where gives for each row of counts x (Rows of rank 1)."""
    if x.rank != 1 or values.array_kind(x.a) != "i" or x.a.shape[1] == 0:
        raise Declined          # a number, rows of rows, reals, empty rows: the loop
    backend = backends.current()
    if int(x.a.min()) < 0:
        raise Declined          # the loop's error
    counts = _int_sums(x.a)
    if not values.is_array(counts) or values.array_kind(counts) != "i":
        raise Declined          # sums beyond int64
    if int(x.a.max()) > 1:
        limits.check_elements(int(counts.max()))    # the loop's limit, or its error
    return counts


def shape(x, n):
    """^x: the shape of a row, the same for every row (the verb on the first row)."""
    from .structural import shape as shape_of
    return shape_of(x.a[0]) if x.rank else 0


def find(a, b, n):
    """x?c: the positions in each row of numbers where a number (plain, or one per row)
    matches; only where every row has as many of them, and some."""
    hits = _hits(a, b, n)
    backend = backends.current()
    counts = backend.astype(hits, "i").sum(1)
    m = int(counts[0])
    if m == 0 or backend.any(counts != m):
        raise Declined          # rows with no match, or different counts: a ragged result
    # every row has m: the hits in row-major order are each row's, in order
    return Rows((backend.where(hits.reshape(-1)) % a.a.shape[1]).reshape(n, m))


def first_found(a, b, n, largest=False):
    """*x?c: the first position in each row of numbers where a number (plain, or one per
    row) matches, where every row has one (`{*x?|/x}`: the place of the row's largest);
    the other positions Find gives are not made. `largest`: c is each row's |/."""
    backend = backends.current()
    k = a.a.shape[1] if isinstance(a, Rows) else 0
    places = _first_near(a, b, n, k, largest)
    if places is not None:
        return Rows(places)
    found = backend.astype(_hits(a, b, n), "i")
    places = found.argmax(1)            # (the first of the largest: the first match)
    if not backend.all(backend.take(found.reshape(-1), places + backend.arange(n) * k)):
        raise Declined          # a row without a match: the loop's empty list
    return Rows(places)


def first_largest(x):
    """*x?|/x for Rows x of numbers, from x alone (where that settles it; else None): the
    place of each row's largest element, its first as argmax gives it. Integers match
    exactly, so the first of the largest is the first match. Reals match within Match's
    tolerance: an element that matches the largest c is at least c-4*tol*|c| (see
    _first_near), so where in every row the largest is the only element that near (c
    finite; no tie, no 0.0 beside -0.0; no -inf, which is within the tolerance of any
    finite c), it is the only match (one column: its element, +inf too). Rows of numpy's
    memory (torch's on the CPU) only."""
    a = x.a
    if a.ndim != 2 or a.shape[1] == 0:
        return None
    backend = backends.current()
    host = backend.on_host(a)
    if host is None or host.dtype.kind not in "if":
        return None
    n, k = host.shape
    places = host.argmax(1)
    if host.dtype.kind == "f":
        if not host.min() > float("-inf"):
            return None         # a NaN, or -inf (within Match's tolerance of any finite c)
        library = HOST.array_module()
        c = host.reshape(-1).take(places + library.arange(0, n * k, k))
        with HOST.quiet():      # (torch's rows too: inf-inf is NaN, silently)
            near = c - abs(c) * (4 * REAL_TOLERANCE)
        # each row's other k-1 elements below near (an infinite c makes near NaN, which
        # nothing is below): else some row has another element that near its largest
        if library.count_nonzero(host.reshape(-1) < near.repeat(k)) != n * (k - 1):
            return None
    return Rows.of(backend.from_host(places.astype("int64", copy=False)))


def _first_near(a, b, n, k, largest):
    """first_found where a row of reals or c is real, in fewer steps than Match's test of
    every element: an element within Match's tolerance of c is within 2*tol*|c| of it
    (a finite c and row: tol*max(|a|,|c|) is at most that), so where the first element of
    each row that near to c does match c, it is the first match (where no element is near,
    the first element: the first match if it is one). None where that does not settle it
    (an infinity or NaN, a near element that does not match: Match's test). Where c is the
    row's largest element, near is at least c-4*tol*|c| (room for the rounding of c-x)."""
    if not (isinstance(a, Rows) and a.rank == 1) or _kind(a) == "i" and _kind(b) == "i":
        return None
    if isinstance(b, Rows):
        if b.rank != 0:
            return None
        c = b.a.reshape(n, 1)
    elif _number(b) and -2 ** 63 <= b < 2 ** 63:
        c = float(b)
    else:
        return None
    backend = backends.current()
    x = backend.astype(a.a, "f") if _kind(a) == "i" else a.a
    if values.is_array(c) and _kind(b) == "i":
        c = backend.astype(c, "f")
    # numpy's steps on the same memory where it may take them (torch's CPU memory): the
    # same bits, in a fraction of the time on such small arrays
    host_x, host_c = backend.on_host(x), backend.on_host(c) if values.is_array(c) else c
    if host_x is not None and host_c is not None:
        places = _near_places(backends.HOST, host_x, host_c, n, k, largest)
        return None if places is None else backend.from_host(places)
    return _near_places(backend, x, c, n, k, largest)


def _near_places(backend, x, c, n, k, largest):
    """_first_near's steps on reals x and c of `backend`."""
    with backend.quiet():
        if largest:
            if not x.min() > float("-inf"):
                return None     # a NaN, or -inf (within Match's tolerance of any finite c)
            near = x >= c - abs(c) * (4 * REAL_TOLERANCE)
        else:
            d = abs(x - c)
            if not d.max() < float("inf"):
                return None     # an infinity or NaN in a row or in c
            near = d <= abs(c) * (2 * REAL_TOLERANCE)
        places = backend.first_true_each_row(near)
        first = backend.take(x.reshape(-1), places + backend.arange(n) * k)
        if not backend.all(backend.close(first, c.reshape(-1) if values.is_array(c) else c,
                                         REAL_TOLERANCE)):
            return None
    return places


def _hits(a, b, n):
    """Whether each element of each row of numbers a matches the number b (plain, or one
    per row) as Find compares them: integers exactly, reals within Match's tolerance."""
    if not isinstance(a, Rows) or a.rank != 1:
        raise Declined
    if isinstance(b, Rows):
        if b.rank != 0:
            raise Declined
        c = b.a.reshape(n, 1)
    elif _number(b):
        if type(b) is int and not -2 ** 63 <= b < 2 ** 63:
            raise Declined      # beyond 64 bits: the loop finds nothing
        c = b
    else:
        raise Declined
    backend = backends.current()
    if _kind(a) == "i" and _kind(b) == "i":
        return a.a == c
    with backend.quiet():
        return backend.close(backend.astype(a.a, "f"),
                             backend.astype(c, "f") if values.is_array(c) else float(c),
                             REAL_TOLERANCE)


def grade(descending):
    """<x, >x: the order of each row of numbers, as Grade orders one (ordering.py): the
    library's sort where a row's elements are distinct (there is one order), and where some
    are equal the reference's Shell sort, which puts them in an order of its own, made for
    all such rows at once (_shell_rows)."""
    def rule(x, n):
        if x.rank != 1:
            raise Declined          # a number: the loop's error; rows of rows: not yet
        backend = backends.current()
        a = x.a
        if values.array_kind(a) == "f" and backend.any(a != a):
            raise Declined          # where a NaN goes is the library's choice
        k = a.shape[1]
        s, ascending = backend.order_each_row(a)
        same = s[:, 1:] == s[:, :-1]        # where a sorted row holds two equal elements
        order = backend.swap01(backend.flip(backend.swap01(ascending))) if descending \
            else ascending
        if not backend.any(same):
            return Rows(order)
        if k > _SHELL_WIDTH:
            raise Declined
        held = backend.full((n,), 0, "i")
        backend.put(held, backend.where(same.reshape(-1)) // (k - 1), 1)
        tied = backend.where(held)          # the rows that hold equal elements
        m = tied.shape[0]
        # the rank of each element of a tied row: 0, 1, ... as its sorted row goes up
        # (equal elements, equal ranks), put back in the element's place
        up = 1 - backend.astype(backend.take(same, tied), "i")
        ranked = backend.concat_each_row((backend.full((m, 1), 0, "i"),
                                          backend.accumulate_each_row("+", up)))
        if descending:
            ranked = (k - 1) - ranked
        ranks = backend.full((m * k,), 0, "i")
        starts = backend.arange(m).reshape(m, 1) * k
        backend.put(ranks, (backend.take(ascending, tied) + starts).reshape(-1),
                    ranked.reshape(-1))
        result = backend.copy(order).reshape(-1)        # (fresh: written below)
        places = (tied.reshape(m, 1) * k + backend.arange(k).reshape(1, k)).reshape(-1)
        backend.put(result, places, _shell_rows(backend, ranks.reshape(m, k)).reshape(-1))
        return Rows(result.reshape(n, k))
    return rule


_SHELL_WIDTH = 1 << 15      # (_shell_rows's four fields of a row's key in 60 bits)


def _shell_rows(backend, ranks):
    """ordering._shell_order for every row of ranks (m rows of k ranks, each below k) at
    once. A pass with gap g sorts each chain of places i, i+g, i+2g, ... of a row by (rank,
    the reversed place in the chain): one sort of every row by the key (chain, rank,
    reversed place, position), which lays each row out chain after chain (chain c starts
    after the c chains before it, of k//g elements and one more for the first k%g); the
    position (its element's place in the row) comes back from the key's low bits, and the
    rank with it, for the next pass. The rows stay as the sort laid them out: `slots` says
    which place each column holds (the last pass, gap 1, lays them out in order)."""
    m, k = ranks.shape
    b = max(1, (k - 1).bit_length())        # bits for each field: all are below k
    position = (1 << b) - 1
    kept = (position << 2 * b) | position   # the rank and position of a key
    column = backend.arange(k)
    item, slots = ranks * (1 << 2 * b) + column, column
    gap = ordering._fix_gap(k // 2)
    while gap > 0:
        chain, place = slots % gap, slots // gap
        item = backend.sort_each_row(item + (chain * (1 << 3 * b) + (k - 1 - place) * (1 << b)))
        item = item & kept
        # the column of each place after the sort: its chain's start, plus its place in it
        chain, place = column % gap, column // gap
        sorted_at = chain * (k // gap) + backend.minimum(chain, k % gap) + place
        slots = backend.put(backend.full((k,), 0, "i"), sorted_at, column)
        gap = ordering._fix_gap(gap // 2)
    return item & position


def join(a, b, n):
    """x,y: a row of numbers joined to a number or a row of numbers of its kind, either of
    them possibly the same for every row (`v,:\\u`: a plain vector joined to each number)."""
    if type(a) is Rows and type(b) is Rows:
        # (the common case first, each of its tests made once: two Rows of one dtype,
        # numbers or vectors)
        x, y = a.a, b.a
        if x.ndim <= 2 and y.ndim <= 2 and x.dtype == y.dtype:
            return Rows.of(backends.current().concat_each_row(
                [x.reshape(n, 1) if x.ndim == 1 else x, y.reshape(n, 1) if y.ndim == 1 else y]),
                _union(a.bounds, b.bounds))
    if _kind(a) != _kind(b) or _kind(a) not in ("i", "f"):
        raise Declined
    backend = backends.current()
    parts = []
    for v in (a, b):
        if isinstance(v, Rows):
            if v.rank > 1:
                raise Declined
            parts.append(v.a.reshape(n, 1) if v.rank == 0 else v.a)
        elif _number(v):
            parts.append(backend.full((n, 1), v, _kind(v)))
        elif values.is_array(v) and v.ndim == 1 and v.shape[0]:
            parts.append(_stacked(v, n))    # a plain vector, the same in every row
        else:
            raise Declined
    r = Rows(backend.concat_each_row(parts))
    r.bounds = _union(_bounds(a), _bounds(b))       # (a plain vector's: not known)
    return r


def joined_each(fixed, each, before):
    """fixed,:\\each (`before`: fixed first in every row) or each,:/fixed, `fixed` a plain
    non-empty vector and `each` a non-empty vector of numbers of its kind: fixed joined to
    each number, one row for each, as one matrix (the loop's joins, stacked), at any
    length (x,:\\&m in a search: one or two numbers mostly); None for anything else, or
    over the size guard (the loop, which says so)."""
    if not (values.is_array(fixed) and fixed.ndim == 1 and fixed.shape[0]
            and values.is_array(each) and each.ndim == 1 and each.shape[0]):
        return None
    kind = values.array_kind(each)
    if kind not in ("i", "f") or values.array_kind(fixed) != kind:
        return None
    m = each.shape[0]
    try:
        limits.check_elements(m * (fixed.shape[0] + 1))
    except KlongError:
        return None
    backend = backends.current()
    column, rows = each.reshape(m, 1), backend.rows_of(fixed, m)
    return backend.concat_each_row([rows, column] if before else [column, rows])


def match(a, b, n):
    """x~y: whether each row's value matches the other's, as Match (runtime/match.py) says:
    numbers and arrays of one shape element by element, reals within its tolerance; a
    number never matches an array, nor arrays of two shapes."""
    ra = a.rank if isinstance(a, Rows) else _rank(a)
    rb = b.rank if isinstance(b, Rows) else _rank(b)
    if (ra == 0) != (rb == 0):
        return 0
    x, y = _stacked(a, n), _stacked(b, n)
    if ra and tuple(x.shape[1:]) != tuple(y.shape[1:]):
        return 0
    ka, kb = _kind(a), _kind(b)
    if ra == 0 and ka != kb and not (_small(a) and _small(b)):
        raise Declined          # Python compares an integer and a real exactly
    backend = backends.current()
    if "f" in (ka, kb):
        same = backend.close(x, y, REAL_TOLERANCE)
    else:
        same = x == y
    same = backend.astype(same.reshape(n, -1), "i")
    if same.shape[1] == 0:
        raise Declined
    return Rows(folds.fold("&", backend.swap01(same)))


# ------------------------------------------------------------------ adverbs

def _negative_zero(a):
    """Whether the real array a holds a -0.0: a max or min of 0.0 and -0.0 keeps either,
    and the library may keep another one than the loop (of zeros all 0.0, any is the same)."""
    return backends.current().has_negative_zero(a)


def _fast_fold(op, a):
    """op/ along each row of the batch a (rows of one or more elements): the loop's own
    fold (folds.fold) along the first axis of the columns, which makes the same steps, in
    the same order, for every row at once; a sum or product of rows of reals short enough
    to be folded left to right, by the backend's fold along the rows (the same steps)."""
    real = values.array_kind(a) == "f"
    backend = backends.current()
    if real and op in ("+", "*") and a.shape[1] <= SEQUENTIAL_ROWS:
        return backend.fold_each_row(op, a)
    if op in ("|", "&"):
        r = backend.extreme_each_row(a, op == "|")
        # which zero (0.0 or -0.0) a max keeps may differ from the loop's: it matters only
        # where some row's extreme is a zero (the few results looked at first, not every
        # element of the rows)
        if real and not backend.all(r) and _negative_zero(a):
            raise Declined
        return r
    return folds.fold(op, backend.swap01(a))


def _int_sums(a, bounds=None):
    """+/ of each row of the integer batch a, along its own axis: integer sums are exact in
    any order (the library's, where none can leave int64; else the loop's Python integers,
    folds.fold), and a row's elements lie side by side (a fold down the columns of a few
    long rows costs several times more). `bounds`: a's (Rows.bounds), where known."""
    if a.ndim == 2:
        k = a.shape[1]
        most = k * (magnitude(a) if bounds is None else max(-bounds[0], bounds[1]))
        if most <= limits.INT64_MAX:
            # (a pair's sums, an interval's ends, say: one addition of its two columns,
            # a third of a sum along the rows' cost on a small batch)
            r = a[:, 0] + a[:, 1] if k == 2 else a.sum(1)
            if bounds is None and r.shape[0] >= limits.REMEMBERED:
                limits.current().remember(r, most)      # (what an operation on it reads)
            return r
    return folds.fold("+", backends.current().swap01(a))


def over(op, dyad):
    """op/x along each row: +/ */ |/ &/ as the loop folds them (folds.fold, which for reals
    is Backend.fold_reals, the same steps for each column as for one row); -/ left to right,
    column by column, as the loop folds it."""
    summed = op in ("+", "*")

    def rule(x, n):
        a = x.a
        shape = a.shape
        if len(shape) == 1:
            return x                # a number is its own fold
        k = shape[1]
        if k == 0:
            raise Declined
        if summed and k <= SEQUENTIAL_ROWS and _dtype_kind(a.dtype) == "f":
            # (_fast_fold's common case first: rows of reals a row of Each folds left
            # to right, one kind asked once; their sums are reals again, one per row)
            return Rows.of(backends.current().fold_each_row(op, a))
        if op == "+" and values.array_kind(a) == "i":
            b = x.bounds
            r = Rows(_int_sums(a, b))
            if b is not None:       # (k integers each within the bounds: exact sums)
                r.bounds = k * b[0], k * b[1]
            return r
        if op == "-":
            acc = a[:, 0]
            for j in range(1, k):
                acc = Rows(dyad(acc, a[:, j])).a
            return Rows(acc)
        return Rows(_fast_fold(op, a))
    return rule


def scan(op, dyad):
    """op\\x along each row of numbers: the loop's running fold (folds.running_fold), along
    the columns; integer sums and products only where no step can leave int64."""
    def rule(x, n):
        if x.rank == 0:
            raise Declined          # the loop makes a one-element list of a number
        if x.rank != 1 or x.a.shape[1] == 0:
            raise Declined
        backend = backends.current()
        a = x.a
        kind = values.array_kind(a)
        if op in ("+", "*") and kind == "i" and not folds.fold_fits(op, backend.swap01(a)):
            raise Declined          # the loop's Python integers, row by row
        if op in ("|", "&") and kind == "f" and _negative_zero(a):
            raise Declined
        return Rows(backend.accumulate_each_row(op, a))
    return rule


# which adverbs batch, and with which verbs: adverb -> {op: rule maker}
ADVERBS = {
    "/": {op: over for op in ("+", "*", "|", "&", "-")},
    "\\": {op: scan for op in ("+", "*", "|", "&")},
}
