"""The Klong value model.

Every Klong value is one of these Python objects:

  integer     int (unbounded); the array library's integer scalars are accepted too
  real        float; the array library's float scalars are accepted too
  character   Char, a one-character str subclass
  symbol      Symbol, a str subclass (the text without the colon)
  string      str (exactly type str)
  list        an array of the active backend (ndim >= 1, int64 or the backend's real
              dtype) when every element is an integer, or every element is a real, or every
              element is such an array of one shape and dtype; otherwise a Python list of
              values.  Both forms may be empty.  A long list of reals with a few integers
              may also be a MixedNumbers (mixed.py): `items` and `general` give the
              general list it stands for.
  dictionary  Dict
  function    Function (lambdas, projections, built-ins, wrapped Python callables)
  undefined   UNDEFINED
  end of file EOF
  channel     klong.sysfns.io.Channel

`make_list` builds the canonical form from a sequence of items; `items` takes any list or
string apart again.  Verbs must accept both list forms and must not mutate their arguments
(dictionaries excepted, which are mutable by definition).
"""
import math

from .. import backends as _backends
from ..backends import arrays as _arrays
from ..errors import KlongError
from .limits import check_elements
from .mixed import MixedNumbers, general

# Scalar classes of the host array library: indexing a host array gives them.
_HOST_INTS = (int,) + _backends.HOST.integer_scalars
_HOST_REALS = (float,) + _backends.HOST.real_scalars
_HOST_BOOLS = (bool,) + _backends.HOST.bool_scalars
HOST_SCALARS = _backends.HOST.integer_scalars + _backends.HOST.real_scalars + \
    _backends.HOST.bool_scalars


class _TaggedText(str):
    """Text that Python code can use as a str, but that equals and hashes only as its own
    kind: a character is not the one-character string, a symbol not the string of its name."""
    __slots__ = ()
    prefix = ""

    def __eq__(self, other):
        return type(other) is type(self) and str.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self.prefix, str(self)))

    def __repr__(self):
        return self.prefix + str(self)


class Char(_TaggedText):
    """A character (one-character text)."""
    __slots__ = ()
    prefix = "0c"


# The characters of codes 0-255, made once: a list of characters from an array of codes
# picks them from here (making a str subclass instance costs more than a lookup).
BYTE_CHARS = [Char(chr(i)) for i in range(256)]
# The same, as the host library's table for Backend.lookup (Char of an integer vector; every
# backend looks codes up on the host)
BYTE_CHAR_TABLE = _backends.HOST.object_table(BYTE_CHARS)


class Symbol(_TaggedText):
    """A symbol, holding its name without the colon."""
    __slots__ = ()
    prefix = ":"


class _Singleton:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return ":" + self.name


UNDEFINED = _Singleton("undefined")
EOF = _Singleton("eof")


class Function:
    """Base of every callable Klong value. Subclasses set `arity` and implement `call`."""
    arity = 0

    def call(self, args):
        raise NotImplementedError


class Dict:
    """A mutable Klong dictionary. Keys are stored by `key_of` so that arrays can be keys:
    `table` maps key_of(k) to the entry (k, v). An integer or a string is its own stand-in,
    so generated code reads and writes the table of such keys directly (verbs/__init__.py's
    dict_dyad, render/pysource.py's JoinEntry); NO_ENTRY is what it reads for a missing one."""
    __slots__ = ("table",)

    def __init__(self, pairs=()):
        self.table = {}
        for k, v in pairs:
            self.put(k, v)

    # (an integer key stands for itself, and is looked up without a call: the common key)
    def put(self, k, v):
        if type(k) is int:
            self.table[k] = (k, v)
            return
        if isinstance(k, Dict):
            raise KlongError("type", "bad dictionary key")
        self.table[key_of(k)] = (k, v)

    def get(self, k, default=UNDEFINED):
        entry = self.table.get(k if type(k) is int else key_of(k))
        return default if entry is None else entry[1]

    def remove(self, k):
        self.table.pop(key_of(k), None)

    def pairs(self):
        return list(self.table.values())

    def copy(self):
        d = Dict()
        d.table = dict(self.table)
        return d

    def __len__(self):
        return len(self.table)


# the entry a missing key reads as (table.get(k, NO_ENTRY)[1]: the undefined value)
NO_ENTRY = (None, UNDEFINED)


def key_of(v):
    """A hashable stand-in for a value, used for dictionary keys and grouping.
    Integers and reals hash apart (as in the reference), other kinds by content: an integer
    or a string is its own stand-in (a character or a symbol equals no string), a real is
    tagged (1.0 equals 1 in Python)."""
    t = type(v)
    if t is int or t is str:        # the common keys first, by their exact type
        return v
    if t is float:
        return ("real", v)
    if isinstance(v, _arrays.ARRAY_TYPES):
        if v.ndim == 0:
            return key_of(v.item())
        return ("arr", array_kind(v), tuple(v.shape), _backends.to_host(v).tobytes())
    if isinstance(v, list):
        return ("list", tuple(key_of(e) for e in v))
    if type(v) is MixedNumbers:
        return key_of(v.general())
    if isinstance(v, _HOST_INTS) or isinstance(v, _HOST_BOOLS):
        return int(v)
    if isinstance(v, _HOST_REALS):
        return ("real", float(v))
    return v  # Char, Symbol, singletons, functions, channels hash by themselves


# ---------------------------------------------------------------- arrays of the backends

# The most axes a list held as one array may have (numpy allows 64): a deeper list is a
# Python list of arrays, on every backend alike.
MAX_DIMS = 32


def is_array(v):
    """A backend array holding a Klong list (not a 0-d array, which is a number)."""
    return isinstance(v, _arrays.ARRAY_TYPES) and v.ndim > 0


def array_kind(a):
    """'i', 'f', 'b' or 'o' for the element type of a backend array."""
    # (arrays.dtype_kind's lookup written out: the call would cost what it saves)
    dtype = a.dtype
    kind = _arrays.DTYPE_KINDS.get(dtype) if type(dtype) in _arrays.DTYPE_CLASSES \
        else _arrays.HOST_DTYPE_KINDS.get(type(dtype))
    return kind if kind is not None else _backends.array_backend(a).kind(a)


def _is_number_array(v):
    """A 0-d array: a number that carries an autograd graph (torch backend)."""
    return isinstance(v, _arrays.ARRAY_TYPES) and v.ndim == 0


# ---------------------------------------------------------------- classification

def is_int(v):
    if type(v) is int:
        return True
    if isinstance(v, _HOST_INTS) and not isinstance(v, _HOST_BOOLS):
        return True
    return _is_number_array(v) and array_kind(v) == "i"


def is_real(v):
    if isinstance(v, _HOST_REALS):
        return True
    return _is_number_array(v) and array_kind(v) == "f"


def is_number(v):
    t = type(v)
    if t is int or t is float:
        return True
    if isinstance(v, _HOST_INTS) or isinstance(v, _HOST_REALS):
        return not isinstance(v, _HOST_BOOLS)
    return _is_number_array(v)


def is_string(v):
    return type(v) is str


def is_symbol(v):
    return type(v) is Symbol


def is_list(v):
    """A list in any representation, empty or not (strings excluded)."""
    return type(v) is list or is_array(v) or type(v) is MixedNumbers


def is_seq(v):
    """A list (any form) or a string, empty or not."""
    return type(v) in (list, str) or is_array(v) or type(v) is MixedNumbers


def is_atom(v):
    """Klong's atom: everything but a non-empty list and a non-empty string."""
    t = type(v)
    if t is list or t is str:
        return not v
    if isinstance(v, _arrays.ARRAY_TYPES):
        return v.ndim == 0 or v.shape[0] == 0
    return type(v) is not MixedNumbers      # (never empty)


def is_empty(v):
    if type(v) in (list, str):
        return len(v) == 0
    if is_array(v):
        return v.shape[0] == 0
    return False            # a MixedNumbers is never empty


def is_true(v):
    """Klong truth: false are 0, 0.0, [] and ""."""
    t = type(v)
    if t is int or t is float:
        return v != 0
    if t is list or t is str:
        return len(v) > 0
    if isinstance(v, _arrays.ARRAY_TYPES):
        # a number's own truth is whether it is not 0 (NaN is true, -0.0 false): one
        # library call less than a comparison with 0, where each costs microseconds (the
        # index test of a sieve's loop, recorded for replay on torch)
        return bool(v) if v.ndim == 0 else v.shape[0] > 0
    if is_number(v):
        return v != 0
    return True


# ---------------------------------------------------------------- lists

def scalar(v):
    """The array library's scalars (from indexing an array) become Python scalars; 0-d
    arrays too, unless they carry a gradient."""
    if isinstance(v, HOST_SCALARS):
        return v.item()
    if isinstance(v, _arrays.ARRAY_TYPES) and v.ndim == 0:
        backend = _backends.current()
        return backend.item(v) if isinstance(v, backend.array_type) else v.item()
    return v


def items(v):
    """The elements of a list or the characters of a string, as a Python list."""
    if type(v) is str:
        return [Char(c) for c in v]
    if isinstance(v, _arrays.ARRAY_TYPES):
        backend = _backends.current()
        if isinstance(v, backend.array_type):
            return backend.items(v)
        return v.tolist() if v.ndim == 1 else list(v)     # another library's array
    if type(v) is MixedNumbers:
        return v.general()
    return v


def length(v):
    if isinstance(v, _arrays.ARRAY_TYPES):
        return v.shape[0]
    return len(v)           # (a MixedNumbers has its length too)


def element(v, i):
    """Element i of a list, or character i of a string."""
    if isinstance(v, _arrays.ARRAY_TYPES):
        return scalar(v[i])
    if type(v) is str:
        return Char(v[i])
    if type(v) is MixedNumbers:
        v = v.general()
    return v[i]


_INTS, _REALS = {int}, {float}


def make_list(elems):
    """The canonical list holding `elems` (a Python sequence of values): an array of the
    active backend when the elements are all integers, all reals, or all arrays of one
    shape and kind; a Python list otherwise."""
    elems = list(elems)
    if not elems:
        return []
    first = elems[0]
    t = type(first)
    backend = _backends.current()
    if t is int:
        if set(map(type, elems)) == _INTS:        # (map and set: no Python frame per element)
            try:
                return backend.asarray(elems, "i")
            except (OverflowError, RuntimeError):
                return elems
        if all(is_int(e) for e in elems):
            return _int_array(elems, backend)
        return _ordinary(elems)
    if t is float:
        if set(map(type, elems)) == _REALS:
            return backend.asarray(elems, "f")
        if all(is_real(e) for e in elems):
            return _array_of_numbers(elems, backend, "f")
        return _ordinary(elems)
    if isinstance(first, _arrays.ARRAY_TYPES):
        if first.ndim == 0:
            kind = "i" if is_int(first) else "f"
            if all(is_int(e) if kind == "i" else is_real(e) for e in elems):
                return _array_of_numbers(elems, backend, kind)
            return _ordinary(elems)
        shape, kind = first.shape, array_kind(first)
        if shape[0] and first.ndim < MAX_DIMS and all(
                isinstance(e, _arrays.ARRAY_TYPES) and e.shape == shape and array_kind(e) == kind
                for e in elems):
            check_elements(len(elems) * math.prod(shape))
            return backend.stack(elems)
        return _ordinary(elems)
    if isinstance(first, _HOST_INTS) and not isinstance(first, _HOST_BOOLS):
        if all(is_int(e) for e in elems):
            return _int_array(elems, backend)
        return _ordinary(elems)
    if isinstance(first, _HOST_REALS):
        if all(is_real(e) for e in elems):
            return backend.asarray([float(e) for e in elems], "f")
    return _ordinary(elems)


def _ordinary(elems):
    """A general list of `elems`, a MixedNumbers among them taken as the general list it
    stands for: inside a list, every value is in its ordinary form (mixed.py)."""
    if MixedNumbers in map(type, elems):
        return [general(e) for e in elems]
    return elems


def _array_of_numbers(elems, backend, kind):
    """Numbers some of which are 0-d arrays (they carry gradients): stacked, so that the
    list keeps them in the graph."""
    if any(isinstance(e, _arrays.ARRAY_TYPES) for e in elems):
        return backend.stack([e if isinstance(e, _arrays.ARRAY_TYPES) else backend.asarray(e, kind)
                              for e in elems])
    return backend.asarray([float(e) if kind == "f" else int(e) for e in elems], kind)


def _int_array(elems, backend):
    try:
        return _array_of_numbers(elems, backend, "i")
    except (OverflowError, RuntimeError):
        return [int(e) for e in elems]


def list_like(elems, template):
    """A list of `elems` that is a string when `template` is a string and every element is a
    character (the rule by which string operands come back as strings)."""
    if type(template) is str and all(type(e) is Char for e in elems):
        return "".join(elems)
    return make_list(elems)


def chars_to_string(elems):
    """A string if every element is a character (and there is at least one), else a list."""
    if elems and all(type(e) is Char for e in elems):
        return "".join(elems)
    return make_list(elems)


def empty_like(v):
    return "" if type(v) is str else []


def plain(v):
    """A number as a plain Python number: a 0-d array (gradient or not) or a library's
    scalar gives its value; anything else, an array of elements included, is itself."""
    t = type(v)
    if t is int or t is float:
        return v
    if isinstance(v, _arrays.ARRAY_TYPES):
        return v.item() if v.ndim == 0 else v
    return v.item() if isinstance(v, HOST_SCALARS) else v


def on_backend(value, backend):
    """A constant read by the lexer (host arrays inside) as a value of `backend`; parses
    are shared between interpreters, so the conversion happens where a constant is
    compiled or read, once."""
    if is_array(value):
        return backend.from_host(value)
    if type(value) is list:
        return [on_backend(v, backend) for v in value]
    return value
