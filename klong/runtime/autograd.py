"""Differentiation: `f:>p` (gradient), `p∇f` (numeric gradient), `∇f` (gradient function),
`p∂f` and `.jacobian` (Jacobians), `.hessian`, `.gradcheck`, custom derivatives
(`.customgrad`, `.numgrad`, Python functions with a `grad` attribute) and `.anomaly`
(system.md B.2, docs/autograd.md).

This module is the Klong side: it turns functions, variable names and parameter lists into
Python functions of points, binds and restores variables, and knows when one
differentiation runs inside another. The engines are the backend's autograd part
(`backend.autograd`: `gradient`, `jacobian` ... in klong/backends/): exact on torch, central
differences otherwise.
`gradients_of` is the helper Python code uses to train Klong models.
"""
import sys

from . import context, values
from ..errors import KlongError
from .functions import Builtin, Lambda, call_value, lambda_running_in
from .mixed import general
from .values import Function, Symbol, make_list


def _is_name_list(p):
    return type(p) is list and len(p) > 0 and all(type(s) is Symbol for s in p)


def _function(f, what="a function is needed to differentiate"):
    if not isinstance(f, Function):
        raise KlongError("type", what)
    return f


class Differentiation:
    """The differentiation operators of one interpreter (they read and rebind its globals
    for parameter lists and variable mode).

    `order` counts the derivatives being taken at this moment: a gradient taken while it is
    positive is nested, and must keep its graph so that the outer one can differentiate it.
    `anomaly` is the `.anomaly` switch."""

    def __init__(self, interp):
        self.interp = interp
        self.order = 0
        self.anomaly = False

    @property
    def backend(self):
        return self.interp.backend

    def _run(self, engine, *args, orders=1):
        """engine(*args, keep_graph) with `orders` more derivatives under way; anomaly
        detection wraps the outermost one when it is switched on. (The arguments are passed
        on rather than closed over in a lambda: a descent step takes a gradient each.)"""
        keep_graph = self.order > 0
        detecting = self.anomaly and self.order == 0
        self.order += orders
        try:
            if not detecting:
                return engine(*args, keep_graph)
            with self.backend.autograd.anomaly_detection(self._running_function):
                return engine(*args, keep_graph)
        finally:
            self.order -= orders

    def _caller(self, f):
        _function(f)
        if f.arity == 0:                       # a constant: its gradient is zero
            return lambda x: call_value(f, [])
        if type(f) is Lambda and f.arity == 1:     # straight to its body (called often)
            return f.run
        return lambda x: call_value(f, [x])

    def _with_variable(self, f, name):
        """fn(x) that binds the global `name` to x and passes x to f (variable mode)."""
        self._caller(f)                        # a type error unless f is a function
        g = self.interp.globals

        if type(f) is Lambda and f.arity == 1:   # straight to its body (called often)
            run = f.run

            def fn(x):
                g[name] = x
                return run(x)
            return fn

        def fn(x):
            g[name] = x
            return call_value(f, [x] if f.arity == 1 else [])
        return fn

    def _restoring(self, names, action, *args):
        """action(*args), the globals `names` restored afterwards."""
        g = self.interp.globals
        saved = {}
        for n in names:
            if n in g:
                saved[n] = g[n]
        try:
            return action(*args)
        finally:
            for n in names:
                if n in saved:
                    g[n] = saved[n]
                else:
                    g.pop(n, None)

    def _value_of(self, name):
        try:
            return general(self.interp.globals[name])
        except KeyError:
            raise KlongError("undefined", f"{name} is not defined") from None

    def gradient_operator(self, name):
        """`f:>p` as code calls it: gradient(f, p), `name` the global that p names (variable
        mode) or None."""
        if name is None:
            return self.gradient
        g = self.interp.globals
        engine = self.backend.autograd           # (an interpreter keeps its backend)
        if not engine.differences_reals:
            return lambda f, p: self.gradient(f, p, name)
        differences = engine.variable_real_gradient

        def gradient(f, p):
            if type(p) is float and type(f) is Lambda and f.arity == 1 and g.get(name) is p \
                    and not self.anomaly:
                # a descent step's `f:>p` of a real variable: straight to the differences
                self.order += 1
                try:
                    return differences(f.run, g, name, p)
                finally:
                    self.order -= 1
                    g[name] = p
            return self.gradient(f, p, name)
        return gradient

    # f:>p
    def gradient(self, f, p, name=None):
        p = general(p)                      # the points are in their ordinary form
        if _is_name_list(p):
            return self.parameter_gradients(f, [str(s) for s in p])
        b = self.backend.autograd
        if name is not None:
            point = self._value_of(name)        # defined, so restoring is one store
            g = self.interp.globals
            fn = self._with_variable(f, name)
            try:
                return self._run(b.gradient, fn, point)
            finally:
                g[name] = point
        return self._run(b.gradient, self._caller(f), p)

    def parameter_gradients(self, f, names):
        """Gradients of the nilad f with respect to the named globals, as a list. A name
        given twice gets the same gradient twice."""
        _function(f)
        unique = list(dict.fromkeys(names))
        points = [self._value_of(n) for n in unique]
        g = self.interp.globals

        def loss(xs):
            for n, x in zip(unique, xs):
                g[n] = x
            return call_value(f, [] if f.arity == 0 else [xs[0]])
        grads = self._restoring(unique, lambda: self._run(
            lambda keep: self.backend.autograd.gradients(loss, points, keep)))
        by_name = dict(zip(unique, grads))
        return make_list([by_name[n] for n in names])

    # p∇f
    def numeric(self, p, f, name=None):
        p = general(p)
        b = self.backend.autograd
        if name is not None:
            fn, point = self._with_variable(_function(f), name), self._value_of(name)
            return self._restoring([name], lambda: b.numeric_gradient(fn, point))
        return b.numeric_gradient(self._caller(f), p)

    # ∇f
    def gradient_function(self, f):
        self._caller(f)
        return Builtin("gradient", 1, lambda p: self.gradient(f, p), self.backend)

    # p∂f
    def jacobian(self, p, f):
        p = general(p)
        b = self.backend.autograd
        if not _is_name_list(p):
            fn = self._caller(f)
            return self._run(lambda keep: b.jacobian(fn, p, keep))
        _function(f)
        names = list(dict.fromkeys(str(s) for s in p))
        points = [self._value_of(n) for n in names]
        g = self.interp.globals

        def each_variable():
            out = {}
            for n, point in zip(names, points):
                def fn(x, n=n):
                    g[n] = x
                    return call_value(f, [] if f.arity == 0 else [x])
                out[n] = self._run(lambda keep: b.jacobian(fn, point, keep))
                g[n] = point
            return make_list([out[str(s)] for s in p])
        return self._restoring(names, each_variable)

    def hessian(self, f, p):
        """The matrix of second derivatives of a scalar function at p."""
        fn = self._caller(f)
        return self._run(lambda keep: self.backend.autograd.hessian(fn, p, keep), orders=2)

    def gradcheck(self, f, p):
        fn = self._caller(f)
        return self._run(lambda keep: self.backend.autograd.gradcheck(fn, p))

    # ------------------------------------------------------------ custom derivatives

    def custom(self, f, df):
        """.customgrad(f;df): f, whose derivative is df where gradients are exact."""
        _function(f, ".customgrad: f must be a function")
        _function(df, ".customgrad: the derivative must be a function")
        if df.arity not in (f.arity, 0):
            raise KlongError("arity", f".customgrad: f takes {f.arity} argument(s) and its "
                                      f"derivative {df.arity}")
        backend = self.backend
        engine = backend.autograd
        forward = lambda *a: call_value(f, list(a))
        derivative = lambda *a: call_value(df, list(a) if df.arity else [])   # {3}: constant
        return Builtin("customgrad", f.arity,
                       lambda *a: engine.custom_gradient(forward, derivative, a), backend)

    def numeric_backward(self, f):
        """.numgrad(f): f, differentiated by central differences where exact autograd cannot
        see into it."""
        _function(f, ".numgrad: a function is needed")
        backend = self.backend
        engine = backend.autograd
        forward = lambda *a: call_value(f, list(a))
        return Builtin("numgrad", f.arity, lambda *a: engine.numeric_backward(forward, a),
                       backend)

    # ------------------------------------------------------------ anomaly detection

    def set_anomaly(self, on):
        previous, self.anomaly = self.anomaly, values.is_true(on)
        return int(previous)

    def _running_function(self):
        """The innermost Klong function running now, by the name it has in the globals."""
        frame = sys._getframe(1)
        while frame is not None:
            fn = lambda_running_in(frame)
            if fn is not None:
                for name, v in self.interp.globals.items():
                    if v is fn:
                        return name
                return "an anonymous function"
            frame = frame.f_back
        return "the differentiated expression"


def gradients_of(interp, fn_name, names):
    """Python helper for optimizers: the gradients of the Klong nilad `fn_name` with respect
    to the named global variables, as a list of arrays (numpy or torch, per backend)."""
    with context.entered(interp.context):
        f = interp.globals[fn_name] if isinstance(fn_name, str) else fn_name
        grads = interp.differentiation.parameter_gradients(f, list(names))
        return values.items(grads) if values.is_array(grads) else list(grads)
