"""Recognising spellings in the IR: the parameters, +/a*b, inner products."""
from ..lower import ir
from ...verbs import VERBS


def is_local(node, names, depth=0):
    """Whether `node` reads one of the variables `names` of the literal `depth` out."""
    return isinstance(node, ir.Local) and node.depth == depth and node.name in names


def plus_over_times(node):
    """(left, right) of a node spelled +/left*right, else None."""
    if isinstance(node, ir.Monad) and node.verb.op == "+" and node.verb.adverbs == ["/"]:
        arg = node.arg
        if isinstance(arg, ir.Dyad) and arg.verb.primitive and arg.verb.op == "*":
            return arg.left, arg.right
    return None


def is_plain(fn):
    """A literal of one expression, without locals, taking its own parameters."""
    return isinstance(fn, ir.Lambda) and len(fn.body) == 1 and not fn.locals \
        and not fn.outer_params


def is_dot_literal(fn):
    """{+/x*y} or {+/y*x}: a function literal that is the inner product of its arguments."""
    if not (is_plain(fn) and fn.arity == 2):
        return False
    pair = plus_over_times(fn.body[0])
    return pair is not None and all(is_local(n, ("x", "y")) for n in pair) \
        and pair[0].name != pair[1].name


def numeric_verb(node):
    """The registry entry of a numeric atomic primitive applied in `node`, else None."""
    if isinstance(node, ir.Applied) and node.verb.primitive:
        entry = VERBS.get(node.verb.op)
        if entry is not None and (entry.numeric_monad if isinstance(node, ir.Monad)
                                  else entry.numeric_dyad):
            return entry
    return None


def is_number(node):
    return isinstance(node, ir.Const) and type(node.value) in (int, float)
