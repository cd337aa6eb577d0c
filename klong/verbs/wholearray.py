"""What whole-array forms run: the library's products for the spellings of inner and matrix
products, the mask and select of a conditional over an array, folds of a mapped array, and
Each as one trace of a function free of effects (Backend.vmap).

A product runs on the library when its operands are numeric and the integers among them
small enough that a float64 product is exact (its magnitude bound below 2^53); otherwise the
Klong spelling runs as written. The matrix products sum reals in the library's order, which
may differ from the loop's in the last bits (docs/numbers.md); `+/x*u` of two vectors sums in
the order of `+/` (Backend.fold_reals).
"""
import math

from .. import backends
from ..backends.base import SEQUENTIAL_ROWS
from . import batched, folds
from ..runtime import kinds, limits, values
from ..runtime.functions import Lambda
from ..runtime.values import Dict, Function

# integers below these are exact in the reals of each dtype
EXACT_FLOAT_INT = {"float64": 2**53, "float32": 2**24, "bfloat16": 2**8, "float16": 2**11}


# ------------------------------------------------------------------ run-time helpers

def _magnitude(a):
    lo, hi = backends.current().bounds(a)
    return max(hi, -lo)


def product(a, b):
    """a @ b for numeric arrays, as Klong's sums of products would give it, or None."""
    ka, kb = kinds.kind(a), kinds.kind(b)
    if ka is None or kb is None or a.shape[-1] == 0:
        return None
    backend = backends.current()
    limits.check_elements(math.prod(a.shape[:-1]) * math.prod(b.shape[1:]))
    if ka == "f" or kb == "f":
        if ka != kb:
            a, b = kinds.operands(a, b)     # (two reals: as they are)
        r = a @ b
        # under mixed precision (amp) the product is reduced; the value kept is not
        return r if backend.amp_dtype is None else backend.astype(r, "f")
    # integers: exact through a real product while every partial sum stays below 2^53 (or
    # what the interpreter's reals hold exactly)
    if _magnitude(a) * _magnitude(b) * a.shape[-1] >= EXACT_FLOAT_INT.get(backend.dtype, 0):
        return None
    with backend.full_precision():
        return backend.astype(backend.astype(a, "f") @ backend.astype(b, "f"), "i")


def dot(a, b):
    """+/a*b for two real vectors of one length, as the library's inner product, or None
    (integers sum exactly through the verbs already); being differentiated, for a vector
    and a vector or matrix, the backend's step for it, else None."""
    if not (values.is_array(a) and values.is_array(b)):
        return None
    backend = backends.current()
    if backend.is_tracked_within(a) or backend.is_tracked_within(b):
        return _differentiated(backend, a, b)
    if a.ndim == 1 and b.ndim == 1 and a.shape[0] == b.shape[0] and a.shape[0] > 0 \
            and values.array_kind(a) == "f" and values.array_kind(b) == "f":
        # summed in the order of +/ (Backend.fold_reals), not the library's dot product's:
        # the same digits as the verbs give, on every backend; the product is a temporary
        # the sum may overwrite
        with backend.quiet():
            return values.scalar(backend.sum_of_products(a, b))
    return None


def _differentiated(backend, a, b):
    """+/a*b being differentiated in the loop of a traced Each, a row batched by the
    library's vmap times a vector or matrix of as many rows, the same for every row: the
    step the batched Each takes for all rows (verbs/batched.py, rows_by), on the batch, so
    that the loop's gradient is the batch's to the bit; None for anything else (the verbs
    then)."""
    row, w = (b, a) if backend.unbatched(b) is not b else (a, b)
    if not (row.ndim == 1 and 0 < row.shape[0] <= SEQUENTIAL_ROWS and w.ndim in (1, 2)
            and w.shape[0] == row.shape[0] and 0 not in tuple(w.shape)):
        return None
    kinds_of = {values.array_kind(row), values.array_kind(w)}
    if "f" not in kinds_of or not kinds_of <= {"i", "f"}:
        return None
    return backend.rows_step(batched.rows_by, row, w)


def sum_of_product(p):
    """+/p for p, the fresh result of a product (nothing else holds it): summed in the order
    of +/, overwriting p as it goes, when p is a real array; None otherwise."""
    if values.is_array(p) and p.shape[0] > 0 and values.array_kind(p) == "f":
        backend = backends.current()
        if not backend.is_tracked(p):
            with backend.quiet():
                return values.scalar(backend.fold_reals("+", p, fresh=True))
    return None


def rows_dot(m, v):
    """[+/r*v for each row r of m]: the matrix-vector product m @ v, or None."""
    if values.is_array(m) and values.is_array(v) and m.ndim == 2 and v.ndim == 1 \
            and m.shape[0] > 0 and m.shape[1] == v.shape[0]:
        return product(m, v)
    return None


def rows_product(x, m):
    """For each row r of x, [+/r*c for each row c of m]: x @ m^T, or None."""
    if values.is_array(x) and values.is_array(m) and x.ndim == 2 and m.ndim == 2 \
            and x.shape[0] > 0 and m.shape[0] > 0 and x.shape[1] == m.shape[1]:
        return product(x, m.T)
    return None


def mask(p, x):
    """The predicate p of a conditional, evaluated on all of the vector x, as the choice
    for select; None unless it is one number per element."""
    if values.is_array(p) and x.ndim == 1 and p.shape == x.shape and kinds.kind(p) is not None:
        return p != 0
    return None


def select(choice, a, b):
    """a where choice holds, else b; None when a and b are not numbers of one kind."""
    ka = kinds.kind(a)
    if ka is None or ka != kinds.kind(b):
        return None
    return backends.current().select(choice, a, b)


def whole_result(r, x):
    """r when it is one result per element of x, else None: an array, or the strings Format
    writes for a vector (a Python list; numeric verbs give no strings)."""
    if values.is_array(r):
        return r if r.shape[0] == x.shape[0] else None
    if type(r) is list and x.ndim == 1 and len(r) == x.shape[0] and type(r[0]) is str:
        return r
    return None


def joined_texts(texts, text, before):
    """Each string of `texts` (Format's list, one per element) joined to `text`, before it
    where `before`: what `,` gives on each, text beside text; anything else (Format of a
    matrix) raises, and the loop runs."""
    if type(texts) is not list:
        raise TypeError("not one text per element")
    if before:
        return [text + t for t in texts]
    return [t + text for t in texts]


def mapped_fold(op, mapped, running):
    """f/a (running: f\\a) for f::{x+g(y)} or {x*g(y)} and a numeric vector a: a's first
    element followed by g of the others, reduced (accumulated) by the library; None where
    that does not hold (g declines, or a running fold would change the first item's kind)."""
    def fold(a):
        if not (values.is_array(a) and a.ndim == 1 and a.shape[0] > 1 and kinds.kind(a)):
            return None
        rest = mapped(a[1:])
        if rest is None or rest.ndim != 1 or running and kinds.kind(rest) != kinds.kind(a):
            return None
        joined = backends.current().concat([a[:1], rest])
        if running:
            return folds.running_fold(op, joined)
        if kinds.kind(joined) == "f":
            # reals left to right, as the loop adds them: the last of the running fold
            return values.scalar(folds.running_fold(op, joined)[-1])
        return folds.fold(op, joined)
    return fold


def joined(text):
    """f/a for f::{x,text,y} (text "" for {x,y}) when a is a list of strings or a string:
    its strings (characters) joined with text, at once rather than one copy of the text so
    far per item; None for any other list."""
    def fold(a):
        if type(a) is str or type(a) is list and all(type(e) is str for e in a):
            return text.join(a)
        return None
    return fold


def is_python_number(v):
    t = type(v)
    return t is int or t is float


def is_dot(f):
    """Whether the function value f is an inner product ({+/x*y})."""
    facts = getattr(f, "facts", None)
    return facts is not None and facts.dot


def _effect_free(fn, seen):
    """Whether calling the Lambda fn can change nothing but its own locals: neither it nor a
    function it reads through a global assigns anything else, reads a dictionary (Join
    changes one in place) or calls a system function."""
    facts = fn.facts
    if facts.effects or facts.globals is None:
        return False
    seen.add(fn)
    for key in facts.reads:
        v = facts.globals.get(key)
        if isinstance(v, Lambda):
            if v not in seen and not _effect_free(v, seen):
                return False
        elif isinstance(v, Function):
            if not getattr(v, "pure", False):
                return False
        elif isinstance(v, Dict):
            return False
    return True


# A trace costs as much as a loop over about this many elements (torch on a CPU: some 100 us
# against some 10 us a row, under 1 us a number: a row's elements are arrays, a vector's
# plain Python numbers): over fewer, Each loops (a tree's three-element leaves, say)
TRACED_ROWS = 16
TRACED_NUMBERS = 64


def too_short_to_trace(a):
    """Whether Each loops over the array a, too short for a trace to pay."""
    return a.shape[0] < (TRACED_NUMBERS if a.ndim == 1 else TRACED_ROWS)


def traced_each(fn):
    """f'a for the Lambda fn by tracing it over the whole array a (Backend.vmap, torch), or
    None when fn may have effects or a is short (TRACED_ROWS): a trace runs the body once,
    not once per element, and a trace that fails is followed by the loop. Whether fn has
    effects is asked at each call (the functions it reads may have been defined again
    since)."""
    untraced = fn.facts.untraced

    def each(a):
        backend = backends.current()
        if not backend.traces or too_short_to_trace(a):
            return None     # (before the guard, which runs fn on the first element)
        key = (a.dtype, tuple(a.shape[1:]))
        if key in untraced or not _effect_free(fn, set()):
            return None
        _guard(fn, a)
        # the function itself, not capture's runner in its place (which stands by inside a
        # trace anyway, and which torch's compiler before 2.13 could not trace into)
        r = backend.vmap(getattr(fn.run, "plain", fn.run), a)
        if r is None:
            untraced.add(key)
        return r
    return each


def _guard(fn, a):
    """Under a memory limit, refuse a traced Each whose result would be over it: the size
    is that of fn's result on the first element, times the count (fn has no effects)."""
    memory = limits.current().memory
    if memory is not None and memory.limit is not None and a.shape[0]:
        first = fn.run(backends.current().items(a[:1])[0])
        limits.check_elements(a.shape[0] * limits.elements_of(first))


RUNTIME = {
    "PRODUCT": product, "DOT": dot, "ROWS_DOT": rows_dot, "ROWS_PRODUCT": rows_product,
    "MASK": mask, "SELECT": select, "WHOLE_RESULT": whole_result, "IS_NUMBER": is_python_number,
    "IS_DOT": is_dot,
}


