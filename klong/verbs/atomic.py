"""Klong's atomic verbs: arithmetic, comparison, Not, Char, Floor, Format, Format2, Form
(and Match, which is not atomic but shares the dyads' table).

Every verb is built by `atomic_monad` or `atomic_dyad` from
  - an atom function, which knows the verb's meaning on atoms, and
  - optionally an array function, one vectorised operation on numeric arrays of the active
    backend (`klong.backends.current()`: numpy ndarrays or torch tensors alike).
The builders do the atomic extension once for all verbs: a non-empty list is mapped over,
recursively, pairing lists with lists (equal lengths, along the first axis) and an atom with
every element of a list. `[]` and strings are atoms, never mapped over.

An array function may return None to say "not representable as one array" (a zero divisor
giving :undefined, a power leaving int64, a mix of integers and reals); the builders then walk
the elements one by one, which is always correct, only slower.

Arithmetic keeps backend arrays as arrays and never takes values out of them, so that on torch
the autograd graph survives; a 0-d tensor carrying a gradient is a number (values.is_number)
and reaches the atom functions as it is, where Python's operators keep it a tensor. Only the
verbs that make text or characters (Format, Format2, Char) and Floor read values out.
"""
import math
import operator
import re
from itertools import repeat

from .. import backends
from ..backends import arrays
from ..runtime import kinds, values
from ..runtime.display import atom_text, format_real
from ..errors import KlongError
from ..runtime.limits import INT64_MAX, INT64_MIN, REMEMBERED, check_bits, check_elements, fits_int64, int_from_text, int_text, magnitude, real_from_text, times, too_large
from ..runtime.limits import current as current_limits
from ..runtime.match import match
from ..runtime.mixed import MixedNumbers, general
from .mixed import atomic as mixed_atomic
from ..runtime.values import Char, Symbol, UNDEFINED, array_kind, is_int, is_list, is_number, is_real, is_true, items, length, make_list, scalar

B = backends.current        # B() is the active backend


# ---------------------------------------------------------------- atomic extension

# arrays.ARRAY_TYPES is read at each call: it grows when the torch backend loads.

def _is_seq(v):
    """A non-empty list: the only value an atomic verb maps over."""
    if isinstance(v, arrays.ARRAY_TYPES):
        return v.ndim > 0 and v.shape[0] > 0
    return type(v) is list and len(v) > 0


def _numeric_array(v):
    return (isinstance(v, arrays.ARRAY_TYPES) and v.ndim > 0 and v.shape[0] > 0
            and array_kind(v) in "if")


def _array_scalar(v):
    """A number numpy can combine with an int64/float64 array without loss or OverflowError."""
    if type(v) is int:
        return fits_int64(v)
    return is_number(v)


def _atom(v):
    """An atom as the atom functions receive it: numpy scalars as Python numbers, an empty
    array as [] (which it is: an atom, but no number)."""
    if isinstance(v, arrays.ARRAY_TYPES) and v.ndim:
        return []
    return scalar(v)


def atomic_monad(atom, array=None):
    """A monad applying `atom` to every atom of its argument, keeping the nesting."""
    def verb(a):
        t = type(a)
        if t is int or t is float:          # a plain number (Each calls with one): the atom
            try:
                return atom(a)
            except OverflowError:
                raise too_large() from None
        if t is MixedNumbers:
            a = a.general()                 # (mixed.py)
        if isinstance(a, arrays.ARRAY_TYPES) and a.ndim and a.shape[0]:
            if array is not None and array_kind(a) in "if":
                r = array(a)
                if r is not None:
                    return r
            return make_list([verb(x) for x in items(a)])
        if type(a) is list and a:
            return make_list([verb(x) for x in a])
        try:
            return atom(_atom(a))
        except OverflowError:
            raise too_large() from None
    return verb


def atomic_dyad(num, array=None, other=None, shortcuts=()):
    """A dyad with Klong's atomic extension.

    num(a, b)   the verb on two numbers (Python int/float, or 0-d arrays carrying gradients)
    other(a, b) the verb on any other pair of atoms; by default a type error
    array(a, b) the verb on a numeric array and an array or number of matching shape, or None
    shortcuts   declared in the verb registry (verbs/__init__.py), tried in order: each
                shortcut(a, b) gives what the verb gives, by a shorter way, for the
                operands it knows, else None

    Two plain Python numbers go straight to num (scalar code such as a recursive fib: the
    atoms' rule, tested first as it is the cheapest); then the shortcuts; then the array
    function, the atomic extension over lists, and the atoms.
    """
    def verb(a, b):
        try:
            ta = type(a)
            tb = type(b)
            if (ta is int or ta is float) and (tb is int or tb is float):
                return num(a, b)
            for shortcut in shortcuts:
                r = shortcut(a, b)
                if r is not None:
                    return r
            if ta is MixedNumbers or tb is MixedNumbers:
                a, b = general(a), general(b)       # (the shortcuts that know it are done)
            if array is not None and (isinstance(a, arrays.ARRAY_TYPES)
                                      or isinstance(b, arrays.ARRAY_TYPES)):
                r = _vector(array, a, b)
                if r is not None:
                    return r
            if _is_seq(a):
                if is_list(b):
                    if length(a) != length(b):
                        raise KlongError("length", "lists of different lengths")
                    if _plain_ints(a) and _plain_ints(b):
                        return make_list(list(map(num, a, b)))
                    return make_list([verb(x, y) for x, y in zip(items(a), items(b))])
                if tb is int and _plain_ints(a):
                    return make_list(list(map(num, a, repeat(b))))
                return make_list([verb(x, b) for x in items(a)])
            if _is_seq(b):
                if is_list(a):
                    raise KlongError("length", "lists of different lengths")
                if ta is int and _plain_ints(b):
                    return make_list(list(map(num, repeat(a), b)))
                return make_list([verb(a, y) for y in items(b)])
            a = _atom(a)
            b = _atom(b)
            if is_number(a) and is_number(b):
                if array is not None and kinds.integer_array_among(a, b):
                    # 0-d integer arrays (a traced Each's elements): the array verb keeps
                    # Klong's types (real^0 is the integer 1) and checks that no result leaves
                    # 64 bits (a check that stops the tracing, so the elements are taken one
                    # by one); exact Python numbers where it declines
                    r = array(a, b)
                    if r is not None:
                        return r
                    a, b = values.scalar(a), values.scalar(b)
                elif kinds.may_stray(a, b):     # 0-d arrays: the library's types differ
                    a, b = kinds.operands(a, b)
                return num(a, b)
            if other is None:
                raise KlongError("type", "number expected")
            return other(a, b)
        except OverflowError:
            # only exact Python ints too large for a real get here
            raise too_large() from None
    return verb


def _plain_ints(v):
    """Whether v is a Python list of Python ints alone (integers beyond int64: Pascal's rows),
    whose pairs the atomic extension gives to the verb's num as they are (as its atoms' rule
    does), without a call of the verb for each."""
    return type(v) is list and list(map(type, v)).count(int) == len(v)


def _real_array(v):
    return isinstance(v, arrays.ARRAY_TYPES) and array_kind(v) == "f"


def _plain_reals(a, b):
    """Whether the array library combines a and b as Klong does without aligning, mapping or
    converting them: a non-empty real array (non-empty along its first axis, as _vector
    asks), and beside it a Python float or a real array that is 0-d or of the same shape."""
    if type(a) is float:
        return _real_array(b) and b.ndim > 0 and b.shape[0] > 0
    if type(b) is float:
        return _real_array(a) and a.ndim > 0 and a.shape[0] > 0
    if not (_real_array(a) and _real_array(b)):
        return False
    if a.ndim == 0:
        return b.ndim > 0 and b.shape[0] > 0
    return a.shape[0] > 0 and (b.ndim == 0 or a.shape == b.shape)


def _reals_and_int(a, b):
    """Whether a and b are a non-empty real array (non-empty along its first axis, as
    _vector asks) and a Python int that fits int64 (x*20): the library combines them in the
    array's dtype, as _arith does once _vector has let them through."""
    if type(b) is int:
        return INT64_MIN <= b <= INT64_MAX and _real_array(a) and a.ndim > 0 and a.shape[0] > 0
    if type(a) is int:
        return INT64_MIN <= a <= INT64_MAX and _real_array(b) and b.ndim > 0 and b.shape[0] > 0
    return False


def _ranked_reals(a, b):
    """Whether a and b are non-empty real arrays of different ranks that Klong pairs along
    their leading axes (a matrix and a vector of its length): the library combines them
    once _align has given the lower-ranked one trailing unit axes, as _vector does."""
    if not (_real_array(a) and _real_array(b)) or a.ndim == b.ndim:
        return False
    n = min(a.ndim, b.ndim)
    return n > 0 and a.shape[0] > 0 and a.shape[:n] == b.shape[:n]


def _tracked_number(v):
    return isinstance(v, arrays.ARRAY_TYPES) and v.ndim == 0 and B().is_tracked(v)


def _vector(array, a, b):
    """Apply `array` when both operands are numeric arrays (or one is a number), after
    aligning the arrays along their leading axes; None when that does not apply (0-d arrays
    are numbers here, left to the atom function)."""
    if values.is_array(a):
        if not _numeric_array(a):
            return None
        if values.is_array(b):
            if not _numeric_array(b):
                return None
            a, b = _align(a, b)
        elif not _array_scalar(b):
            return None
    elif not (_numeric_array(b) and _array_scalar(a)):
        return None
    return array(a, b)


def _align(a, b):
    """Klong pairs lists along the FIRST axis ([[1 2] [3 4]]+[10 20] adds 10 to the first row),
    whereas numpy and torch broadcast along the last: give the lower-rank array trailing unit
    axes."""
    if a.shape == b.shape:
        return a, b
    n = min(a.ndim, b.ndim)
    if a.shape[:n] != b.shape[:n]:
        raise KlongError("length", "lists of different lengths")
    if a.ndim < b.ndim:
        a = a.reshape(a.shape + (1,) * (b.ndim - a.ndim))
    else:
        b = b.reshape(b.shape + (1,) * (a.ndim - b.ndim))
    return a, b


# ---------------------------------------------------------------- numeric helpers

def _smallest(x):
    return x.min() if values.is_array(x) else x


def _largest(x):
    return x.max() if values.is_array(x) else x


def _any(mask):
    """Whether any element of a boolean array (or a bool) is true."""
    if isinstance(mask, bool):
        return mask
    return B().any(mask)


def _and(x, y):
    """Elementwise and of boolean arrays, either of which may be a plain bool."""
    if isinstance(x, bool):
        return y if x else False
    if isinstance(y, bool):
        return x if y else False
    return x & y


def _real(x):
    """x with an integer array made real (see klong/runtime/kinds.py)."""
    return kinds.as_kind(x, "f")


def _fractional(x):
    """Whether a real (array or number) differs from its floor, elementwise: nan does, inf
    does not."""
    if isinstance(x, arrays.ARRAY_TYPES):
        return x != B().floor(x)
    return x != math.floor(x) if math.isfinite(x) else x != x


def _quiet(fn):
    """Run an array function with floating-point warnings off: a real overflow gives inf,
    as Python arithmetic would, without printing anything."""
    def quiet(*args):
        with B().quiet():
            return fn(*args)
    return quiet


def _arith(op, bound):
    """Vectorised + - *. Integers are exact: when the largest result the operands'
    magnitudes allow, bound(|a|, |b|), is beyond int64, decline (None), and the builders
    work element by element on Python integers, which never wrap. (numpy and torch would
    wrap silently; the bounds cost two reductions per operand, no loop over elements.)"""
    def array(a, b):
        if kinds.kind(a) == "i" and kinds.kind(b) == "i":
            return _exact(op, bound, a, b)
        a, b = kinds.operands(a, b)
        with B().quiet():
            return op(a, b)
    return array


def _exact(op, bound, a, b):
    """op(a, b) on integers (arrays, or an array and a number that fits int64), or None
    when the result could leave int64 (see _arith)."""
    limits = current_limits()
    most = bound(limits.magnitude(a), limits.magnitude(b))
    if most > INT64_MAX:
        return None
    r = op(a, b)             # integer operations never warn
    if math.prod(r.shape) >= REMEMBERED:    # (only a big array's is: Limits.remember)
        limits.remember(r, most, _progression(limits, op, a, b))
    return r


def _progression(limits, op, a, b):
    """What op(a, b) is as an arithmetic progression (Limits.progression), for + - * of an
    integer and an integer vector known to be one (Enumerate's), else None."""
    if type(b) is int:
        known, c, vector_first = limits.progression(a), b, True
    elif type(a) is int:
        known, c, vector_first = limits.progression(b), a, False
    else:
        return None
    if known is None or known[2]:
        return None
    first, step = known[0], known[1]
    if op is operator.mul:
        return (first * c, step * c, 0)
    if op is operator.add:
        return (first + c, step, 0)
    return (first - c, step, 0) if vector_first else (c - first, -step, 0)     # subtraction


# ---------------------------------------------------------------- shortcuts
# A shortcut(a, b) gives what the verb's general path gives, by a shorter way, for the
# operands it knows, else None. The registry (verbs/__init__.py) declares which verb takes
# which; tests/test_verbs_atomic.py compares each with the general path.

def differentiated(num):
    """The shortcut of every numeric dyad: numbers being differentiated (a 0-d real array
    carrying a gradient, beside a Python number or another such) go straight to the atom
    function num, as the general path's atoms do: the steps of a scalar gradient descent."""
    def shortcut(a, b):
        if _tracked_number(a):
            tb = type(b)
            if tb is int or tb is float or _tracked_number(b):
                return num(a, b)
        elif _tracked_number(b):
            ta = type(a)
            if ta is int or ta is float:
                return num(a, b)
        return None
    return shortcut


def int_arith(op, bound):
    """The shortcut of + - *: a Python int that fits int64 beside a non-empty integer array,
    or two integer arrays of one shape: _arith's integer path at once (the bound test, then
    the library's operation), without the general path's tests of shapes and kinds."""
    def shortcut(a, b):
        ta, tb = type(a), type(b)
        if ta is int:
            if tb not in arrays.ARRAY_TYPES or not INT64_MIN <= a <= INT64_MAX:
                return None
            x = b
        elif tb is int:
            if ta not in arrays.ARRAY_TYPES or not INT64_MIN <= b <= INT64_MAX:
                return None
            x = a
        elif ta in arrays.ARRAY_TYPES and tb in arrays.ARRAY_TYPES and a.shape == b.shape:
            if array_kind(b) != "i":
                return None
            x = a
        else:
            return None
        if not (x.ndim and x.shape[0]) or array_kind(x) != "i":
            return None
        return _exact(op, bound, a, b)
    return shortcut


def plain_comparison(op):
    """The shortcut of = < >: a non-empty numeric array beside a Python number of its kind
    (an int within int64 beside integers, a float beside reals), or two such arrays of one
    kind and shape: the comparison's array function at once, without the general path's
    tests of kinds and shapes (x<y of a quicksort's partition)."""
    def shortcut(a, b):
        r = plain_compared(op, a, b)
        return None if r is None else _truths(B().astype(r, "i"))
    return shortcut


def plain_compared(op, a, b):
    """op(a, b), the library's truths (booleans), for the operands plain_comparison takes;
    None for any others."""
    ta, tb = type(a), type(b)
    if ta in arrays.ARRAY_TYPES:
        x, other, number = a, tb, b
    elif tb in arrays.ARRAY_TYPES:
        x, other, number = b, ta, a
    else:
        return None
    if other is int:
        if not INT64_MIN <= number <= INT64_MAX:
            return None
        kind = "i"
    elif other is float:
        kind = "f"
    elif ta is tb and a.shape == b.shape:
        kind = array_kind(b)
    else:
        return None
    if not (x.ndim and x.shape[0]) or kind not in "if" or array_kind(x) != kind:
        return None
    return op(a, b)


def int_remainder(a, b):
    """The shortcut of !: a non-empty integer array beside a Python int divisor other than 0
    that fits int64 (x!10): _remainder_array at once, without the general path's tests of
    shapes and kinds (a digit of each of a few numbers in a loop)."""
    if type(b) is not int or b == 0 or type(a) not in arrays.ARRAY_TYPES \
            or not (a.ndim and a.shape[0]) or array_kind(a) != "i" \
            or not INT64_MIN <= b <= INT64_MAX:
        return None
    return _remainders(B().fmod(a, b), b)


def real_arith(op):
    """The shortcut of + - *: on operands that pass _plain_reals or _reals_and_int, the
    library's operation, as _arith does it (an overflow gives inf silently); on those that
    pass _ranked_reals, the same once aligned, as _vector aligns them."""
    def shortcut(a, b):
        if _plain_reals(a, b) or _reals_and_int(a, b):
            with B().quiet():
                return op(a, b)
        if _ranked_reals(a, b):
            a, b = _align(a, b)
            with B().quiet():
                return op(a, b)
        return None
    return shortcut


def real_extreme(larger):
    """The shortcut of | (larger) and &: on operands that pass _plain_reals, the library's
    fmax or fmin where they pick what the verb picks (Backend.extreme), as _max_array and
    _min_array try first, without the general path's tests of shapes and kinds (None:
    the general path compares and selects)."""
    def shortcut(a, b):
        if _plain_reals(a, b):
            return B().extreme(a, b, larger)
        return None
    return shortcut


def real_divide(a, b):
    """The shortcut of %: on operands that pass _plain_reals or _ranked_reals and a divisor
    with no zero, the library's division, as _divide_array does it (a zero divisor gives
    :undefined there: the general path)."""
    ranked = False
    if not _plain_reals(a, b):
        if not _ranked_reals(a, b):
            return None
        ranked = True
    backend = B()
    if (b == 0 if type(b) is float else backend.any_zero(b)):
        return None
    if ranked:
        a, b = _align(a, b)
    with backend.quiet():
        return backend.divide(a, b)


# integers below this in magnitude are reals exactly
_EXACT_REAL = 2 ** 53


def mixed_with_reals(symbol):
    """The shortcut of + - * % = < >: a MixedNumbers (verbs/mixed.py); else a list of
    integers and reals (a general list) beside a real, or a real vector of its length: the
    list as a real vector, then the verb's array function. The same results: every pair holds a real, so the loop
    computes each in Python with the integer as a real, and an integer below 2^53 converts
    exactly. Not for narrow reals (the loop computes in 64 bits and rounds each element)."""
    array = DYAD_PARTS[symbol][1]

    def shortcut(a, b):
        if type(a) is MixedNumbers or type(b) is MixedNumbers:
            return mixed_atomic(symbol, array, a, b)
        if type(a) is list:
            mixed, other = a, b
        elif type(b) is list:
            mixed, other = b, a
        else:
            return None
        if not mixed or not (type(other) is float or _real_array(other) and other.ndim == 1
                             and other.shape[0] == len(mixed) and not B().is_tracked(other)):
            return None
        backend = B()
        if backend.dtype != "float64" or not set(map(type, mixed)) <= _PLAIN_NUMBERS:
            return None
        reals = backend.asarray(mixed, "f")
        if not bool((abs(reals) < _EXACT_REAL).all()):
            return None                 # (a large integer, inf or nan: the loop)
        return array(reals, other) if mixed is a else array(other, reals)
    return shortcut


_PLAIN_NUMBERS = {int, float}


def real_power(a, b):
    """The shortcut of ^: a non-empty real array raised to a positive Python integer (x^2 in
    a loss), the library's power, as _power_array does it."""
    if type(b) is int and b > 0 and _real_array(a) and a.ndim > 0 and a.shape[0] > 0:
        with B().quiet():
            return B().power(a, b)
    return None


def _negate_array(a):
    if array_kind(a) == "i" and _smallest(a) == INT64_MIN:
        return None                  # -INT64_MIN is beyond int64: Python integers
    return -a


def _need_ints(a, b):
    # atom functions receive Python scalars only (the builders convert numpy scalars)
    if type(a) is not int or type(b) is not int:
        raise KlongError("type", "integers expected")


def _zero_divisor():
    return KlongError("domain", "division by zero")


# ---------------------------------------------------------------- arithmetic dyads

def _divide(a, b):
    if b == 0:
        return UNDEFINED
    if kinds.involves_array(a, b):
        return B().divide(*kinds.operands(a, b, real=True))
    return a / b        # Python's int/int is a correctly rounded real, even for big ints


@_quiet
def _divide_array(a, b):
    if _any(b == 0):
        return None     # each zero divisor gives :undefined: a mixed list
    return B().divide(*kinds.operands(a, b, real=True))


def _int_divide(a, b):
    _need_ints(a, b)
    if b == 0:
        raise _zero_divisor()
    q = abs(a) // abs(b)             # truncate toward zero, not floor as Python's //
    return q if (a < 0) == (b < 0) else -q


def _remainder(a, b):
    _need_ints(a, b)
    if b == 0:
        raise _zero_divisor()
    r = abs(a) % abs(b)              # the sign follows the dividend, not the divisor
    return -r if a < 0 else r


def _int_array_operands(a, b):
    if kinds.kind(a) != "i" or kinds.kind(b) != "i":
        raise KlongError("type", "integers expected")
    if _any(b == 0):
        raise _zero_divisor()


def _fmod(a, b):
    """C remainder (sign of the dividend); torch's fmod wants an array dividend."""
    if not isinstance(a, arrays.ARRAY_TYPES):
        a = B().asarray(a, "i")
    return B().fmod(a, b)


@_quiet
def _int_divide_array(a, b):
    _int_array_operands(a, b)
    least = int(_smallest(a))
    if least == INT64_MIN:
        return None                  # INT64_MIN:%-1 is beyond int64: Python integers
    if least >= 0 and int(_smallest(b)) > 0:
        return a // b                # truncated is floored where neither is negative
    r = _fmod(a, b)
    return (a - r) // b              # exact: a-r is a multiple of b


def _remainder_array(a, b):
    _int_array_operands(a, b)
    return _remainders(_fmod(a, b), b)


def _remainders(r, b):
    """r, remainders by b, with their bound remembered where b is an int (|r| < |b|):
    arithmetic on r then scans nothing (only a big array's is: Limits.remember)."""
    if type(b) is int and math.prod(r.shape) >= REMEMBERED:
        current_limits().remember(r, abs(b) - 1)
    return r


def _signed_inf(a, b):
    """The overflowing a**b as a real infinity with the right sign."""
    negative = a < 0 and type(b) is int and b % 2 == 1
    return -math.inf if negative else math.inf


def _raise(a, b):
    """a**b for a non-negative integer b, or a real b where the result is real."""
    if type(a) is int and type(b) is int and abs(a) > 1:
        check_bits(abs(a).bit_length() * b)
    try:
        return a ** b
    except OverflowError:
        return _signed_inf(a, b)


def _power(a, b):
    if type(b) is int:
        if b == 0:
            return 1                 # x^0 is the integer 1, for a real x as well
        if b > 0:
            return _raise(a, b)      # exact for an integer base
        if a == 0:
            return UNDEFINED
        p = _raise(a, -b)
        if p == 0:                   # a real power that underflowed
            return math.copysign(math.inf, p)
        return _divide(1, p)         # int/int stays correct for big ints
    if a < 0 and not values.plain(b).is_integer():
        return UNDEFINED             # a complex result
    if a == 0 and b < 0:
        return UNDEFINED
    return _raise(a, b)


@_quiet
def _power_array(a, b):
    if kinds.kind(b) == "i":
        if _smallest(b) < 0:
            return None              # reals and :undefined, worked out per element
        if kinds.kind(a) == "i":
            if magnitude(a).bit_length() * int(_largest(b)) > 63:
                return None          # may leave int64: exact Python ints per element
            return B().power(a, b)
        if _smallest(b) == 0:
            return None              # real^0 is the integer 1: a mixed list
        return B().power(*kinds.operands(a, b))
    if _any(_and(a < 0, _fractional(b))) or _any(_and(a == 0, b < 0)):
        return None                  # :undefined elements
    return B().power(*kinds.operands(a, b))


def _max(a, b):
    return a if a >= b else b        # equal: the left operand, unchanged


def _min(a, b):
    return a if a < b else b         # equal: the right operand, unchanged


def _pick(keep_a, a, b):
    """Choose a where keep_a, else b. Max and Min return operands unchanged, so integers and
    reals may not be converted: a choice mixing them is a mixed list (None: walk)."""
    if kinds.kind(a) == kinds.kind(b):
        return B().select(keep_a, a, b)
    if B().all(keep_a):
        return B().select(keep_a, a, a)      # a, broadcast to the result's shape
    if not B().any(keep_a):
        return B().select(keep_a, b, b)
    return None


def _int_arrays(a, b):
    """Two integer arrays: which one Max or Min returns cannot be told from the result, so
    the library's maximum or minimum (one call) gives what choosing an operand gives."""
    return isinstance(a, arrays.ARRAY_TYPES) and isinstance(b, arrays.ARRAY_TYPES) \
        and array_kind(a) == "i" and array_kind(b) == "i"


def _max_array(a, b):
    if _int_arrays(a, b):
        return B().maximum(a, b)
    r = B().extreme(a, b, True)          # reals, by the library's fmax where it may
    if r is not None:
        return r
    x, y = kinds.operands(a, b)          # compare as reals, choose the operands themselves
    return _pick(x >= y, a, b)


def _min_array(a, b):
    if _int_arrays(a, b):
        return B().minimum(a, b)
    r = B().extreme(a, b, False)
    if r is not None:
        return r
    x, y = kinds.operands(a, b)
    return _pick(x < y, a, b)


# ---------------------------------------------------------------- comparisons

_TEXT_KINDS = (Char, Symbol, str)


def _comparison(op, num):
    """The parts of a comparison verb. num(a, b) compares two numbers (by value across
    integers and reals); characters, strings and symbols compare only with their own kind."""
    def other(a, b):
        t = type(a)
        if t is type(b) and t in _TEXT_KINDS:
            return 1 if op(a, b) else 0
        raise KlongError("type", "operands of different kinds")

    def array(a, b):
        return _truths(B().astype(op(*kinds.operands(a, b)), "i"))

    return num, array, other


def _truths(r):
    """r, an integer array of 0s and 1s, with that bound remembered: a sum of it (+/x=y, a
    count) then needs no scan for its magnitude."""
    current_limits().remember(r, 1)
    return r


# ---------------------------------------------------------------- Format, Format2, Form

def _untracked(a):
    """Text carries no gradient: making it from a value being differentiated exactly would
    silently cut the derivative, so it is an error (as for Python code that drops it)."""
    if B().is_tracked(a):
        raise KlongError("type", "autograd chain broken: $ turns a value being differentiated "
                                 "into text")
    return a


def _text(a):
    """The written text of an atom for Format, or UNDEFINED when it has none."""
    t = type(a)
    if t is int:                     # plain numbers first: they carry no gradient
        return int_text(a)
    if t is float:
        return format_real(a)
    a = values.plain(_untracked(a))
    if type(a) in (int, float, Char, Symbol, str):
        return atom_text(a, readable=False)
    return UNDEFINED                 # [], dictionaries, functions, channels, :undefined


def _format_array(a):
    if a.ndim != 1:
        return None
    a = _untracked(a)
    if array_kind(a) == "f":
        # (a copy to numpy: torch's capture refuses it, where it would follow the reals
        # tolist hands out, and cannot guard the text written from them)
        return [format_real(x) for x in B().to_host(a).tolist()]
    # integers with the library's own tolist, which the capture follows and guards, each
    # number read out: a record of a program writing them replays
    return [str(x) for x in a.tolist()]


def _real_width(a):
    """n and m of a real width n.m: the integer part of |a| and the digits after its point,
    read as a whole number (5.2 -> 5, 2; 10.12 -> 10, 12; 5.10 is 5.1 -> 5, 1)."""
    if not math.isfinite(a):
        raise KlongError("domain", "bad format width")
    text = format_real(abs(a))
    if "e" in text:
        return int(abs(a)), 0
    whole, frac = text.split(".")
    return int(whole), int(frac)


def _format2(a, b):
    a, b = values.plain(a), values.plain(_untracked(b))
    if not is_number(a):
        raise KlongError("type", "format width must be a number")
    text = _text(b)
    if text is UNDEFINED:
        raise KlongError("type", "value has no written form")
    if is_int(a):
        # positive widths pad on the right, negative on the left; text is never cut
        check_elements(abs(a))
        return text.ljust(a) if a >= 0 else text.rjust(-a)
    n, m = _real_width(a)
    check_elements(n + m + 1)
    if m == 0 or not is_real(b) or "." not in text or "e" in text:
        return text.ljust(n)
    whole, frac = text.split(".")
    if len(frac) > m or len(whole) > n:
        return text                  # no rounding, no cutting
    return whole.rjust(n) + "." + frac.ljust(m, "0")


_INT_FORM = re.compile(r"[+-]?[0-9]+")
_REAL_FORM = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_SYMBOL_FORM = re.compile(r":?([A-Za-z][A-Za-z0-9.]*)")


def _form(a, b):
    if type(b) is not str:
        raise KlongError("type", "string expected")
    if is_int(a):
        if not _INT_FORM.fullmatch(b):
            return UNDEFINED
        return int_from_text(b)
    if is_real(a):
        return real_from_text(b) if _REAL_FORM.fullmatch(b) else UNDEFINED
    t = type(a)
    if t is Char:
        return Char(b) if len(b) == 1 else UNDEFINED
    if t is Symbol:
        m = _SYMBOL_FORM.fullmatch(b)
        return Symbol(m.group(1)) if m else UNDEFINED
    return b                         # a string or any other template: b unchanged


# ---------------------------------------------------------------- monads

def _negate(a):
    if not is_number(a):
        raise KlongError("type", "number expected")
    return -a


def _reciprocal(a):
    if not is_number(a):
        raise KlongError("type", "number expected")
    return _divide(1, a)


def _floor(a):
    a = values.plain(a)                    # the result is an integer: no gradient to keep
    if is_int(a):
        return a
    if not is_real(a):
        raise KlongError("type", "number expected")
    # Reals of magnitude >= 1e18 stay real (they are whole already); so do inf and nan.
    return math.floor(a) if abs(a) < 1e18 else a


def _floor_array(a):
    if array_kind(a) == "i":
        return a
    backend = B()
    whole = backend.floor(a)
    # |a| < 1e18 where |floor(a)| < 1e18: the reals near 1e18 are whole (a NaN fails too)
    # (one reduction, not a smallest and a largest: a NaN's magnitude is NaN, no less)
    if 0 not in a.shape and not bool(backend.abs(whole).max() < 1e18):
        return None                  # some stay real: a mixed list
    return backend.astype(whole, "i")


def _not(a):
    return 0 if is_true(a) else 1


def _char(a):
    a = values.plain(a)
    if not is_int(a):
        raise KlongError("type", "integer expected")
    if not 0 <= a <= 255:
        raise KlongError("domain", "character code out of range")
    return Char(chr(a))


def _char_array(a):
    if a.ndim != 1 or array_kind(a) != "i":
        return None
    if a.min() < 0 or a.max() > 255:
        raise KlongError("domain", "character code out of range")
    return B().lookup(values.BYTE_CHAR_TABLE, a)


def joined_chars(a):
    """,/:#a (ir.JoinedChars) for an integer vector a of two or more codes of characters:
    the text Join-Over makes of the list of characters Char gives, made at once; None
    elsewhere (the verbs then run as written: a one-item list joins to its character, a
    code out of range fails at Char)."""
    if isinstance(a, arrays.ARRAY_TYPES) and a.ndim == 1 and a.shape[0] > 1 \
            and array_kind(a) == "i":
        return B().byte_text(a)
    return None


def _match(a, b):
    return 1 if match(a, b) else 0


# ---------------------------------------------------------------- the tables

MONADS = {
    "-": atomic_monad(_negate, _negate_array),
    "%": atomic_monad(_reciprocal, lambda a: _divide_array(1, a)),
    "_": atomic_monad(_floor, _floor_array),
    "~": atomic_monad(_not, lambda a: _truths(B().astype(a == 0, "i"))),
    ":#": atomic_monad(_char, _char_array),
    "$": atomic_monad(_text, _format_array),
}

# The parts of each atomic dyad: (num, array, other) as atomic_dyad takes them. DYADS holds
# the dyads built from them alone: the general path. The registry (verbs/__init__.py)
# builds the verbs Klong runs from the same parts, with the shortcuts it declares.
DYAD_PARTS = {
    "+": (operator.add, _arith(operator.add, operator.add)),
    "-": (operator.sub, _arith(operator.sub, operator.add)),
    "*": (times, _arith(operator.mul, operator.mul)),
    "%": (_divide, _divide_array),
    ":%": (_int_divide, _int_divide_array),
    "!": (_remainder, _remainder_array),
    "^": (_power, _power_array),
    "|": (_max, _max_array),
    "&": (_min, _min_array),
    "=": _comparison(operator.eq, lambda a, b: 1 if a == b else 0),
    "<": _comparison(operator.lt, lambda a, b: 1 if a < b else 0),
    ">": _comparison(operator.gt, lambda a, b: 1 if a > b else 0),
    "$": (_format2, None, _format2),
    ":$": (_form, None, _form),
}

DYADS = {symbol: atomic_dyad(*parts) for symbol, parts in DYAD_PARTS.items()}
DYADS["~"] = _match
