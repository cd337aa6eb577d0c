"""The element type of a verb's result: one rule, for every verb, both evaluators (generated
code and closures) and every backend.

Klong has two kinds of numbers, integers and reals. The rule:

- a result is real when the verb says so (division) or when an operand is real; otherwise
  it is an integer (integers never turn into reals unless Klong says so);
- a real held in an array, a 0-d array included, has the interpreter's dtype (the backend's
  `float_dtype`: float64 unless asked otherwise); a single real outside any array is a
  Python float (64-bit).

The array libraries have rules of their own that break this one: one of them combines an
integer array with a Python float into its default dtype (float32), and divides two integer
arrays into float32 too. So before a library combines an array (of any rank, 0-d arrays
inside a vectorised Each too) with another operand, `operands` converts an integer array that takes part in a real result
to the backend's real dtype; a Python number then joins the array's dtype, in both libraries.
"""
from .. import backends
from ..backends import arrays
from . import values


def kind(v):
    """'i' for an integer, 'f' for a real (arrays of any rank, 0-d included, and Python
    numbers), None for anything else."""
    if isinstance(v, arrays.ARRAY_TYPES):
        k = values.array_kind(v)
        return k if k in "if" else None
    t = type(v)
    if t is int or t is bool:
        return "i"
    if t is float:
        return "f"
    if values.is_int(v):            # the libraries' scalar classes
        return "i"
    return "f" if values.is_real(v) else None


def result_kind(a, b=None, real=False):
    """The kind of a verb's result on numbers a (and b): 'f' when `real` (the verb makes
    reals) or an operand is real, else 'i'."""
    if real or kind(a) == "f" or (b is not None and kind(b) == "f"):
        return "f"
    return "i"


def as_kind(v, k):
    """v, an array of another kind converted to k (reals in the backend's dtype); Python
    numbers are left alone: both libraries combine one with an array in the array's dtype."""
    if isinstance(v, arrays.ARRAY_TYPES) and values.array_kind(v) != k:
        return backends.current().astype(v, k)
    return v


def operands(a, b, real=False):
    """a and b ready for the array library to combine into a result of `result_kind`."""
    ka, kb = kind(a), kind(b)
    if ka == kb and (ka != "i" or not real):
        return a, b                 # one kind: the result has it (the common case, first)
    if not real and ka != "f" and kb != "f":
        return a, b                 # integers (and truth values): an integer result
    to_real = backends.current().astype
    if ka != "f" and isinstance(a, arrays.ARRAY_TYPES):
        a = to_real(a, "f")
    if kb != "f" and isinstance(b, arrays.ARRAY_TYPES):
        b = to_real(b, "f")
    return a, b


def involves_array(a, b):
    """Whether the array library combines a and b (one of them is an array, 0-d or not)."""
    return isinstance(a, arrays.ARRAY_TYPES) or isinstance(b, arrays.ARRAY_TYPES)


def may_stray(a, b):
    """Whether the library could give a and b (numbers, 0-d arrays among them) a result type
    other than the rule's: only a Python float beside an array can (two arrays, or an array
    and a Python int, combine by the rule in both libraries). A cheap test, run first."""
    ta, tb = type(a), type(b)
    return (ta is float) is not (tb is float) and involves_array(a, b)


def integer_array_among(a, b):
    """Whether a or b is an array of integers (a 0-d one, among numbers): the library would
    wrap its results at 64 bits, where Klong's integers are exact."""
    return (isinstance(a, arrays.ARRAY_TYPES) and values.array_kind(a) == "i") or \
        (isinstance(b, arrays.ARRAY_TYPES) and values.array_kind(b) == "i")
