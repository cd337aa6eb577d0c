"""The whole-array form of a function literal (Lambda.whole, settled by passes/wholes.py)
rendered as Python source: `def wholeN(x)` beside the literal's `run`, in its factory,
which applies the literal to every element of a numeric array at once, or gives None where
it cannot (Each then loops; see verbs/wholearray.py for what the helpers it calls do).

The passes decide which literals have one and what it is, so writing it never fails midway
and decides nothing: an element-wise body (ir.Whole) evaluates every branch of a
conditional on all elements and picks with a mask, and any failure at run time (a zero divisor in a branch not taken, say) or a result
that is not one number per element gives None; ir.RowsDot and ir.RowsProduct are the
library's matrix products; ir.Batched, a body evaluated once for all rows of a matrix
(verbs/batched.py).
"""
from ..lower import ir
from ...verbs import VERBS, batched, wholearray
from .pyparts import VARIABLE, Level, Operand


def write(r, fn, form=None):
    """Emit `def wholeN(x)` for the literal `fn` with the Renderer `r`, at its current
    place (the literal's factory); returns its name. `form`: the literal's whole form
    (fn.whole), or the one a Batched form tries first."""
    form = form or fn.whole
    first = write(r, fn, form.first) if isinstance(form, ir.Batched) and form.first else None
    name = r.fresh("whole")
    body = []
    # at the literal's level (its outer names read as from its body), x being the array
    with r.at_level(Level(r.level, fn)), r.writing(body):
        if isinstance(form, ir.RowsProduct):
            if form.dot is not None:
                r.emit(f"if not IS_DOT({r.expr(form.dot)}): return None")
            r.emit(f"return ROWS_PRODUCT(x, {r.expr(form.matrix)})")
        elif isinstance(form, ir.RowsDot):
            r.emit(f"return ROWS_DOT(x, {r.expr(form.vector)})")
        elif isinstance(form, ir.Batched):
            if first is not None:
                # (not for a caller's rows: the body on them, as it is called)
                tried = r.assign(f"{first}(x)" if fn.arity == 2
                                 else f"None if caller is not None else {first}(x)")
                r.emit(f"if {tried} is not None: return {tried}")
            if batched.assigns(form.plan):
                r.emit("if HOOKS: return None")     # (hooks see each row's assignment)
            names = ", ".join(str(r.expr(n)) for n in form.reads)
            rows_body = r.const(batched.compiled(form.plan))
            if fn.arity == 2:
                # (a call of the literal in another batched body: verbs/batched.py _call_dyad)
                r.emit(f"if caller is not None: "
                       f"return BATCH_CALLED({rows_body}, x, [{names}], caller, y)")
                r.emit(f"return BATCH_PAIRS({rows_body}, x, y, [{names}], rows)")
            else:
                # a call of the literal in another batched body (verbs/batched.py _call)
                r.emit(f"if caller is not None: "
                       f"return BATCH_CALLED({rows_body}, x, [{names}], caller)")
                r.emit(f"return BATCH_EACH({rows_body}, x, [{names}])")
        else:
            r.emit(f"return WHOLE_RESULT({elementwise(r, form.expr)}, x)")
    dyadic = isinstance(form, ir.Batched) and fn.arity == 2
    if dyadic:
        r.emit(f"def {name}(x, y, rows, caller=None):")     # (LambdaFacts.batched)
    elif isinstance(form, ir.Batched):
        r.emit(f"def {name}(x, caller=None):")     # (LambdaFacts.batched)
    else:
        r.emit(f"def {name}(x):")
    with r.indented():
        r.emit("try:")
        r.put(body)
        r.emit("except Exception:")
        with r.indented():
            r.emit("return None")
    return name


def elementwise(r, node):
    """Emit the evaluation of the node `node` of a Whole's expression over the array x;
    returns the Operand of its value."""
    return _RULES[type(node)](r, node)


def _scalar(r, node):
    value = r.expr(node.read)
    r.emit(f"if not IS_NUMBER({value}): return None")
    return value


def _map(r, node):
    if len(node.args) == 1:
        a = elementwise(r, node.args[0])
        return r.assign(f"{r.bind(VERBS[node.op].monad, 'M')}({a})")
    b = elementwise(r, node.args[1])
    a = elementwise(r, node.args[0])
    return r.assign(f"{r.bind(VERBS[node.op].dyad, 'V')}({a}, {b})")


def _joined(r, node):
    texts = elementwise(r, node.texts)
    return r.assign(f"{r.bind(wholearray.joined_texts, 'JOINED')}({texts}, "
                    f"{r.bind(node.text, 'TEXT')}, {node.before})")


def _select(r, node):
    """select(c, a, b), clause by clause from the last."""
    result = elementwise(r, node.otherwise)
    for predicate, consequent in reversed(node.clauses):
        choice = r.assign(f"MASK({elementwise(r, predicate)}, x)")
        r.emit(f"if {choice} is None: return None")
        value = elementwise(r, consequent)
        result = r.assign(f"SELECT({choice}, {value}, {result})")
        r.emit(f"if {result} is None: return None")
    return result


# one rule per node of a Whole's expression
_RULES = {
    ir.Const: lambda r, node: r.const(node.value),
    ir.Elements: lambda r, node: Operand("x", VARIABLE),
    ir.Scalar: _scalar,
    ir.Map: _map,
    ir.Select: _select,
    ir.Joined: _joined,
}
