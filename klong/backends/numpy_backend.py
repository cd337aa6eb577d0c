"""The numpy backend: arrays are numpy ndarrays on the CPU. It is also the host: list
literals are read into numpy arrays, and other backends copy to and from it."""
import itertools
import re

import numpy as np

from .base import SEQUENTIAL_ROWS, Backend, latin1_text

_REDUCE = {"+": np.add, "*": np.multiply, "|": np.maximum, "&": np.minimum}
_FLOATS = {"float64": np.float64, "float32": np.float32}
_KINDS = {"i": "i", "u": "i", "f": "f", "b": "b"}
# numpy's positions (nonzero) are intp: int64 already on 64-bit systems, where converting
# them would cost a third of finding them on a short vector
_POSITIONS_ARE_INT64 = np.dtype(np.intp) == np.dtype(np.int64)


def code_array(text):
    """The character codes of a str as a numpy vector: bytes for Latin-1 text (a copy of the
    str's own storage), 32-bit integers otherwise (code points are below 2**21)."""
    try:
        return np.frombuffer(text.encode("latin-1"), dtype=np.uint8)
    except UnicodeEncodeError:
        return np.frombuffer(text.encode("utf-32-le"), dtype=np.int32)


def text_of(codes):
    """The str of a numpy vector of character codes."""
    if codes.size and codes.max() < 256:
        return latin1_text(codes)
    return codes.astype(np.int32).tobytes().decode("utf-32-le")


def object_table(table):
    """A sequence of Python objects as a numpy vector of them, for lookup."""
    objects = np.empty(len(table), dtype=object)
    for i, entry in enumerate(table):       # one by one: an entry may itself be a sequence
        objects[i] = entry
    return objects


def lookup(table, codes):
    """[table[c] for c in codes] for a numpy vector of positions, at numpy's speed; table
    a sequence, or object_table's vector of one (made once, not at every call)."""
    objects = table if isinstance(table, np.ndarray) else object_table(table)
    return objects[codes].tolist()


# integers_from_text reads a text shorter than this word by word: -?[0-9]+ of at most 18
# digits, as the array route checks them
_SHORT_TEXT = 200
_INTEGER_WORD = re.compile(r"-?[0-9]{1,18}\Z")
_INT64_DIGITS = 18                      # integers of more digits may not fit in 64 bits


class NumpyBackend(Backend):
    name = "numpy"
    device = "cpu"
    warns = True
    array_type = np.ndarray
    integer_scalars = (np.integer,)
    real_scalars = (np.floating,)
    bool_scalars = (np.bool_,)
    # Backend.element, as the library's own method: no Python frame (x@0 of a pair in a loop)
    element = staticmethod(np.ndarray.item)
    element_is_item = True

    def __init__(self, device=None, dtype=None):
        if device not in (None, "cpu"):
            raise ValueError(f"the numpy backend runs on the cpu only, not {device!r}")
        self.dtype = dtype or "float64"
        if self.dtype not in _FLOATS:
            raise ValueError(f"the numpy backend has no real dtype {dtype!r}; "
                             f"use {' or '.join(_FLOATS)}")
        self.float_dtype = _FLOATS[self.dtype]
        self._dtypes = {"i": np.int64, "f": self.float_dtype}

    def __repr__(self):
        extra = "" if self.dtype == "float64" else f", {self.dtype}"
        return f"numpy backend (cpu{extra})"

    def asarray(self, data, kind=None):
        if kind is None:
            a = np.asarray(data)
            k = a.dtype.kind
            if k == "b" or k in "iu":
                return a.astype(np.int64, copy=False)
            if k == "f":
                return a.astype(self.float_dtype, copy=False)
            return a
        return np.asarray(data, dtype=self._dtypes[kind])

    def integers_from_text(self, text):
        """The blank-separated words of `text` (digits, minus signs and blanks only) as an
        int64 array when there are some and each one is an integer, -?[0-9]+, of at most 18
        digits (it fits); None otherwise. numpy reads them from the text itself once the
        words are checked here: several times faster than converting the words one by one
        (the lexer's list literals and .rs)."""
        if len(text) < _SHORT_TEXT:         # a few words: Python reads them faster
            words = text.split()
            if not words or not all(_INTEGER_WORD.match(w) for w in words):
                return None
            return np.array([int(w) for w in words], dtype=np.int64)
        b = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        digit = (b - np.uint8(48)) < 10
        minus = b == 45
        edges = np.diff((digit | minus).view(np.int8), prepend=np.int8(0), append=np.int8(0))
        starts = np.flatnonzero(edges == 1)
        count = starts.size
        if count == 0:
            return None
        lengths = np.flatnonzero(edges == -1) - starts
        negative = minus[starts]
        signs = np.count_nonzero(negative)
        if signs != np.count_nonzero(minus):        # a minus sign only first in a word
            return None
        if signs:                                   # and a digit after it
            if (lengths[negative] < 2).any():
                return None
            lengths = lengths - negative
        if lengths.max() > _INT64_DIGITS:
            return None
        array = np.fromstring(text, dtype=np.int64, sep=" ")
        return array if array.size == count else None

    def from_host(self, a):
        if a.dtype.kind == "f":
            if a.dtype == self.float_dtype:
                return a
            with np.errstate(over="ignore"):    # past a narrow type's range: inf, as on torch
                return a.astype(self.float_dtype)
        return a.astype(np.int64, copy=False)

    def arange(self, n):
        return np.arange(n, dtype=np.int64)

    def full(self, shape, value, kind):
        # (np.full's steps without its Python layer: a tally's `#'m` is mostly this call)
        a = np.empty(shape, dtype=self._dtypes[kind])
        a.fill(value)
        return a

    def copy(self, a):
        return a.copy()

    def on_host(self, a):
        return a

    def may_share(self, a, b):
        if a.base is None and b.base is None:
            return a is b       # each owns its memory (the common case, and a quicker test)
        return np.may_share_memory(a, b)

    def writable_alone(self, a):
        # a view, or memory lent by someone else (a buffer, a tensor), has a base
        flags = a.flags
        return a.base is None and flags.owndata and flags.writeable

    def codes(self, text):
        return code_array(text)

    def text(self, codes):
        return text_of(codes)

    def byte_text(self, codes):
        if codes.dtype.itemsize != 8:
            return super().byte_text(codes)
        # one pass for the range: a negative code read as unsigned is above 255 too
        if (codes.view(np.uint64) > 255).any():
            return None
        return latin1_text(codes)

    def lookup(self, table, codes):
        return lookup(table, codes)

    def object_table(self, table):
        return object_table(table)

    # the kinds of the usual dtypes, for arrays.HOST_DTYPE_KINDS, which holds them by their
    # classes, one for each dtype (`kind` decides the others)
    host_dtype_kinds = {np.dtype(t): _KINDS[np.dtype(t).kind]
                   for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                             np.uint32, np.uint64, np.float16, np.float32, np.float64, np.bool_)}

    @staticmethod
    def kind(a):
        return _KINDS.get(a.dtype.kind, "o")

    def astype(self, a, kind):
        return a.astype(self._dtypes[kind])

    @staticmethod
    def to_host(a):
        return a

    def array_module(self):
        return np

    @staticmethod
    def buffer(a):
        while isinstance(a.base, np.ndarray):
            a = a.base
        return a, a.nbytes

    def concat(self, arrays):
        return np.concatenate(arrays)

    def attached(self, vector, x, kind, at_end):
        # the new vector filled in place: no one-element array made and concatenated (a
        # third of the time of 0,x on a short vector: a row of Pascal's triangle)
        dtype = self._dtypes[kind]
        if vector.dtype != dtype:
            return super().attached(vector, x, kind, at_end)     # (the join's dtype)
        n = vector.shape[0]
        r = np.empty(n + 1, dtype)
        if at_end:
            r[:n] = vector
            r[n] = x
        else:
            r[0] = x
            r[1:] = vector
        return r

    def concat_each_row(self, arrays):
        # one concatenation along the second axis: the base's swapped concatenation of the
        # columns costs three calls (a batched join of a small batch, each step of a While);
        # row-major, which numpy does not keep where a part is a row broadcast to every row
        # (v,:\u): the rows, each read as a vector after, lie in order
        r = np.concatenate(arrays, 1)
        return r if r.flags.c_contiguous else np.ascontiguousarray(r)

    def stack(self, arrays):
        # np.stack's own steps, less its checks: a third of its time on a few small arrays
        # (a ragged list still fails, in the concatenation)
        return np.concatenate([a[None] if type(a) is np.ndarray else np.asarray(a)[None]
                               for a in arrays])

    def repeat(self, a, counts):
        return np.repeat(a, counts, axis=0)

    def take(self, a, positions):
        # rows of a matrix by numpy's take along the first axis: a tenth of the time of
        # indexing with the positions (12 us -> 1 us for 1000 rows of two, the rows still
        # looping of each step of a batched While); a vector's elements by indexing, which
        # costs less there
        return a[positions] if a.ndim == 1 else a.take(positions, 0)

    def rows_of(self, a, n):
        if not a.flags.c_contiguous:
            return np.broadcast_to(a, (n,) + a.shape)
        # broadcast_to's view made directly (a sixth of its time on a short row), read-only
        r = np.ndarray((n,) + a.shape, a.dtype, a, 0, (0,) + a.strides)
        r.flags.writeable = False
        return r

    def flip(self, a):
        return a[::-1]

    def flip_each_row(self, a):
        return a[:, ::-1]

    def roll(self, a, shift):
        # two slices joined: np.roll's own steps take several times longer on short arrays
        n = a.shape[0]
        k = shift % n if n else 0
        return np.concatenate((a[n - k:], a[:n - k])) if k else a.copy()

    def swap01(self, a):
        return a.swapaxes(0, 1)     # (the method: np.swapaxes's wrappers cost as much again)

    def split(self, a, sizes):
        # (slices: np.split's own work per piece costs several times a slice's)
        bounds = [0, *itertools.accumulate(sizes)]
        return [a[i:j] for i, j in zip(bounds, bounds[1:])]

    def argsort(self, a, stable=True):
        return np.argsort(a, kind="stable" if stable else None).astype(np.int64, copy=False)

    def sort_columns(self, keys, values):
        return np.take_along_axis(values, np.argsort(keys, axis=0), axis=0)

    def sort(self, a):
        return np.sort(a)

    def sort_each_row(self, a):
        return np.sort(a, 1)

    def order_each_row(self, a):
        return ordered_rows(a)

    def row_ranks(self, a):
        inverse = np.unique(a.reshape(a.shape[0], -1), axis=0, return_inverse=True)[1]
        return inverse.reshape(-1).astype(np.int64, copy=False)

    def reduce(self, op, a):
        if op in "+*" and a.dtype.kind == "f":
            with self.quiet():              # a real overflow is inf, silently
                if a.shape[0] <= SEQUENTIAL_ROWS:
                    r = _REDUCE[op].accumulate(a, axis=0)[-1]     # fold_reals, in one call
                else:
                    r = self.fold_reals(op, a)
        else:
            r = _REDUCE[op].reduce(a, axis=0)
        return r.item() if isinstance(r, np.generic) else r

    def accumulate(self, op, a):
        if a.dtype.kind == "f":
            with self.quiet():              # a real overflow is inf, silently (as reduce)
                return _REDUCE[op].accumulate(a, axis=0)
        return _REDUCE[op].accumulate(a, axis=0)

    def fold_each_row(self, op, a):
        if a.size < 2 * a.shape[1]:
            return super().fold_each_row(op, a)
        return self.fold_columns(op, a.swapaxes(0, 1).copy())

    def first_true_each_row(self, mask):
        # numpy's argmax of the truths themselves: half the time of the integers' argmax
        # (which has no vector loop along short rows)
        return mask.argmax(1).astype(np.int64, copy=False)

    def extreme_each_row(self, a, largest):
        if not (a.ndim == 2 and 1 < a.shape[1] <= SEQUENTIAL_ROWS and a.shape[0] > 1):
            return super().extreme_each_row(a, largest)
        # numpy reduces the short rows where they lie one at a time (slowly); their columns
        # laid out one after another, in one pass. Not a few rows of integers or truths
        # (exact in any order): the copy costs more than the rows' reduce
        reduce = (np.maximum if largest else np.minimum).reduce
        if a.shape[0] <= 16 and a.dtype.kind in "ib":
            return reduce(a, axis=1)
        return reduce(a.swapaxes(0, 1).copy(), axis=0)

    def has_negative_zero(self, a):
        return host_negative_zero(a)

    def fold_columns(self, op, c):
        r = fold_host_columns(op, c)
        if r is None:
            return super().fold_columns(op, c)
        return self.signed_zero_sums(r, c.swapaxes(0, 1)) if op == "+" and not r.all() else r

    def laid_out(self, a):
        return np.ascontiguousarray(a)

    def maximum(self, a, b):
        return np.maximum(a, b)

    def minimum(self, a, b):
        return np.minimum(a, b)

    def extreme(self, a, b, larger):
        return extreme_of_reals(a, b, larger)

    def extreme_places(self, a, largest):
        return places_of_extremes(a, largest)

    def abs(self, a):
        return np.abs(a)

    def floor(self, a):
        return np.floor(a)

    def power(self, a, b):
        return np.power(a, b)

    def fmod(self, a, b):
        return np.fmod(a, b)

    def where(self, condition):
        if condition.ndim != 1:
            condition = condition.reshape(-1)
        if condition.shape[0] > 64 and condition.dtype != np.bool_:
            # the same places, found several times quicker in bytes than in int64s (the
            # sieve's &s): a copy of one byte an element costs less than the difference
            # (not on a few: the copy's call costs more than it saves)
            condition = condition.astype(np.bool_)
        # (nonzero itself: flatnonzero's Python steps cost four times its work on a few)
        positions = condition.nonzero()[0]
        return positions if _POSITIONS_ARE_INT64 else positions.astype(np.int64)

    def selected(self, a, truths):
        # the positions as nonzero gives them, used at once (where's steps are for a
        # position vector handed on); indexing a vector, take of a matrix's rows (take)
        positions = truths.nonzero()[0]
        return a[positions] if a.ndim == 1 else a.take(positions, 0)

    def select(self, condition, a, b):
        return np.where(condition, a, b)

    def select_nonzero(self, mask, a, b):
        # (numpy's where takes any number as a condition, not 0 as true: no array of
        # booleans made first, a third of the choice's time on a small batch)
        return np.where(mask, a, b)

    def all(self, a):
        # (a count of the non-zeros: a third of a reduction's cost on a small array, the
        # test of each step of a batched While)
        return np.count_nonzero(a) == np.size(a)

    def any(self, a):
        return np.count_nonzero(a) != 0

    def bounds(self, a):
        if a.ndim == 1 and a.shape[0] <= 32:    # Python's min and max: a third of the time
            elems = a.tolist()
            return min(elems), max(elems)
        return int(a.min()), int(a.max())

    def occurrences(self, a, size):
        return np.bincount(a, minlength=size).astype(np.int64, copy=False)

    def quiet(self):
        return quietly()

    def math_function(self, name):
        fn = getattr(np, name, None)
        return fn if isinstance(fn, np.ufunc) or callable(fn) and not isinstance(fn, type) else None


def _reals(v):
    return type(v) is float or type(v) is np.ndarray and v.dtype == np.float64


def host_negative_zero(a):
    """Backend.has_negative_zero of a numpy array of reals: its zeros, if any, looked at."""
    zeros = a == 0
    return bool(zeros.any()) and bool(np.signbit(a[zeros]).any())


def fold_host_columns(op, c):
    """Backend.fold_columns of a float64 numpy matrix laid out row by row, of two rows or
    more (of n >= 2 elements each), by numpy's reduction along its first axis, which adds
    its rows in order (elementwise), so that each column's elements are combined left to
    right (along the innermost axis, a row of one column, it would add them in pairs); a
    sum that starts from 0.0 rather than from the first element, which Backend.
    signed_zero_sums mends. None for any other c."""
    if not (c.ndim == 2 and c.shape[0] >= 2 and c.shape[1] >= 2 and c.dtype == np.float64
            and c.flags.c_contiguous):
        return None
    with quietly():                            # a real overflow is inf, silently
        return _REDUCE[op].reduce(c, axis=0)


def extreme_of_reals(a, b, larger):
    """a|b (larger) or a&b, Klong's Max and Min, of float64 arrays or an array and a Python
    float, by numpy's elementwise functions, where they pick what the verbs pick; None
    elsewhere. Max gives a where a >= b, else b; Min a where a < b, else b: so where b is
    NaN, b (NaN), and where a is NaN and b is not, b. fmax and fmin give the operand that is
    not NaN, maximum and minimum NaN, and of two equal operands either (which differ only as
    0.0 and -0.0). So: against a number b not NaN, fmax or fmin (against a zero b, only
    where a holds no zero: `x|0.0`); a number a neither NaN nor zero against b, maximum or
    minimum; two arrays, maximum or minimum where their result holds no NaN and no zero,
    else fmax or fmin where b holds no NaN and no zero is picked (then no 0.0 stood beside
    a -0.0)."""
    if not (_reals(a) and _reals(b)):
        return None
    if type(b) is float:
        if b != b or b == 0 and (a == 0).any():
            return None         # (a 0.0 beside a -0.0: which one fmax keeps is its own)
        return (np.fmax if larger else np.fmin)(a, b)
    if type(a) is float:
        if a != a or a == 0:
            return None
        return (np.maximum if larger else np.minimum)(a, b)
    # maximum and minimum give NaN where either operand is NaN: where their result holds no
    # NaN (its least element is a number) and no zero, no operand was NaN and no 0.0 stood
    # beside a -0.0, so the larger (smaller) is the verb's. Its least element positive says
    # both at once (|x|-like results: `x|-x`); one pass each otherwise
    r = (np.maximum if larger else np.minimum)(a, b)
    if r.size:
        least = r.min()
        if least > 0 or least == least and r.all():
            return r
    if np.isnan(b).any():
        return None
    r = (np.fmax if larger else np.fmin)(a, b)
    return r if r.all() else None


def places_of_extremes(a, largest):
    """Backend.extreme_places of a numpy matrix in one comparison of every element: a row's
    extreme is alone exactly where each of its other k-1 elements is below it (above it,
    for the smallest). A NaN, which argmax and argmin find first, is below and above
    nothing, so a row holding one falls short of k-1 too; -0.0 beside 0.0 is not below it
    (a tie: the grade orders them). (Each extreme repeated k times beside the flat matrix:
    numpy compares that faster than a matrix with a column.)"""
    n, k = a.shape
    places = a.argmax(1) if largest else a.argmin(1)
    best = a.reshape(-1).take(places + np.arange(0, n * k, k)).repeat(k)
    others = np.count_nonzero(a.reshape(-1) < best if largest else a.reshape(-1) > best)
    if k == 1 and a.dtype.kind == "f" and np.isnan(best).any():
        return places, True     # (one column: no other element to fall short by)
    return places.astype(np.int64, copy=False), others != n * (k - 1)


def ordered_rows(a):
    """Backend.order_each_row of a numpy matrix: its default sort along the rows (several
    times quicker than a stable one, which Grade has no need of: see batching.grade).
    Integers of a range that leaves room for a position in 64 bits: each with its position
    in the low bits, sorted as numbers (numpy sorts numbers several times faster than it
    finds the order that sorts them), both read back from the sorted keys."""
    n, k = a.shape
    if a.dtype.kind == "i" and a.size:
        low = int(a.min())
        b = max(1, (k - 1).bit_length())
        if int(a.max()) - low < 1 << (62 - b):
            keys = ((a - low) << b) | np.arange(k)
            keys.sort(1)
            return (keys >> b) + low, keys & ((1 << b) - 1)
    order = a.argsort(1).astype(np.int64, copy=False)
    s = a.reshape(-1).take(order + np.arange(0, n * k, k).reshape(n, 1))
    return s, order


# np.errstate(all="ignore") remakes numpy's error state each time it is entered, which costs
# as much as an operation on a small array (and Each runs one per element): the same state,
# made once, is set and reset directly, where this numpy keeps it as errstate does
try:
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
    _QUIET_STATE = _make_extobj(all="ignore")
except (ImportError, TypeError):       # another numpy: errstate itself
    _QUIET_STATE = None


def quietly():
    """A context in which numpy's overflows, divisions and invalid operations are silent."""
    return _Quiet() if _QUIET_STATE is not None else np.errstate(all="ignore")


class _Quiet:
    """with _Quiet(): floating-point overflow, division and invalid operations silently."""
    __slots__ = ("token",)

    def __enter__(self):
        self.token = _extobj_contextvar.set(_QUIET_STATE)

    def __exit__(self, *exc):
        _extobj_contextvar.reset(self.token)
