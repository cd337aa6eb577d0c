"""What both renderers take from the IR the same way: a primitive's implementation, the
action of a differentiation operator."""
from ...verbs import VERBS


def monad(op, interp):
    """The Python function of the monad `op`: the verb's, or one the interpreter provides
    (∇f, the gradient function of f, and ˙x, x tracked)."""
    facts = VERBS[op]
    if facts.monad is not None:
        return facts.monad
    if op == "\u2207":
        return interp.differentiation.gradient_function
    return lambda x: x


def dyad(op):
    return VERBS[op].dyad


def differentiation(node, interp):
    """f:>p, p∇f and p∂f (an ir.Differentiate) as a Python function of the two operands."""
    diff, name = interp.differentiation, node.variable
    if node.op == ":>":
        return lambda f, p: diff.gradient(f, p, name)
    if node.op == "\u2207":
        return lambda p, f: diff.numeric(p, f, name)
    return diff.jacobian
