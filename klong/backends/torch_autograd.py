"""The torch backend's autograd part (`backend.autograd`): gradients, Jacobians and Hessians
in reverse mode with torch autograd, `.gradcheck`, custom derivatives
(torch.autograd.Function) and anomaly detection that names the Klong function. The engines'
contract is in numeric_autograd.py, whose central differences remain for `∇`.

A point becomes a leaf tensor that requires gradients. A point that is already tracked (an
outer differentiation is under way) becomes a fresh variable that is still connected to the
outer graph: the inner derivative is taken with respect to it alone, and the outer one flows
through it. When the call is nested (keep_graph) the gradient keeps its own graph so that it
can be differentiated again; at the top level it is built without one, which is faster."""
import contextlib
import math
import warnings

import torch
from torch.overrides import TorchFunctionMode

from ..errors import KlongError
from . import running, using
from .numeric_autograd import NOT_FINITE, NumericAutograd, dtype_name


class TorchAutograd(NumericAutograd):
    exact_gradients = True

    # ------------------------------------------------------------ points and results

    def point_tensor(self, p, what="the point of differentiation must be numeric"):
        """A numeric Klong value as a real tensor, connected to any graph it carries."""
        backend = self.backend
        if type(p) is float:        # a scalar descent's point: made directly, as asarray would
            return torch.scalar_tensor(p, dtype=backend.float_dtype, device=backend.device)
        if isinstance(p, torch.Tensor):
            if p.is_floating_point():
                real = backend.float_dtype
                return p if p.dtype == real or p.requires_grad else p.to(real)
            if backend.kind(p) == "i":
                return p.to(backend.float_dtype)
        elif type(p) is list and any(backend.is_tracked(e) for e in p):
            return torch.stack([self.point_tensor(e, what) for e in p])
        return backend.asarray(self.host_point(p, what), "f")

    def _leaf(self, p):
        t = self.point_tensor(p)
        if t.requires_grad:
            return t.clone()                 # a fresh variable, still in the outer graph
        return t.detach().requires_grad_(True)

    def result_tensor(self, y, like):
        """The value of a function as a real tensor (lists of tracked numbers stacked)."""
        if isinstance(y, torch.Tensor):
            if y.is_floating_point():
                return y
            if self.backend.kind(y) == "i":
                return y.to(like.dtype)
        elif isinstance(y, (int, float)) and not isinstance(y, bool):
            return torch.tensor(float(y), dtype=like.dtype, device=like.device)
        elif type(y) is list:
            if not y:
                return torch.zeros(0, dtype=like.dtype, device=like.device)
            return torch.stack([self.result_tensor(e, like) for e in y])
        else:
            try:
                return self.result_tensor(self.backend.asarray(self.host_result(y), "f"), like)
            except KlongError:
                pass
        raise KlongError("type", "the function must return numbers")

    def _scalar_loss(self, y, like):
        t = self.result_tensor(y, like)
        if t.numel() != 1:
            raise KlongError("type", f"the function must return a scalar, got shape "
                                     f"{tuple(t.shape)}; reduce it with +/ or a mean")
        return t if t.ndim == 0 else t.reshape(())

    def _finish(self, g, keep_graph):
        """A gradient as a Klong value; one that is not finite is an error, as the central
        differences of a function undefined on one side are."""
        if not keep_graph and g.requires_grad:
            g = g.detach()
        r = self.backend.item(g) if g.ndim == 0 else g
        if not (math.isfinite(r) if type(r) is float else _finite(g)):
            raise KlongError("domain", f"{NOT_FINITE}; .anomaly(1) shows where it arises")
        return r

    # ------------------------------------------------------------ the engines

    def gradients(self, fn, points, keep_graph=False):
        leaves = [self._leaf(p) for p in points]
        if all(x.numel() == 0 for x in leaves):
            return [self._finish(torch.zeros_like(x), False) for x in leaves]
        grads = self._backward(lambda: fn(leaves), leaves, keep_graph)
        return [self._finish(torch.zeros_like(x) if g is None else g, keep_graph)
                for g, x in zip(grads, leaves)]

    def gradient(self, fn, point, keep_graph=False):
        # gradients() at one point, without its lists: a scalar descent calls this each step
        x = self._leaf(point)
        if x.numel() == 0:
            return self._finish(torch.zeros_like(x), False)
        (g,) = self._backward(lambda: fn(x), (x,), keep_graph)
        return self._finish(torch.zeros_like(x) if g is None else g, keep_graph)

    def _backward(self, loss, leaves, keep_graph):
        """The gradients of the scalar loss() with respect to the leaves (None for a leaf
        it does not depend on), computed with autograd on even where it was off."""
        if not torch.is_grad_enabled():
            with torch.enable_grad():
                return self._backward(loss, leaves, keep_graph)
        y = self._scalar_loss(loss(), leaves[0])
        if not y.requires_grad:
            return (None,) * len(leaves)
        return torch.autograd.grad(y, leaves, create_graph=keep_graph, allow_unused=True)

    def jacobian(self, fn, point, keep_graph=False):
        x = self._leaf(point)
        with torch.enable_grad():
            y = self.result_tensor(fn(x), x)
            shape = tuple(y.shape) + tuple(x.shape)
            if not y.requires_grad or y.numel() == 0:
                return self._finish(torch.zeros(shape, dtype=x.dtype, device=x.device), False)
            flat = y.reshape(-1)
            rows = []
            for i in range(flat.numel()):
                (g,) = torch.autograd.grad(flat[i], x, retain_graph=True,
                                           create_graph=keep_graph, allow_unused=True)
                rows.append(torch.zeros_like(x) if g is None else g)
        return self._finish(torch.stack(rows).reshape(shape), keep_graph)

    def hessian(self, fn, point, keep_graph=False):
        return self.jacobian(lambda x: self.gradient(fn, x, keep_graph=True), point, keep_graph)

    def gradcheck(self, fn, point):
        if self.backend.float_dtype != torch.float64:
            raise KlongError("domain", f".gradcheck needs float64 reals, and this interpreter "
                                       f"computes in {dtype_name(self.backend.float_dtype)}: "
                                       "check with a float64 interpreter")
        shape = self.host_point(point).shape
        x = self.backend.asarray(self.host_point(point), "f").reshape(-1)

        def summed(t):
            return self.result_tensor(fn(t.reshape(shape)), t).sum()
        try:
            ok = torch.autograd.gradcheck(summed, (x.requires_grad_(True),), eps=1e-6,
                                          atol=1e-5, rtol=1e-3, raise_exception=False)
        except KlongError:
            raise
        except Exception as e:
            raise KlongError("type", f".gradcheck: {first_line(e)}") from None
        return 1 if ok else 0

    # ------------------------------------------------------------ custom derivatives

    def custom_gradient(self, forward, derivative, args):
        if not any(self.backend.is_tracked(a) for a in args):
            return forward(*args)
        out = _Custom.apply(self, forward, derivative, *args)
        return self.backend.item(out) if out.ndim == 0 else out

    def numeric_backward(self, fn, args):
        def derivative(*at):
            jacobians = []
            for i, a in enumerate(at):
                if not self.backend.is_tracked(args[i]):
                    jacobians.append(None)
                    continue
                def partial(v, i=i):
                    return fn(*at[:i], v, *at[i + 1:])
                jacobians.append(NumericAutograd.jacobian(self, partial, a))
            return jacobians[0] if len(at) == 1 else jacobians
        return self.custom_gradient(fn, derivative, args)

    def _contract(self, grad_out, derivative, x):
        """The gradient with respect to x from the incoming gradient and d out / d x, given
        either as a full Jacobian (shape of out + shape of x) or elementwise (shape of x)."""
        d = self.result_tensor(derivative, grad_out)
        out_shape, x_shape = tuple(grad_out.shape), tuple(x.shape)
        if tuple(d.shape) == out_shape + x_shape:
            return torch.tensordot(grad_out, d, dims=grad_out.ndim)
        if tuple(d.shape) == x_shape and out_shape in (x_shape, ()):
            return grad_out * d
        if d.numel() == 1 and (out_shape == x_shape or x.numel() == 1):
            return (grad_out * d.reshape(())).reshape(x_shape)     # one number for all
        raise KlongError("length", f"the derivative has shape {tuple(d.shape)}; expected "
                                   f"{x_shape} (elementwise) or {out_shape + x_shape} (Jacobian)")

    # ------------------------------------------------------------ anomaly detection

    @contextlib.contextmanager
    def anomaly_detection(self, describe):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # torch announces anomaly mode with a warning
            with torch.autograd.detect_anomaly(check_nan=True), _NanNamer(describe):
                yield


class _Custom(torch.autograd.Function):
    """forward(*args) computed on plain values, with derivative(*args) as its derivative.
    In backward the saved arguments are tracked only when a graph of the gradient is being
    built (nested differentiation), so that the derivative can be differentiated too."""

    @staticmethod
    def forward(ctx, autograd, forward, derivative, *args):
        ctx.autograd, ctx.derivative = autograd, derivative
        # torch may run backward in a thread of its own (one per GPU): the derivative runs
        # as the interpreter that called, not as whoever that thread says is running
        ctx.running = running.backend, running.context
        ctx.tensors = [isinstance(a, torch.Tensor) for a in args]
        ctx.others = [None if t else a for a, t in zip(args, ctx.tensors)]
        ctx.save_for_backward(*[a for a, t in zip(args, ctx.tensors) if t])
        plain = [a.detach() if t else a for a, t in zip(args, ctx.tensors)]
        like = next(a for a, t in zip(args, ctx.tensors) if t)
        return autograd.result_tensor(forward(*plain), like).clone()

    @staticmethod
    def backward(ctx, grad_out):
        autograd = ctx.autograd
        saved = iter(ctx.saved_tensors)
        args = [next(saved) if t else a for a, t in zip(ctx.others, ctx.tensors)]
        if not torch.is_grad_enabled():
            args = [a.detach() if isinstance(a, torch.Tensor) else a for a in args]
        with using(*ctx.running):
            d = ctx.derivative(*args)
        parts = [d] if len(args) == 1 else _parts(d, len(args))
        grads = [None if part is None or not (isinstance(a, torch.Tensor) and
                                              ctx.needs_input_grad[3 + i])
                 else autograd._contract(grad_out, part, a)
                 for i, (a, part) in enumerate(zip(args, parts))]
        return (None, None, None, *grads)


def _parts(d, n):
    """The derivatives with respect to each of n arguments, from a list of n of them."""
    parts = list(d) if isinstance(d, (list, tuple)) or getattr(d, "ndim", 0) else None
    if parts is None or len(parts) != n:
        raise KlongError("length", f"the derivative of a function of {n} arguments must be "
                                   f"a list of {n} derivatives, one per argument")
    return parts


class _NanNamer(TorchFunctionMode):
    """While active, every operation that records a gradient gets a hook that stops the
    backward pass when the operation's gradient holds a NaN, naming the Klong function in
    which the operation ran (describe() at the time it ran)."""

    def __init__(self, describe):
        super().__init__()
        self.describe = describe
        self.seen = set()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            node = getattr(t, "grad_fn", None) if isinstance(t, torch.Tensor) else None
            if node is not None and id(node) not in self.seen:
                self.seen.add(id(node))
                node.register_hook(_nan_hook(getattr(func, "__name__", str(func)),
                                             node.name(), self.describe()))
        return out


def _nan_hook(op, node_name, where):
    def hook(grad_inputs, grad_outputs):
        for g in grad_inputs:
            if g is not None and not bool(torch.isfinite(g).all()):
                bad = "NaN" if bool(torch.isnan(g).any()) else "inf"
                raise KlongError("domain", f"{bad} in the gradient: the backward of {op} "
                                           f"({node_name}) in {where} gave {bad}")
    return hook


def _finite(g):
    """Whether every element of g is finite. The sum is (unless it overflows) exactly when
    they all are, and takes a tenth of the time of checking each."""
    return math.isfinite(g.sum().item()) or bool(torch.isfinite(g).all())


def first_line(e):
    """The first line of an exception's message (torch's run over many lines)."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
