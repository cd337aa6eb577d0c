"""What a function literal binds, as both evaluators see it: one `Scope` per literal being
compiled, to closures (compile.py) or to Python source (codegen.py, vectorize.py).

Names are resolved statically: a name a literal around here binds is a local `depth` literals
out, anything else a global (renamed while a module is open, language.md 6.5).
"""
from .syntax.ast import PARAMS


def bound_names(literal):
    """The names a function literal binds: its declared locals and those of x, y, z that are
    its parameters (an enclosing literal may have declared them local: then they are that
    literal's variable)."""
    return frozenset(literal.locals) | (frozenset(PARAMS) - frozenset(literal.outer_params))


def resolve(bound, name, modules):
    """(depth, name) for a name bound by one of the literals whose bound names are `bound`
    (outermost first), or (None, the global it names)."""
    for depth, names in enumerate(reversed(bound)):
        if name in names:
            return depth, name
    return None, modules.resolve(name, defining=False)


class Scope:
    """One function literal being compiled (or the chunk itself, node None), inside `parent`.
    `bound` holds the names it binds.

    Generated code keeps more here: `names` maps the bound names to the Python names the
    code gives them; the code is a Python function of its own, or, for a literal inlined
    into a loop (`inline` True), part of the enclosing one: `function` is the scope that owns
    the Python function the code goes into. `reads` and `effects` are the literal's facts:
    the globals it reads (nested literals included), and whether it assigns anything but
    its own locals."""

    def __init__(self, parent=None, node=None, self_name=None, defined_as=None, inline=False):
        self.parent = parent
        self.node = node
        self.bound = bound_names(node) if node is not None else frozenset()
        self.names = {}
        self.self_name = self_name          # Python name of the running Lambda (for .f)
        self.defined_as = defined_as        # the global the literal is being assigned to
        self.function = parent.function if inline else self
        self.nonlocals = set()
        self.temps = 0
        self.label = None                   # an inlined literal's label in messages
        self.reads = set()
        self.effects = False

    @property
    def in_function(self):
        return self.node is not None

    def bound_chain(self):
        """The names bound by each function literal from the outermost to this one."""
        chain = []
        s = self
        while s is not None and s.in_function:
            chain.append(s.bound)
            s = s.parent
        return chain[::-1]

    def resolve(self, name, modules):
        """(depth, name) for a variable of this literal or one around it, or (None, the
        global it names)."""
        return resolve(self.bound_chain(), name, modules)

    def inlined_labels(self):
        """The labels of the inlined literals this scope is in, innermost first."""
        labels, scope = [], self
        while scope.function is not scope:
            labels.append(scope.label)
            scope = scope.parent
        return tuple(labels)

    def temp(self):
        owner = self.function
        owner.temps += 1
        return f"t{owner.temps}"
