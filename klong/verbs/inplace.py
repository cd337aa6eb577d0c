"""`name::name:=b` run in place: the array in the variable is written instead of copied when
nothing but that variable holds it, so that nobody can see the difference (Klong's values
are immutable). The passes mark such assignments (passes/updates.py); both renderers call
`update` with the variable's value, read straight from its slot.

Whether the value is held elsewhere is told by its Python reference count: every holder (a
variable, a list, a dictionary, a projection, a frame, a Python caller, a numpy view of it)
holds a reference. The caller says how many references it holds itself (`holders`: the
variable's slot, and a local of its own where it keeps the value); any other one means the
value is shared, and the verb runs as usual. What the references cannot show (memory lent by
another library, a torch view or autograd graph) the backend checks (`writable_alone`).
What passing a value to a function of this shape adds to its count differs from one Python
version to another, and within one process too: a frame evaluator that a library's compiler
leaves installed adds references of its own. So it is measured at every update, the same way
the update is called.
"""
import sys

from .. import backends
from . import structural


def update(a, b, holders, op):
    """a:=b for the value a of the variable its result is assigned to; `op` is ":=".
    Written in place when the caller's `holders` references are the only ones to a."""
    if sys.getrefcount(a) == holders + _passing():
        B = backends.current()
        if B.is_array(a) and B.writable_alone(a):
            return structural.amend(a, b, in_place=True)
    return structural.DYADS[":="](a, b)     # (the general list of a MixedNumbers)


def _references(a, b, holders, op):
    """sys.getrefcount(a) as `update` sees it (the same parameters, passed the same way)."""
    return sys.getrefcount(a)


def _passing():
    held = object()                 # one reference, this local
    return _references(held, None, 1, None) - 1
