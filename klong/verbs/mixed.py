"""The verbs that know MixedNumbers (runtime/mixed.py): a long list of reals with a few
integers, held as one real array and the integers apart. They make one where an integer
joins reals (0,+\\x) and keep it through what the prefix-sum idiom does with it: join, take
and drop, tally and shape, + - * % = < > beside a real, a real vector of its length or
an integer, and +/ of it. Each gives exactly what the general list would give; each returns None where it
does not apply, and the caller goes on with the general list (mixed.general)."""
import operator

from .. import backends
from ..backends import arrays
from ..runtime import values
from ..runtime.mixed import EXACT, MAX_INTS, MIN_LENGTH, MixedNumbers


def _real_vector(v):
    """Whether v is a 1-d real array a MixedNumbers can hold: float64 reals (the
    integers among them convert exactly), no gradient to keep (the general list of 0-d
    tensors keeps one), outside any tracing (vmap, a compiler)."""
    if not (isinstance(v, arrays.ARRAY_TYPES) and v.ndim == 1):
        return False
    B = backends.current()
    return (B.dtype == "float64" and v.dtype == B.float_dtype
            and not getattr(B, "keep_tensors", False)
            and not B.is_tracked(v))


def _exact_int(x):
    return type(x) is int and -EXACT < x < EXACT


def _parts(v):
    """(reals, ints) of a list a MixedNumbers can be made of, or None."""
    if type(v) is MixedNumbers:
        return v.reals, v.ints
    if _real_vector(v):
        return v, ()
    return None


def make(reals, ints):
    """The list of `reals` with the integers `ints` at their positions, in the form its
    length and its integers call for: the real array, a MixedNumbers, or the general list."""
    if not ints:
        return reals
    if reals.shape[0] < MIN_LENGTH or len(ints) > MAX_INTS:
        return values.make_list(MixedNumbers(reals, ints).general())
    return MixedNumbers(reals, ints)


# ---------------------------------------------------------------- Join

def attach(lst, x, at_end):
    """lst,x (at_end) or x,lst for a list lst and a number x, where lst is a MixedNumbers,
    or where it is a real vector long enough and x an integer; else None."""
    if type(x) is not float and not _exact_int(x):
        return None
    parts = _parts(lst)
    if parts is None:
        return None
    reals, ints = parts
    n = reals.shape[0]
    if not ints and (type(x) is float or n + 1 < MIN_LENGTH):
        return None                     # reals and a real, or a short list: as ever
    B = backends.current()
    one = B.asarray([float(x)], "f")
    if at_end:
        reals = B.concat((reals, one))
        if type(x) is int:
            ints = ints + ((n, x),)
    else:
        reals = B.concat((one, reals))
        ints = tuple((i + 1, v) for i, v in ints)
        if type(x) is int:
            ints = ((0, x),) + ints
    return make(reals, ints)


def concat(a, b):
    """a,b for two lists, one of them a MixedNumbers and the other one too or a real
    vector; else None."""
    if type(a) is not MixedNumbers and type(b) is not MixedNumbers:
        return None
    pa, pb = _parts(a), _parts(b)
    if pa is None or pb is None:
        return None
    n = pa[0].shape[0]
    ints = pa[1] + tuple((i + n, v) for i, v in pb[1])
    return make(backends.current().concat((pa[0], pb[0])), ints)


# ---------------------------------------------------------------- Take, Drop

def cut_out(m, start, stop):
    """Elements start to stop (0 <= start <= stop <= its length) of the MixedNumbers m."""
    ints = tuple((i - start, v) for i, v in m.ints if start <= i < stop)
    return make(m.reals[start:stop], ints)


# ---------------------------------------------------------------- arithmetic, comparison

_EXACT = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def atomic(symbol, array, a, b):
    """a op b for the verb `symbol` (+ - * % = < >) with its array function `array`, where
    a or b is a MixedNumbers and the other a real, a real vector of its length, or an
    integer below 2^53 in magnitude; else None.

    Beside a real every pair holds one, so the result is reals (integers for comparisons)
    and the real array gives it: an integer converts to its real exactly, as the general
    list's arithmetic converts it. Beside an integer, % makes reals and the comparisons
    integers alike; + - * keep the integers integers (exact, while below 2^53, where the
    real array's elements are exact too)."""
    left = type(a) is MixedNumbers
    m, other = (a, b) if left else (b, a)
    if type(other) is MixedNumbers:
        return None
    t = type(other)
    if t is float or _real_vector(other) and other.shape == m.reals.shape:
        return array(m.reals, other) if left else array(other, m.reals)
    if not _exact_int(other):
        return None
    reals = array(m.reals, other) if left else array(other, m.reals)
    op = _EXACT.get(symbol)
    if op is None or reals is None:
        return reals                    # (None: a zero divisor, worked out per element)
    ints = tuple((i, op(v, other) if left else op(other, v)) for i, v in m.ints)
    if not all(-EXACT < v < EXACT for _, v in ints):
        return None                     # beyond what the reals hold exactly
    return MixedNumbers(reals, ints)


# ---------------------------------------------------------------- +/ and +\

def _running_sums(m):
    """The general list's running sums of the MixedNumbers m, from left to right: those of
    the integers before the first real, exact ((position, sum) pairs), and those from the
    first real on, all reals (an integer converts to its real exactly, below 2^53): one
    running sum of the reals, the integers' sum added to the first (as Python adds an
    integer to a real)."""
    B = backends.current()
    heads, total = [], 0
    for i, v in m.ints:         # (in position order: the leading integers, if any)
        if i != len(heads):
            break
        total += v
        heads.append((i, total))
    reals = m.reals[len(heads):]
    if heads:
        reals = B.concat((B.asarray([total + float(reals[0])], "f"), reals[1:]))
    return heads, B.accumulate("+", reals)


def plus_over(m):
    """+/ of the MixedNumbers m, as the general list folds it: the last running sum."""
    return float(_running_sums(m)[1][-1])


def plus_scan(m):
    """+\\ of the MixedNumbers m, as the general list's scan gives it; None where a running
    sum of the leading integers is past what the reals hold exactly."""
    heads, running = _running_sums(m)
    if not heads:
        return running
    if not all(-EXACT < v < EXACT for _, v in heads):
        return None
    B = backends.current()
    return make(B.concat((B.asarray([float(v) for _, v in heads], "f"), running)), tuple(heads))
