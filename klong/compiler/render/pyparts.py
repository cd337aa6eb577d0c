"""What generated Python source (pysource.py) is made of and runs with.

The pieces it is built from: `Operand` (a Python expression for a value, and what kind of
thing it is), `Line` (one line of source and the Klong position it stands for) and `Level`
(a function literal being rendered, with the Python names of its variables). And the run
time of the generated code: the names its namespace starts with (`RUNTIME`), and `failure`,
which turns an exception escaping a generated function into the Klong error to report,
located by the table of `Where`s the renderer writes beside the source.
"""
import re

from ...verbs import adverbs as adv
from ...backends import has_math_function
from ...errors import KlongError, from_python, undefined, undefined_assignment
from ...runtime.functions import Lambda, call_value, project
from ...runtime.match import match
from ...runtime.values import Dict, is_true
from ...verbs import wholearray


# ------------------------------------------------------------------ errors

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


_PYTHON_NAME = re.compile(r"'([A-Za-z_][A-Za-z0-9_]*)'")


def failure(e, table, function):
    """The exception a generated function raises when `e` escapes from it: a KlongError
    located at the failing line's Klong position, named after the failing verb, with the
    function recorded on its way out; NameError and KeyError raised by the generated code
    itself (an unbound local, a missing global) become 'undefined' errors."""
    tb = e.__traceback__
    where = table.get(tb.tb_lineno) if tb is not None else None
    if not isinstance(e, KlongError):
        if where is None or tb.tb_next is not None:
            return e                 # from deeper Python code: not ours to translate
        if isinstance(e, (NameError, KeyError)):
            e = _undefined(e, where, tb.tb_frame)
        elif isinstance(e, OverflowError):
            e = from_python(e)
        else:
            return e
    if where is not None:
        e.at_verb(where.line, where.column, where.verb,
                  read=lambda: _operands(where, tb.tb_frame))
        for label in where.inlined:      # as if each literal had run as a function
            e.within(label)
    if function is not None:
        e.within(function.info.label())
    return e


def _operands(where, frame):
    if where.operands is None:
        return None
    try:
        got = [eval(expr, frame.f_globals, frame.f_locals) for expr in where.operands]
    except Exception:
        return None
    return got[0] if len(got) == 1 else got


def _undefined(e, where, frame):
    """The error for the NameError or KeyError `e` of the generated code at `where`."""
    if isinstance(e, NameError):          # an unbound local: find which from the message
        m = _PYTHON_NAME.search(str(e))
        python_names = frame.f_globals.get("PYNAMES", {})
        if m and m.group(1) in python_names:
            return undefined(python_names[m.group(1)])
    return undefined(where.name or "a name", frame.f_globals["G"], library=has_math_function)


RUNTIME = {
    "CALL": call_value, "TRUTH": is_true, "LAMBDA": Lambda,
    "PROJECT": project, "DICT": Dict, "FAIL": failure, "MATCH": match,
    "UNDEFINED_ASSIGNMENT": undefined_assignment,
    "ITERATIONS": adv.iterations,
    **wholearray.RUNTIME,
}


# ------------------------------------------------------------------ pieces of source

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
