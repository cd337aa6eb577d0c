"""The printed forms of Klong values.

`write` gives the readable form (REPL echo, `.w`, `$` of a list element): strings quoted,
characters as 0cX. `show` gives the display form of `.d` and `.p`: text without quotes or
0c prefix, at every depth.

Both print a value in full unless given a `Summary`: then a long value is printed in part,
the head and tail of each long list with "..." between, and a count after it, the way
numpy prints long arrays. The REPL and the notebook kernel print that way; programs never.
The work done is proportional to the text produced, however large the value.
"""
import math
from itertools import islice

from .. import errors
from ..backends import arrays
from ..errors import SHOWN_WIDTH, one_line
from .limits import int_text
from .mixed import MixedNumbers, general
from .values import HOST_SCALARS, Char, Dict, EOF, Function, Symbol, UNDEFINED, array_kind


def format_real(x):
    """A real with at most 15 significant digits, laid out as the reference lays out reals:
    plain notation while 1e-18 <= |x| < 1e18, otherwise d.ddd e+NN; always with a point."""
    x = float(x)
    text = repr(x)
    # Python's shortest text, where it is plain notation of at most 15 digits: the 15-digit
    # rounding has the same digits (a double is within 2^-53 of it, far below half a unit
    # of the 15th digit), and the same layout (a point, a digit on either side)
    if len(text) <= (17 if x < 0 else 16) and "e" not in text and "n" not in text and x:
        return text
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


def atom_text(v, readable):
    """The text of a value that is not a list or dictionary (`readable`: as Klong reads it
    back, else as Display shows it)."""
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
    if t is bool:
        return str(int(v))
    if isinstance(v, HOST_SCALARS):         # an array library's scalar
        return atom_text(v.item(), readable)
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


class Summary:
    """How a long value is shortened: a value of more than `threshold` elements (estimated
    from its first and last items, so that the estimate costs nothing) shows only `edge`
    items at each end of every list; a string longer than `threshold` keeps `text_edge`
    characters at each end."""

    def __init__(self, threshold=1000, edge=3, text_edge=40):
        self.threshold = threshold
        self.edge = edge
        self.text_edge = text_edge

    def __repr__(self):
        return f"Summary(threshold={self.threshold}, edge={self.edge})"


class _Printer:
    """One printing of one value: the text pieces, and whether anything was left out."""

    def __init__(self, readable, summary):
        self.readable = readable
        self.summary = summary
        self.out = []
        self.cut = 0                 # items to keep at each end of a long list; 0: all
        self.shortened = False

    def value(self, v):
        out = self.out
        if type(v) is MixedNumbers:
            v = v.general()
        if isinstance(v, arrays.ARRAY_TYPES):
            if v.ndim == 0:
                out.append(atom_text(v.item(), self.readable))
            elif v.ndim == 1:
                out.append("[")
                self._run(v, lambda part: out.append(_numbers_text(part)))
                out.append("]")
            else:
                self._list(v)                     # a matrix: a list of rows
        elif type(v) is list:
            self._list(v)
        elif isinstance(v, Dict):
            out.append(":{")
            self._run(_DictItems(v), self._entries)
            out.append("}")
        elif type(v) is str and self.summary and len(v) > self.summary.threshold:
            keep = self.summary.text_edge
            self.shortened = True
            out.append(atom_text(v[:keep] + "..." + v[-keep:], self.readable))
        else:
            out.append(atom_text(v, self.readable))

    def _list(self, v):
        self.out.append("[")
        self._run(v, self._items)
        self.out.append("]")

    def _items(self, part):
        for i, e in enumerate(part):
            if i:
                self.out.append(" ")
            self.value(e)

    def _entries(self, pairs):
        for i, (k, val) in enumerate(pairs):
            if i:
                self.out.append(" ")
            self.out.append("[")
            self.value(k)
            self.out.append(" ")
            self.value(val)
            self.out.append("]")

    def _run(self, items, emit):
        """Emit a sequence: all of it, or its head and tail around "..." when it is long."""
        cut = self.cut
        if self.summary and len(items) > self.summary.threshold:
            cut = self.summary.edge             # a long list inside a short-looking value
        if not cut or len(items) <= 2 * cut:
            emit(items[:])
            return
        self.shortened = True
        emit(items[:cut])
        self.out.append(" ... ")
        emit(items[len(items) - cut:])


def _numbers_text(v, chunk=65536):
    """The elements of a numeric vector, separated by blanks; made a chunk at a time so
    that a long vector needs memory for its text, not for a Python object per element."""
    fmt = format_real if array_kind(v) == "f" else str
    return " ".join(" ".join(map(fmt, v[i:i + chunk].tolist()))
                    for i in range(0, v.shape[0], chunk))


class _DictItems:
    """A dictionary's entries as a sliceable sequence, without copying them all."""

    def __init__(self, d):
        self.table = d.table

    def __len__(self):
        return len(self.table)

    def __getitem__(self, part):
        start, stop, _ = part.indices(len(self.table))
        if start >= len(self.table) // 2 and stop == len(self.table):   # the tail
            tail = list(islice(reversed(self.table.values()), stop - start))
            return tail[::-1]
        return list(islice(self.table.values(), start, stop))


def size_estimate(v):
    """The number of atoms in v, exact for arrays, estimated for other lists from their
    first and last items (a few steps, whatever the size)."""
    if isinstance(v, arrays.ARRAY_TYPES):
        return math.prod(v.shape)
    if type(v) is MixedNumbers:
        return len(v)
    if type(v) is list:
        if not v:
            return 0
        return len(v) * max(size_estimate(v[0]), size_estimate(v[-1]), 1)
    if isinstance(v, Dict):
        return len(v)
    return 1


def _note(v):
    """The count printed after a shortened value."""
    if isinstance(v, arrays.ARRAY_TYPES) and v.ndim > 1:
        shape = " ".join(str(n) for n in v.shape)
        return f"({size_estimate(v)} elements, shape [{shape}])"
    if isinstance(v, Dict):
        return f"({len(v)} entries)"
    if type(v) is str:
        return f"({len(v)} characters)"
    return f"({len(v)} elements)"


def _printed(v, readable, summary):
    v = general(v)
    printer = _Printer(readable, summary)
    if summary and size_estimate(v) > summary.threshold:
        printer.cut = summary.edge
    printer.value(v)
    text = "".join(printer.out)
    return f"{text}  {_note(v)}" if printer.shortened else text


def write(v, summary=None):
    """The readable (write) form of a value; shortened when a Summary is given."""
    return _printed(v, True, summary)


def show(v, summary=None):
    """The display form of a value, as `.d` and `.p` print it; shortened when a Summary is
    given."""
    return _printed(v, False, summary)


# ---------------------------------------------------------------- values inside messages

def shown(value, width=SHOWN_WIDTH):
    """A Klong value as a message shows it: its written form, cut to `width` characters.
    Klong's written form is always one line, however deep the value (as kg shows values in
    its messages)."""
    value = general(value)
    if type(value) is int and value.bit_length() > width * 10 // 3:   # more digits than width
        # too long to show, and its full text (up to a million digits) is slow to make
        return f"(~{int(value.bit_length() * 0.30103) + 1} digits)"
    # only the first `width` items can show: writing a million of them would take seconds
    if (type(value) in (list, str) or getattr(value, "ndim", 0) > 0) and len(value) > width:
        value = value[:width]
    try:
        return one_line(write(value), width, strip=False)     # the blank of 0c  stays
    except RecursionError:               # thousands of levels deep: Python's stack ends first
        return "(a list too deeply nested to show)"


def shown_operands(operands):
    """A failing verb's operands as its message shows them: one value, or both of a dyad's
    as [a b], each shortened by itself (a long integer then still shows its length)."""
    if type(operands) is list and len(operands) == 2:
        return one_line("[" + " ".join(shown(v) for v in operands) + "]", SHOWN_WIDTH)
    return shown(operands)


errors.write_operands_with(shown_operands)
