"""Rewriting the IR by rules: each rule is a function of one node that returns the node to
put in its place, or None to leave it as it is. Which fields of a node hold nodes is the
IR's to say (ir.map_children): no rule or pass spells them out."""
import copy

from ..lower import ir


def rewrite(node, rules):
    """`node` with every node in it rewritten, the nodes below a node before the node
    itself (so a rule sees rewritten operands); a rule's result is offered to the rules
    again. Function literals are entered; their facts are not. Nodes are updated in place
    (the IR owns them)."""
    ir.map_children(node, lambda n: rewrite(n, rules))
    for rule in rules:
        replacement = rule(node)
        if replacement is not None:
            return rewrite(replacement, rules) if replacement is not node else node
    return node


def copied(node):
    """A copy of the nodes of `node` and below; what they hold that is not a node (a
    constant's value, a position, a literal's facts) is shared."""
    return ir.map_children(copy.copy(node), copied)
