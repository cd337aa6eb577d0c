"""What generated Python source (pysource.py) is made of: `Operand` (a Python expression
for a value, and what kind of thing it is), `Line` (one line of source and the Klong
position it stands for), `Where` (what the line table says of a line: the run time's
`failure`, verbs/compiled.py, reads it when the line fails) and `Level` (a function literal
being rendered, with the Python names of its variables). The code runs with
verbs/compiled.py: nothing here runs when it does.
"""


class Where:
    """The Klong source position of one generated line, and what to say if it fails:
    the name it reads (an undefined name), the verb or callee it runs and the Python
    expressions of its operands (evaluated in the failing frame only when it fails)."""
    __slots__ = ("line", "column", "name", "verb", "operands", "inlined")

    def __init__(self, node, name=None, verb=None, operands=None):
        self.line = node.line or None
        self.column = node.column or None
        self.name = name
        self.verb = verb
        self.operands = None if operands is None else [o.text for o in operands]
        self.inlined = ()       # labels of the literals inlined here (a loop's), innermost first


class Operand:
    """A Python expression for a value that is cheap to read twice and free of effects,
    and what it is: VARIABLE (a parameter, read-only in Klong, or the variable of a loop),
    LOCAL (a declared local: code evaluated later may assign it, and it may have no value
    yet), TEMP (a temporary), LITERAL (a number's text) or NAME (a name of the namespace)."""
    __slots__ = ("text", "kind")

    def __init__(self, text, kind):
        self.text = text
        self.kind = kind

    def __str__(self):
        return self.text


VARIABLE, LOCAL, TEMP, LITERAL, NAME = "variable", "local", "temp", "literal", "name"


class Line:
    __slots__ = ("text", "where")

    def __init__(self, text, where=None):
        self.text = text
        self.where = where


class Level:
    """A function literal being rendered (the chunk itself: fn None), inside `parent`.
    `names` maps its variables to their Operands. Its code is a Python function of its own,
    or, for a literal inlined into a loop (`owner` given), part of the owner's: `function`
    is the level whose Python function the code goes into, which numbers the temporaries.
    `label` names an inlined literal in error messages."""

    def __init__(self, parent, fn=None, owner=None, label=None):
        self.parent = parent
        self.fn = fn
        self.names = {}
        self.function = self if owner is None else owner
        self.label = label
        self.temps = 0

    def again(self):
        """The same literal's variables, for a second Python function of it (its integer
        body): temporaries of its own."""
        level = Level(self.parent, self.fn)
        level.names = dict(self.names)
        return level

    def at(self, depth):
        level = self
        for _ in range(depth):
            level = level.parent
        return level

    @property
    def defined_as(self):
        """The global this level's (own Python) function is assigned to, if any."""
        return self.fn.defined_as if self.fn is not None and self.function is self else None

    def inlined_labels(self):
        """The labels of the inlined literals this level is in, innermost first."""
        labels, level = [], self
        while level.function is not level:
            labels.append(level.label)
            level = level.parent
        return tuple(labels)
