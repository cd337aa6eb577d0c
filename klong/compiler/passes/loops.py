"""Rewrites of applications: loops of function literals run inline, and +/a*b."""
from ..lower import ir
from .shapes import plus_over_times


def inlinable(fn):
    """A monadic literal whose body can run inline, in the code that applies it: it has no
    locals (fresh in every call) and does not name itself (.f)."""
    return isinstance(fn, ir.Lambda) and fn.arity == 1 and not fn.locals \
        and not fn.outer_params and not fn.facts.names_self


# (the node's class, its one adverb) -> the loop it becomes, given the node, the literal f
# run inline and the node's position
_LOOPS = {
    (ir.Dyad, ":~"): lambda n, f, at: ir.While(n.left, f, n.right, n.verb, inlinable(n.left), **at),
    (ir.Monad, ":~"): lambda n, f, at: ir.Converge(f, n.arg, n.verb, **at),
    (ir.Dyad, ":*"): lambda n, f, at: ir.Iterate(n.left, f, n.right, n.verb, **at),
}


def inline_loop(node):
    """While (p f:~a), Converge (f:~a) and Iterate (n f:*a) of a function literal f as a
    loop running f's body inline (and p's, when p is a literal that can run inline)."""
    if not isinstance(node, ir.Applied):
        return None
    verb = node.verb
    if len(verb.adverbs) != 1 or not inlinable(verb.fn):
        return None
    make = _LOOPS.get((type(node), verb.adverbs[0]))
    return None if make is None else make(node, verb.fn, {"line": node.line, "column": node.column})


def sum_of_products(node):
    """+/a*b as one node: the library's inner product where it gives Klong's result."""
    pair = plus_over_times(node)
    if pair is None:
        return None
    return ir.SumOfProducts(pair[0], pair[1], node.arg.verb, node.verb,
                            line=node.line, column=node.column)
