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
from .. import backends
from ..errors import KlongError, from_python
from ..runtime.limits import INT64_MAX, INT64_MIN, check_elements
from ..runtime.limits import current as current_limits
from . import VERBS
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

    def after(self, c):
        """c,p for an integer c that fits int64: as Join makes it (one element more than
        the size guard has seen), and remembers it (a progression from its second
        element on)."""
        check_elements(self.count + 1)
        backend = backends.current()
        r = backend.concat((backend.asarray([c], "i"), self.vector(False)))
        current_limits().remember(r, max(abs(c), self.bound()), (self.first, self.step, 1))
        return r


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
    if not _fits(c):
        return None
    if op == "*":
        q = Progression(p.first * c, p.step * c, p.count)
    elif op == "+":
        q = Progression(p.first + c, p.step, p.count)
    elif p_first:                   # p - c
        q = Progression(p.first - c, p.step, p.count)
    else:                           # c - p
        q = Progression(c - p.first, -p.step, p.count)
    return q if _fits(q.first) and _fits(q.last()) else None


def dyad(op, label, last):
    """The function of a marked dyad `op` (+ - *, or the join of a number before) of a
    Progression: a Progression where its other operand is a Python integer, the vector at
    the chain's `last` dyad (a join's); otherwise the verb on the vector, its error naming
    the verb and the operands as they were written."""
    verb = VERBS[op].dyad
    join = op == ","

    def apply(a, b):
        p_first = type(a) is Progression
        p, c = (a, b) if p_first else (b, a)
        if type(p) is Progression and type(c) is int:
            if join:
                if _fits(c):
                    return p.after(c)
            else:
                q = _moved(op, p, c, p_first)
                if q is not None:
                    return q.vector() if last else q
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
    return apply
