"""The whole-array form of a function literal (Facts.whole, settled by passes/wholes.py)
rendered as Python source: `def wholeN(x)` beside the literal's `run`, in its factory,
which applies the literal to every element of a numeric array at once, or gives None where
it cannot (Each then loops; see render/wholes.py for what the helpers it calls do).

The passes decide which literals have one, so writing it never fails midway: an element-wise
body (ir.Whole) evaluates every branch of a conditional on all elements and picks with a
mask, and any failure at run time (a zero divisor in a branch not taken, say) or a result
that is not one number per element gives None; ir.RowsDot and ir.RowsProduct are the
library's matrix products.
"""
from ..lower import ir
from ...verbs import VERBS
from .pyparts import VARIABLE, Level, Operand


def write(r, fn):
    """Emit `def wholeN(x)` for the literal `fn` with the Renderer `r`, at its current
    place (the literal's factory); returns its name."""
    form = fn.facts.whole
    name = r.fresh("whole")
    # the literal's level again, its variables that equal the array (form.same) being x
    level = Level(r.level, fn)
    for n in form.same:
        level.names[n] = Operand("x", VARIABLE)
    body = []
    with r.at_level(level), r.writing(body):
        if isinstance(form, ir.RowsProduct):
            if form.dot is not None:
                r.emit(f"if not IS_DOT({r.expr(form.dot)}): return None")
            r.emit(f"return ROWS_PRODUCT(x, {r.expr(form.matrix)})")
        elif isinstance(form, ir.RowsDot):
            r.emit(f"return ROWS_DOT(x, {r.expr(form.vector)})")
        else:
            r.emit(f"return WHOLE_RESULT({elementwise(r, form.expr, form.same)}, x)")
    r.emit(f"def {name}(x):")
    with r.indented():
        r.emit("try:")
        r.put(body)
        r.emit("except Exception:")
        with r.indented():
            r.emit("return None")
    return name


def elementwise(r, node, same):
    """Emit the element-wise evaluation of `node` over the array x (the names `same`);
    returns the Operand of its value."""
    if isinstance(node, ir.Const):
        return r.const(node.value)
    if isinstance(node, ir.Local) and node.depth == 0 and node.name in same:
        return r.expr(node)
    if isinstance(node, (ir.Local, ir.Global)):
        value = r.expr(node)
        r.emit(f"if not IS_NUMBER({value}): return None")
        return value
    if isinstance(node, ir.Monad):
        a = elementwise(r, node.arg, same)
        return r.assign(f"{r.bind(VERBS[node.verb.op].monad, 'M')}({a})")
    if isinstance(node, ir.Dyad):
        b = elementwise(r, node.right, same)
        a = elementwise(r, node.left, same)
        return r.assign(f"{r.bind(VERBS[node.verb.op].dyad, 'V')}({a}, {b})")
    return conditional(r, node, same)


def conditional(r, node, same):
    """:[c;a;b] as select(c, a, b), clause by clause from the last."""
    result = elementwise(r, node.otherwise, same)
    for predicate, consequent in reversed(node.clauses):
        choice = r.assign(f"MASK({elementwise(r, predicate, same)}, x)")
        r.emit(f"if {choice} is None: return None")
        value = elementwise(r, consequent, same)
        result = r.assign(f"SELECT({choice}, {value}, {result})")
        r.emit(f"if {result} is None: return None")
    return result
