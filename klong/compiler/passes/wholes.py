"""Whole-array forms of function literals (Lambda.whole): what Each runs instead of a loop.

Three shapes of a monad's body have one (the statements before the last may only copy x
into locals, which then stand for x too):

- element-wise: x, numbers, numbers read from other names, numeric atomic verbs and
  conditionals (`Whole`, its expression made of ir.Elements, Const, Scalar, Map and Select,
  decided here once: renderers only render it): every branch of a conditional is evaluated
  on every element and the results picked by a mask, so a renderer gives None (the loop
  runs) on any failure; Format of such an expression (`{$x*7}`) too, as the last verb
  applied: Format is atomic, and writes a vector of numbers at once, and that text joined
  to a constant text (`{($x),","}`, `Joined`);
- `+/x*u` for a vector u (`RowsDot`): one matrix-vector product;
- a row's products with the rows of a matrix m, `x{+/x*y}:/m`, `x{+/x*y}:\\m` or
  `{+/r*x}'m` with r a copy of x (`RowsProduct`): Each of it over a matrix is a matrix
  product.

A dyad {x+g(y)} or {x*g(y)} (either order) with an element-wise g gets g's whole form and
a fold_op in its facts: Over and Scan then fold g of the elements with the library.
"""
from ..lower import ir
from ...runtime.values import Char
from .shapes import is_dot_literal, is_local, is_number, numeric_verb, plus_over_times


def settle(fn):
    if fn.arity == 1:
        fn.whole = monad_whole(fn)
    elif fn.arity == 2 and fn.facts.dyad_op is None:
        found = fold_whole(fn)
        if found is not None:
            fn.whole, fn.facts.fold_op = found


def monad_whole(fn):
    found = _aliases(fn)
    if found is None:
        return None
    same, expr = found
    at = _at(fn)
    rows = _row_products(expr, same)
    if rows is not None:
        return ir.RowsProduct(*rows, **at)
    vector = _row_dot(expr, same)
    if vector is not None:
        return ir.RowsDot(vector, **at)
    elementwise = _elementwise(expr, same) or _formatted(expr, same)
    return None if elementwise is None else ir.Whole(elementwise, **at)


def _formatted(node, same):
    """Format applied last to an element-wise expression, as a Whole's expression (a list
    of strings, one per element), or such text joined to a constant text, before or after
    it (`($x),","`: a field of a line), else None."""
    if isinstance(node, ir.Monad) and node.verb.primitive and node.verb.op == "$":
        arg = _elementwise(node.arg, same)
        if arg is not None:
            return ir.Map("$", [arg], **_at(node))
    if isinstance(node, ir.Dyad) and node.verb.primitive and node.verb.op == ",":
        for formatted, text, before in ((node.left, node.right, False),
                                        (node.right, node.left, True)):
            if _is_text(text):
                texts = _formatted(formatted, same)
                if texts is not None:
                    return ir.Joined(str(text.value), before, texts, **_at(node))
    return None


def _is_text(node):
    """Whether `node` is a constant string or character (not a symbol: joined to a string,
    it makes a list)."""
    return isinstance(node, ir.Const) and type(node.value) in (str, Char)


def fold_whole(fn):
    """(the whole form of g, '+' or '*') for {x+g(y)} or {x*g(y)}, else None."""
    if len(fn.body) != 1 or fn.locals or fn.outer_params:
        return None
    body = fn.body[0]
    if not (isinstance(body, ir.Dyad) and body.verb.primitive and body.verb.op in ("+", "*")):
        return None
    for mine, mapped in ((body.left, body.right), (body.right, body.left)):
        if is_local(mine, ("x",)) and not is_local(mapped, ("y",)) and _reads_only(mapped, "y"):
            elementwise = _elementwise(mapped, frozenset("y"))
            if elementwise is not None:
                return ir.Whole(elementwise, **_at(fn)), body.verb.op
    return None


def _at(node):
    return {"line": node.line, "column": node.column}


def _aliases(fn):
    """The names equal to x in a monad's body ({[r];r::x;...}: x and r) and its last
    expression, when the statements before it only copy x into locals; else None."""
    if fn.outer_params or "x" in fn.locals:
        return None
    same = {"x"}
    for s in fn.body[:-1]:
        if isinstance(s, ir.SetLocal) and s.depth == 0 and s.name in fn.locals \
                and is_local(s.value, same):
            same.add(s.name)
        else:
            return None
    return frozenset(same), fn.body[-1]


def _elementwise(node, same):
    """`node` as the expression of a Whole over the array the names `same` stand for, or
    None where it has no element-wise form."""
    if is_number(node):
        return ir.Const(node.value, **_at(node))
    if is_local(node, same):
        return ir.Elements(**_at(node))
    if isinstance(node, ir.Global) or isinstance(node, ir.Local) and node.depth > 0:
        return ir.Scalar(node, **_at(node))         # a number, checked when it runs
    if isinstance(node, ir.Applied):
        if numeric_verb(node) is None:
            return None
        operands = [node.arg] if isinstance(node, ir.Monad) else [node.left, node.right]
        args = [_elementwise(n, same) for n in operands]
        return None if None in args else ir.Map(node.verb.op, args, **_at(node))
    if isinstance(node, ir.Cond):
        clauses = [(_elementwise(p, same), _elementwise(c, same)) for p, c in node.clauses]
        otherwise = _elementwise(node.otherwise, same)
        if otherwise is None or any(None in pair for pair in clauses):
            return None
        return ir.Select(clauses, otherwise, **_at(node))
    return None


def _free_of(node, same):
    """Whether `node` never reads the names `same` (x and its copies), the literal's other
    variables or .f, and is made of nothing but names, constants and primitive verbs."""
    if isinstance(node, (ir.Const, ir.Global)):
        return True
    if isinstance(node, ir.Local):
        return node.depth > 0
    if isinstance(node, ir.Monad):
        return node.verb.primitive and _free_of(node.arg, same)
    if isinstance(node, ir.Dyad):
        return node.verb.primitive and _free_of(node.left, same) \
            and _free_of(node.right, same)
    return False


def _reads_only(node, param):
    """Whether the only parameter `node` reads is `param` (it may read none)."""
    return not any(isinstance(n, ir.Local) and n.depth == 0 and n.name in ir.PARAMS
                   and n.name != param for n in ir.walk(node))


def _row_products(expr, same):
    """(m, dot) for an expression taking a row x (names `same`) to its products with the
    rows of a matrix m, where dot is a function that must be an inner product when it runs
    (or None); else None."""
    if isinstance(expr, ir.Dyad) and expr.verb.op is None and len(expr.verb.adverbs) == 1 \
            and expr.verb.adverbs[0] in (":/", ":\\") and is_local(expr.left, same) \
            and _free_of(expr.right, same):
        fn = expr.verb.fn
        if is_dot_literal(fn):
            return expr.right, None
        if isinstance(fn, ir.Global) or isinstance(fn, ir.Local) and fn.depth > 0:
            return expr.right, fn
    if isinstance(expr, ir.Monad) and expr.verb.op is None and expr.verb.adverbs == ["'"] \
            and _free_of(expr.arg, same):
        inner = expr.verb.fn
        if isinstance(inner, ir.Lambda) and inner.arity == 1 and not inner.locals \
                and len(inner.body) == 1:
            pair = plus_over_times(inner.body[0])
            copies = same - {"x"}        # inside the inner literal, x is its own
            if pair is not None and (is_local(pair[0], copies, 1) and is_local(pair[1], ("x",))
                                     or is_local(pair[1], copies, 1)
                                     and is_local(pair[0], ("x",))):
                return expr.arg, None
    return None


def _row_dot(expr, same):
    """The vector u of an expression +/x*u or +/u*x of a row x, else None."""
    pair = plus_over_times(expr)
    if pair is None:
        return None
    a, b = pair
    if is_local(a, same) and _free_of(b, same):
        return b
    if is_local(b, same) and _free_of(a, same):
        return a
    return None
