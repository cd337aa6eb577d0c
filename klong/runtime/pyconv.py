"""Conversion of values between Python and Klong (system.md B.3), and the Python faces of
functions: a Python callable as a Klong function (PyFunction), a Klong function as a Python
callable (KlongFunction)."""
import inspect
import warnings
from itertools import chain

import numpy as np

from .. import backends
from ..backends import arrays
from ..backends.base import host_from_dlpack
from . import context, limits
from ..errors import KlongError, as_klong_error
from .values import Char, Dict, Function, MixedNumbers, Symbol, UNDEFINED, make_list


class PyFunction(Function):
    """A Python callable used as a Klong function. Arguments are passed by position; the
    arity is the number of required positional parameters (a parameter named `klong`
    receives the interpreter and is not counted).

    Differentiating through Python code: a torch.autograd.Function subclass is called
    through its `apply`; a callable with a `grad` attribute (fn.grad = dfn) is
    differentiated with dfn, which takes the same arguments and returns the derivative."""
    __slots__ = ("fn", "run", "arity", "most", "interp", "wants_klong", "wants_numpy",
                 "wants_tensors", "derivative")

    def __init__(self, fn, interp=None):
        self.fn = fn
        self.interp = interp
        self.wants_tensors = _is_autograd_function(fn)     # numbers become 0-d tensors
        if self.wants_tensors:
            self.run = fn.apply
            self.arity, self.most, self.wants_klong = _arity_of(fn.forward, skip="ctx")
        else:
            self.run = fn
            self.arity, self.most, self.wants_klong = _arity_of(fn)
        self.derivative = getattr(fn, "grad", None)
        if not callable(self.derivative):
            self.derivative = None
        # numpy's own functions get numpy arrays, also on the torch backend
        self.wants_numpy = isinstance(fn, np.ufunc) or \
            str(getattr(fn, "__module__", "") or "").split(".")[0] == "numpy"

    def call(self, args):
        if not self.arity <= len(args) <= self.most:
            expected = self.arity if self.arity == self.most else f"{self.arity} to {self.most}"
            raise KlongError("arity", f"wrong arity: Python function of {expected} called with {len(args)}")
        kwargs = {"klong": self.interp} if self.wants_klong else {}
        if self.derivative is not None:
            return backends.current().autograd.custom_gradient(
                lambda *a: self._invoke(self.run, a, kwargs),
                lambda *a: self._invoke(self.derivative, a, {}), args)
        return self._invoke(self.run, args, kwargs)

    def _invoke(self, fn, args, kwargs):
        py_args = [to_python(a) for a in args]
        tracked = any(getattr(a, "requires_grad", False) for a in py_args)
        if self.wants_numpy:
            py_args = [backends.to_host(a) if isinstance(a, arrays.ARRAY_TYPES) else a
                       for a in py_args]
        elif self.wants_tensors:
            py_args = [backends.current().asarray(a, "f") if type(a) in (int, float) else a
                       for a in py_args]
        try:
            with warnings.catch_warnings():
                if tracked:      # torch warns when such code turns a tracked tensor into a float
                    warnings.simplefilter("ignore")
                result = fn(*py_args, **kwargs)
        except KlongError:
            raise
        except Exception as e:
            raise KlongError("python", f"{type(e).__name__}: {e}") from e
        if tracked and not getattr(result, "requires_grad", False):
            raise KlongError("type", "autograd chain broken: a Python function returned a value "
                                     "without a gradient; use .bkf functions inside "
                                     "differentiated code, or give it a derivative "
                                     "(fn.grad, .customgrad) or .numgrad")
        return to_klong(result, self.interp)


def _is_autograd_function(fn):
    """A torch.autograd.Function subclass (recognised without importing torch)."""
    return isinstance(fn, type) and all(callable(getattr(fn, m, None))
                                        for m in ("apply", "forward", "backward"))


def _arity_of(fn, skip=None):
    """(required, most, wants_klong): how many positional arguments the callable needs and
    accepts (at most 3 either way), and whether it takes the interpreter as `klong`. A
    first parameter named `skip` is not counted (the ctx of an autograd Function)."""
    nin = getattr(fn, "nin", None)               # numpy ufuncs have no signature
    if isinstance(nin, int):
        return min(nin, 3), min(nin, 3), False
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return 0, 3, False
    required = optional = 0
    variadic = wants_klong = False
    params = list(sig.parameters.values())
    if skip and params and params[0].name == skip:
        params = params[1:]
    for p in params:
        if p.name == "klong":
            wants_klong = True
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            if p.default is p.empty:
                required += 1
            else:
                optional += 1
        elif p.kind == p.VAR_POSITIONAL:
            variadic = True
    most = 3 if variadic else min(required + optional, 3)
    return min(required, 3), max(most, min(required, 3)), wants_klong


class KlongFunction(Function):
    """A Klong function as Python sees it: called with Python values, it returns a Python
    value (system.md B.4), running on the backend of the interpreter that made it, under
    the limits of the interpreter that handed it to Python. Handed back to Klong (or to
    klong's Python API) it is the function itself again."""
    __slots__ = ("function", "context")

    def __init__(self, function):
        self.function = function
        running = context.current()     # the interpreter handing it over, when it is its own
        backend = getattr(function, "backend", None)
        self.context = running if running is not None and running.backend is backend else None

    @property
    def arity(self):
        return self.function.arity

    @property
    def backend(self):
        return getattr(self.function, "backend", None)

    def call(self, args):
        return self.function.call(args)

    def __call__(self, *args):
        f = self.function
        entered = context.entered(self.context) if self.context is not None else \
            backends.using(getattr(f, "backend", None) or backends.current())
        with entered:
            try:
                return to_python(f.call([to_klong(a) for a in args]))
            except Exception as e:            # only Klong errors leave Klong code
                err = as_klong_error(e)
                if err is e:
                    raise
                raise err from e

    def __repr__(self):
        return repr(self.function)          # a Klong function shows its source


def to_klong(v, interp=None, _within=None):
    """A Python value as a Klong value. (`_within`: the ids of the lists and dictionaries
    being converted around this one, by which one that holds itself is found.)"""
    if isinstance(v, KlongFunction):
        return v.function
    if isinstance(v, (Char, Symbol, Dict, Function)) or v is UNDEFINED:
        return v
    if isinstance(v, bool) or isinstance(v, np.bool_):
        return int(v)
    if isinstance(v, np.generic):        # before int/float: np.float64 is a float subclass
        return to_klong(v.item(), interp)
    if isinstance(v, (int, float, str)):
        return v
    if isinstance(v, np.ndarray):
        if v.ndim == 0:
            return to_klong(v.item(), interp)
        # no copy where the backend reads int64 or its own reals as they are (docs/python.md:
        # Klong never writes into an array it was given, but Python may, and Klong sees that)
        if v.dtype.kind in "iub":
            if v.dtype == np.uint64 and v.size and int(v.max()) > limits.INT64_MAX:
                return to_klong(v.tolist(), interp)     # exact, as Python integers
            return backends.current().from_host(v.astype(np.int64, copy=False))
        if v.dtype.kind == "f":
            return backends.current().from_host(v)
        if v.dtype.kind == "c":
            raise _complex(v)
        return make_list([to_klong(e, interp) for e in v])
    if isinstance(v, arrays.ARRAY_TYPES):        # a tensor: onto this backend's device
        kind = str(v.dtype)
        if "complex" in kind:
            raise _complex(v)
        if kind.endswith("uint64"):     # read as int64 it would wrap: as numpy's, exact
            return to_klong(backends.to_host(v), interp)
        if v.ndim == 0 and not getattr(v, "requires_grad", False):
            return v.item()
        try:
            return backends.current().asarray(v)
        except RuntimeError as e:   # a tensor that requires grad, into numpy
            raise KlongError("type", f"cannot take in this {type(v).__name__}: {e}") from None
    if hasattr(v, "__dlpack__") and not isinstance(v, type):    # another library's array
        try:
            if str(getattr(v, "dtype", "")).endswith("uint64"):     # int64 would wrap
                return to_klong(host_from_dlpack(v), interp)
            a = backends.current().from_dlpack(v)
        except TypeError as e:      # a tensor that requires grad, into numpy, too
            raise KlongError("type", str(e)) from None
        return to_klong(a, interp) if a.ndim == 0 else a
    if isinstance(v, (list, tuple, dict)):
        if _within is None:
            _within = set()
        if id(v) in _within:
            raise KlongError("type", f"a {type(v).__name__} that holds itself has no Klong value")
        _within.add(id(v))
        try:
            if isinstance(v, dict):
                return Dict((to_klong(k, interp, _within), to_klong(x, interp, _within))
                            for k, x in v.items())
            return make_list([to_klong(e, interp, _within) for e in v])
        finally:
            _within.discard(id(v))
    if callable(v):
        return PyFunction(v, interp)
    if v is None:
        return UNDEFINED
    return v


def _complex(v):
    return KlongError("type", f"an array of {v.dtype} elements is not a Klong list: Klong "
                              f"has no complex numbers")


# Atoms that Python receives as they are: a list of only these fills its array at once.
_PLAIN_ATOMS = {int, float, str, Char, Symbol}
_LISTS = {list}
_SELF = {int, float, str}      # what to_python and _key give as they are, by exact type
_SHORT = 8      # a list of plain atoms up to this long fills its array element by element


def to_python(v, _converted=None):
    """A Klong value for Python: lists become numpy arrays (object dtype when mixed),
    dictionaries dicts, functions callables. A list or dictionary held in several places
    (one dictionary appended to many lists) is converted once, and is shared in the result
    too."""
    t = type(v)
    if t is MixedNumbers:
        v, t = v.general(), list
    if t is list or t is Dict:
        if _converted is None:
            _converted = {}
        done = _converted.get(id(v))
        return _container(v, _converted) if done is None else done
    if isinstance(v, PyFunction):
        return v.fn
    if isinstance(v, Function) and not isinstance(v, KlongFunction):
        return KlongFunction(v)
    return v


def _container(v, converted):
    """to_python of a list or dictionary, recorded in `converted` before its parts are
    converted (so that a dictionary holding itself ends)."""
    if type(v) is Dict:
        out = converted[id(v)] = {}
        for k, x in v.table.values():
            if type(k) in _SELF and type(x) in _SELF:
                out[k] = x                  # (counts by key: each its own Python value)
            else:
                out[_key(k)] = to_python(x, converted)
        return out
    if not v:
        return np.array([], dtype=np.float64)
    types = set(map(type, v))
    if types == _LISTS:
        rows = _rows_of_atoms(v, converted)
        if rows is not None:
            converted[id(v)] = rows
            return rows
    out = converted[id(v)] = np.empty(len(v), dtype=object)
    if types <= _PLAIN_ATOMS:
        if len(v) <= _SHORT:
            for i, e in enumerate(v):       # (a pair: quicker than the slice's assignment)
                out[i] = e
        else:
            out[:] = v
    else:
        for i, e in enumerate(v):
            out[i] = to_python(e, converted)
    return out


def _rows_of_atoms(v, converted):
    """to_python of a list of lists of one length holding plain atoms only (records: a word
    and its count), its rows filled as one matrix, whose rows they are; None where a row is
    held twice, or was converted before (then it is shared, as `to_python` promises)."""
    width = set(map(len, v))
    if len(width) != 1 or 0 in width or not set(map(type, chain.from_iterable(v))) <= _PLAIN_ATOMS:
        return None
    ids = list(map(id, v))
    if len(set(ids)) != len(ids) or not converted.keys().isdisjoint(ids):
        return None
    matrix = np.empty((len(v), width.pop()), dtype=object)
    matrix[:] = v
    rows = np.fromiter(matrix, dtype=object, count=len(v))
    converted.update(zip(ids, rows))
    return rows


def _key(k):
    """A dictionary key as Python can hash it: a list of any depth as nested tuples."""
    if isinstance(k, arrays.ARRAY_TYPES) and k.ndim:
        k = backends.to_host(k).tolist()
    return tuple(_key(e) for e in k) if isinstance(k, list) else k
