"""The backend interface: every array operation the verbs, adverbs and the value model need,
for one array library on one device.

A Klong list of uniform numbers is an array of the active backend (int64 or float64, or
float32 where the device has no float64). Verbs never name numpy or torch: they ask the
active backend (`klong.backends.current()`) to build and combine arrays. Operators that both
libraries spell alike (a + b, a[i], a.shape, a.ndim, a.reshape, a.tolist()) are used
directly. Work that only computes positions or counts (grading, grouping, searching) may run
on host numpy (`to_host`), since nothing differentiable flows through it; work that moves
values must stay on the backend so that torch keeps its autograd graph.

Differentiation and compiling (gradient, jacobian, compile_function ...) come from
NumericAutograd: central differences and no compiler, unless a backend overrides them.
"""
from .group import ALONE
from .numeric_autograd import NumericAutograd


class Backend(NumericAutograd):
    name = None
    device = "cpu"
    array_type = None        # the class of this backend's arrays
    float_dtype = None
    group = ALONE            # the processes computing together (group.py): this one alone

    # -- creation, on this backend's device
    def asarray(self, data, kind=None):
        """An array from a Python sequence (or nested sequence) of numbers, or from any
        array. kind 'i' makes it integer, 'f' real, None keeps what the data says."""
        raise NotImplementedError

    def from_host(self, a):
        """A numpy array (a list literal, a value from Python) as a backend array."""
        raise NotImplementedError

    def arange(self, n):
        raise NotImplementedError

    def full(self, shape, value, kind):
        raise NotImplementedError

    def copy(self, a):
        """A fresh copy of `a` that may be written in place (on torch it stays in the
        autograd graph of `a`)."""
        raise NotImplementedError

    # -- inspection and conversion
    def is_array(self, v):
        return isinstance(v, self.array_type)

    def kind(self, a):
        """'i' integer, 'f' real, 'b' boolean, 'o' anything else."""
        raise NotImplementedError

    def astype(self, a, kind):
        raise NotImplementedError

    def to_host(self, a):
        """A numpy copy of `a`, detached from any autograd graph."""
        raise NotImplementedError

    def item(self, a):
        """A 0-d array as a Python number (kept as an array when it carries a gradient)."""
        return a.item()

    def items(self, a):
        """The elements of `a` along its first axis: Python numbers for a vector (0-d arrays
        when they carry a gradient), sub-arrays otherwise."""
        return a.tolist() if a.ndim == 1 else list(a)

    # -- combining
    def concat(self, arrays):
        raise NotImplementedError

    def stack(self, arrays):
        raise NotImplementedError

    def repeat(self, a, counts):
        """Element i of `a` repeated counts[i] times (along the first axis)."""
        raise NotImplementedError

    def flip(self, a):
        raise NotImplementedError

    def roll(self, a, shift):
        raise NotImplementedError

    def swap01(self, a):
        """The first two axes exchanged (a contiguous copy)."""
        raise NotImplementedError

    # -- arithmetic that has no operator
    def reduce(self, op, a):
        """Fold `a` along its first axis with op: '+', '*', '|' (max) or '&' (min)."""
        raise NotImplementedError

    def accumulate(self, op, a):
        """The running fold of `a` along its first axis (op as for reduce)."""
        raise NotImplementedError

    def maximum(self, a, b):
        raise NotImplementedError

    def minimum(self, a, b):
        raise NotImplementedError

    def abs(self, a):
        raise NotImplementedError

    def floor(self, a):
        raise NotImplementedError

    def power(self, a, b):
        raise NotImplementedError

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

    def all(self, a):
        return bool(a.all())

    def any(self, a):
        return bool(a.any())

    def quiet(self):
        """A context in which floating-point overflow and division produce inf/nan silently."""
        raise NotImplementedError

    def math_function(self, name):
        """The array library's elementwise function `name` (exp, log, tanh ...), or None."""
        return None
