"""The torch backend: arrays are torch tensors on one device (CUDA, then Apple MPS, then
the CPU, unless a device is named). Integers are int64; reals float64, or float32 on MPS,
which has no float64."""
import contextlib

import numpy as np
import torch

from . import torch_distributed
from .base import Backend
from .torch_autograd import TorchAutograd
from .torch_compile import TorchCompilation

_REDUCE = {"+": torch.sum, "*": torch.prod}


def pick_device(device=None):
    """The device to use: the one named (checked), else the best available."""
    if device is None:
        if torch.cuda.is_available():
            return torch.device("cuda")
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError) as e:
        raise ValueError(f"unknown torch device {device!r}: {e}") from None
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"torch device {device!r} is not available (no CUDA)")
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise ValueError(f"torch device {device!r} is not available "
                             f"({torch.cuda.device_count()} CUDA device(s))")
    elif dev.type == "mps":
        mps = getattr(torch.backends, "mps", None)
        if mps is None or not mps.is_available():
            raise ValueError(f"torch device {device!r} is not available (no Apple MPS)")
    elif dev.type != "cpu":
        raise ValueError(f"unsupported torch device {device!r}; use cpu, cuda, cuda:N or mps")
    return dev


class TorchBackend(TorchAutograd, TorchCompilation, Backend):
    name = "torch"
    array_type = torch.Tensor

    def __init__(self, device=None):
        self.device = pick_device(device if device is not None else torch_distributed.rank_device())
        # while torch.compile or torch.export trace a function, numbers must stay tensors
        self.keep_tensors = False
        self.float_dtype = torch.float32 if self.device.type == "mps" else torch.float64
        self._dtypes = {"i": torch.int64, "f": self.float_dtype}
        self.group = torch_distributed.join(self.device)     # under torchrun, the ranks

    def __repr__(self):
        return f"torch backend ({self.device})"

    def asarray(self, data, kind=None):
        if isinstance(data, torch.Tensor):
            t = data.to(self.device)
        elif isinstance(data, np.ndarray):
            t = self.from_host(data)
        else:
            # through numpy: torch would read Python floats as float32 and lose digits
            t = self.from_host(np.asarray(data, dtype=None if kind is None else
                                          (np.int64 if kind == "i" else np.float64)))
        if kind is not None:
            return t.to(self._dtypes[kind])
        if t.dtype == torch.bool or not (t.is_floating_point() or t.dtype == torch.int64):
            return t.to(self.float_dtype if t.is_floating_point() else torch.int64)
        if t.is_floating_point() and t.dtype != self.float_dtype:
            return t.to(self.float_dtype)
        return t

    def from_host(self, a):
        if a.dtype.kind == "f":
            return torch.as_tensor(a, dtype=self.float_dtype, device=self.device)
        return torch.as_tensor(a.astype(np.int64, copy=False), device=self.device)

    def arange(self, n):
        return torch.arange(n, dtype=torch.int64, device=self.device)

    def full(self, shape, value, kind):
        return torch.full(tuple(shape) if not isinstance(shape, int) else (shape,), value,
                          dtype=self._dtypes[kind], device=self.device)

    def copy(self, a):
        return a.clone()

    @staticmethod
    def kind(a):
        if a.is_floating_point():
            return "f"
        if a.dtype == torch.bool:
            return "b"
        if a.dtype in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
            return "i"
        return "o"

    def astype(self, a, kind):
        return a.to(self._dtypes[kind])

    @staticmethod
    def to_host(a):
        return a.detach().cpu().numpy()

    def item(self, a):
        return a if a.requires_grad or self.keep_tensors else a.item()

    def items(self, a):
        if a.requires_grad or self.keep_tensors:
            return list(a.unbind(0))
        return a.tolist() if a.ndim == 1 else list(a.unbind(0))

    def concat(self, arrays):
        return torch.cat([self.asarray(a) for a in arrays])

    def stack(self, arrays):
        return torch.stack([self.asarray(a) for a in arrays])

    def repeat(self, a, counts):
        return torch.repeat_interleave(a, self.asarray(counts, "i"), dim=0)

    def flip(self, a):
        return torch.flip(a, (0,))

    def roll(self, a, shift):
        return torch.roll(a, shift, 0)

    def swap01(self, a):
        return a.transpose(0, 1).contiguous()

    def reduce(self, op, a):
        if op in _REDUCE:
            r = _REDUCE[op](a, dim=0)
        elif op == "|":
            r = torch.amax(a, dim=0)
        else:
            r = torch.amin(a, dim=0)
        return self.item(r) if r.ndim == 0 else r

    def accumulate(self, op, a):
        if op == "+":
            return torch.cumsum(a, 0)
        if op == "*":
            return torch.cumprod(a, 0)
        return (torch.cummax if op == "|" else torch.cummin)(a, 0).values

    def maximum(self, a, b):
        return torch.maximum(*self._tensors(a, b))

    def minimum(self, a, b):
        return torch.minimum(*self._tensors(a, b))

    def abs(self, a):
        return torch.abs(a)

    def floor(self, a):
        return torch.floor(a)

    def power(self, a, b):
        return torch.pow(a, b)

    def fmod(self, a, b):
        return torch.fmod(a, b)

    def where(self, condition):
        return torch.nonzero(condition).reshape(-1)

    def select(self, condition, a, b):
        if not isinstance(a, torch.Tensor) and not isinstance(b, torch.Tensor):
            a = self.asarray(a)
        return torch.where(condition, *self._tensors(a, b))

    @contextlib.contextmanager
    def tracing(self):
        """Numbers stay 0-d tensors (no .item()), so that a tracer sees every operation."""
        previous, self.keep_tensors = self.keep_tensors, True
        try:
            yield
        finally:
            self.keep_tensors = previous

    def quiet(self):
        return contextlib.nullcontext()

    def _tensors(self, a, b):
        if not isinstance(a, torch.Tensor):
            a = torch.as_tensor(a, dtype=b.dtype, device=b.device)
        if not isinstance(b, torch.Tensor):
            b = torch.as_tensor(b, dtype=a.dtype, device=a.device)
        return a, b

    def math_function(self, name):
        for home in (torch, torch.special, torch.nn.functional):
            fn = getattr(home, name, None)
            if callable(fn) and not isinstance(fn, type):
                return fn
        return None
