"""Folds of integer lists with + and *, exact: a sum or product that could leave int64 is
computed on Python integers instead (never wrapped), decided before the operation from the
magnitude bounds that limits.py keeps. Reals and the other folds go to the backend as they
are."""
import itertools
import operator

from .. import backends
from ..runtime import values
from ..runtime.limits import INT64_MAX, SMALL_VECTOR, magnitude, times


def fold_fits(op, a):
    """Whether folding integer array `a` along its first axis with + or * stays in int64."""
    n, m = a.shape[0], magnitude(a)
    if op == "+":
        return n * m <= INT64_MAX
    return m <= 1 or m.bit_length() * n <= 63


_OPS = {"+": operator.add, "*": times}


def fold(op, a, kind=None):
    """backends.current().reduce(op, a), exact for integers: a sum or product that could
    leave int64 is computed on Python integers. `kind`: a's array_kind, when known."""
    if op in _OPS and (kind or values.array_kind(a)) == "i":
        if op == "+" and a.ndim == 1 and a.shape[0] <= SMALL_VECTOR:
            # a short vector (a node of a tree of lists): Python's sum of its items is exact,
            # and costs less than the magnitude check and the library's call; where the
            # items are not plain numbers (a trace's), the library sums
            elems = backends.running.backend.items(a)
            if elems and type(elems[0]) is int:
                return sum(elems)
        if not fold_fits(op, a):
            return _klong_value(_pairwise(_OPS[op], _host_items(a)))
    return backends.current().reduce(op, a)


def running_fold(op, a):
    """backends.current().accumulate(op, a) of a vector, exact for integers like fold."""
    if op in _OPS and values.array_kind(a) == "i" and not fold_fits(op, a):
        return values.make_list(itertools.accumulate(_host_items(a), _OPS[op]))
    return backends.current().accumulate(op, a)


def _host_items(a):
    """The items of an integer array along its first axis as Python ints, or nested Python
    lists of them."""
    return backends.current().to_host(a).tolist()


def _pairwise(combine, items):
    """combine folded over items (elementwise through nested lists), neighbours first:
    operands of similar size keep big products fast."""
    def both(x, y):
        return [both(u, v) for u, v in zip(x, y)] if type(x) is list else combine(x, y)
    while len(items) > 1:
        paired = [both(x, y) for x, y in zip(items[::2], items[1::2])]
        if len(items) % 2:
            paired.append(items[-1])
        items = paired
    return items[0]


def _klong_value(v):
    """A Python int, or nested Python lists of them, as a Klong value."""
    return values.make_list([_klong_value(e) for e in v]) if type(v) is list else v
