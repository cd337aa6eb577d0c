"""Assignments that may update the variable's value in place: `name::name:=b`, the
variable Amend's left operand, for a local or a global (one key: a module's definition is
stored twice). Whether it is written in place is decided when it runs (verbs/inplace.py)."""
from ..lower import ir

UPDATES = (":=",)


def in_place_update(node):
    """Marks such a SetLocal or SetGlobal `in_place` (the same node: None for any other)."""
    if not isinstance(node, (ir.SetLocal, ir.SetGlobal)) or node.in_place \
            or not isinstance(node.value, ir.Dyad):
        return None
    verb, left = node.value.verb, node.value.left
    if not verb.primitive or verb.op not in UPDATES:
        return None
    if isinstance(node, ir.SetLocal):
        same = isinstance(left, ir.Local) and (left.name, left.depth) == (node.name, node.depth)
    else:
        same = isinstance(left, ir.Global) and node.keys == [left.key]
    if not same:
        return None
    node.in_place = True
    return node
