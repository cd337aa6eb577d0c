"""The printed forms of Klong values.

`write` gives the readable form (REPL echo, `.w`, `$` of a list element): strings quoted,
characters as 0cX. `show` gives the display form of `.d` and `.p`: text without quotes or
0c prefix, at every depth.
"""
import numpy as np

from . import values
from .limits import int_text
from .values import Char, Dict, EOF, Function, Symbol, UNDEFINED, array_kind


def format_real(x):
    """A real with at most 15 significant digits, laid out as the reference lays out reals:
    plain notation while 1e-18 <= |x| < 1e18, otherwise d.ddd e+NN; always with a point."""
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0.0"
    sign = "-" if x < 0 else ""
    text = "%.14e" % abs(x)              # d.dddddddddddddde+XX, rounded to 15 digits
    mantissa, exponent = text.split("e")
    exponent = int(exponent)
    digits = (mantissa[0] + mantissa[2:]).rstrip("0") or "0"
    if -18 <= exponent < 18:
        if exponent >= 0:
            whole = digits[:exponent + 1].ljust(exponent + 1, "0")
            fraction = digits[exponent + 1:] or "0"
        else:
            whole = "0"
            fraction = "0" * (-exponent - 1) + digits
        return f"{sign}{whole}.{fraction}"
    exp_sign = "-" if exponent < 0 else "+"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}e{exp_sign}{abs(exponent):02d}"


def _atom_text(v, readable):
    """The text of a value that is not a list or dictionary."""
    t = type(v)
    if t is int:
        return int_text(v)
    if t is float:
        return format_real(v)
    if t is Char:
        return "0c" + v if readable else str(v)
    if t is Symbol:
        return ":" + v
    if t is str:
        return '"' + v.replace('"', '""') + '"' if readable else v
    if isinstance(v, (bool, np.bool_)):
        return str(int(v))
    if isinstance(v, np.integer):
        return str(int(v))
    if isinstance(v, np.floating):
        return format_real(v)
    if isinstance(v, Function):
        return (":nilad", ":monad", ":dyad", ":triad")[min(v.arity, 3)]
    if v is UNDEFINED:
        return ":undefined"
    if v is EOF:
        return ":eof"
    if v is None:
        return ""
    name = getattr(v, "klong_name", None)   # channels and other host objects
    if name:
        return name
    return ":" + type(v).__name__


def _numbers_text(v, chunk=65536):
    """The elements of a numeric vector, separated by blanks; made a chunk at a time so
    that a long vector needs memory for its text, not for a Python object per element."""
    fmt = format_real if array_kind(v) == "f" else str
    return " ".join(" ".join(map(fmt, v[i:i + chunk].tolist()))
                    for i in range(0, v.shape[0], chunk))


def _elements(v, readable, out):
    out.append("[")
    for i, e in enumerate(v):
        if i:
            out.append(" ")
        _text(e, readable, out)
    out.append("]")


def _text(v, readable, out):
    if isinstance(v, values.ARRAY_TYPES):
        if v.ndim == 0:
            out.append(_atom_text(v.item(), readable))
        elif v.ndim == 1:
            out.append("[" + _numbers_text(v) + "]")
        else:
            _elements(v, readable, out)           # a matrix: a list of rows
    elif type(v) is list:
        _elements(v, readable, out)
    elif isinstance(v, Dict):
        out.append(":{")
        for i, (k, val) in enumerate(v.pairs()):
            if i:
                out.append(" ")
            out.append("[")
            _text(k, readable, out)
            out.append(" ")
            _text(val, readable, out)
            out.append("]")
        out.append("}")
    else:
        out.append(_atom_text(v, readable))


def write(v):
    """The readable (write) form of a value."""
    out = []
    _text(v, True, out)
    return "".join(out)


def show(v):
    """The display form of a value, as `.d` and `.p` print it."""
    out = []
    _text(v, False, out)
    return "".join(out)
