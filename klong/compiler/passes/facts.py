"""Facts about function literals that let adverbs take shortcuts (in their LambdaFacts): the
verb a dyad's body is, whether a monad is element-wise, whether a dyad is an inner product,
the text a dyad joins its arguments with, the verb and constant a monad's body applies."""
from ..lower import ir
from .shapes import is_dot_literal, is_local, is_number, is_plain, numeric_verb


def settle(fn):
    facts = fn.facts
    facts.dyad_op = dyad_op(fn)
    facts.elementwise = fn.arity == 1 and is_plain(fn) and elementwise(fn.body[0])
    facts.dot = is_dot_literal(fn)
    facts.joins = joins(fn)
    facts.with_constant = with_constant(fn)


def dyad_op(fn):
    """'+' for {x+y}: a dyad whose body is exactly x OP y with a numeric atomic OP."""
    if not (fn.arity == 2 and is_plain(fn)):
        return None
    b = fn.body[0]
    if isinstance(b, ir.Dyad) and numeric_verb(b) is not None \
            and is_local(b.left, ("x",)) and is_local(b.right, ("y",)):
        return b.verb.op
    return None


def elementwise(node):
    """Whether `node` combines only x and number constants through numeric atomic verbs."""
    if is_local(node, ("x",)) or is_number(node):
        return True
    if numeric_verb(node) is None:
        return False
    if isinstance(node, ir.Monad):
        return elementwise(node.arg)
    return elementwise(node.left) and elementwise(node.right)


def joins(fn):
    """t for a dyad {x,t,y} whose t is a string or character constant, "" for {x,y}; else
    None."""
    if not (fn.arity == 2 and is_plain(fn)):
        return None
    b = fn.body[0]
    if not (_is_join(b) and is_local(b.left, ("x",))):
        return None
    if is_local(b.right, ("y",)):
        return ""
    right = b.right
    if _is_join(right) and is_local(right.right, ("y",)) and isinstance(right.left, ir.Const) \
            and isinstance(right.left.value, str):       # (a character is text too)
        return str(right.left.value)
    return None


def _is_join(node):
    return isinstance(node, ir.Dyad) and node.verb.primitive and node.verb.op == ","


def with_constant(fn):
    """(op, c, x_right) for a monad {c OP x} (x_right) or {x OP c}: OP a primitive verb, c a
    number, character or string constant; else None."""
    if not (fn.arity == 1 and is_plain(fn)):
        return None
    b = fn.body[0]
    if not (isinstance(b, ir.Dyad) and b.verb.primitive):
        return None
    for constant, x, x_right in ((b.left, b.right, True), (b.right, b.left, False)):
        if is_local(x, ("x",)) and isinstance(constant, ir.Const) \
                and isinstance(constant.value, (int, float, str)):     # (a character is a str)
            return b.verb.op, constant.value, x_right
    return None
