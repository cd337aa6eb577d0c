"""What compiled Klong calls when it runs: the run time of the code the compiler's renderers
make (compiler/render/), generated Python source and closures alike. The renderers write
code; everything here runs on every call, so nothing here knows of the compiler.

- `NAMES`: the names the namespace of generated source starts with;
- `failure`: the exception a generated function raises when one escapes from it, located by
  the line table its renderer wrote beside the source (each entry, for one generated line:
  `line`, `column`, `name` (the name it reads), `verb` (the verb or callee it runs),
  `operands` (the Python expressions of its operands, evaluated in the failing frame only
  when it fails) and `inlined` (the labels of the literals inlined there, innermost first));
- `verb_failure` and `frame_out`, for closures.
"""
import re

from . import adverbs as adv
from . import batched, inplace, structural, wholearray
from .forms import each_for_effect
from ..backends import has_math_function
from ..errors import KlongError, from_python, undefined, undefined_assignment
from ..runtime.functions import PARENT, Builtin, Lambda, call_value, project
from ..runtime.match import match
from ..runtime.values import NO_ENTRY, UNDEFINED, Dict, is_true, make_list

_PYTHON_NAME = r"'([A-Za-z_][A-Za-z0-9_]*)'"     # re compiles it on first use


def failure(e, table, function):
    """The exception a generated function raises when `e` escapes from it: a KlongError
    located at the failing line's Klong position, named after the failing verb, with the
    function recorded on its way out; NameError and KeyError raised by the generated code
    itself (an unbound local, a missing global) become 'undefined' errors."""
    tb = e.__traceback__
    where = table.get(tb.tb_lineno) if tb is not None else None
    verb = where.verb if where is not None else None
    if not isinstance(e, KlongError):
        if where is None or tb.tb_next is not None:
            return e                 # from deeper Python code: not ours to translate
        if isinstance(e, (NameError, KeyError)):
            # a name read, not the verb beside it, failed: its message says enough, as the
            # closures' does
            e, verb = _undefined(e, where, tb.tb_frame), ""
        elif isinstance(e, OverflowError):
            e = from_python(e)
        else:
            return e
    if where is not None:
        e.at_verb(where.line, where.column, verb, read=lambda: _operands(where, tb.tb_frame))
        for label in where.inlined:      # as if each literal had run as a function
            e.within(label)
    if function is not None:
        e.within(function.facts.label())
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
        m = re.search(_PYTHON_NAME, str(e))
        python_names = frame.f_globals.get("PYNAMES", {})
        if m and m.group(1) in python_names:
            return undefined(python_names[m.group(1)])
    return undefined(where.name or "a name", frame.f_globals["G"], library=has_math_function)


def shown_as_function(arity):
    """A function value that stands, in an error's operands, for a literal run inline (a
    loop's predicate): it shows as one (:monad), and is never called."""
    return Builtin("inline", arity, None)


NAMES = {
    "CALL": call_value, "TRUTH": is_true, "LAMBDA": Lambda,
    "PROJECT": project, "DICT": Dict, "FAIL": failure, "MATCH": match,
    "UNDEFINED": UNDEFINED, "NO_ENTRY": NO_ENTRY,
    "UNDEFINED_ASSIGNMENT": undefined_assignment,
    "ITERATIONS": adv.iterations, "BATCH_EACH": batched.each, "UPDATE": inplace.update,
    "SCAN_START": adv.scan_start, "MAKE_LIST": make_list, "INLINE_MONAD": shown_as_function(1),
    "JOIN_ENTRY": structural.join_entry, "EACH_EFFECT": each_for_effect, "BATCH_PAIRS": batched.pairs,
    "BATCH_CALLED": batched.called, "NUMERIC": adv.numeric,
    **wholearray.RUNTIME,
}


def verb_failure(e, line, column, label, operands):
    """The KlongError for `e`, raised by a verb (an OverflowError: a number too large for
    the verb's scalar form), located at the verb and naming it."""
    if isinstance(e, OverflowError):
        e = from_python(e)
    return e.at_verb(line, column, label, operands)


def frame_out(fr, depth):
    """The frame of the literal `depth` literals out from the one whose frame is fr."""
    for _ in range(depth):
        fr = fr[PARENT]
    return fr
