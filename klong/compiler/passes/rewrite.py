"""Rewriting the IR by rules: each rule is a function of one node that returns the node to
put in its place, or None to leave it as it is."""
import copy
from dataclasses import fields

from ..lower import ir

# the fields of the IR's nodes that hold no node: what the rewriting does not look through
# (a constant's value may be a long list)
_DATA = frozenset(("line", "column", "facts", "value", "pairs", "name", "key", "depth", "op",
                   "adverbs", "label", "callee", "keys", "in_function", "variable", "arity",
                   "locals", "source", "defined_as", "outer_params", "same", "numbers",
                   "to_self", "functions"))
_LEAVES = (ir.Const, ir.DictLit)
NODE_FIELDS = {cls: tuple(f.name for f in fields(cls)
                          if f.name not in _DATA or f.name == "value" and cls not in _LEAVES)
               for cls in ir.Node.__subclasses__()}


def rewrite(node, rules):
    """`node` with every node in it rewritten, the nodes below a node before the node
    itself (so a rule sees rewritten operands); a rule's result is offered to the rules
    again. Function literals are entered; their facts are not. Lists of nodes are updated
    in place (the IR owns them)."""
    for name in NODE_FIELDS[type(node)]:
        value = getattr(node, name)
        new = _rewritten(value, rules)
        if new is not value:
            setattr(node, name, new)
    for rule in rules:
        replacement = rule(node)
        if replacement is not None:
            return rewrite(replacement, rules) if replacement is not node else node
    return node


def _rewritten(value, rules):
    """`value` rewritten: itself where nothing in it changed."""
    if isinstance(value, ir.Node):
        return rewrite(value, rules)
    if isinstance(value, list):
        for i, v in enumerate(value):
            new = _rewritten(v, rules)
            if new is not v:
                value[i] = new
        return value
    if isinstance(value, tuple):
        new = tuple(_rewritten(v, rules) for v in value)
        return value if all(a is b for a, b in zip(new, value)) else new
    return value


def copied(node):
    """A copy of the nodes of `node` and below; what they hold that is not a node (a
    constant's value, a position, a literal's facts) is shared."""
    new = copy.copy(node)
    for name in NODE_FIELDS[type(node)]:
        setattr(new, name, _copied(getattr(node, name)))
    return new


def _copied(value):
    if isinstance(value, ir.Node):
        return copied(value)
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copied(v) for v in value)
    return value
