"""Rewriting the IR by rules: each rule is a function of one node that returns the node to
put in its place, or None to leave it as it is."""
from dataclasses import fields
from functools import lru_cache

from ..lower import ir


def rewrite(node, rules):
    """`node` with every node in it rewritten, the nodes below a node before the node
    itself (so a rule sees rewritten operands); a rule's result is offered to the rules
    again. Function literals are entered; their facts are not, nor the values of constants."""
    for name in _node_fields(type(node)):
        setattr(node, name, _rewritten(getattr(node, name), rules))
    for rule in rules:
        replacement = rule(node)
        if replacement is not None:
            return rewrite(replacement, rules) if replacement is not node else node
    return node


@lru_cache(maxsize=None)
def _node_fields(cls):
    """The fields of an IR node class that may hold nodes (a constant's value holds none:
    a long list literal is not walked, nor copied)."""
    if cls in (ir.Const, ir.DictLit):
        return ()
    return tuple(f.name for f in fields(cls) if f.name not in ("facts", "line", "column"))


def _rewritten(value, rules):
    if isinstance(value, ir.Node):
        return rewrite(value, rules)
    if isinstance(value, list):
        return [_rewritten(v, rules) for v in value]
    if isinstance(value, tuple):
        return tuple(_rewritten(v, rules) for v in value)
    return value


def functions(node):
    """Every function literal in `node`, outer ones before the ones nested in them."""
    for n in ir.walk(node, enter=False):
        if isinstance(n, ir.Function):
            yield n
            yield from functions_inside(n)


def functions_inside(fn):
    for stmt in fn.body:
        yield from functions(stmt)
