"""The autograd part of a backend without automatic differentiation: central differences
for every derivative. A backend has one as `backend.autograd` (made on first use, from the
class named by `Backend.Autograd`); torch's (torch_autograd.py) derives from this one and
does the derivatives exactly.

Every engine takes `fn`, a Python function from Klong values to a Klong value, and points
that are Klong values (numbers, numeric arrays, lists of them). The differentiation
operators in klong/runtime/autograd.py decide what fn is (a variable rebound, a function called)."""
import contextlib
import functools
import math

import numpy as np

from ..errors import KlongError

# the step of a central difference, by the precision of the backend's reals
_STEPS = {"float64": 1e-6, "float32": 1e-4, "bfloat16": 1e-2, "float16": 1e-2}

NOT_FINITE = "no finite gradient at this point"
NOT_FOLLOWED = ("autograd chain broken: numeric differentiation cannot follow a value that "
                "is being differentiated exactly; use :> inside differentiated code")


class NumericAutograd:
    exact_gradients = False      # True where gradients come from automatic differentiation

    def __init__(self, backend):
        self.backend = backend

    # ------------------------------------------------------------ values in and out

    def host_point(self, p, what="the point of differentiation must be numeric"):
        """A numeric Klong value as a float64 numpy array (0-d for a number); otherwise a
        type error saying `what`."""
        backend = self.backend
        if backend.is_tracked(p):
            raise KlongError("type", NOT_FOLLOWED)
        if isinstance(p, (int, float, np.integer, np.floating)) and \
                not isinstance(p, (bool, np.bool_)):
            try:
                return np.array(float(p))
            except OverflowError:                    # an integer of hundreds of digits
                raise KlongError("range", "a number too large to be a real") from None
        if isinstance(p, np.ndarray):
            if p.dtype.kind in "iuf":
                return p.astype(np.float64)
        elif isinstance(p, backend.array_type) and backend.kind(p) in "if":
            return np.asarray(backend.to_host(p), dtype=np.float64)
        if type(p) is list:
            try:
                return np.array([self.host_point(e, what) for e in p], dtype=np.float64)
            except ValueError:                       # ragged
                pass
        raise KlongError("type", what)

    def host_result(self, y):
        return self.host_point(y, "the function must return numbers")

    def host_loss(self, y):
        r = self.host_result(y)
        if r.size != 1:
            raise KlongError("type", f"the function must return a scalar, got shape {r.shape}; "
                                     "reduce it with +/ or a mean")
        return float(r.reshape(()))

    def klong_value(self, a):
        """A host float array as a Klong value of this backend (a number when 0-d)."""
        return float(a) if a.ndim == 0 else self.backend.from_host(np.ascontiguousarray(a))

    def difference_step(self):
        return _STEPS.get(dtype_name(self.backend.float_dtype), _STEPS["float32"])

    # ------------------------------------------------------------ central differences

    def _central(self, g, x, h):
        """(g(x + h e_i) - g(x - h e_i)) / 2h for each element i of x (row-major). g(x)
        itself has been evaluated: an error now means g is not defined around x."""
        try:
            columns = [(g(_nudged(x, i, h)) - g(_nudged(x, i, -h))) / (2 * h)
                       for i in range(x.size)]
        except KlongError as e:
            raise _undefined_around(e) from None
        if not all(np.isfinite(c).all() for c in columns):
            raise KlongError("domain", NOT_FINITE)
        return columns

    def _host_jacobian(self, fn, x, h):
        g = lambda q: self.host_result(fn(self.klong_value(q)))
        out_shape = g(x).shape
        return _stacked(self._central(g, x, h), out_shape, x)

    def _accurate_gradient(self, loss, x):
        """Four evaluations per coordinate with a step scaled to the point (error O(h^4)):
        precise enough to be differentiated again, which nested `:>` does on numpy. loss(x)
        itself has been evaluated."""
        grad = np.empty(x.size)
        flat = x.reshape(-1)
        for i in range(x.size):
            grad[i] = _derivative(lambda offset: loss(_nudged(x, i, offset)), flat[i])
        if not np.isfinite(grad).all():
            raise KlongError("domain", NOT_FINITE)
        return grad.reshape(x.shape)

    # ------------------------------------------------------------ the engines

    def gradients(self, fn, points, keep_graph=False):
        """The gradients of the scalar function fn(list of values) with respect to each of
        `points`, one value shaped like each point. keep_graph: the result will itself be
        differentiated (nested use); exact engines then record the gradient's graph."""
        hosts = [self.host_point(p) for p in points]
        if all(x.size == 0 for x in hosts):       # nothing to vary: fn is not needed
            return [self.klong_value(x) for x in hosts]
        self.host_loss(fn(list(points)))          # a scalar loss of numbers, or a clear error
        result = []
        for i, x in enumerate(hosts):
            def loss(q, i=i):
                args = list(points)
                args[i] = self.klong_value(q)
                return self.host_loss(fn(args))
            result.append(self.klong_value(self._accurate_gradient(loss, x)))
        return result

    def gradient(self, fn, point, keep_graph=False):
        if type(point) is float and type(self).gradients is NumericAutograd.gradients:
            return self._real_gradient(fn, point)    # gradients' arithmetic, without arrays
        return self.gradients(lambda xs: fn(xs[0]), [point], keep_graph)[0]

    @functools.cached_property
    def differences_reals(self):
        """Whether gradient() of a real point is _real_gradient's central differences (not
        where a subclass differentiates otherwise)."""
        cls = type(self)
        return cls.gradient is NumericAutograd.gradient and \
            cls.gradients is NumericAutograd.gradients

    def variable_real_gradient(self, run, G, name, x):
        """gradient(run, x) at the real x where differences_reals, the global `name` bound
        to each point run is evaluated at (`f:>p` of a variable p)."""
        host_loss = self.host_loss
        G[name] = x
        y = run(x)
        if type(y) is not float:
            host_loss(y)
        # _derivative's first try written out: a descent step makes no other
        h = _first_step(x)
        try:
            G[name] = q = x + h
            a = run(q)
            if type(a) is not float:
                a = host_loss(a)
            G[name] = q = x + -h
            b = run(q)
            if type(b) is not float:
                b = host_loss(b)
            G[name] = q = x + 2 * h
            c = run(q)
            if type(c) is not float:
                c = host_loss(c)
            G[name] = q = x + -2 * h
            d = run(q)
            if type(d) is not float:
                d = host_loss(d)
        except KlongError as e:
            grad = _derivative(_variable_loss(run, G, name, x, host_loss), x, failed=e)
        else:
            grad = _five_point(a, b, c, d, h)
        if not math.isfinite(grad):
            raise KlongError("domain", NOT_FINITE)
        return grad

    def _real_gradient(self, fn, x):
        """gradient() at the real x, as _accurate_gradient computes it on a 0-d array."""
        def loss_near(offset):
            y = fn(x + offset)
            return y if type(y) is float else self.host_loss(y)
        return self._differences(fn(x), loss_near, x)

    def _differences(self, y, loss_near, x):
        """The derivative at x from loss_near(offset), y being the loss at x itself: a
        scalar loss of numbers, or a clear error."""
        if type(y) is not float:
            self.host_loss(y)
        grad = _derivative(loss_near, x)
        if not math.isfinite(grad):
            raise KlongError("domain", NOT_FINITE)
        return grad

    def numeric_gradient(self, fn, point):
        """What `∇` promises on every backend: two evaluations per coordinate, the
        backend's step (1e-6 in float64)."""
        x = self.host_point(point)
        loss = lambda q: self.host_loss(fn(self.klong_value(q)))
        loss(x)
        return self.klong_value(np.array(self._central(loss, x, self.difference_step()))
                                .reshape(x.shape))

    def jacobian(self, fn, point, keep_graph=False):
        """d fn(p)_i / d p_j, shaped (shape of fn(p)) + (shape of p)."""
        x = self.host_point(point)
        return self.klong_value(self._host_jacobian(fn, x, self.difference_step()))

    def hessian(self, fn, point, keep_graph=False):
        x = self.host_point(point)
        grad = lambda q: self.host_point(self.gradient(fn, self.klong_value(q)))
        return self.klong_value(_stacked(self._central(grad, x, 1e-4), x.shape, x))

    def gradcheck(self, fn, point):
        raise KlongError("backend", ".gradcheck() requires the torch backend")

    # ------------------------------------------------------------ custom derivatives

    def custom_gradient(self, forward, derivative, args):
        """forward(*args), differentiated with `derivative` where gradients are exact:
        derivative(*args) gives d forward / d arg (one per argument when there are
        several). Numeric differentiation goes through forward itself."""
        return forward(*args)

    def numeric_backward(self, fn, args):
        """fn(*args), differentiated by central differences where gradients are exact."""
        return fn(*args)

    def anomaly_detection(self, describe):
        """A context in which a NaN made while differentiating is reported, naming
        describe() of the code that made it. Numeric gradients have no backward pass."""
        return contextlib.nullcontext()


def _derivative(loss_near, xi, failed=None):
    """d loss / d x_i by four evaluations, loss_near(offset) being the loss with x_i moved
    by offset. Near the edge of the function's domain (sqrt close to 0) the step shrinks
    until the evaluations stay inside it. `failed`: the error of a first try the caller
    made itself (this one goes on from the second)."""
    h, tries, error = _first_step(xi), 8, failed
    if failed is not None:
        h, tries = _smaller_step(h, xi), 7
    for _ in range(tries):
        try:
            return _five_point(loss_near(h), loss_near(-h), loss_near(2 * h),
                               loss_near(-2 * h), h)
        except KlongError as e:         # well inside the domain, if there is room
            h, error = _smaller_step(h, xi), e
    raise _undefined_around(error)


def _variable_loss(run, G, name, x, host_loss):
    """loss_near(offset) for _derivative: run at x + offset, the global `name` bound to it."""
    def loss_near(offset):
        G[name] = q = x + offset
        y = run(q)
        return y if type(y) is float else host_loss(y)
    return loss_near


def _first_step(xi):
    return 1e-3 * max(1.0, abs(xi))


def _smaller_step(h, xi):
    return min(h / 10, abs(xi) / 100) or h / 10


def _five_point(at_h, at_minus_h, at_2h, at_minus_2h, h):
    """The five-point central difference from the losses at x+h, x-h, x+2h and x-2h."""
    return (8 * (at_h - at_minus_h) - (at_2h - at_minus_2h)) / (12 * h)


def _undefined_around(error):
    return KlongError("domain", f"{NOT_FINITE}: the function is not defined on both sides "
                                f"of it ({error})")


def dtype_name(dtype):
    """"float64" for numpy's and torch's float64 alike."""
    return getattr(dtype, "__name__", None) or str(dtype).rsplit(".", 1)[-1]


def _nudged(x, i, offset):
    """x with its i-th element (in row-major order) moved by offset."""
    q = x.reshape(-1).copy()
    q[i] += offset
    return q.reshape(x.shape)


def _stacked(columns, out_shape, x):
    """Columns d g / d x_i arranged as an array of shape out_shape + x.shape."""
    if not columns:
        return np.zeros(out_shape + x.shape)
    return np.stack(columns, axis=-1).reshape(out_shape + x.shape)
