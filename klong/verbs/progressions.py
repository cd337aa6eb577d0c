"""Arithmetic progressions made in one step: `a+b*!k` (and the other chains of + - * by
integers around one Enumerate: `(!k)*b`, `a-!k`, `(b*!k)-a` ...) as first, step and count,
and the vector made once at the end, instead of !k, then b*!k, then a+b*!k, each a verb
call and a new array; and a number joined before such a chain (the value and indices of
a sieve's Amend, `s:=0,(x*x)+x*!k`), made at once with what Join remembers of it.

passes/progressions.py marks such a chain in the IR; the renderers apply these functions
at its nodes, in the order and at the places where the verbs would run, so that a value
that is not a plain integer, an error and its position are the verbs' own: Enumerate gives
a `Progression` (never a Klong value: it only passes to the marked verb above it), each
marked dyad of it and a Python integer gives another, where every element stays in int64,
and the chain's last dyad gives the vector. Anywhere else the progression is made into the
vector Enumerate gives and the verbs run as written."""
import sys

from .. import backends
from ..errors import KlongError, from_python
from ..runtime.limits import INT64_MAX, INT64_MIN, check_elements
from ..runtime.limits import current as current_limits
from ..runtime.values import array_kind
from . import VERBS, inplace, structural
from .structural import enumerate_


class Progression:
    """first, first+step ... (count of them, at least one): an integer vector not made yet."""
    __slots__ = ("first", "step", "count")

    def __init__(self, first, step, count):
        self.first, self.step, self.count = first, step, count

    def last(self):
        return self.first + self.step * (self.count - 1)

    def bound(self):
        return max(abs(self.first), abs(self.last()))

    def vector(self, remembered=True):
        """The int64 vector, its bound and progression remembered as the verbs remember
        them (limits.py: an Amend at it writes a slice)."""
        r = backends.current().arange(self.count)
        if self.step != 1:
            r = r * self.step
        if self.first:
            r = r + self.first
        if remembered:
            current_limits().remember(r, self.bound(), (self.first, self.step, 0))
        return r

    def after(self, c, checked=False):
        """c,p for an integer c that fits int64: as Join makes it (one element more than
        the size guard has seen, unless `checked`), and remembers it (a progression from
        its second element on)."""
        if not checked:
            check_elements(self.count + 1)
        backend = backends.current()
        r = backend.concat((backend.asarray([c], "i"), self.vector(False)))
        current_limits().remember(r, max(abs(c), self.bound()), (self.first, self.step, 1))
        return r


class Joined:
    """c,p for an integer c that fits int64, the size guard passed, not made yet: the
    right operand of an Amend of a variable into itself (`s::s:=0,(x*x)+x*!k`)."""
    __slots__ = ("value", "progression")

    def __init__(self, value, progression):
        self.value, self.progression = value, progression

    def vector(self):
        return self.progression.after(self.value, True)


def enumerate_later(k):
    """!k at a marked Enumerate: a Progression for a positive integer (after the size
    guard, as Enumerate checks it), else the verb itself."""
    if type(k) is int and k > 0:
        check_elements(k)
        return Progression(0, 1, k)
    return enumerate_(k)


def _fits(n):
    return INT64_MIN <= n <= INT64_MAX


def _moved(op, p, c, p_first):
    """The Progression op gives of Progression p and the integer c (p_first: p is the left
    operand), or None where an element could leave int64."""
    if not INT64_MIN <= c <= INT64_MAX:
        return None
    if op == "*":
        first, step = p.first * c, p.step * c
    elif op == "+":
        first, step = p.first + c, p.step
    elif p_first:                   # p - c
        first, step = p.first - c, p.step
    else:                           # c - p
        first, step = c - p.first, -p.step
    last = first + step * (p.count - 1)
    if INT64_MIN <= first <= INT64_MAX and INT64_MIN <= last <= INT64_MAX:
        return Progression(first, step, p.count)
    return None


def dyad(op, label, last):
    """The function of a marked dyad `op` (+ - *, or the join of a number before) of a
    Progression: a Progression where its other operand is a Python integer, the vector at
    the chain's `last` dyad (a join's); otherwise the verb on the vector, its error naming
    the verb and the operands as they were written. (A function per kind of dyad: it runs
    once per prime of a sieve, where a test more or a call more is a tenth of its time.)"""
    verb = VERBS[op].dyad

    def general(a, b):
        a = a.vector() if type(a) is Progression else a
        b = b.vector() if type(b) is Progression else b
        try:
            return verb(a, b)
        except (KlongError, OverflowError) as e:
            err = from_python(e) if isinstance(e, OverflowError) else e
            if not err.functions:
                err.in_verb(label, [a, b])      # (the vector, not the Progression)
            if err is e:
                raise
            raise err from None

    if op == ",":                   # (the chain goes on in its right operand only)
        def join(a, b):
            if type(b) is Progression and type(a) is int and INT64_MIN <= a <= INT64_MAX:
                check_elements(b.count + 1)
                return b.after(a, True) if last else Joined(a, b)
            return general(a, b)
        return join

    def apply(a, b):
        if type(a) is Progression:
            if type(b) is int:
                q = _moved(op, a, b, True)
                if q is not None:
                    return q.vector() if last else q
        elif type(b) is Progression and type(a) is int:
            q = _moved(op, b, a, False)
            if q is not None:
                return q.vector() if last else q
        return general(a, b)
    return apply


def update(label):
    """The in-place update (verbs/inplace.py's `update`, and the same shape: it counts the
    references to `a` as that does) of an Amend whose right operand is a marked join: a
    Joined there is written as Amend writes a progression's indices (a slice), without
    the joined vector made; anything else, or where Amend must decide (the value does not
    fit the list, an index out of its range, indices not ascending), the vector and the
    update as ever, its error naming the vector."""
    def update_joined(a, b, holders, op):
        alone = sys.getrefcount(a) == holders + inplace._passing()
        if type(b) is Joined:
            r = _written(a, b, alone)
            if r is not None:
                return r
            b = b.vector()
        try:
            backend = backends.current()
            if alone and backend.is_array(a) and backend.writable_alone(a):
                return structural.amend(a, b, in_place=True)
            return structural.DYADS[":="](a, b)
        except KlongError as e:
            if not e.functions:
                e.in_verb(label, [a, b])
            raise
    return update_joined


def _written(a, joined, alone):
    """a:=c,p for the Joined c,p, as Amend's progression path writes it, or None."""
    backend = backends.current()
    p = joined.progression
    first, step = p.first, p.step
    if not (backend.is_array(a) and a.ndim == 1 and step > 0 and first >= 0
            and array_kind(a) == "i"):
        return None
    last = first + step * (p.count - 1)
    if last >= a.shape[0]:
        return None
    in_place = alone and backend.writable_alone(a)
    positions = first if p.count == 1 else slice(first, last + 1, step)
    return structural._store(a, positions, joined.value, in_place)
