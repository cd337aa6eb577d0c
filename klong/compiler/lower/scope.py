"""What a function literal binds, and what a name means where it is read.

Names are resolved statically: a name that a literal around it binds is a variable of that
literal, `depth` literals out; anything else is a global, under the name modules give it
(language.md 6.5).
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

    def resolve(self, name, modules):
        """(depth, name) for a variable of this literal or one around it, or (None, the
        global it names)."""
        scope, depth = self, 0
        while scope is not None:
            if name in scope.bound:
                return depth, name
            scope, depth = scope.parent, depth + 1
        return None, modules.resolve(name, defining=False)
