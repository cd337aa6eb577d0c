"""Chains of + - * around one Enumerate (`a+b*!k`, `(!k)*b`, `a-!k`, `(b*!k)-a` ...), and
a number joined before one (`v,a+b*!k`: the value and indices of an Amend), marked
(Dyad.progression) to be made as one arithmetic progression where their other operands
are integers: the renderers apply verbs/progressions.py's functions along the chain, which
give what the verbs give, by the verbs themselves wherever an operand is anything else. A
marked dyad rendered where it is not part of a longer chain is the chain's last: it gives
the vector (a join is always the last, but for the right operand of an update in place,
`s::s:=0,(x*x)+x*!k`, which is written at the places the progression names)."""
from ..lower import ir

_STEPS = {"+", "-", "*"}


def _enumerate(node):
    return isinstance(node, ir.Monad) and node.verb.primitive and node.verb.op == "!"


def _link(node):
    """Whether `node` can be the operand a chain continues through: an Enumerate, or a
    marked + - *."""
    return _enumerate(node) or isinstance(node, ir.Dyad) and node.progression \
        and node.verb.op in _STEPS


def chain_side(node):
    """Which operand of the marked dyad `node` continues its chain ("left" or "right"),
    and whether it is the Enumerate itself; None where the node is no (longer) a chain."""
    if not (isinstance(node, ir.Dyad) and node.progression):
        return None
    if node.verb.op == ",":
        sides = [("right", node.right)]
    else:
        sides = [("left", node.left), ("right", node.right)]
    links = [(name, _enumerate(side)) for name, side in sides if _link(side)]
    return links[0] if len(links) == 1 else None


def progression(node):
    """Marks the dyad `node` (+ - *, or a join) when its chain_side is one; the same node,
    or None for any other node."""
    if not (isinstance(node, ir.Dyad) and node.verb.primitive
            and (node.verb.op in _STEPS or node.verb.op == ",")) or node.progression:
        return None
    node.progression = True
    if chain_side(node) is None:
        node.progression = False
        return None
    return node


def joined(amend):
    """Whether the Amend `amend` of an update in place (name::name:=b) has a marked join as
    its right operand: then the join is not made, its number written at the progression's
    places (verbs/progressions.py's `update`)."""
    right = amend.right
    return amend.verb.op == ":=" and isinstance(right, ir.Dyad) and right.verb.op == "," \
        and chain_side(right) is not None
