"""The torch backend: arrays are torch tensors on one device (CUDA, then Apple MPS, then
the CPU, unless a device is named). Integers are int64; reals float64 unless another dtype is
asked for (float32 on MPS, which has no float64)."""
import contextlib
import operator
import os
import threading

import numpy as np
import torch

from . import torch_distributed
from .base import SEQUENTIAL_ROWS, Backend
from .numpy_backend import (code_array, extreme_of_reals, fold_host_columns,
                            host_negative_zero, lookup, ordered_rows, places_of_extremes,
                            quietly, text_of)
from .torch_autograd import TorchAutograd
from .torch_capture import Capturer
from .torch_compile import TorchCompiler

_REDUCE = {"+": torch.sum, "*": torch.prod}
_SCAN = {"+": torch.cumsum, "*": torch.cumprod}
# the dtypes whose CPU scans accumulate_each_row takes along the rows (float32 is scanned in
# float64 on the CPU: the default's steps)
_ROW_SCANS = (torch.float64, torch.int64)
_COMBINE = {"+": operator.add, "*": operator.mul}
_FLOATS = {"float64": torch.float64, "float32": torch.float32, "bfloat16": torch.bfloat16,
           "float16": torch.float16}
_HOST_KINDS = {"i": np.dtype(np.int64), "f": np.dtype(np.float64)}
_SHARED_HOST_DTYPES = (np.dtype(np.int64), np.dtype(np.float64))  # from_numpy shares them
_HOST_FLOATS = (torch.float64, torch.float32)     # the reals numpy computes alike
_HOST_ROWS = 2 ** 14       # a real sum this short is finished on the host (hand_over)
_KINDS = {**{t: "f" for t in (torch.float64, torch.float32, torch.float16, torch.bfloat16)},
          **{t: "i" for t in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8)},
          torch.bool: "b"}


class _DeterministicSwitch:
    """torch's deterministic-algorithms setting (and cuDNN's flags) is one for the whole
    process: it is switched on while any deterministic interpreter evaluates and set back to
    what it was when the last of them is done, whatever the threads' order. (Module state on
    the evaluation path, mirroring torch's own, which is process-wide.)"""

    def __init__(self):
        self.lock = threading.Lock()
        self.users = 0
        self.saved = None

    @contextlib.contextmanager
    def held(self):
        cudnn = torch.backends.cudnn
        with self.lock:
            if self.users == 0:
                self.saved = (torch.are_deterministic_algorithms_enabled(),
                              torch.is_deterministic_algorithms_warn_only_enabled(),
                              cudnn.deterministic, cudnn.benchmark)
                torch.use_deterministic_algorithms(True)
                cudnn.deterministic, cudnn.benchmark = True, False
            self.users += 1
        try:
            yield
        finally:
            with self.lock:
                self.users -= 1
                if self.users == 0:
                    enabled, warn_only, cudnn.deterministic, cudnn.benchmark = self.saved
                    torch.use_deterministic_algorithms(enabled, warn_only=warn_only)


DETERMINISTIC = _DeterministicSwitch()


def pick_device(device=None):
    """The device to use: the one named (checked), else the best available."""
    if device is None:
        if torch.cuda.is_available():
            return _indexed(torch.device("cuda"))
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError):      # torch's own message lists every device type it knows
        raise ValueError(f"unknown torch device {device!r}; use cpu, cuda, cuda:N or mps") from None
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"torch device {device!r} is not available (no CUDA)")
        # the index as written: torch keeps it in 8 bits (cuda:999 becomes cuda:-25)
        index = int(str(device).rpartition(":")[2]) if dev.index is not None else None
        if index is not None and not 0 <= index < torch.cuda.device_count():
            raise ValueError(f"torch device {device!r} is not available "
                             f"({torch.cuda.device_count()} CUDA device(s))")
        dev = _indexed(dev)
    elif dev.type == "mps":
        mps = getattr(torch.backends, "mps", None)
        if mps is None or not mps.is_available():
            raise ValueError(f"torch device {device!r} is not available (no Apple MPS)")
    elif dev.type != "cpu":
        raise ValueError(f"unsupported torch device {device!r}; use cpu, cuda, cuda:N or mps")
    return dev


def _indexed(device):
    """A CUDA device with its index ("cuda" is "cuda:N" of the current one): the tensors made
    there say so, and a device compared with theirs must be equal."""
    return torch.device("cuda", torch.cuda.current_device()) if device.index is None else device


def _pick_dtype(dtype, device):
    if dtype is None:
        return "float32" if device.type == "mps" else "float64"
    if dtype not in _FLOATS:
        raise ValueError(f"the torch backend has no real dtype {dtype!r}; "
                         f"use {', '.join(_FLOATS)}")
    if dtype == "float64" and device.type == "mps":
        raise ValueError("Apple MPS has no float64; use float32, bfloat16 or float16")
    return dtype


def _host_real_operand(v, copy=False):
    """v as numpy sees it, sharing memory, when numpy may compute with it in torch's place (a
    number, or a CPU tensor of int64 or numpy's reals, neither differentiated nor batched nor
    being compiled); None otherwise. `copy`: a tensor on another device too, copied."""
    if not isinstance(v, torch.Tensor):
        return v
    # (device, not is_cpu: a capture's Recorder knows the device as fixed metadata)
    if v.device.type != "cpu":
        if copy and not torch.compiler.is_compiling() and not v.requires_grad \
                and not _wrapped(v) and v.dtype in _HOST_DTYPES:
            return v.cpu().numpy()
        return None
    if v.requires_grad or v.dtype not in _HOST_DTYPES \
            or torch._C._functorch.is_batchedtensor(v) or torch.compiler.is_compiling():
        return None
    try:
        return v.numpy()
    except RuntimeError:        # a tensor of a transform (functionalised, fake ...)
        return None


_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1
_HOST_DTYPES = (*_HOST_FLOATS, torch.int64)     # (the dtypes numpy may compute with)
_SHORT = 16            # vectors up to this long are read as a list for one element
# from 2 rows up to this many, a sum or product is folded one operation a row (from the
# first row: no look at the signs of its zeros, which a scan from 0.0 needs), not by a scan
# (a softmax's classes)
_FEW_ROWS = 4


def _wrapped(t):
    """Whether t is a tensor of a torch.func transform (vmap's batched tensors, grad's)."""
    return torch._C._functorch.is_functorch_wrapped_tensor(t)


def _owned(t):
    """t laid out in order in memory of its own (no view of another tensor): as every
    result that may later be updated in place must be."""
    if t._base is None:
        return t.contiguous()
    return t.clone(memory_format=torch.contiguous_format)


def _host_scan(op, a):
    """The running sum or product of a CPU tensor of reals along its first axis, by numpy:
    additions (multiplications) in its dtype from left to right; overflow gives inf
    silently, as torch's."""
    host = a.detach().numpy()
    with np.errstate(all="ignore"):
        return torch.from_numpy(np.cumsum(host, 0) if op == "+" else np.cumprod(host, 0))


def _running_sum(t, dim, host=None):
    """torch's running sum of t along dim with the loop's signed zeros: torch's scan adds
    the first element to +0.0, where the loop starts from the element itself, so a row
    starting with -0.0 sums to +0.0 there and to -0.0 in the loop for as long as it holds
    nothing but -0.0. Where some row starts with a zero, that run is set to -0.0. `host`:
    t as numpy sees it (TorchBackend._host), where it may look at t's zeros there."""
    c = torch.cumsum(t, dim)
    if not t.is_floating_point() or not t.shape[dim]:
        return c
    if host is not None:
        # (numpy's count of the first elements' non-zeros, on t's memory: a fifth of the
        # cost of torch's select, comparison and any on a small batch)
        first = host[(slice(None),) * dim + (0,)]
        if np.count_nonzero(first) == first.size:
            return c
    elif not (_wrapped(t) or torch.compiler.is_compiling()):   # (no branch on data there)
        first = c.select(dim, 0)        # +0.0 plus the first elements: zero where they are
        if (first.item() != 0) if first.ndim == 0 else not bool((first == 0).any()):
            return c
    negative_zero = (t == 0) & torch.signbit(t)
    run = negative_zero.to(torch.int64).cumprod(dim).bool()
    return torch.where(run, torch.full((), -0.0, dtype=c.dtype, device=c.device), c)


def _with_values(graph, values):
    """`graph`, torch's sum or running sum of a tensor being differentiated, holding
    `values`, the same sums taken in Klong's order: the gradient of a sum (the incoming
    gradient, at every element) does not depend on the order of the additions, and torch's
    backward of a sum keeps nothing of its result. One step of the graph, as torch's."""
    graph.data = values
    return graph


def ordered_sum(t, dim=0):
    """The sum of the real tensor t along dim in Klong's one order (Backend.fold_reals):
    while more than SEQUENTIAL_ROWS terms are left, the first half and the second are added
    term by term (an odd last term set aside); the terms left are added from left to right
    (torch's CPU float64 scan does that in one step), then those set aside, the last first.
    Only torch operations on whole tensors, each element one IEEE addition in t's dtype:
    differentiable, and the same bits batched (torch.vmap) or not. Along dim where it is,
    not moved first, so that a gradient comes back laid out as t is."""
    dim = dim % t.ndim if t.ndim else 0
    n = t.shape[dim]
    if n == 0:
        return t.sum(dim)
    aside = []
    while n > SEQUENTIAL_ROWS:
        half = n // 2
        if n % 2:
            aside.append(t.select(dim, 2 * half))
        t = t.narrow(dim, 0, half) + t.narrow(dim, half, half)
        n = half
    if t.dtype == torch.float64 and t.device.type == "cpu":
        total = _running_sum(t, dim).select(dim, -1)
    else:
        rows = t.unbind(dim)
        total = rows[0]
        for row in rows[1:]:
            total = total + row
    for row in reversed(aside):
        total = total + row
    return total


class _RowsStep(torch.autograd.Function):
    """Backend.rows_step's way into torch.vmap: a row's call of it, batched, is the step on
    the whole batch, the graph that step makes (its vmap rule); called on rows only there."""

    @staticmethod
    def forward(step, a, w):
        raise RuntimeError("rows_step is for a row that torch.vmap batches")

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("rows_step is for a row that torch.vmap batches")

    @staticmethod
    def vmap(info, in_dims, step, a, w):
        return step(a.movedim(in_dims[1], 0), w), 0


class TorchBackend(Backend):
    name = "torch"
    traces = True
    differentiates = True
    array_type = torch.Tensor
    Autograd = TorchAutograd
    Compiler = TorchCompiler
    Capturer = Capturer
    scans_rows = True           # (its CPU scan of float64: fold_each_row)
    broadcasts_cheaply = True   # (half numpy's time for a k x p x n product on the CPU)

    def __init__(self, device=None, dtype=None):
        self.device = pick_device(device if device is not None else torch_distributed.rank_device())
        self.dtype = _pick_dtype(dtype, self.device)
        # while torch.compile or torch.export trace a function, numbers must stay tensors
        self.keep_tensors = False
        self.recorder = None        # the capture part's Recorder while it records
        self.float_dtype = _FLOATS[self.dtype]
        self._dtypes = {"i": torch.int64, "f": self.float_dtype}
        self._on_cpu = self.device.type == "cpu"
        if torch_distributed.launched():
            torch_distributed.timeout()     # a bad setting is refused now, not at the join

    def join_group(self):
        return torch_distributed.join(self.device)      # under torchrun, the ranks

    def __repr__(self):
        extra = "" if self.dtype == "float64" else f", {self.dtype}"
        return f"torch backend ({self.device}{extra})"

    def asarray(self, data, kind=None):
        if type(data) is list and kind is not None:
            # a list of numbers of a known kind (a pair joined in a loop): what from_host
            # does below, without its checks for arrays it did not make itself
            t = torch.from_numpy(np.array(data, dtype=_HOST_KINDS[kind]))
            if kind == "f" and self.float_dtype != torch.float64:
                t = t.to(self.float_dtype)
            return t if self.device.type == "cpu" else t.to(self.device)
        if isinstance(data, torch.Tensor):
            t = data if data.device == self.device else data.to(self.device)
        else:
            # through numpy, which reads a list of numbers several times faster than torch,
            # and as float64 (torch would read Python floats as float32 and lose digits)
            t = self.from_host(np.asarray(data, dtype=_HOST_KINDS.get(kind)))
        want = self._dtypes[kind] if kind is not None else self._normal_dtype(t)
        return t if t.dtype is want else t.to(want)

    def _normal_dtype(self, t):
        return self.float_dtype if t.is_floating_point() else torch.int64

    def from_host(self, a):
        # (dtypes compared as dtype objects: a list of three numbers becomes a tensor at
        # every node of a tree, and comparing with np.int64 converts it each time)
        if a.dtype not in _SHARED_HOST_DTYPES:
            a = a.astype(np.float64 if a.dtype.kind == "f" else np.int64)
        elif not (a.flags.writeable and a.flags.c_contiguous):
            a = a.copy()        # torch shares only writable memory laid out forwards
        t = torch.from_numpy(a)
        if t.dtype is torch.float64 and self.float_dtype is not torch.float64:
            t = t.to(self.float_dtype)
        return t if self._on_cpu else t.to(self.device)

    def from_dlpack(self, obj):
        try:
            t = torch.from_dlpack(obj)          # shared: the producer's memory
        except Exception as e:
            raise TypeError(f"cannot read a DLPack array of {type(obj).__name__}: {e}") from None
        if _KINDS.get(t.dtype) not in ("i", "f", "b"):
            raise TypeError(f"a DLPack array of {t.dtype} elements is not a Klong list")
        return self.asarray(t)       # moved or converted only where device or dtype differ

    def arange(self, n):
        return torch.arange(n, dtype=torch.int64, device=self.device)

    def full(self, shape, value, kind):
        return torch.full(tuple(shape) if not isinstance(shape, int) else (shape,), value,
                          dtype=self._dtypes[kind], device=self.device)

    def copy(self, a):
        return a.clone()

    def may_share(self, a, b):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) \
                or self.recorder is not None:
            return True         # (a step being recorded follows torch's operations only)
        # the memory of their storages overlaps (a tensor made from numpy's view of
        # another's memory has a storage of its own, in the middle of the other's)
        s, t = a.untyped_storage(), b.untyped_storage()
        start, end = s.data_ptr(), s.data_ptr() + s.nbytes()
        other, other_end = t.data_ptr(), t.data_ptr() + t.nbytes()
        return start < other_end and other < end

    def writable_alone(self, a):
        # No view of it or autograd graph holds its TensorImpl (a Python reference to a
        # view need not be one to a), no other tensor its storage, which torch allocated
        # (memory from numpy or DLPack is not resizable); traced tensors stay as they are.
        if torch.compiler.is_compiling() or a.requires_grad or a.grad_fn is not None \
                or a._base is not None or a.is_inference() or a.layout is not torch.strided \
                or _wrapped(a) or a._use_count() != 1:
            return False
        storage = a.untyped_storage()
        return storage.resizable() and torch._C._storage_Use_Count(storage._cdata) == 2

    def codes(self, text):
        host = code_array(text)
        return torch.from_numpy(host.copy()).to(self.device)   # copy: the bytes are read-only

    def text(self, codes):
        return text_of(self.to_host(codes))

    def lookup(self, table, codes):
        return lookup(table, self.to_host(codes))

    dtype_kinds = _KINDS         # (arrays.DTYPE_KINDS)

    @staticmethod
    def kind(a):
        return _KINDS.get(a.dtype, "o")

    def astype(self, a, kind):
        return a.to(self._dtypes[kind])

    @staticmethod
    def to_host(a):
        a = a.detach().cpu()
        if a.dtype == torch.bfloat16:       # numpy has no bfloat16
            a = a.to(torch.float32)
        return a.numpy()

    def is_tracked(self, v):
        return isinstance(v, torch.Tensor) and v.requires_grad

    def graph_holding(self, graph, compute, *operands):
        if torch.compiler.is_compiling():
            # compiled code sums in torch's order (docs/torch.md): the library's step,
            # which the compiler makes one kernel of (a matrix product), and differentiates
            return graph(*operands)
        tensors = [v for v in operands if isinstance(v, torch.Tensor)]
        if not any(t.requires_grad for t in tensors) or any(_wrapped(t) for t in tensors) \
                or self.amp_dtype is not None:
            return compute(*operands)
        detached = [v.detach() if isinstance(v, torch.Tensor) else v for v in operands]
        if self.recorder is not None:
            # recorded as one step (torch_capture.py): the replay calls compute, whose
            # steps on the CPU are numpy's (not followed, and cheaper than torch's)
            values = self.recorder.whole(compute, *detached)
        else:
            values = compute(*detached)
        # (laid out as the graph's result: the steps after it, and their backward, then
        # take the same paths through torch's kernels however compute's steps went)
        return _with_values(graph(*operands), values.contiguous())

    def is_tracked_within(self, v):
        if not isinstance(v, torch.Tensor):
            return False
        return v.requires_grad or self.keep_tensors and _wrapped(v) \
            and self.unbatched(v).requires_grad

    def rows_step(self, step, a, w):
        # (a row of vmap's, times a w that is not: a tensor of another transform is not)
        if not torch._C._functorch.is_batchedtensor(a) \
                or isinstance(w, torch.Tensor) and _wrapped(w):
            return None
        if self.recorder is not None:
            # (a vmap recorded follows the operations torch runs for it: this step's graph,
            # whose values it holds, not)
            self.recorder.refuse("a step for all rows inside a vmap")
            return None
        return _RowsStep.apply(step, a, w)

    def item(self, a):
        # a number being differentiated, traced or batched by a transform stays a tensor
        return a if a.requires_grad or self.keep_tensors or _wrapped(a) else a.item()

    def element(self, a, i):
        if a.requires_grad or self.keep_tensors or _wrapped(a):
            return a[i]
        # a short vector's list is quicker than the 0-d tensor a[i] makes (a pair in a loop)
        return a.tolist()[i] if a.shape[0] <= _SHORT else a[i].item()

    def firsts(self, vectors):
        # the groups of = are views of one vector: its list once, each group's first
        # element read at the group's offset, where a list per group costs a microsecond
        base = vectors[0]._base
        if base is not None and base.ndim == 1 and base.stride(0) == 1 \
                and base.shape[0] <= 16 * len(vectors) and not base.requires_grad \
                and not self.keep_tensors and not _wrapped(base) \
                and all(v._base is base for v in vectors):
            flat, start = base.tolist(), base.storage_offset()
            return [flat[v.storage_offset() - start] for v in vectors]
        return [self.element(v, 0) for v in vectors]

    def items(self, a):
        if a.requires_grad or self.keep_tensors or _wrapped(a):
            return list(a.unbind(0))
        return a.tolist() if a.ndim == 1 else list(a.unbind(0))

    def array_module(self):
        return torch

    def concat(self, arrays):
        return torch.cat([self._tensor(a) for a in arrays])

    def stack(self, arrays):
        return torch.stack([self._tensor(a) for a in arrays])

    def concat_each_row(self, arrays):
        # (laid out as rows: no copy of the columns')
        return torch.cat([self._tensor(a) for a in arrays], 1)

    def _tensor(self, a):
        """An array of this backend: tensors on the device pass as they are."""
        if isinstance(a, torch.Tensor) and a.device == self.device:
            return a
        return self.asarray(a)

    def repeat(self, a, counts):
        if type(counts) is int and counts > 1:
            # every element as often: a broadcast view copied out, several times quicker on
            # a small tensor than repeat_interleave with the count made a tensor (reshape
            # alone may give a view of `a`: of one row, say)
            shape = tuple(a.shape)
            wide = a.unsqueeze(1).expand(shape[0], counts, *shape[1:])
            return wide.reshape((shape[0] * counts,) + shape[1:]).contiguous()
        return torch.repeat_interleave(a, self._tensor(counts), dim=0)

    def bounds(self, a):
        if not isinstance(a, torch.Tensor):
            return super().bounds(a)
        # one pass for both ends: half the cost of min() and max() on a small tensor (and
        # less than numpy's two on the same memory)
        lo, hi = torch.aminmax(a)
        return int(lo), int(hi)

    def flip(self, a):
        return torch.flip(a, (0,))

    def flip_each_row(self, a):
        return torch.flip(a, (1,))

    def roll(self, a, shift):
        return torch.roll(a, shift, 0)

    def rows_of(self, a, n):
        return a.unsqueeze(0).expand(n, *a.shape)

    def swap01(self, a):
        return a.transpose(0, 1)

    # index_select and scatter_: several times faster than a[i] and a[i] = v on the CPU
    def take(self, a, positions):
        if positions.ndim == 1:
            return a.index_select(0, positions)
        picked = a.index_select(0, positions.reshape(-1))
        return picked.reshape(tuple(positions.shape) + tuple(a.shape[1:]))

    def put(self, a, positions, values):
        if a.ndim == 1 and isinstance(values, torch.Tensor) and values.shape == positions.shape:
            return a.scatter_(0, positions, values)
        a[positions] = values
        return a

    def split(self, a, sizes):
        return list(torch.split(a, list(sizes)))

    def argsort(self, a, stable=True):
        return torch.argsort(a, stable=stable)

    def sort_columns(self, keys, values):
        # sorted along the last axis of the transpose: torch's CPU sort is faster that way
        order = torch.argsort(keys.T.contiguous(), dim=1)
        return values.T.gather(1, order).T

    def sort(self, a):
        return torch.sort(a).values

    # numpy's sorts on the same memory: several times faster than torch's along the rows
    # on the CPU
    def sort_each_row(self, a):
        host = self._host(a)
        if host is None:
            return torch.sort(a, dim=1).values
        return torch.from_numpy(np.sort(host, 1))

    def order_each_row(self, a):
        host = self._host(a)
        if host is None:
            return tuple(torch.sort(a, dim=1))
        s, order = ordered_rows(host)
        return torch.from_numpy(s), torch.from_numpy(order)

    def sort_order(self, a, stable=True):
        return tuple(torch.sort(a, stable=stable))

    def row_ranks(self, a):
        return torch.unique(a.reshape(a.shape[0], -1), dim=0, return_inverse=True)[1]

    def reduce(self, op, a):
        if op in _REDUCE and a.is_floating_point() and not torch.compiler.is_compiling():
            # Klong's order (docs/numbers.md), for values being differentiated or batched
            # too; compiled code keeps torch's sum, which the compiler fuses
            if op == "+" and a.requires_grad and not _wrapped(a) and self.recorder is not None \
                    and a.device.type == "cpu" and a.dtype == torch.float64:
                # recorded for replay (torch_capture.py): as below, the fold one step of
                # the record (numpy's steps on a long vector are not followed, and torch's
                # cost more). Not the fold's steps as steps of the graph: the same sum and
                # gradient, but their backward costs a step for each (a slice's, a
                # running sum's)
                r = _with_values(a.sum(0), self.recorder.whole(self._sum_values, a.detach()))
            elif op == "+" and a.requires_grad and not _wrapped(a):
                # differentiated: torch's sum is the step of the graph, holding the value
                # of the fold, taken outside the graph
                r = _with_values(a.sum(0), self._sum_values(a.detach()))
            else:
                # batched by a transform, or a product differentiated: the steps of the
                # fold are steps of the graph
                r = self.fold_reals(op, a)
                if not isinstance(r, torch.Tensor):
                    return r.item() if isinstance(r, np.generic) else r
        elif op in _REDUCE:
            r = _REDUCE[op](a, dim=0)
        elif op == "|":
            r = torch.amax(a, dim=0)
        else:
            r = torch.amin(a, dim=0)
        return self.item(r) if r.ndim == 0 else r

    def _sum_values(self, v):
        """+/ of the real tensor v, which nothing tracks, in Klong's order: a tensor of its
        own memory (v is never overwritten)."""
        if not v.shape[0]:
            return v.sum(0)
        if v.device.type == "cpu" and v.dtype in _HOST_FLOATS:
            # folded by numpy, on v's memory: a call of numpy's costs less than torch's (a
            # running sum of a few rows too, which starts from the first row, where torch's
            # starts from 0.0 and needs a look at the signs of its zeros)
            host = v.numpy()
            with np.errstate(all="ignore"):
                if host.shape[0] <= SEQUENTIAL_ROWS:
                    return torch.from_numpy(np.array(np.add.accumulate(host, 0)[-1]))
                return torch.from_numpy(np.asarray(Backend.fold_reals(self, "+", host)))
        r = self.fold_reals("+", v)
        if not isinstance(r, torch.Tensor):         # numpy took over (hand_over)
            return torch.as_tensor(r, device=v.device)
        return r.clone() if v.shape[0] == 1 else r  # never the one row of v itself

    def fold_reals(self, op, a, fresh=False, aside=()):
        if isinstance(a, torch.Tensor) and not self.may_overwrite(a):
            return super().fold_reals(op, a, fresh, aside)     # torch's steps throughout
        # numpy may take over (hand_over): an overflow gives inf silently, as torch's
        with np.errstate(all="ignore"):
            return super().fold_reals(op, a, fresh, aside)

    def may_overwrite(self, a):
        return not (self.keep_tensors or isinstance(a, torch.Tensor)
                    and (a.requires_grad or _wrapped(a)))

    def hand_over(self, a, n):
        # numpy's calls cost less than torch's: a sum on the CPU runs there (the same
        # memory), one on another device once it is short
        if isinstance(a, torch.Tensor) and (a.device.type == "cpu" or n <= _HOST_ROWS) \
                and a.ndim == 1 and a.dtype in _HOST_FLOATS and self.may_overwrite(a):
            return self.to_host(a) if a.device.type != "cpu" else a.numpy()   # (no gradient)
        return None

    def fold_rows(self, op, a):
        if op == "+" and isinstance(a, torch.Tensor) and a.requires_grad and not _wrapped(a) \
                and not torch.compiler.is_compiling():
            # differentiated (as reduce): torch's sum is the step of the graph, whose
            # backward is one broadcast of the gradient, holding the left-to-right fold's
            # value taken outside the graph (the fold's own steps would each be a step of
            # the backward: a running sum's is a reversed running sum and two flips)
            return _with_values(a.sum(0), self.fold_rows(op, a.detach()))
        host = self.hand_over(a, 0) if isinstance(a, torch.Tensor) else None
        if host is not None:
            a = host
        if not isinstance(a, torch.Tensor):         # handed over to numpy (hand_over)
            return (np.add if op == "+" else np.multiply).accumulate(a, axis=0)[-1]
        if a.dtype == torch.float64 and a.device.type == "cpu" \
                and not (2 <= a.shape[0] <= _FEW_ROWS and op in _COMBINE):
            return super().fold_rows(op, a)         # torch's CPU float64 scan: left to right
        combine = _COMBINE[op]
        rows = a.unbind(0)
        r = rows[0]
        for row in rows[1:]:
            r = combine(r, row)
        return r

    def running_rows(self, op, a):
        """The running fold of `a` along its first axis, one operation of the dtype a step."""
        combine = _COMBINE[op]
        rows = a.unbind(0)
        running = [rows[0]]
        for row in rows[1:]:
            running.append(combine(running[-1], row))
        return torch.stack(running)

    def fold_each_row(self, op, a):
        if a.dtype != torch.float64 or not a.is_cpu or not self.may_overwrite(a):
            return super().fold_each_row(op, a)
        # torch's CPU scan of float64 runs left to right along any axis: along the rows
        # where they lie (along the first axis of the columns it reads across the rows).
        # The last column of the scan, laid out as a vector of its own by numpy (cheaper
        # than torch's copy): the result holds no view of the scan
        host = _SCAN[op](a, 1).numpy()[:, -1].copy()
        r = torch.from_numpy(host)
        # (count_nonzero: a fraction of the cost of all() on a short vector)
        return self.signed_zero_sums(r, a) if op == "+" \
            and np.count_nonzero(host) != host.size else r

    def extreme_each_row(self, a, largest):
        # along the rows where they lie: the columns' reduce, without its dispatch
        return (torch.amax if largest else torch.amin)(a, dim=1)

    def any_zero(self, a):
        host = self._host(a)        # (numpy's look at the same memory: one cheap pass)
        return super().any_zero(a) if host is None else bool((host == 0).any())

    def has_negative_zero(self, a):
        host = self._host(a)                # (numpy's look at the same memory: cheaper)
        return super().has_negative_zero(a) if host is None else host_negative_zero(host)

    def fold_columns(self, op, c):
        # numpy's reduction on the same memory (a CPU float64 tensor), as the numpy backend
        # folds columns: a fraction of torch's running sum along the first axis
        host = self._host(c) if c.dtype == torch.float64 else None
        r = None if host is None else fold_host_columns(op, host)
        if r is None:
            return super().fold_columns(op, c)
        # (the sums' zeros looked for by numpy, before they are torch's: a third of the
        # cost of torch's all() on a few thousand sums)
        zeros = op == "+" and not r.all()
        r = torch.from_numpy(r)
        return self.signed_zero_sums(r, c.transpose(0, 1)) if zeros else r

    def laid_out(self, a):
        if a.is_contiguous():
            return a
        # numpy's copy of the same memory, where it may: torch's of a transposed matrix
        # costs about twice as much on the CPU
        host = self._host(a)
        return a.contiguous() if host is None else torch.from_numpy(np.ascontiguousarray(host))

    def on_host(self, a):
        return self._host(a)

    def _host(self, a):
        """_host_real_operand(a), for the steps the numpy backend's functions may take in
        torch's place; None while a step is recorded (which follows torch's operations)."""
        return None if self.recorder is not None else _host_real_operand(a)

    def accumulate_each_row(self, op, a):
        if a.dtype in _ROW_SCANS and a.is_cpu and self.may_overwrite(a) \
                and not torch.compiler.is_compiling():
            # torch's CPU scans of float64 (and exact int64) run left to right along any
            # axis: along the rows where they lie, the result laid out as a is (no copy)
            if op == "+":
                return _running_sum(a, 1, self._host(a) if a.dtype == torch.float64 else None)
            if op == "*":
                return torch.cumprod(a, 1)
            return (torch.cummax if op == "|" else torch.cummin)(a, 1).values
        # (the scan of the columns, transposed back: laid out as a row's result is, in
        # memory of its own; a copy from another device may come back as a view of it)
        return _owned(super().accumulate_each_row(op, a))

    def accumulate(self, op, a):
        if op in "+*" and a.dtype in _HOST_FLOATS \
                and (a.dtype == torch.float32 or a.device.type != "cpu") \
                and not torch.compiler.is_compiling():
            # torch's CPU scans of float32 add in float64, its GPU scans in another order;
            # numpy's add from left to right in the dtype, as Klong's order says (each step
            # one operation in the interpreter's dtype): on a copy from another device
            if op == "+" and a.requires_grad and not _wrapped(a):
                return _with_values(torch.cumsum(a, 0), self._scan_on_host(op, a.detach()))
            if not self.may_overwrite(a):
                return self.running_rows(op, a)     # batched, or a product differentiated
            return self._scan_on_host(op, a)
        if op == "+":
            return _running_sum(a, 0)
        if op == "*":
            return torch.cumprod(a, 0)
        return (torch.cummax if op == "|" else torch.cummin)(a, 0).values

    @staticmethod
    def _scan_on_host(op, a):
        if a.device.type == "cpu":
            return _host_scan(op, a)
        return _host_scan(op, a.cpu()).to(a.device)

    def maximum(self, a, b):
        return torch.maximum(*self._tensors(a, b))

    def minimum(self, a, b):
        return torch.minimum(*self._tensors(a, b))

    def extreme_places(self, a, largest):
        # numpy's argmax and argmin on the same memory: several times faster on the CPU
        host = _host_real_operand(a)
        if host is None:
            return super().extreme_places(a, largest)
        places, ties = places_of_extremes(host, largest)
        return torch.from_numpy(places), ties

    def extreme(self, a, b, larger):
        # numpy's on the same memory (torch's fmax is no faster than its where on the CPU)
        x, y = _host_real_operand(a), _host_real_operand(b)
        if x is None or y is None:
            return None
        r = extreme_of_reals(x, y, larger)
        return None if r is None else torch.from_numpy(r)

    def abs(self, a):
        return torch.abs(a)

    def floor(self, a):
        return torch.floor(a)

    def power(self, a, b):
        # reals: numpy's power (on the same memory on the CPU, of copies elsewhere), since
        # torch's differs from it in the last place (its CUDA kernels more) and one program
        # prints one answer on every backend; values being differentiated, traced or
        # compiled keep torch's
        t = a if isinstance(a, torch.Tensor) else b
        if isinstance(t, torch.Tensor) and t.is_floating_point():
            x, y = _host_real_operand(a, copy=True), _host_real_operand(b, copy=True)
            if x is not None and y is not None:
                with quietly():                    # inf and nan, silently, as torch's
                    r = torch.from_numpy(np.asarray(np.power(x, y)))
                device = t.device
                return r if device.type == "cpu" else r.to(device)
        return torch.pow(a, b)

    def divide(self, a, b):
        # torch divides by a number as the multiplication by its reciprocal, rounded twice
        # (5/12.21 one unit in the last place off): a number divided by a tensor on any
        # device, a tensor by a number on a GPU (also a number kept in a CPU tensor). A true
        # division by a tensor of it on the device (torch.full: no copy from the host, which
        # a CUDA graph could not hold)
        if not isinstance(a, torch.Tensor):
            a = torch.full((), a, dtype=b.dtype, device=b.device)
        elif a.device.type != "cpu" and a.is_floating_point() \
                and not (isinstance(b, torch.Tensor) and b.device == a.device):
            b = torch.full((), b.item() if isinstance(b, torch.Tensor) else b, dtype=a.dtype,
                           device=a.device)
        return torch.div(a, b)

    def fmod(self, a, b):
        return torch.fmod(a, b)

    def where(self, condition):
        return torch.nonzero(condition).reshape(-1)

    def occurrences(self, a, size):
        return torch.bincount(a, minlength=size)

    def select(self, condition, a, b):
        if not isinstance(a, torch.Tensor) and not isinstance(b, torch.Tensor):
            if type(a) is int and type(b) is int and _INT64_MIN <= min(a, b) \
                    and max(a, b) <= _INT64_MAX:
                return torch.where(condition, a, b)     # (two Python integers: int64)
            # (a real of the backend's dtype; b beside it as a number takes that dtype)
            a = torch.tensor(a, dtype=self.float_dtype, device=self.device) \
                if type(a) is float else self.asarray(a)
        return torch.where(condition, *self._tensors(a, b))

    @contextlib.contextmanager
    def tracing(self):
        """Numbers stay 0-d tensors (no .item()), so that a tracer sees every operation."""
        previous, self.keep_tensors = self.keep_tensors, True
        try:
            yield
        finally:
            self.keep_tensors = previous

    def full_precision(self):
        if self.amp_dtype is None:
            return contextlib.nullcontext()
        return torch.autocast(self.device.type, enabled=False)

    def autocast(self):
        if self.amp_dtype is None:
            return contextlib.nullcontext()
        return torch.autocast(self.device.type, dtype=_FLOATS[self.amp_dtype])

    def deterministic(self):
        if self.device.type == "cuda":
            # cuBLAS is deterministic only with a fixed workspace (torch raises otherwise)
            os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        return DETERMINISTIC.held()

    def device_memory(self):
        if self.device.type != "cuda":
            return None
        return {"allocated": torch.cuda.memory_allocated(self.device),
                "reserved": torch.cuda.memory_reserved(self.device),
                "peak": torch.cuda.max_memory_allocated(self.device)}

    def device_totals(self):
        if self.device.type != "cuda":
            return None
        s = torch.cuda.memory_stats(self.device)
        return s.get("allocated_bytes.all.allocated", 0), s.get("allocated_bytes.all.freed", 0)

    def reset_peak(self):
        if self.device.type == "cuda":
            torch.cuda.reset_peak_memory_stats(self.device)

    def empty_cache(self):
        if self.device.type == "cuda":
            torch.cuda.empty_cache()

    def limit_memory(self, nbytes):
        if self.device.type == "cuda":      # a setting of the process, for this device
            total = torch.cuda.get_device_properties(self.device).total_memory
            torch.cuda.set_per_process_memory_fraction(min(1.0, nbytes / total), self.device)

    @staticmethod
    def buffer(a):
        while a._base is not None:
            a = a._base
        return a, a.untyped_storage().nbytes()

    def synchronize(self):
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
        elif self.device.type == "mps":
            torch.mps.synchronize()

    def vmap(self, fn, a, *others):
        if self.recorder is not None:       # recorded as one operation (torch_capture.py)
            return self.recorder.opaque(self._vmap, getattr(fn, "plain", fn), a, *others)
        return self._vmap(fn, a, *others)

    def _vmap(self, fn, a, *others):
        # Klong code that needs a value (an .item(), a branch on data) cannot be traced:
        # torch raises, and the caller loops instead.
        try:
            with self.tracing():
                r = torch.func.vmap(fn)(a, *others)
        except Exception:
            return None
        if not isinstance(r, torch.Tensor) or r.ndim == 0 or 0 in r.shape[1:]:
            return None     # empty results are lists of empty lists, never an N x 0 array
        if r._base is not None:
            # a view of vmap's own result, its batch axis moved to the front: a tensor of
            # its own, as every Each gives (any other layout stays as vmap gave it: torch's
            # sums over a tensor follow its layout, and a step's bits must not move)
            r = _owned(r)
        return r

    def unbatched(self, v):
        functorch = torch._C._functorch
        while isinstance(v, torch.Tensor) and functorch.is_batchedtensor(v):
            v = functorch.get_unwrapped(v).movedim(functorch.maybe_get_bdim(v), 0)
        return v

    def _tensors(self, a, b):
        if not isinstance(a, torch.Tensor):
            a = torch.as_tensor(a, dtype=b.dtype, device=b.device)
        if not isinstance(b, torch.Tensor):
            b = torch.as_tensor(b, dtype=a.dtype, device=a.device)
        return a, b

    def creation_options(self):
        return {"dtype": self.float_dtype, "device": self.device}

    def math_function(self, name):
        for home in (torch, torch.special, torch.nn.functional):
            fn = getattr(home, name, None)
            if callable(fn) and not isinstance(fn, type):
                return fn
        return None

