"""A Klong function as a torch layer: KlongLayer is an nn.Module whose forward applies a
Klong function of one sample and the layer's weights to every sample of a batch.

The weights are nn.Parameters, so everything torch does with a module works: nn.Sequential,
torch.optim and its schedulers, state_dict, .to/.double/.float, torch.save/torch.load,
train()/eval(), torch.compile. Gradients are torch's own: the Klong function runs as torch
operations on the parameters, so they are those of the same layer written in torch, to the
bit where the torch twin sums as Klong does (klong_sum).

Importing this module imports torch (klong itself does not).
"""
import math
import warnings

import torch
from torch import nn

from .runtime import context
from .backends.torch_backend import ordered_sum
from .errors import KlongBackendError, KlongError
from .interpreter import KlongInterpreter
from .runtime.pyconv import to_klong
from .sysfns.python import BackendFunction
from .runtime.values import Function, general

_DTYPE_NAMES = {torch.float64: "float64", torch.float32: "float32", torch.bfloat16: "bfloat16"}
COMPILE_WARNING = ("klong.nn.KlongLayer: torch.compile runs the Klong function eagerly "
                   "(a graph break around it); the rest of the model compiles")


class KlongLayer(nn.Module):
    """KlongLayer(interp, name, weights_shape, use_vmap=True, init=None)

    interp         a KlongInterpreter on the torch backend
    name           the Klong function of the layer, {f(x; y)}: x one sample, y the weights
    weights_shape  the shape of the weights (a tuple, or an int for a vector), or a list of
                   shapes: y is then the list of those arrays (a list of equal shapes reaches
                   Klong as one array of one more axis, as any Klong list of equal arrays)
    use_vmap       batch the samples through torch.vmap where the function allows it (no
                   branch on data, no .item()); otherwise, or when it does not, one sample at
                   a time. The result is the same either way, to the bit, gradients too.
    init           how the weights start: a callable given the shape (returns the values, or
                   a torch.nn.init function, which fills the tensor), or the name of a Klong
                   function given the shape. Default: normal, standard deviation 1/sqrt(n),
                   n the length of the last axis (1 for a scalar), drawn from the
                   interpreter's `seed` when it has one, else from torch's generator.

    The weights are `self.weights` (an nn.ParameterList: state_dict keys weights.0, ...), in
    the interpreter's dtype on its device. Pickled (torch.save, copy.deepcopy), the layer
    carries the Klong source of its function and of the globals it reads, and the
    interpreter's settings; unpickled, it builds an interpreter of its own from them.
    Moved to another device or dtype, it runs on an interpreter made for that device and
    dtype the same way.
    """

    def __init__(self, interp, name, weights_shape, use_vmap=True, init=None):
        super().__init__()
        backend = interp.backend
        if not issubclass(getattr(backend, "array_type", type(None)), torch.Tensor):
            raise KlongBackendError(f"KlongLayer needs an interpreter on the torch backend, "
                                    f"not {backend!r}: KlongInterpreter(backend='torch')")
        self.interp = interp
        self.name = name
        self.use_vmap = bool(use_vmap)
        self._vmap_failed = False
        self._function()                               # checks the name now
        self.spec = _capture(interp, name)
        shapes, self.many = _shapes(weights_shape)
        self.weights = nn.ParameterList(
            nn.Parameter(_initial(interp, shape, init)) for shape in shapes)

    def extra_repr(self):
        shapes = [tuple(p.shape) for p in self.weights]
        return f"{self.name!r}, weights_shape={shapes if self.many else shapes[0]}"

    # -- running
    def forward(self, batch):
        if torch.compiler.is_compiling():
            warnings.warn(COMPILE_WARNING, RuntimeWarning, stacklevel=2)
        return _run_eagerly(self, batch)

    def _forward(self, batch):
        interp = self.interp
        fn = self._function()
        with context.entered(interp.context):
            batch = interp.backend.asarray(batch) if isinstance(batch, torch.Tensor) \
                else to_klong(batch, interp)
            n = batch.shape[0] if isinstance(batch, torch.Tensor) else len(batch)
            expanded = [_PerSample.apply(p, n) for p in self.weights]
            if self.use_vmap and not self._vmap_failed and isinstance(batch, torch.Tensor):
                out = interp.backend.vmap(
                    lambda sample, *ws: fn.call([sample, self._klong_weights(ws)]),
                    batch, *expanded)
                if out is not None:
                    return out
                self._vmap_failed = True        # data-dependent code: no use trying again
            rows = batch.unbind(0) if isinstance(batch, torch.Tensor) else batch
            per_sample = zip(*(w.unbind(0) for w in expanded))
            return torch.stack([self._sample_result(fn.call([to_klong(s, interp),
                                                             self._klong_weights(ws)]))
                                for s, ws in zip(rows, per_sample)])

    def _function(self):
        fn = self.interp.globals.get(self.name)
        if not isinstance(fn, Function):
            raise KlongError("type", f"KlongLayer: {self.name} is not a Klong function")
        if fn.arity != 2:
            raise KlongError("arity", f"KlongLayer: {self.name} must take two arguments, "
                                      f"x (a sample) and y (the weights), not {fn.arity}")
        return fn

    def _klong_weights(self, ws):
        """y for one sample: its weights as the Klong function sees them."""
        return to_klong(list(ws), self.interp) if self.many else ws[0]

    def _sample_result(self, r):
        p = self.weights[0]
        if isinstance(r, torch.Tensor):
            return r
        if isinstance(r, (int, float)):
            return torch.tensor(r, dtype=p.dtype if isinstance(r, float) else torch.int64,
                                device=p.device)
        raise KlongError("type", f"KlongLayer: {self.name} must give an array or a number "
                                 f"for each sample")

    # -- device, dtype, pickling
    def _apply(self, fn, *args, **kwargs):
        out = super()._apply(fn, *args, **kwargs)
        self._follow_weights()
        return out

    def _follow_weights(self):
        """After .to()/.double()/.float(): an interpreter for the weights' device and dtype."""
        p = self.weights[0] if len(self.weights) else None
        if p is None or self.interp is not None and _serves(self.interp.backend, p):
            return
        if self.interp is not None:
            self.spec = _capture(self.interp, self.name)     # its definitions as they are now
        self.interp = _rebuild(self.spec, p)
        self._vmap_failed = False

    def __getstate__(self):
        state = self.__dict__.copy()
        if self.interp is not None:
            state["spec"] = _capture(self.interp, self.name)
        state["interp"] = None          # an interpreter is not pickled: its recipe is
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        self._follow_weights()


def klong_sum(t, dim=-1):
    """The sum of tensor t along dim, added in the order Klong's +/ adds (docs/numbers.md):
    while more than 64 terms are left, the first half and the second are added term by
    term (an odd last term set aside); the terms left are added from left to right, then
    those set aside, the last first. Written with torch operations on whole tensors, one
    IEEE addition of t's dtype per element each, so it is differentiable and works under
    torch.vmap and torch.compile.

    The sum to write a torch twin of a KlongLayer with: where the Klong function sums with
    +/, the twin's klong_sum gives the same bits, its gradients too. torch's own t.sum()
    adds in an order of its own, which depends on the shape of the batch, so it differs
    from both in the last bits."""
    return ordered_sum(t, dim)


class _PerSample(torch.autograd.Function):
    """A weight for each of n samples: the weight expanded along a new first axis (a view).
    Every sample computes with a weight of its own, and the gradient of the weight is the
    sum of theirs over the batch, by torch's sum of them laid out as the weight is: the
    same bits whether the samples ran batched or one at a time, and as those of a torch
    layer that broadcasts the weight over the batch (whose gradient torch sums so)."""

    @staticmethod
    def forward(ctx, p, n):
        return p.expand(n, *p.shape)

    @staticmethod
    def backward(ctx, g):
        return g.contiguous().sum(0), None


def _run_eagerly(layer, batch):
    return layer._forward(batch)


# torch.compile traces around the Klong function rather than into it
_disable = getattr(getattr(torch, "compiler", None), "disable", None)
if _disable is not None:
    _run_eagerly = _disable(_run_eagerly)


def _shapes(weights_shape):
    """(list of shapes, whether y is a list)."""
    if isinstance(weights_shape, int):
        return [(weights_shape,)], False
    shape = tuple(weights_shape)
    if shape and all(isinstance(s, (list, tuple)) for s in shape):
        return [tuple(int(n) for n in s) for s in shape], True
    if all(isinstance(n, int) for n in shape):
        return [shape], False
    raise ValueError(f"KlongLayer: weights_shape must be a shape or a list of shapes, "
                     f"not {weights_shape!r}")


def _initial(interp, shape, init):
    backend = interp.backend
    dtype, device = backend.float_dtype, backend.device
    if init is None:
        seed = getattr(interp, "seed", None)
        gen = torch.Generator().manual_seed(seed) if isinstance(seed, int) else None
        scale = 1 / math.sqrt(shape[-1]) if shape and shape[-1] else 1.0
        values = torch.randn(shape, generator=gen, dtype=torch.float64) * scale
        return values.to(device=device, dtype=dtype)
    if isinstance(init, str):
        made = interp.globals.get(init)
        if not isinstance(made, Function):
            raise KlongError("type", f"KlongLayer: init {init} is not a Klong function")
        with context.entered(interp.context):
            values = general(made.call([to_klong(list(shape), interp)]
                                       if made.arity == 1 else []))
    elif getattr(init, "__module__", "") == "torch.nn.init":
        values = torch.empty(shape, dtype=dtype, device=device)
        with torch.no_grad():
            init(values)
    elif callable(init):
        values = init(shape)
    else:
        raise ValueError("KlongLayer: init must be a callable or a Klong function name")
    values = torch.as_tensor(values if not isinstance(values, list) else
                             [torch.as_tensor(v) for v in values]).to(device=device, dtype=dtype)
    if tuple(values.shape) != tuple(shape):
        raise ValueError(f"KlongLayer: init gave shape {tuple(values.shape)}, not {shape}")
    return values.detach().clone()


def _serves(backend, p):
    """Whether `backend` computes on p's device in p's dtype."""
    d = backend.device
    return d.type == p.device.type and (d.index or 0) == (p.device.index or 0) \
        and backend.float_dtype == p.dtype


# -- what travels with a pickled layer

def _capture(interp, name):
    """The recipe of an interpreter that runs `name`: its settings, and the definitions of
    `name` and of every global it reads, directly or through the functions it calls (Klong
    source for functions, Python values for data)."""
    definitions, seen, todo = [], set(), [name]
    while todo:
        n = todo.pop()
        if n in seen or n not in interp.globals:
            continue
        seen.add(n)
        value = interp.globals[n]
        facts = interp.engine.facts(value)
        if facts is not None and facts.source is not None:
            definitions.append((n, "klong", facts.source))
            todo.extend(facts.reads)
        elif isinstance(value, BackendFunction):
            definitions.append((n, "bkf", value.name))
        elif not isinstance(value, Function):
            definitions.append((n, "value", interp[n]))
        # built-ins and Python functions are the new interpreter's own (or not picklable)
    backend = interp.backend
    return {"backend": backend.name, "dtype": backend.dtype, "codegen": interp.codegen,
            "strict": interp.strict, "seed": getattr(interp, "seed", None),
            "definitions": definitions[::-1]}


def _rebuild(spec, p):
    """An interpreter from a captured recipe, on p's device in p's dtype."""
    dtype = _DTYPE_NAMES.get(p.dtype)
    if dtype is None:
        raise KlongBackendError(f"KlongLayer: Klong has no reals of torch's {p.dtype}; "
                                f"use float64, float32 or bfloat16")
    interp = KlongInterpreter(backend=spec["backend"], device=p.device, dtype=dtype,
                              codegen=spec["codegen"])
    interp.strict = spec["strict"]
    if spec.get("seed") is not None:
        interp.seed = spec["seed"]
    for name, how, what in spec["definitions"]:
        if how == "klong":
            interp.run(f"{name}::{what}")
        elif how == "bkf":
            interp.run(f".bkf({what!r})".replace("'", '"'))
            if name != what:
                interp.globals[name] = interp.globals[what]
        else:
            interp[name] = what
    return interp
