"""The backend interface: every array operation the verbs, adverbs and the value model need,
for one array library on one device.

A Klong list of uniform numbers is an array of the active backend (int64, or reals in the
backend's `dtype`: float64 unless asked otherwise). Nothing outside `klong/backends/` (and the
Python interop) names the array library: verbs ask the active backend
(`klong.backends.current()`) to build, order and combine arrays. Operators that both
libraries spell alike (a + b, a == b, a[i], a[i] = v, a.shape, a.ndim, a.reshape, a.min(),
a.tolist()) are used directly. Everything stays on the backend's device: ordering, grouping
and searching too, so that a GPU never waits for a round trip through the host; values keep
their autograd graph where the library has one.

The methods that raise NotImplementedError are what a backend must provide; the others are
written here once in terms of those, and a backend overrides them where its library has a
faster spelling.

Besides its array operations a backend has parts, each made on first use:
`backend.autograd` (differentiation: central differences in NumericAutograd unless the backend
names an exact engine), `backend.compiler` (compile and export; None where the library has no
compiler) and `backend.group` (the processes computing together, joined when a distributed
function first asks).
"""
import contextlib
import functools
import math
import operator

import numpy as np

from .group import ALONE
from .numeric_autograd import NumericAutograd

DTYPES = ("float64", "float32", "bfloat16", "float16")

# Sums and products of reals are folded in one order on every backend (see fold_reals): at
# most this many rows left to right, as Klong's definition (and kg) fold them; more in halves
SEQUENTIAL_ROWS = 64
_COMBINE = {"+": operator.add, "*": operator.mul}
# the smallest normal real: C's pow may report a result below it as a range error, which
# Python turns into an OverflowError (and ^ then into an infinity)
_TINY = 2.2250738585072014e-308
_IN_PLACE = {"+": operator.iadd, "*": operator.imul}


def latin1_text(codes):
    """The str of a numpy vector of character codes, all of them within 0..255."""
    return codes.astype(np.uint8).tobytes().decode("latin-1")


def host_from_dlpack(obj):
    """An array of any library that speaks DLPack as a numpy array: shared where it is on
    the CPU, else copied there."""
    try:
        return np.from_dlpack(obj)
    except (BufferError, RuntimeError, TypeError, ValueError):
        try:            # on another device: numpy asks for a copy on the CPU
            return np.from_dlpack(obj, device="cpu", copy=True)
        except Exception as e:
            raise TypeError(f"cannot read a DLPack array of {type(obj).__name__} "
                            f"here: {e}") from None


class Backend:
    """The contract of a backend: what klong needs of an array library on one device.

    A backend class is constructed as Cls(device=None) or Cls(device, dtype); it raises
    ValueError (one line) for a device or dtype it cannot serve. Each interpreter gets its
    own instance and sets its settings on it (`amp_dtype`: settings.py), so
    an instance holds no state shared with another. Class attributes:

    name         the name it is found by (KlongInterpreter(backend=name), kgpy --backend)
    array_type   the class of its arrays; lists of uniform numbers are these, int64 or reals
                 of `float_dtype` (named by `dtype`, one of DTYPES)
    device       where its arrays live
    integer_scalars, real_scalars, bool_scalars  the library's scalar classes

    Every method below that raises NotImplementedError must be provided; the others have
    working definitions in terms of those and may be overridden for speed. Arrays given to
    a method are this backend's (or Python numbers where a method says so); arrays returned
    must be too. `to_host`, `kind` and `from_host` are how values cross to numpy and back,
    for printing, comparing and reading list literals.

    Its parts, each made on first use from what the class names:

    autograd     Autograd(self): differentiation (gradients, jacobian, hessian, custom
                 derivatives); NumericAutograd, central differences, unless a backend names
                 an exact engine (torch's TorchAutograd, a subclass of it)
    compiler     Compiler(self), compile and export of Klong functions (torch's
                 TorchCompiler); None when Compiler is None: `.compile` and friends then
                 say that they need the torch backend
    group        join_group(): the processes computing together (group.py); this process
                 alone unless the backend joins others (torch under torchrun)

    Installed as a package, a backend declares an entry point in the group
    `klong.backends` naming its class (docs/backends.md); the conformance suite
    (`run.py --backend NAME`) checks it.
    """
    name = None
    device = "cpu"
    array_type = None        # the class of this backend's arrays
    float_dtype = None       # the library's dtype object for reals
    traces = False           # whether vmap can trace a function (else it gives None)
    differentiates = False   # whether is_tracked may be true of an array (autograd)
    element_is_item = False  # element(a, i) is a.item(i) for every vector of array_type
                             # (generated code then writes At of one inline)
    dtype = "float64"        # its name: one of DTYPES that the backend supports
    amp_dtype = None         # the reduced precision of autocast (amp), when it is on
    warns = False            # whether the library warns of a real overflow or division by
                             # zero (quiet() silences it; else quiet() does nothing)
    scans_rows = False       # whether fold_each_row folds fresh rows of reals where they
                             # lie (a scan along them), without laying their columns out
    broadcasts_cheaply = False   # whether its products of operands broadcast along other
                                 # axes cost less than numpy's on the same memory

    Autograd = NumericAutograd   # the class of its autograd part
    Compiler = None              # the class of its compiler part, None: no compiler
    Capturer = None              # the class of its capture part (capture and replay of
                                 # steps, runtime/capture.py), None: none

    @functools.cached_property
    def autograd(self):
        return self.Autograd(self)

    @functools.cached_property
    def compiler(self):
        return None if self.Compiler is None else self.Compiler(self)

    @functools.cached_property
    def capture(self):
        return None if self.Capturer is None else self.Capturer(self)

    @functools.cached_property
    def group(self):
        """Joined on first use: a distributed function asks for it, never the constructor."""
        return self.join_group()

    def join_group(self):
        """The processes this backend computes with (group.py): this one alone here."""
        return ALONE

    # Scalar classes of the array library (what indexing one of its arrays may give besides
    # Python numbers); the value model accepts them as integers, reals and truth values.
    integer_scalars = ()
    real_scalars = ()
    bool_scalars = ()

    # -- creation, on this backend's device
    def asarray(self, data, kind=None):
        """An array from a Python sequence (or nested sequence) of numbers, or from any
        array. kind 'i' makes it integer, 'f' real, None keeps what the data says."""
        raise NotImplementedError

    def integers_from_text(self, text):
        """Only the host backend (numpy) is asked: the words of `text` as an int64 array of
        the host, or None where they are not all integers that fit (see numpy_backend.py)."""
        return None

    def from_host(self, a):
        """A numpy array (a list literal, a value from Python) as a backend array."""
        raise NotImplementedError

    def char_codes(self, text):
        """The code of each character of a string, as a Klong integer vector; None where the
        text has no UTF-32 form (a lone surrogate)."""
        try:
            return self.astype(self.codes(text), "i")
        except UnicodeEncodeError:
            return None

    def from_dlpack(self, obj):
        """An array of any library that speaks DLPack (`__dlpack__`) as a backend array:
        shared where the device and element type allow, copied where they must change."""
        a = host_from_dlpack(obj)
        if a.dtype.kind in "iub":
            return self.from_host(a.astype(np.int64, copy=False))
        if a.dtype.kind != "f":
            raise TypeError(f"a DLPack array of {a.dtype} elements is not a Klong list")
        return self.from_host(a)

    def arange(self, n):
        raise NotImplementedError

    def full(self, shape, value, kind):
        raise NotImplementedError

    def copy(self, a):
        """A fresh copy of `a` that may be written in place (on torch it stays in the
        autograd graph of `a`)."""
        raise NotImplementedError

    def on_host(self, a):
        """The array a as a numpy array of the same memory, where numpy may compute in the
        library's place (giving the same bits): CPU memory, no gradient, no trace; None
        elsewhere."""
        return None

    def may_share(self, a, b):
        """Whether arrays a and b may share memory (one a view of the other, say); True
        where the library cannot tell."""
        return True

    def writable_alone(self, a):
        """Whether array a may be written in place when nothing holds it in Python but the
        caller (verbs/inplace.py counts those references): it owns its memory, which no
        other array, buffer or autograd graph can reach. False when in doubt."""
        return False

    def codes(self, text):
        """The character codes of a str as an integer vector (the narrowest integer type that
        holds them: only for comparing and ordering, never a Klong value)."""
        raise NotImplementedError

    def text(self, codes):
        """The str whose character codes are the integer vector `codes`."""
        return "".join(map(chr, self.to_host(codes).tolist()))

    def byte_text(self, codes):
        """The str whose character codes are the integer vector `codes` where every code is
        within 0..255 (one byte each), else None: Char's range checked and the text made
        at once (,/:#a)."""
        lo, hi = self.bounds(codes)
        return latin1_text(self.to_host(codes)) if lo >= 0 and hi <= 255 else None

    def lookup(self, table, codes):
        """[table[c] for c in codes] as a Python list: table is a sequence of Python objects
        (or what object_table made of one), codes an integer vector of valid positions in it."""
        return [table[c] for c in self.to_host(codes).tolist()]

    def object_table(self, table):
        """A sequence of Python objects in the form lookup reads quickest, for a table made
        once and read often."""
        return table

    # -- inspection and conversion
    def is_array(self, v):
        return isinstance(v, self.array_type)

    def is_tracked(self, v):
        """Whether v carries an autograd graph (is being differentiated exactly)."""
        return False

    def is_tracked_within(self, v):
        """Whether v, or the array that a transform's batched value v stands for (a row
        inside the library's vmap), carries an autograd graph."""
        return self.is_tracked(v)

    def rows_step(self, step, a, w):
        """step(rows, w), a step on all the rows of a batch at once (w the same for every
        row), for `a`, one row of a batch that the library's vmap runs row by row (the loop
        of a traced Each): that step on the whole batch, so that the loop's values and
        gradients are the batched Each's to the bit; None where `a` is no such row (the
        caller then takes the row's own steps)."""
        return None

    def graph_holding(self, graph, compute, *operands):
        """compute(*operands), Klong's steps; where an operand is being differentiated, as
        the result of graph(*operands), the same values by the library's cheaper steps (a
        product for sums of products), which the gradient then flows through, holding
        compute's values made outside the graph. Here (no gradients) compute's."""
        return compute(*operands)

    @staticmethod
    def kind(a):
        """'i' integer, 'f' real, 'b' boolean, 'o' anything else."""
        raise NotImplementedError

    def astype(self, a, kind):
        raise NotImplementedError

    @staticmethod
    def to_host(a):
        """A numpy copy of `a`, detached from any autograd graph."""
        raise NotImplementedError

    def item(self, a):
        """A 0-d array as a Python number (kept as an array when it carries a gradient)."""
        return a.item()

    def element(self, a, i):
        """Element i (0 <= i < len) of the vector `a` as `item` gives it, without the 0-d
        array that a[i] makes first."""
        return a.item(i)

    def firsts(self, vectors):
        """The first elements of non-empty vectors of the backend, as `element` gives them
        (*'g over the groups of =)."""
        return [a.item(0) for a in vectors]

    def items(self, a):
        """The elements of `a` along its first axis: Python numbers for a vector (0-d arrays
        when they carry a gradient), sub-arrays otherwise."""
        return a.tolist() if a.ndim == 1 else list(a)

    def array_module(self):
        """The array library itself (for Python code that wants to call it directly)."""
        raise NotImplementedError

    # -- combining
    def concat(self, arrays):
        raise NotImplementedError

    def attached(self, vector, x, kind, at_end):
        """The vector with the number x (of its kind `kind`, 'i' or 'f', and within its
        dtype's range) as a new last (at_end) or first element."""
        one = self.asarray([x], kind)
        return self.concat((vector, one) if at_end else (one, vector))

    def stack(self, arrays):
        raise NotImplementedError

    def concat_each_row(self, arrays):
        """The matrices `arrays` (of as many rows, of one dtype) joined along their second
        axis: each row of the result the rows of the parts, one after another. Here by
        concat of their columns."""
        return self.swap01(self.concat([self.swap01(a) for a in arrays]))

    def repeat(self, a, counts):
        """Element i of `a` repeated counts[i] times (along the first axis)."""
        raise NotImplementedError

    def rows_of(self, a, n):
        """n rows each equal to the array a, (n,) + a.shape, as an operand to read only
        (a batch's operand the same for every row, verbs/batching.py): a view that copies
        nothing where the library has one."""
        return self.repeat(a.reshape((1,) + tuple(a.shape)), n)

    def bounds(self, a):
        """(smallest, largest) element of a non-empty integer array, as Python ints: the
        range checks of indices, counts and exact integer arithmetic."""
        return int(a.min()), int(a.max())

    def flip(self, a):
        """`a` in reverse order along its first axis (a view where the library has them)."""
        raise NotImplementedError

    def flip_each_row(self, a):
        """Each row of `a` (along its second axis) in reverse order: its columns read
        backwards (a view where the library has them)."""
        return self.swap01(self.flip(self.swap01(a)))

    def roll(self, a, shift):
        """`a` rotated by `shift` places along its first axis (positive: to the end), a
        new array."""
        raise NotImplementedError

    def swap01(self, a):
        """The first two axes exchanged (a view where the library has them)."""
        raise NotImplementedError

    def take(self, a, positions):
        """The elements of `a` (along its first axis) at an integer array of valid,
        non-negative positions, laid out as positions are."""
        return a[positions]

    def selected(self, a, truths):
        """The elements of `a` (along its first axis) where the boolean vector `truths`, as
        long, holds: take at where's positions."""
        return self.take(a, self.where(truths))

    def occurrences(self, a, size):
        """How often each of 0 .. size-1 occurs in the integer vector `a` of values in that
        range, as an int64 vector of `size` counts (numpy's bincount)."""
        return self.from_host(np.bincount(self.to_host(a), minlength=size).astype(np.int64))

    def put(self, a, positions, values):
        """Write values (a number, or an array laid out as the positions) into `a` at an
        integer vector of positions, in place; returns `a`. Only for a fresh array."""
        a[positions] = values
        return a

    def split(self, a, sizes):
        """`a` cut along its first axis into consecutive pieces of the given sizes (a list
        of ints that add up to len(a)); the pieces may be views."""
        pieces, start = [], 0
        for size in sizes:
            pieces.append(a[start:start + size])
            start += size
        return pieces

    # -- order
    def argsort(self, a, stable=True):
        """The positions (int64) that put the vector `a` in ascending order. Stable: equal
        elements keep their order. When `stable` is false ties may come out in any order,
        which lets a library use its fastest sort."""
        raise NotImplementedError

    def sort_columns(self, keys, values):
        """The matrix `values` with each column reordered as the same column of `keys` (a
        matrix of its shape, unique within each column) sorts ascending."""
        raise NotImplementedError

    def sort_each_row(self, a):
        """Each row of the matrix a in ascending order."""
        raise NotImplementedError

    def order_each_row(self, a):
        """(each row of the matrix a in ascending order, the positions in its row that put
        it so): equal elements in any order (the library's fastest sort)."""
        raise NotImplementedError

    def sort(self, a):
        """The vector `a` in ascending order."""
        return self.take(a, self.argsort(a, stable=False))

    def sort_order(self, a, stable=True):
        """(the vector `a` in ascending order, the positions that put it so): argsort and
        the gather in one, where the library's sort gives both."""
        order = self.argsort(a, stable)
        return self.take(a, order), order

    def row_ranks(self, a):
        """For an array of rank 2 or more: one int64 per row (along the first axis), equal
        for equal rows, ordered as the rows are ordered lexicographically (row-major)."""
        raise NotImplementedError

    # -- arithmetic that has no operator
    def reduce(self, op, a):
        """Fold `a` along its first axis with op: '+', '*', '|' (max) or '&' (min)."""
        raise NotImplementedError

    def sum_of_products(self, a, b):
        """+/a*b of two real vectors of one length, summed as fold_reals sums a*b, to the
        bit: the fold's first step adds the products of the first half to those of the
        second, here made half at a time, so that all the products are never in memory at
        once. a and b are untracked (the caller sees to it)."""
        n = a.shape[0]
        if n <= SEQUENTIAL_ROWS:
            return self.fold_reals("+", a * b, fresh=True)
        half = n // 2
        first = a[:half] * b[:half]
        second = a[half:2 * half] * b[half:2 * half]
        if self.may_overwrite(first):
            first += second
        else:
            first = first + second
        aside = [(a[2 * half:] * b[2 * half:])[0]] if n & 1 else []
        return self.fold_reals("+", first, fresh=True, aside=aside)

    def fold_reals(self, op, a, fresh=False, aside=()):
        """+/ or */ ('+' or '*') of a real array along its first axis, in the one order
        every backend follows, so that the printed result is the same on all of them: while
        more than SEQUENTIAL_ROWS rows are left, the first half of the rows and the second
        are combined row by row (an odd last row is set aside); the rows left are then folded
        left to right, and the rows set aside combined with that, the last set aside first.
        Every step is one elementwise operation of the library on whole arrays, each element
        one IEEE operation: numpy and torch compute the same bits, for about the cost of the
        library's own reduction. `fresh`: `a` is a temporary that may be overwritten;
        `aside`: rows an earlier step set aside (sum_of_products)."""
        combine = _COMBINE[op]
        writable = fresh and self.may_overwrite(a)
        aside = list(aside)
        n = a.shape[0]
        while n > SEQUENTIAL_ROWS:
            host = self.hand_over(a, n)
            if host is not None:        # the same steps, at a lower cost per call
                a, aside = host, [self.to_host(row)[()] for row in aside]
            half = n // 2
            if n & 1:
                aside.append(a[2 * half])
            if writable:
                first = a[:half]
                _IN_PLACE[op](first, a[half:2 * half])
                a = first
            else:
                a = combine(a[:half], a[half:2 * half])
                writable = self.may_overwrite(a)
            n = half
        r = self.fold_rows(op, a)
        for row in reversed(aside):
            r = combine(r, row)
        return r

    def fold_each_row(self, op, a):
        """+/ or */ ('+' or '*') of each row of the real array a: along its second axis, of
        at least one and at most SEQUENTIAL_ROWS elements, left to right as fold_reals folds
        one row (the same bits). Here the running fold along the first axis of a's columns;
        a backend overrides it where its library has a cheaper exact way."""
        return self.fold_rows(op, self.swap01(a))

    def extreme_each_row(self, a, largest):
        """|/ (largest) or &/ of each row of the numeric array a (along its second axis), as
        reduce along the first axis of its columns gives them: NaN where a row holds one;
        which of 0.0 and -0.0 it keeps, the library's (the batch declines them first)."""
        return self.reduce("|" if largest else "&", self.swap01(a))

    def has_negative_zero(self, a):
        """Whether the real array a holds a -0.0."""
        zeros = a == 0
        if not self.any(zeros):
            return False
        with self.quiet():
            return bool(self.any(zeros & (self.divide(1.0, a) < 0)))

    def fold_columns(self, op, c):
        """+/ or */ ('+' or '*') of each column of the real matrix c, laid out row by row
        (c[j]: the j-th element of every column; at least one and at most SEQUENTIAL_ROWS of
        them), left to right as fold_reals folds one vector (the same bits): fold_each_row
        for operands made column by column (verbs/batched.py's sums of products), which need
        no copy into rows. Here the running fold along the first axis."""
        return self.fold_rows(op, c)

    def laid_out(self, a):
        """a in row-major order (a copy where it is laid out otherwise, a itself where it
        is): the library's elementwise steps along its last axis then run over memory in
        order, and numpy's reduction along its first axis adds its rows in order. Here a
        itself: a library that does not say how its arrays lie in memory."""
        return a

    def signed_zero_sums(self, r, a):
        """r, the sums of the rows of a made by a library's reduction or scan that starts
        from 0.0 (its identity) rather than from a row's first element, as the loop's: a
        row of nothing but -0.0 sums to -0.0 in the loop and to 0.0 there. The rows whose
        sum is zero are summed again by the loop's steps (one addition a column, which
        starts from the first), in place in r."""
        zero = r == 0
        if self.any(zero):
            rows = self.where(zero.reshape(r.shape[0], -1).any(1))
            some = a[rows]
            total = some[:, 0]
            for j in range(1, some.shape[1]):
                total = total + some[:, j]
            r[rows] = total
        return r

    def hand_over(self, a, n):
        """A numpy array to go on folding with (numpy's calls cost less than some
        libraries'), or None to go on with `a`."""
        return None

    def may_overwrite(self, a):
        """Whether an array computed here may be updated in place (not while a tracer or
        an autograd graph watches it)."""
        return True

    def fold_rows(self, op, a):
        """op folded over the rows of `a` (at least one; elements of a vector, in its dtype)
        from left to right: the last of the running fold, where the library's scan runs left
        to right in the dtype (numpy's does; a backend whose scan does not overrides this)."""
        return self.accumulate(op, a)[-1]

    def accumulate(self, op, a):
        """The running fold of `a` along its first axis (op as for reduce)."""
        raise NotImplementedError

    def accumulate_each_row(self, op, a):
        """The running fold of each row of the matrix a (along its second axis), as
        accumulate gives it along the first axis of a's columns (the same steps, the same
        bits); a backend overrides it where its library scans along the rows in place."""
        return self.swap01(self.accumulate(op, self.swap01(a)))

    def maximum(self, a, b):
        raise NotImplementedError

    def first_true_each_row(self, mask):
        """The place of the first true element of each row of the boolean matrix mask (0
        where a row has none), as an integer vector."""
        return self.astype(mask, "i").argmax(1)

    def extreme_places(self, a, largest):
        """For a matrix of numbers a: the place of the largest (smallest) element of each
        row, its first where it is there more than once, as the library's argmax (argmin),
        which counts a NaN largest and smallest; and whether some row holds its extreme
        more than once, or holds a NaN."""
        n, k = a.shape
        places = a.argmax(1) if largest else a.argmin(1)
        best = a.reshape(-1)[places + self.arange(n) * k]
        ties = self.any(self.astype(a == best.reshape(n, 1), "i").sum(1) > 1) \
            or self.kind(a) == "f" and self.any(best != best)
        return places, ties

    def extreme(self, a, b, larger):
        """Klong's Max (larger) or Min of two real operands (arrays of float64, or a Python
        float beside one) by the library's own fmax and fmin, where they pick what the verbs
        pick (numpy_backend.extreme_of_reals), else None (and where a backend has no such
        way: the verbs then compare and select)."""
        return None

    def minimum(self, a, b):
        raise NotImplementedError

    def abs(self, a):
        raise NotImplementedError

    def floor(self, a):
        raise NotImplementedError

    def power(self, a, b):
        raise NotImplementedError

    def pow_each(self, a, b):
        """a**b of reals (arrays or numbers), every element as Python computes a**b of two
        reals: C's pow. numpy's float_power calls it for each element; its power may run
        vector code instead (AVX-512) that differs from it in the last place. Computed on the
        host, given back as this backend's array."""
        x, y = (self.to_host(v) if self.is_array(v) else v for v in (a, b))
        with np.errstate(all="ignore"):
            return self.from_host(np.asarray(np.float_power(x, y)))

    def pow_each_normal(self, a, b):
        """pow_each(a, b), or None where some element's a**b is not what Klong's ^ gives by
        Python's steps: a negative base with an exponent that is not a whole number (not
        finite included: Klong's :undefined), zero to a negative power, a result that is not
        finite or is below the normal reals from a base other than zero (Python's range
        errors). The checks on the host's arrays too: a handful of operations on a vector
        cost less there than the library's calls on some backends."""
        x, y = (self.to_host(v) if self.is_array(v) else v for v in (a, b))
        if type(y) in (int, float) and isinstance(x, np.ndarray) and x.size:
            return self._pow_by_number(x, y)
        with np.errstate(all="ignore"):
            whole = np.isfinite(y) & (np.floor(y) == y)
            if np.any((x < 0) & ~whole | (x == 0) & (y < 0)):
                return None
            r = np.asarray(np.float_power(x, y))
            size = np.abs(r)
            if not np.all(size < np.inf) or np.any((size < _TINY) & (x != 0)):
                return None     # (a NaN fails the first test too)
        return self.from_host(r)

    def _pow_by_number(self, x, y):
        """pow_each_normal of a host array x (some elements) to the Python number y: the
        same tests in fewer passes over x (a few reductions rather than masks combined)."""
        whole = type(y) is int or math.isfinite(y) and y.is_integer()
        with np.errstate(all="ignore"):
            if not whole and x.min() < 0 or y < 0 and not np.all(x):
                return None     # (a NaN in x: its min is NaN, and so is its power, below)
            r = np.asarray(np.float_power(x, y))
            size = np.abs(r)
            if not size.max() < np.inf:
                return None     # (a NaN too)
            if size.min() < _TINY and np.any((size < _TINY) & (x != 0)):
                return None
        return self.from_host(r)

    def divide(self, a, b):
        """a / b, correctly rounded (operands of the result's kind: klong/runtime/kinds.py)."""
        return a / b

    def fmod(self, a, b):
        """Remainder with the sign of the dividend (C's fmod, truncating division)."""
        raise NotImplementedError

    def where(self, condition):
        """The positions (int64 vector) where a 1-D array is non-zero."""
        raise NotImplementedError

    def select(self, condition, a, b):
        """Elementwise choice: a where condition holds, else b (numpy's 3-argument where).
        a and b are arrays or numbers of one kind; all three broadcast together."""
        raise NotImplementedError

    def select_nonzero(self, mask, a, b):
        """select where the numeric array `mask` is not 0 (a Klong truth: a batched
        conditional's predicate of one number per row)."""
        return self.select(mask != 0, a, b)

    def all(self, a):
        return bool(a.all())

    def any(self, a):
        return bool(a.any())

    def any_zero(self, a):
        """Whether the numeric array a holds a zero (0.0 or -0.0 among reals): a divisor's
        test."""
        return self.any(a == 0)

    def close(self, a, b, tolerance):
        """Elementwise: a equals b, or differs from it by at most `tolerance` relative to the
        larger magnitude (Match's equality of reals). b may be a number."""
        # the builtin abs: b may be a Python number, a and b arrays of either library;
        # quiet: inf - inf is NaN (no match), silently
        with self.quiet():
            return (a == b) | (abs(a - b) <= tolerance * self.maximum(abs(a), abs(b)))

    def equal(self, a, b, tolerance):
        """Do the arrays a and b (of one shape) match element by element, reals within
        `tolerance`?"""
        if self.kind(a) == "f" or self.kind(b) == "f":
            with self.quiet():
                return self.all(self.close(a, b, tolerance))
        return self.all(a == b)

    def quiet(self):
        """A context in which floating-point overflow and division produce inf/nan silently."""
        return contextlib.nullcontext()

    def math_function(self, name):
        """The array library's elementwise function `name` (exp, log, tanh ...), or None."""
        return None

    def creation_options(self):
        """The keywords with which the library's functions that make an array (zeros,
        randn ...) make one of reals in the interpreter's dtype, where its arrays live."""
        return {"dtype": self.float_dtype}

    # -- running
    # -- the interpreter's settings (klong/runtime/settings.py, klong/runtime/memory.py)
    def full_precision(self):
        """A context in which mixed precision (amp) is off, for work that must be exact."""
        return contextlib.nullcontext()

    def autocast(self):
        """A context in which the library computes in `amp_dtype` where it can (amp)."""
        return contextlib.nullcontext()

    def deterministic(self):
        """A context in which the library uses deterministic algorithms only."""
        return contextlib.nullcontext()

    def device_memory(self):
        """{allocated, reserved, peak} bytes of a device's allocator, or None where there is
        none (the CPU: the interpreter counts its arrays itself)."""
        return None

    def device_totals(self):
        """(bytes allocated, bytes freed) on the device so far, or None (as device_memory)."""
        return None

    def reset_peak(self):
        """Start the device allocator's peak again."""

    def empty_cache(self):
        """Give the device allocator's cached memory back."""

    def limit_memory(self, nbytes):
        """Bound what the device's allocator may take (nothing to bound on the CPU)."""

    @staticmethod
    def buffer(a):
        """(the array that owns a's memory, its size in bytes): a view shares its base's."""
        raise NotImplementedError

    def synchronize(self):
        """Wait until work queued on the device is done (for timing); a no-op on the CPU."""

    def tracing(self):
        """A context in which numbers stay 0-d arrays rather than Python numbers, so that a
        tracer (a compiler) sees every operation. Nothing to do where there is no tracer."""
        return contextlib.nullcontext()

    def unbatched(self, v):
        """A value met inside `vmap` as Python can keep it: the stack of every sample's
        value (a tracer's batched array is no use outside the trace); anything else as is."""
        return v

    def vmap(self, fn, a, *others):
        """fn applied to every element of `a` (along the first axis) at once, by tracing fn
        over the whole array (torch.func.vmap), as an array of the results; None where the
        library cannot (the caller then loops). fn must be free of effects. With `others`
        (arrays of a's length), fn takes the elements of a and of each of them alike."""
        return None
