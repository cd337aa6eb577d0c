"""A tree of integer element-wise verbs in a batched body (`~|/(x=y)|(x=y+d)|x=y-d`, the
n-queens test), with Max-Over and Min-Over (|/ &/) of each row among them, evaluated as one
node: its operands (the tree's leaves) first, in the order
the verbs' own nodes evaluate them (the right operand first), then every verb straight on
the library's arrays, with the checks the verbs' nodes make one by one (kinds, shapes,
magnitudes) made once for the whole tree. Where those checks do not pass (a real, a list of
another shape, a bound beyond int64, ...), the verbs' nodes' own steps run on the operands
already evaluated, as they would have: so the result is always theirs.

The fast path: every operand is an integer of int64, Rows of integers (one number or one
vector per row), or a plain integer vector (the same for every row); every vector of one
length k > 0. Rows of numbers are laid out (n, 1), vectors (n, k) or (k,), so that the
library pairs them as Klong pairs each row's values; |/ and &/ of each row's vector give
its number laid out (n, 1), of a row's number that number. A result's magnitude is bounded from
the operands' as the verbs' nodes bound it (batching._exactly: p+q for + and -, p*q for *,
1 for a comparison and for ~, the larger for | and &, its operand's for |/ and &/); where every bound is within int64,
int64 arithmetic is exact, and the verbs give the same integers."""
import math

from .. import backends
from ..backends import arrays
from ..runtime import limits
from . import VERBS, adverbs, batching
from .batching import Declined, Rows

# the verbs fused: dyad -> the library's operation (a Python operator on arrays), and for
# arithmetic the bound of its result's magnitude from its operands' (+ for + and -, * for *);
# comparisons give 0s and 1s
_COMPARISONS = {"=": "==", "<": "<", ">": ">"}
_ARITHMETIC = {"+": ("+", "+"), "-": ("-", "+"), "*": ("*", "*")}
_EXTREMES = {"|": "maximum", "&": "minimum"}
DYADS = set(_COMPARISONS) | set(_ARITHMETIC) | set(_EXTREMES)
MONADS = {"~"}
_OVERS = {"|": True, "&": False}    # |/ and &/ of each row: whether the largest is kept


def _is_op(plan):
    what = plan[0]
    return what == "dyad" and plan[1] in DYADS or what == "monad" and plan[1] in MONADS \
        or what == "adverb" and plan[1] == "/" and plan[2] in _OVERS


def _operands(plan):
    return plan[2:] if plan[0] == "dyad" else plan[3:4] if plan[0] == "adverb" else plan[2:3]


def fusable(plan):
    """Whether the plan node is such a tree of at least two verbs (one verb is its node's
    direct step already)."""
    return _is_op(plan) and any(_is_op(p) for p in _operands(plan))


def compiled(plan, compile_leaf):
    """The function of a _Run for the tree `plan` (fusable), its leaves made by
    `compile_leaf` (batched._compiled)."""
    leaves = []         # the leaves' functions, in the order they are evaluated
    # a name read again (x in (x=y)|x=y+d) is read once, where the tree assigns nothing
    # (reading has no effect): one operand, checked once
    read = {} if not _assigns(plan) else None
    code = []           # (verb, form: 1 monad, 2 dyad, 3 over; slot of the left operand or
    #                      the only one, of the right)

    def build(p):
        if not _is_op(p):
            if read is not None and p[0] in _READS:
                if p not in read:
                    leaves.append(compile_leaf(p))
                    read[p] = ("leaf", len(leaves) - 1)
                return read[p]
            leaves.append(compile_leaf(p))
            return ("leaf", len(leaves) - 1)
        if p[0] == "monad":
            arg = build(p[2])
            code.append((p[1], 1, arg, None))
        elif p[0] == "adverb":
            arg = build(p[3])
            code.append((p[2], 3, arg, None))
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
            slots.append(step(slots[a], slots[b], n) if form == 2 else step(slots[a], n))
        return slots[-1]
    return fused


_READS = {"x", "y", "get", "read", "up"}     # (batched.py's plan nodes that read a name)


def _assigns(plan):
    return type(plan) is tuple and bool(plan) and (plan[0] == "set" or any(map(_assigns, plan)))


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
    if form == 3:           # as batched.py's node of an adverb
        rule = batching.ADVERBS["/"][op](op, entry.dyad)
        return lambda x, n: rule(x, n) if type(x) is Rows \
            else adverbs.over(entry.dyad, x, entry.reduce, entry.fold)
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


_dtype_kind = arrays.dtype_kind
_COMPARE, _ARITH, _EXTREME, _NOT, _OVER = range(5)


def _plan_of(code, leaves):
    """The fast path's plan for `code`: its steps (what, the library's operation, the bound
    of an arithmetic result from its operands', slots), the slots whose bounds are found
    (every arithmetic result, checked within int64, and the leaves and results its bound
    is made from, through | & |/ and &/: a comparison's bound is 1; and the result's, which
    is remembered), and its programs, made as each signature of the leaves is first met
    (_program)."""
    steps = []
    needed = set()

    def need(slot):
        needed.add(slot)
        if slot < leaves:
            return
        op, form, i, j = code[slot - leaves]
        if form == 3:
            need(i)
        elif form == 2 and (op in _ARITHMETIC or op in _EXTREMES):
            need(i)
            need(j)
    for slot, (op, form, i, j) in enumerate(code, leaves):
        if form == 1:
            steps.append((_NOT, None, None, i, j))
        elif form == 3:
            steps.append((_OVER, _OVERS[op], None, i, j))
        elif op in _COMPARISONS:
            steps.append((_COMPARE, _COMPARISONS[op], None, i, j))
        elif op in _ARITHMETIC:
            steps.append((_ARITH,) + _ARITHMETIC[op] + (i, j))
            need(slot)          # (its bound is checked: within int64, or the verbs' steps)
        else:
            steps.append((_EXTREME, _EXTREMES[op], None, i, j))
    need(leaves + len(code) - 1)        # (the result's bound is remembered)
    return steps, leaves, sorted(needed), {}


# what a slot holds, as the fast path lays it out: a plain integer (the same for every
# row), a number per row ((n,), or (n, 1) beside vectors), a vector per row (n, k), a plain
# vector (k,) the same for every row
_INT, _NUMBER, _VECTOR, _PLAIN = range(4)


def _fast(slots, plan, n):
    """The tree's result by the library's operations on the whole batch, or None where its
    checks do not pass (see the module's docstring). What the leaves are (_INT ... _PLAIN)
    decides every step's operation (_program); what they hold, only the bounds."""
    steps, leaves, needed, programs = plan
    k = None            # the length of every vector
    rows = None         # the array type of the rows (None: no operand is Rows)
    plain = None        # the array type of the plain vectors
    signature = []
    values = []
    for v in slots:
        t = type(v)
        if t is Rows:
            a = v.a
            if _dtype_kind(a.dtype) != "i":
                return None
            if a.ndim == 2:
                if k is None:
                    k = a.shape[1]
                elif a.shape[1] != k:
                    return None
                signature.append(_VECTOR)
            elif a.ndim == 1:
                signature.append(_NUMBER)
            else:
                return None
            rows = type(a)
            values.append(a)
        elif t is int:
            if not limits.INT64_MIN <= v <= limits.INT64_MAX:
                return None
            signature.append(_INT)
            values.append(v)
        elif t in arrays.ARRAY_TYPES and v.ndim == 1 and _dtype_kind(v.dtype) == "i":
            if k is None:
                k = v.shape[0]
            elif v.shape[0] != k:
                return None
            plain = t
            signature.append(_PLAIN)
            values.append(v)
        else:
            return None
    if rows is None or k == 0 or plain is not None and plain is not rows:
        return None     # (no Rows; an empty vector; arrays of two libraries)
    key = tuple(signature)
    program = programs.get(key)
    if program is None:
        program = programs[key] = _program(steps, signature, leaves, needed)
    if program is False:
        return None     # (two plain integers meet, or |/ of a plain vector: the verbs)
    known = limits.current()
    if k is not None:
        limits.check_elements(n * k)    # (a plain vector paired with every row, as _stacked)
        for i in range(leaves):         # (a row's number beside vectors: laid out (n, 1))
            if signature[i] == _NUMBER:
                values[i] = values[i].reshape(n, 1)
    done = program(slots, values, known, backends.current(),
                   (n, k) if n * (1 if k is None else k) <= SMALL_BATCH else None)
    if done is None:
        return None     # (a bound beyond int64: the verbs' steps)
    r, bound, result_is_number = done
    if type(r) is int or r.shape[0] != n:
        raise Declined          # (cannot be: a verb with Rows gives Rows)
    if result_is_number and r.ndim == 2:
        r = r.reshape(n)        # (a row's number, laid out (n, 1) beside vectors)
    if math.prod(r.shape) >= limits.REMEMBERED:
        known.remember(r, bound)
    return Rows.of(r)


def _program(steps, signature, leaves, needed):
    """The fast path for leaves of the kinds `signature`, as one Python function written
    for them and compiled once (a tree's steps one after another, without a loop over
    them that looks each one up: most of the cost of a small batch):
    program(slots, values, known, backend, small) gives (the result, the bound of its
    magnitude, whether it is a number per row), or None where a bound leaves int64; or False
    where two plain integers meet or |/ of a plain vector is asked. `small`: None, or the
    batch's (rows, vectors' length) where it is computed on Python's integers (_small). The bounds first: those of the
    leaves `needed` (from the slots as they came: Rows' bounds, a remembered magnitude),
    then each result's from its operands' (batching._exactly: p+q for + and -, p*q for *,
    1 for a comparison and for ~, the larger for | and &, its operand's for |/ and &/).
    Comparisons give truths (the library's booleans), which | & ~ |/ and &/ combine as
    such (the larger of 0 and 1 is their or); they are made integers where an arithmetic
    verb or a comparison reads them, and at the end."""
    lines = []
    result = leaves + len(steps) - 1
    for slot in needed:
        if slot < leaves:
            lines.append(f"m{slot} = abs(S[{slot}])" if signature[slot] == _INT
                         else f"m{slot} = magnitude(known, S[{slot}])")
            continue
        what, _, bound, i, j = steps[slot - leaves]
        if what == _ARITH:
            lines.append(f"m{slot} = m{i} {bound} m{j}")
            lines.append(f"if m{slot} > INT64_MAX: return None")
        elif what == _EXTREME:
            lines.append(f"m{slot} = max(m{i}, m{j})")
        elif what == _OVER:
            lines.append(f"m{slot} = m{i}")
        else:
            lines.append(f"m{slot} = 1")
    result_is_number = _kinds(steps, signature)[-1] in (_INT, _NUMBER)
    lines.append("if small is not None:")
    lines += ["    " + line for line in _small(steps, signature, leaves, result)]
    lines.append(f"    return r, m{result}, {result_is_number}")
    lines += [f"v{i} = V[{i}]" for i in range(leaves)]
    kinds = list(signature)
    truths = set()
    for here, (what, op, _, i, j) in enumerate(steps, leaves):
        a = kinds[i]
        left = f"astype(v{i}, 'i')" if i in truths and what in (_COMPARE, _ARITH) else f"v{i}"
        if what == _NOT:                # ~ (Not): 1 where 0
            if a == _INT:
                expression = f"int(v{i} == 0)"
            else:
                expression = f"~v{i}" if i in truths else f"v{i} == 0"
                truths.add(here)
            kinds.append(a)
        elif what == _OVER:             # |/ or &/ of each row
            if a == _PLAIN:
                return False    # (a plain vector, the same for every row: the verb, once)
            expression = f"backend.extreme_each_row(v{i}, {op}).reshape(-1, 1)" \
                if a == _VECTOR else f"v{i}"    # (a number is its own fold)
            if i in truths:
                truths.add(here)
            kinds.append(_INT if a == _INT else _NUMBER)
        else:
            b = kinds[j]
            if a == _INT and b == _INT:
                return False
            if _VECTOR in (a, b) or _NUMBER in (a, b) and _PLAIN in (a, b):
                kinds.append(_VECTOR)
            else:
                kinds.append(_NUMBER if _NUMBER in (a, b) else _PLAIN)
            right = f"astype(v{j}, 'i')" if j in truths and what in (_COMPARE, _ARITH) \
                else f"v{j}"
            if what == _COMPARE or what == _ARITH:
                expression = f"{left} {op} {right}"
                if what == _COMPARE:
                    truths.add(here)
            elif i in truths and j in truths:   # | or & of truths: their or, their and
                expression = f"v{i} {'|' if op == 'maximum' else '&'} v{j}"
                truths.add(here)
            else:
                left = f"astype(v{i}, 'i')" if i in truths else f"v{i}"
                right = f"astype(v{j}, 'i')" if j in truths else f"v{j}"
                expression = f"backend.{op}({left}, {right})"
        lines.append(f"v{here} = {expression}")
    r = f"astype(v{result}, 'i')" if result in truths else f"v{result}"
    lines.append(f"return {r}, m{result}, {kinds[-1] in (_INT, _NUMBER)}")
    source = "def program(S, V, known, backend, small):\n    astype = backend.astype\n" \
        + "".join(f"    {line}\n" for line in lines)
    namespace = {"INT64_MAX": limits.INT64_MAX, "magnitude": batching.operand_magnitude}
    exec(compile(source, "<fused>", "exec"), namespace)
    return namespace["program"]


# A batch of at most this many elements (rows times the vectors' length) is computed on
# Python's integers, element by element: on a few elements, a library operation's call
# costs more than the arithmetic of all of them (the n-queens test of a few columns)
SMALL_BATCH = 40


def _kinds(steps, signature):
    """What every slot holds (_INT ... _PLAIN), the leaves' and the steps' results', as
    _program lays them out (a program it declines is never run)."""
    kinds = list(signature)
    for what, _, _, i, j in steps:
        a = kinds[i]
        if what == _NOT:
            kinds.append(a)
        elif what == _OVER:
            kinds.append(_INT if a == _INT else _NUMBER)
        else:
            b = kinds[j]
            if _VECTOR in (a, b) or _NUMBER in (a, b) and _PLAIN in (a, b):
                kinds.append(_VECTOR)
            elif _NUMBER in (a, b):
                kinds.append(_NUMBER)
            else:
                kinds.append(_PLAIN if _PLAIN in (a, b) else _INT)
    return kinds


def _small(steps, signature, leaves, result):
    """The lines of a program's small path (SMALL_BATCH): the leaves as Python lists, the
    tree written out as one expression on each row's (i) and each element's (j) integers,
    and `r` the library's int64 array of the results: the same integers as the library's
    steps give (every bound is within int64, checked before; a comparison's truth is 0 or
    1, ~ of a number is its comparison with 0, | and & the larger and the smaller, |/ and
    &/ of each row its largest and smallest element)."""
    kinds = _kinds(steps, signature)
    laid_out = _VECTOR in signature or _PLAIN in signature   # (numbers as (n, 1))

    truths = set()      # the slots that hold truths (Python's booleans): and/or/not/any/all

    def expression(slot):
        kind = kinds[slot]
        if slot < leaves:
            if kind == _INT:
                return f"v{slot}"
            if kind == _NUMBER:
                return f"v{slot}[i][0]" if laid_out else f"v{slot}[i]"
            return f"v{slot}[i][j]" if kind == _VECTOR else f"v{slot}[j]"
        what, op, _, i, j = steps[slot - leaves]
        inner = expression(i)       # (its truths known once it is written)
        if what == _NOT:
            if i in truths:
                truths.add(slot)
                return f"(not {inner})"
            return f"({inner} == 0)"
        if what == _OVER:
            if kinds[i] != _VECTOR:
                if i in truths:
                    truths.add(slot)
                return inner        # (a row's number is its own fold)
            if i in truths:
                truths.add(slot)
                return f"{'any' if op else 'all'}([{inner} for j in K])"
            return f"{'max' if op else 'min'}([{inner} for j in K])"
        left, right = inner, expression(j)
        if what == _EXTREME:
            if i in truths and j in truths:
                truths.add(slot)
                return f"({left} {'or' if op == 'maximum' else 'and'} {right})"
            return f"{'max' if op == 'maximum' else 'min'}({left}, {right})"
        if what == _COMPARE:
            truths.add(slot)
        return f"({left} {op} {right})"
    lines = [f"v{i} = V[{i}]" if signature[i] == _INT else f"v{i} = V[{i}].tolist()"
             for i in range(leaves)]
    lines.append("N = range(small[0])")
    if laid_out:
        lines.append("K = range(small[1])")
    if kinds[result] == _VECTOR:
        lines.append(f"r = [[int({expression(result)}) for j in K] for i in N]")
    else:
        lines.append(f"r = [int({expression(result)}) for i in N]")
    lines.append("r = backend.asarray(r, 'i')")
    return lines
