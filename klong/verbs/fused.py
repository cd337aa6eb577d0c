"""A tree of integer element-wise verbs in a batched body (`(x=y)|(x=y+d)|x=y-d`, the
n-queens test) evaluated as one node: its operands (the tree's leaves) first, in the order
the verbs' own nodes evaluate them (the right operand first), then every verb straight on
the library's arrays, with the checks the verbs' nodes make one by one (kinds, shapes,
magnitudes) made once for the whole tree. Where those checks do not pass (a real, a list of
another shape, a bound beyond int64, ...), the verbs' nodes' own steps run on the operands
already evaluated, as they would have: so the result is always theirs.

The fast path: every operand is an integer of int64, Rows of integers (one number or one
vector per row), or a plain integer vector (the same for every row); every vector of one
length k > 0. Rows of numbers are laid out (n, 1), vectors (n, k) or (k,), so that the
library pairs them as Klong pairs each row's values. A result's magnitude is bounded from
the operands' as the verbs' nodes bound it (batching._exactly: p+q for + and -, p*q for *,
1 for a comparison and for ~, the larger for | and &); where every bound is within int64,
int64 arithmetic is exact, and the verbs give the same integers."""
import math
import operator

from .. import backends
from ..backends import arrays
from ..runtime import limits
from . import VERBS, batching
from .batching import Declined, Rows

# the verbs fused: dyad -> (the library's operation, the bound of its result's magnitude
# from its operands'); comparisons give 0s and 1s
_COMPARISONS = {"=": operator.eq, "<": operator.lt, ">": operator.gt}
_ARITHMETIC = {"+": (operator.add, operator.add), "-": (operator.sub, operator.add),
               "*": (operator.mul, operator.mul)}
_EXTREMES = {"|": "maximum", "&": "minimum"}
DYADS = set(_COMPARISONS) | set(_ARITHMETIC) | set(_EXTREMES)
MONADS = {"~"}


def _is_op(plan):
    return plan[0] == "dyad" and plan[1] in DYADS or plan[0] == "monad" and plan[1] in MONADS


def fusable(plan):
    """Whether the plan node is such a tree of at least two verbs (one verb is its node's
    direct step already)."""
    if not _is_op(plan):
        return False
    operands = plan[2:] if plan[0] == "dyad" else plan[2:3]
    return any(_is_op(p) for p in operands)


def compiled(plan, compile_leaf):
    """The function of a _Run for the tree `plan` (fusable), its leaves made by
    `compile_leaf` (batched._compiled)."""
    leaves = []         # the leaves' functions, in the order they are evaluated
    code = []           # (verb, form, slot of the left operand or the monad's, of the right)

    def build(p):
        if not _is_op(p):
            leaves.append(compile_leaf(p))
            return ("leaf", len(leaves) - 1)
        if p[0] == "monad":
            arg = build(p[2])
            code.append((p[1], 1, arg, None))
        else:
            right = build(p[3])         # the right operand first, as Klong evaluates them
            left = build(p[2])
            code.append((p[1], 2, left, right))
        return ("op", len(code) - 1)

    build(plan)
    code = [(op, form, _index(a, len(leaves)), _index(b, len(leaves)))
            for op, form, a, b in code]
    steps = [_step(op, form) for op, form, _, _ in code]
    fast = _plan_of(code, len(leaves))

    def fused(run):
        slots = [leaf(run) for leaf in leaves]
        r = _fast(slots, fast, run.n)
        if r is not None:
            return r
        n = run.n               # the verbs' nodes' steps, on the operands evaluated
        for step, (_, form, a, b) in zip(steps, code):
            slots.append(step(slots[a], n) if form == 1 else step(slots[a], slots[b], n))
        return slots[-1]
    return fused


def _index(ref, leaves):
    """The slot of a leaf or of a verb's result: the leaves first, then the results."""
    if ref is None:
        return None
    return ref[1] if ref[0] == "leaf" else leaves + ref[1]


def _step(op, form):
    """The step of the verb's own node in a batched body (batched._compiled): for these
    dyads the library's operation straight (batching.direct_rows) and else the rule, the
    verb itself where no operand is Rows."""
    entry = VERBS[op]
    if form == 1:
        verb, rule = entry.monad, entry.batch_monad
        return lambda x, n: rule(x, n) if type(x) is Rows else verb(x)
    direct, rule, verb = batching.DIRECT[op], entry.batch_dyad, entry.dyad
    direct_rows = batching.direct_rows

    def dyad(a, b, n):
        if type(a) is Rows:
            r = direct_rows(direct, a, b, n, True)
        elif type(b) is Rows:
            r = direct_rows(direct, b, a, n, False)
        else:
            return verb(a, b)
        return r if type(r) is Rows else rule(a, b, n)
    return dyad


_DTYPE_KINDS = arrays.DTYPE_KINDS       # (filled in place as backends load)
_COMPARE, _ARITH, _EXTREME, _NOT = range(4)


def _plan_of(code, leaves):
    """The fast path's steps for `code` (what, the library's operation, the bound of an
    arithmetic result from its operands', slots), and the leaves whose bounds they read:
    those under an arithmetic verb through | and & (a comparison's bound is 1)."""
    steps = []
    needed = set()

    def need(slot):
        if slot < leaves:
            needed.add(slot)
            return
        op, form, i, j = code[slot - leaves]
        if form == 2 and (op in _ARITHMETIC or op in _EXTREMES):
            need(i)
            need(j)
    for op, form, i, j in code:
        if form == 1:
            steps.append((_NOT, None, None, i, j))
        elif op in _COMPARISONS:
            steps.append((_COMPARE, _COMPARISONS[op], None, i, j))
        elif op in _ARITHMETIC:
            steps.append((_ARITH,) + _ARITHMETIC[op] + (i, j))
            need(i)
            need(j)
        else:
            steps.append((_EXTREME, _EXTREMES[op], None, i, j))
    need(leaves + len(code) - 1)        # (the result's bound is remembered)
    return steps, needed


def _fast(slots, plan, n):
    """The tree's result by the library's operations on the whole batch, or None where its
    checks do not pass (see the module's docstring). Comparisons give truths (the
    library's booleans), which | & and ~ combine as such (the larger of 0 and 1 is their
    or); they are made integers where an arithmetic verb reads them, and at the end."""
    steps, needed = plan
    # the operands, each once (x read three times is one operand): their kinds and lengths
    distinct = {}
    k = None            # the length of every vector
    rows = None         # the array type of the rows (None: no operand is Rows)
    for v in slots:
        if id(v) in distinct:
            continue
        distinct[id(v)] = v
        t = type(v)
        if t is Rows:
            a = v.a
            if _DTYPE_KINDS.get(a.dtype) != "i" or a.ndim > 2:
                return None
            if a.ndim == 2:
                if k is None:
                    k = a.shape[1]
                elif a.shape[1] != k:
                    return None
            rows = type(a)
        elif t is int:
            if not limits.INT64_MIN <= v <= limits.INT64_MAX:
                return None
        elif t in arrays.ARRAY_TYPES and v.ndim == 1 and _DTYPE_KINDS.get(v.dtype) == "i":
            if k is None:
                k = v.shape[0]
            elif v.shape[0] != k:
                return None
        else:
            return None
    if rows is None or k == 0:
        return None
    known = limits.current()
    if k is not None:
        limits.check_elements(n * k)    # (a plain vector paired with every row, as _stacked)
    # each operand's array as the library pairs it, and where read its bound
    values = []
    bounds = []
    for slot, v in enumerate(slots):
        t = type(v)
        if t is Rows:
            a = v.a
            values.append(a.reshape(n, 1) if k is not None and a.ndim == 1 else a)
        elif t is int:
            values.append(v)
        elif t is rows:
            values.append(v)
        else:
            return None         # (an array of another library than the rows')
        if slot in needed:
            bounds.append(abs(v) if t is int else batching.operand_magnitude(known, v))
        else:
            bounds.append(0)    # (not read)
    truths = set()              # the slots that hold truths
    backend = backends.current()
    for what, fn, bound, i, j in steps:
        here = len(values)
        a = values[i]
        if what == _NOT:        # ~ (Not): 1 where 0
            if i in truths:
                values.append(~a)
                truths.add(here)
            elif type(a) is int:
                values.append(int(a == 0))
            else:
                values.append(a == 0)
                truths.add(here)
            bounds.append(1)
            continue
        b = values[j]
        if type(a) is int and type(b) is int:
            return None         # two plain numbers: the verb's own Python integers
        if what == _COMPARE:
            if i in truths or j in truths:
                a, b = _integer(backend, a, i, truths), _integer(backend, b, j, truths)
            values.append(fn(a, b))
            truths.add(here)
            bounds.append(1)
        elif what == _ARITH:
            most = bound(bounds[i], bounds[j])
            if most > limits.INT64_MAX:
                return None
            values.append(fn(_integer(backend, a, i, truths), _integer(backend, b, j, truths)))
            bounds.append(most)
        else:
            if i in truths and j in truths:
                values.append(a | b if fn == "maximum" else a & b)
                truths.add(here)
            else:
                values.append(getattr(backend, fn)(_integer(backend, a, i, truths),
                                                   _integer(backend, b, j, truths)))
            bounds.append(max(bounds[i], bounds[j]))
    r = _integer(backend, values[-1], len(values) - 1, truths)
    if type(r) is int or r.shape[0] != n:
        raise Declined          # (cannot be: a verb with Rows gives Rows)
    if math.prod(r.shape) >= limits.REMEMBERED:
        known.remember(r, bounds[-1])
    return Rows.of(r)


def _integer(backend, v, slot, truths):
    """The value in `slot` as integers (0s and 1s where it holds truths)."""
    return backend.astype(v, "i") if slot in truths else v
