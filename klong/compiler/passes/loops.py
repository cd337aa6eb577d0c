"""Rewrites of applications: loops of function literals run inline, and +/a*b."""
from ..lower import ir
from .shapes import plus_over_times


def inlinable(fn):
    """A monadic literal whose body can run inline, in the code that applies it: it has no
    locals (fresh in every call) and does not name itself (.f)."""
    return isinstance(fn, ir.Function) and fn.arity == 1 and not fn.locals \
        and not fn.outer_params and not fn.facts.names_self


def inline_loop(node):
    """While (p f:~a), Converge (f:~a) and Iterate (n f:*a) of a function literal f as a
    loop running f's body inline."""
    if not isinstance(node, (ir.Monad, ir.Dyad)):
        return None
    verb = node.verb
    if len(verb.adverbs) != 1 or not inlinable(verb.fn):
        return None
    adverb, at = verb.adverbs[0], {"line": node.line, "column": node.column}
    if isinstance(node, ir.Dyad) and adverb == ":~":
        return ir.While(node.left, verb.fn, node.right, verb, **at)
    if isinstance(node, ir.Monad) and adverb == ":~":
        return ir.Converge(verb.fn, node.arg, verb, **at)
    if isinstance(node, ir.Dyad) and adverb == ":*":
        return ir.Iterate(node.left, verb.fn, node.right, verb, **at)
    return None


def sum_of_products(node):
    """+/a*b as one node: the library's inner product where it gives Klong's result."""
    pair = plus_over_times(node)
    if pair is None:
        return None
    return ir.SumOfProducts(pair[0], pair[1], node.arg.verb, node.verb,
                            line=node.line, column=node.column)
