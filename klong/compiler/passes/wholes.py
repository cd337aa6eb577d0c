"""Whole-array forms of function literals (Facts.whole): what Each runs instead of a loop.

Three shapes of a monad's body have one (the statements before the last may only copy x
into locals, which then stand for x too):

- element-wise: x, numbers, numbers read from other names, numeric atomic verbs and
  conditionals (`Whole`): every branch of a conditional is evaluated on every element and
  the results picked by a mask, so a renderer gives None (the loop runs) on any failure;
- `+/x*u` for a vector u (`RowsDot`): one matrix-vector product;
- a row's products with the rows of a matrix m, `x{+/x*y}:/m`, `x{+/x*y}:\\m` or
  `{+/r*x}'m` with r a copy of x (`RowsProduct`): Each of it over a matrix is a matrix
  product.

A dyad {x+g(y)} or {x*g(y)} (either order) with an element-wise g gets g's whole form and
Facts.fold_op: Over and Scan then fold g of the elements with the library.
"""
from ..lower import ir
from ..syntax.ast import PARAMS
from .shapes import is_dot_literal, is_local, is_number, numeric_verb, plus_over_times


def settle(fn):
    if fn.arity == 1:
        fn.facts.whole = monad_whole(fn)
    elif fn.arity == 2 and fn.facts.dyad_op is None:
        found = fold_whole(fn)
        if found is not None:
            fn.facts.whole, fn.facts.fold_op = found


def monad_whole(fn):
    found = _aliases(fn)
    if found is None:
        return None
    same, expr = found
    at = {"line": fn.line, "column": fn.column}
    rows = _row_products(expr, same)
    if rows is not None:
        return ir.RowsProduct(same, *rows, **at)
    vector = _row_dot(expr, same)
    if vector is not None:
        return ir.RowsDot(same, vector, **at)
    return ir.Whole(same, expr, **at) if _mappable(expr, same) else None


def fold_whole(fn):
    """(the whole form of g, '+' or '*') for {x+g(y)} or {x*g(y)}, else None."""
    if len(fn.body) != 1 or fn.locals or fn.outer_params:
        return None
    body = fn.body[0]
    if not (isinstance(body, ir.Dyad) and body.verb.primitive and body.verb.op in ("+", "*")):
        return None
    for mine, mapped in ((body.left, body.right), (body.right, body.left)):
        if is_local(mine, ("x",)) and not is_local(mapped, ("y",)) \
                and _reads_only(mapped, "y") and _mappable(mapped, frozenset("y")):
            return ir.Whole(frozenset("y"), mapped, line=fn.line, column=fn.column), \
                body.verb.op
    return None


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


def _mappable(node, same):
    """Whether `node` has an element-wise form over the array the names `same` stand for."""
    if is_number(node) or is_local(node, same):
        return True
    if isinstance(node, ir.Global) or isinstance(node, ir.Local) and node.depth > 0:
        return True             # a number, checked when it runs
    if isinstance(node, ir.Monad):
        return numeric_verb(node) is not None and _mappable(node.arg, same)
    if isinstance(node, ir.Dyad):
        return numeric_verb(node) is not None and _mappable(node.left, same) \
            and _mappable(node.right, same)
    if isinstance(node, ir.Cond):
        return all(_mappable(n, same) for pair in node.clauses for n in pair) \
            and _mappable(node.otherwise, same)
    return False


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
    return not any(isinstance(n, ir.Local) and n.depth == 0 and n.name in PARAMS
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
        if isinstance(inner, ir.Function) and inner.arity == 1 and not inner.locals \
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
