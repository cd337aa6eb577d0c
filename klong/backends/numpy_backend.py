"""The numpy backend: arrays are numpy ndarrays on the CPU."""
import numpy as np

from .base import Backend

_DTYPES = {"i": np.int64, "f": np.float64}
_REDUCE = {"+": np.add, "*": np.multiply, "|": np.maximum, "&": np.minimum}


class NumpyBackend(Backend):
    name = "numpy"
    device = "cpu"
    array_type = np.ndarray
    float_dtype = np.float64

    def __init__(self, device=None):
        if device not in (None, "cpu"):
            raise ValueError(f"the numpy backend runs on the cpu only, not {device!r}")

    def __repr__(self):
        return "numpy backend (cpu)"

    def asarray(self, data, kind=None):
        if kind is None:
            a = np.asarray(data)
            if a.dtype.kind == "b" or a.dtype.kind in "iu":
                return a.astype(np.int64, copy=False)
            return a
        return np.asarray(data, dtype=_DTYPES[kind])

    def from_host(self, a):
        return a

    def arange(self, n):
        return np.arange(n, dtype=np.int64)

    def full(self, shape, value, kind):
        return np.full(shape, value, dtype=_DTYPES[kind])

    def copy(self, a):
        return a.copy()

    def kind(self, a):
        k = a.dtype.kind
        if k in "iu":
            return "i"
        return k if k in "fb" else "o"

    def astype(self, a, kind):
        return a.astype(_DTYPES[kind])

    def to_host(self, a):
        return a

    def concat(self, arrays):
        return np.concatenate(arrays)

    def stack(self, arrays):
        return np.stack(arrays)

    def repeat(self, a, counts):
        return np.repeat(a, counts, axis=0)

    def flip(self, a):
        return a[::-1].copy()

    def roll(self, a, shift):
        return np.roll(a, shift, axis=0)

    def swap01(self, a):
        return np.ascontiguousarray(np.swapaxes(a, 0, 1))

    def reduce(self, op, a):
        r = _REDUCE[op].reduce(a, axis=0)
        return r.item() if isinstance(r, np.generic) else r

    def accumulate(self, op, a):
        return _REDUCE[op].accumulate(a, axis=0)

    def maximum(self, a, b):
        return np.maximum(a, b)

    def minimum(self, a, b):
        return np.minimum(a, b)

    def abs(self, a):
        return np.abs(a)

    def floor(self, a):
        return np.floor(a)

    def power(self, a, b):
        return np.power(a, b)

    def fmod(self, a, b):
        return np.fmod(a, b)

    def where(self, condition):
        return np.flatnonzero(condition).astype(np.int64, copy=False)

    def select(self, condition, a, b):
        return np.where(condition, a, b)

    def quiet(self):
        return np.errstate(all="ignore")

    def math_function(self, name):
        fn = getattr(np, name, None)
        return fn if isinstance(fn, np.ufunc) or callable(fn) and not isinstance(fn, type) else None
