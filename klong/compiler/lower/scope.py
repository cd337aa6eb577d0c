"""What a function literal binds, and what a name means where it is read.

Names are resolved statically: a name that a literal around it binds is a variable of that
literal, `depth` literals out; anything else is a global (lower.py asks the interpreter
which key it is stored under: modules rename names, language.md 6.5).
"""
from ..syntax.ast import PARAMS


def bound_names(literal):
    """The names a function literal binds: its declared locals and those of x, y, z that are
    its parameters (an enclosing literal may have declared them local: then they are that
    literal's variable)."""
    return frozenset(literal.locals) | (frozenset(PARAMS) - frozenset(literal.outer_params))


class Scope:
    """One function literal (the syntax tree's `node`) inside `parent` (None: the chunk's
    top level)."""

    def __init__(self, parent, node):
        self.parent = parent
        self.bound = bound_names(node)

    def depth_of(self, name):
        """How many literals out the one binding `name` is (0: this one), or None when no
        literal here or around binds it (it is a global)."""
        scope, depth = self, 0
        while scope is not None:
            if name in scope.bound:
                return depth
            scope, depth = scope.parent, depth + 1
        return None
