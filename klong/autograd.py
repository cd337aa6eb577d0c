"""Differentiation: `f:>p` (gradient), `p∇f` (numeric gradient), `∇f` (gradient function),
`p∂f` and `.jacobian` (Jacobians), `.hessian`, `.gradcheck` (system.md B.2).

On the torch backend gradients are exact (reverse mode, with graphs kept so that a gradient
can be differentiated again); on numpy, and always for `∇`, they are central differences.
`gradients_of` is the helper Python code uses to train Klong models.
"""
import numpy as np

from . import backends, values
from .errors import KlongError
from .functions import call_value
from .values import Function, Symbol, is_number, make_list

STEP = {"float64": 1e-6, "float32": 1e-4}


# ------------------------------------------------------------------ points and losses

def _is_name_list(p):
    return type(p) is list and len(p) > 0 and all(type(s) is Symbol for s in p)


def _host_point(p):
    """A numeric point as a float64 numpy array (0-d for a number)."""
    if is_number(p):
        return np.array(float(values.scalar(p) if not values.is_array(p) else p.item()))
    if values.is_array(p) and values.array_kind(p) in "if":
        return values._to_host(p).astype(np.float64)
    if type(p) is list:
        try:
            return np.array([_host_point(e) for e in p], dtype=np.float64)
        except (ValueError, KlongError):
            pass
    raise KlongError("type", "the point of differentiation must be numeric")


def _to_value(a, backend):
    """A host float array (or 0-d) as a Klong value of `backend`."""
    if a.ndim == 0:
        return float(a)
    return backend.from_host(np.ascontiguousarray(a))


def _host_result(y):
    """The value of a function, as a float64 numpy array."""
    try:
        return _host_point(y)
    except KlongError:
        raise KlongError("type", "the function must return numbers") from None


def _loss_number(y):
    r = _host_result(y)
    if r.size != 1:
        raise KlongError("type", f"the function must return a scalar, got shape {r.shape}; "
                                 "reduce it with +/ or a mean")
    return float(r.reshape(()))


def _step(backend):
    return STEP["float32"] if str(getattr(backend, "float_dtype", "")) .endswith("float32") else STEP["float64"]


# ------------------------------------------------------------------ numeric differentiation

def _nudged(x, i, offset):
    """x with its i-th element (in row-major order) moved by offset."""
    q = x.reshape(-1).copy()
    q[i] += offset
    return q.reshape(x.shape)


def _central(g, x, h):
    """Central differences of g (host array to host array) at x: one column per element of
    x, each (g(x + h e_i) - g(x - h e_i)) / 2h."""
    return [(g(_nudged(x, i, h)) - g(_nudged(x, i, -h))) / (2 * h) for i in range(x.size)]


def _stacked(columns, out_shape, x):
    """Columns d g / d x_i arranged as an array of shape out_shape + x.shape."""
    if not columns:
        return np.zeros(out_shape + x.shape)
    return np.stack(columns, axis=-1).reshape(out_shape + x.shape)


def numeric_jacobian(fn, p, backend):
    """Central differences of fn (a Python function of a Klong value) at p: an array of
    shape (shape of fn(p)) + (shape of p)."""
    x = _host_point(p)
    g = lambda q: _host_result(fn(_to_value(q, backend)))
    return _stacked(_central(g, x, _step(backend)), g(x).shape, x)


def numeric_gradient(fn, p, backend, accurate=False):
    """Central differences of a scalar function. The plain form (two evaluations per
    coordinate, step 1e-6) is what `∇` promises; `accurate` uses four evaluations with a
    step scaled to the point (error O(h^4)), accurate enough to be differentiated again,
    which is what `:>` uses on numpy."""
    x = _host_point(p)
    loss = lambda q: _loss_number(fn(_to_value(q, backend)))
    loss(x)                                           # a scalar loss, or a clear error
    if not accurate:
        grad = np.array(_central(loss, x, _step(backend)))
    else:
        grad = np.empty(x.size)
        for i in range(x.size):
            h = 1e-3 * max(1.0, abs(x.reshape(-1)[i]))
            grad[i] = (8 * (loss(_nudged(x, i, h)) - loss(_nudged(x, i, -h)))
                       - (loss(_nudged(x, i, 2 * h)) - loss(_nudged(x, i, -2 * h)))) / (12 * h)
    return _to_value(grad.reshape(x.shape), backend)


# ------------------------------------------------------------------ exact (torch) differentiation

def _torch():
    import torch
    return torch


def _tracked(p, backend):
    """The point as a tensor that records operations. A point that is already tracked (we
    are inside another differentiation) is used as it is, so that the graph connects."""
    torch = _torch()
    if isinstance(p, torch.Tensor) and p.requires_grad:
        return p, True
    x = backend.asarray(_host_point(p), "f") if not isinstance(p, torch.Tensor) else p
    return x.detach().to(backend.float_dtype).clone().requires_grad_(True), False


def _as_tensor(y, like):
    torch = _torch()
    if isinstance(y, torch.Tensor):
        return y if y.is_floating_point() else y.to(like.dtype)
    if is_number(y):
        return torch.tensor(float(y), dtype=like.dtype, device=like.device)
    if type(y) is list:
        return torch.stack([_as_tensor(e, like) for e in y]) if y else \
            torch.zeros(0, dtype=like.dtype, device=like.device)
    raise KlongError("type", "the function must return numbers")


def _scalar_loss(y, like):
    t = _as_tensor(y, like)
    if t.numel() != 1:
        raise KlongError("type", f"the function must return a scalar, got shape {tuple(t.shape)}; "
                                 "reduce it with +/ or a mean")
    return t.reshape(())


def _finish(g, keep_graph, backend):
    if not keep_graph:
        g = g.detach()
    return backend.item(g) if g.ndim == 0 else g


def torch_gradient(fn, p, backend):
    torch = _torch()
    x, nested = _tracked(p, backend)
    with torch.enable_grad():
        y = _scalar_loss(fn(x), x)
        if not y.requires_grad:
            return _finish(torch.zeros_like(x), False, backend)
        (g,) = torch.autograd.grad(y, x, create_graph=True, allow_unused=True)
    if g is None:
        g = torch.zeros_like(x)
    return _finish(g, nested, backend)


def torch_jacobian(fn, p, backend):
    torch = _torch()
    x, nested = _tracked(p, backend)
    with torch.enable_grad():
        y = _as_tensor(fn(x), x)
        if not y.requires_grad:
            return _finish(torch.zeros(tuple(y.shape) + tuple(x.shape), dtype=x.dtype,
                                       device=x.device), False, backend)
        flat = y.reshape(-1)
        rows = []
        for i in range(flat.numel()):
            (g,) = torch.autograd.grad(flat[i], x, retain_graph=True, create_graph=nested,
                                       allow_unused=True)
            rows.append(torch.zeros_like(x) if g is None else g)
        jac = torch.stack(rows).reshape(tuple(y.shape) + tuple(x.shape)) if rows else \
            torch.zeros(tuple(y.shape) + tuple(x.shape), dtype=x.dtype, device=x.device)
    return _finish(jac, nested, backend)


# ------------------------------------------------------------------ the operators

class Differentiation:
    """The differentiation operators of one interpreter (they read and rebind its globals
    for parameter lists and variable mode)."""

    def __init__(self, interp):
        self.interp = interp

    @property
    def backend(self):
        return self.interp.backend

    @property
    def exact(self):
        return self.backend.name == "torch"

    def _caller(self, f):
        if not isinstance(f, Function):
            raise KlongError("type", "a function is needed to differentiate")
        if f.arity == 0:                       # a constant: its gradient is zero
            return lambda x: call_value(f, [])
        return lambda x: call_value(f, [x])

    def _with_variable(self, f, name):
        """fn(x) that binds the global `name` to x and passes x to f (variable mode)."""
        self._caller(f)                        # a type error unless f is a function
        g = self.interp.globals

        def fn(x):
            g[name] = x
            return call_value(f, [x] if f.arity == 1 else [])
        return fn

    def _restoring(self, names, action):
        g = self.interp.globals
        saved = {n: g[n] for n in names if n in g}
        try:
            return action()
        finally:
            for n in names:
                if n in saved:
                    g[n] = saved[n]
                else:
                    g.pop(n, None)

    # f:>p
    def gradient(self, f, p, name=None):
        if _is_name_list(p):
            return self.parameter_gradients(f, [str(s) for s in p])
        if name is not None:
            fn, point = self._with_variable(f, name), self._value_of(name)
            return self._restoring([name], lambda: self._gradient(fn, point, self.exact))
        return self._gradient(self._caller(f), p, self.exact)

    def _gradient(self, fn, p, exact):
        if exact:
            return torch_gradient(fn, p, self.backend)
        return numeric_gradient(fn, p, self.backend, accurate=True)

    def _value_of(self, name):
        try:
            return self.interp.globals[name]
        except KeyError:
            raise KlongError("undefined", f"{name} is not defined") from None

    def parameter_gradients(self, f, names):
        """Gradients of the nilad f with respect to the named globals, as a list."""
        if not isinstance(f, Function):
            raise KlongError("type", "a function is needed to differentiate")
        points = [self._value_of(n) for n in names]
        return self._restoring(names, lambda: self._parameter_gradients(f, names, points))

    def _parameter_gradients(self, f, names, points):
        g = self.interp.globals

        def call():
            return call_value(f, [] if f.arity == 0 else [g[names[0]]])

        if self.exact:
            torch = _torch()
            leaves = [_tracked(p, self.backend) for p in points]
            with torch.enable_grad():
                for n, (x, _) in zip(names, leaves):
                    g[n] = x
                y = _scalar_loss(call(), leaves[0][0])
                xs = [x for x, _ in leaves]
                grads = torch.autograd.grad(y, xs, create_graph=True, allow_unused=True) \
                    if y.requires_grad else [None] * len(xs)
            return make_list([_finish(torch.zeros_like(x) if gr is None else gr, nested, self.backend)
                              for gr, (x, nested) in zip(grads, leaves)])
        result = []
        for i, n in enumerate(names):
            def fn(x, n=n):
                g[n] = x
                return call()
            for m, p in zip(names, points):
                g[m] = p
            result.append(numeric_gradient(fn, points[i], self.backend, accurate=True))
        return make_list(result)

    # p∇f
    def numeric(self, p, f, name=None):
        if name is not None:
            fn = self._with_variable(f, name)
            point = self._value_of(name)
            return self._restoring([name], lambda: numeric_gradient(fn, point, self.backend))
        return numeric_gradient(self._caller(f), p, self.backend)

    # ∇f
    def gradient_function(self, f):
        from .functions import Builtin
        self._caller(f)
        return Builtin("gradient", 1, lambda p: self.gradient(f, p), self.backend)

    # p∂f
    def jacobian(self, p, f):
        if _is_name_list(p):
            names = [str(s) for s in p]
            points = [self._value_of(n) for n in names]

            def each_variable():
                out = []
                g = self.interp.globals
                for n, point in zip(names, points):
                    def fn(x, n=n):
                        g[n] = x
                        return call_value(f, [] if f.arity == 0 else [x])
                    out.append(self._jacobian(fn, point))
                    g[n] = point
                return make_list(out)
            return self._restoring(names, each_variable)
        return self._jacobian(self._caller(f), p)

    def _jacobian(self, fn, p):
        if self.exact:
            try:
                return torch_jacobian(fn, p, self.backend)
            except Exception as e:          # autograd could not follow: fall back to numbers
                try:
                    jac = numeric_jacobian(fn, p, self.backend)
                except Exception:
                    raise e from None
                return float(jac) if jac.ndim == 0 else self.backend.from_host(jac)
        jac = numeric_jacobian(fn, p, self.backend)
        return float(jac) if jac.ndim == 0 else self.backend.from_host(jac)

    def hessian(self, f, p):
        """The matrix of second derivatives of a scalar function at p."""
        fn = self._caller(f)
        if self.exact:
            return self._jacobian(lambda x: torch_gradient(fn, x, self.backend), p)
        x = _host_point(p)
        grad = lambda q: _host_point(numeric_gradient(fn, _to_value(q, self.backend),
                                                      self.backend, accurate=True))
        hess = _stacked(_central(grad, x, 1e-4), x.shape, x)
        return float(hess) if hess.ndim == 0 else self.backend.from_host(hess)

    def gradcheck(self, f, p):
        if not self.exact:
            raise KlongError("backend", ".gradcheck() requires the torch backend")
        torch = _torch()
        fn = self._caller(f)
        point = _host_point(p)
        # float64 on the interpreter's device; MPS has none, so there the check runs on the CPU
        device = self.backend.device if self.backend.device.type != "mps" else "cpu"
        x = torch.tensor(point, dtype=torch.float64, device=device).reshape(-1)

        def summed(t):
            y = fn(t.reshape(point.shape))
            return _as_tensor(y, t).to(torch.float64).sum()
        try:
            ok = torch.autograd.gradcheck(summed, (x.requires_grad_(True),), eps=1e-6,
                                          atol=1e-5, rtol=1e-3, raise_exception=False)
        except KlongError:
            raise
        except Exception as e:
            raise KlongError("type", f".gradcheck: {e}") from None
        return 1 if ok else 0


def gradients_of(interp, fn_name, names):
    """Python helper for optimizers: the gradients of the Klong nilad `fn_name` with respect
    to the named global variables, as a list of arrays (numpy or torch, per backend)."""
    with backends.using(interp.backend):
        f = interp.globals[fn_name] if isinstance(fn_name, str) else fn_name
        grads = interp.differentiation.parameter_gradients(f, list(names))
        return values.items(grads) if values.is_array(grads) else list(grads)
