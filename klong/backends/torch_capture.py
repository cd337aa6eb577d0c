"""The torch backend's capture part (`backend.capture`): one ordinary evaluation of a Klong
function is recorded as the torch operations it made, and written out as a straight-line
Python function that replays them on new inputs (the Klong side, which functions and when,
is klong/runtime/capture.py).

What is recorded, while the evaluation runs under `Recorder` (a TorchFunctionMode, so it
sees every torch call, tensor methods, attribute reads and torch.autograd.grad included):

- each torch call, its operands named as an argument, a global, an earlier result or a
  constant (a tensor that existed before the call, a Python number in the code);
- the reals of the arguments and globals, which Klong keeps as Python floats: they are 0-d
  tensors while the evaluation is recorded (the backend keeps numbers as tensors then,
  `tracing()`, so every step on them is a torch call), and floats again in the replay's
  results. Reals that torch hands out (`.item()`, `.tolist()`) are `Tracked` floats,
  whose arithmetic and comparisons are recorded too;
- every decision made from data: a comparison, a truth value, an integer read out of a
  tensor (Klong's overflow checks), the metadata of a tensor whose shape depends on data,
  whether a real read out is finite. Replay recomputes it and gives up (None) when it
  comes out otherwise: the guard of that branch;
- an Each that torch.vmap batches (Backend.vmap): its body's operations, as a function of
  the batched rows that the replay hands to the same vmap;
- a gradient (torch.autograd.grad of a scalar): the call of autograd's engine, which the
  written replay turns into the operations that engine runs for it (`_joint`), so that
  forward and backward replay as one straight line and no graph is built.

The replay is written lean: arithmetic on 0-d float64 tensors is float arithmetic (the
same IEEE operations, so the same bits), a real becomes a tensor only where an operation
needs one, metadata that the guards fix is not read again, a stack taken apart is not
made. What cannot be followed (values computed by numpy from a tensor, objects torch hands
out that are not numbers) makes the recording fail with a reason, and the function stays
with ordinary evaluation. The replay function returns None when a guard fails; it writes
no global itself (it returns the values to write), so a miss leaves nothing half-updated.
"""
import collections
import math
import operator
import re
import sys

import numpy as np
import torch
from torch.overrides import TorchFunctionMode, _pop_mode_temporarily
from torch.utils._python_dispatch import TorchDispatchMode

from . import torch_graphs



NOTHING = object()       # a global that is not defined


MAX_LINES = 2000         # a longer record (a loop run through) is not kept


def _bound_call(G, bound, fn, *args):
    """fn(*args) with the globals G bound as `bound` says ((name, value) pairs), as they
    were bound where the call was recorded (Recorder.external); G as it was afterwards."""
    saved = [(name, G.get(name, NOTHING)) for name, _ in bound]
    try:
        for name, value in bound:
            G[name] = value
        return fn(*args)
    finally:
        for name, value in saved:
            if value is NOTHING:
                G.pop(name, None)
            else:
                G[name] = value


class Unfollowable(Exception):
    """The recording met a value it cannot follow; its message is the reason."""


class Tracked(float):
    """A Python real the recording follows: `slot` names it in the replay function."""
    __slots__ = ("slot", "recorder")

    def __new__(cls, value, slot, recorder):
        recorder.extracted = True
        self = float.__new__(cls, value)
        self.slot, self.recorder = slot, recorder
        return self

    def __reduce__(self):
        return float, (float(self),)


# Python's operators on reals, as the replay function writes them: {0}, {1} the operands
_BINARY = {"add": "{0} + {1}", "sub": "{0} - {1}", "mul": "{0} * {1}", "truediv": "{0} / {1}",
           "floordiv": "{0} // {1}", "mod": "{0} % {1}", "pow": "{0} ** {1}",
           "lt": "{0} < {1}", "le": "{0} <= {1}", "gt": "{0} > {1}", "ge": "{0} >= {1}",
           "eq": "{0} == {1}", "ne": "{0} != {1}"}
_UNARY = {"neg": "-{0}", "pos": "+{0}", "abs": "abs({0})", "bool": "bool({0})",
          "int": "int({0})", "trunc": "math.trunc({0})", "floor": "math.floor({0})",
          "ceil": "math.ceil({0})", "round": "round({0})"}


def _install_operators():
    def binary(name, fn, reflected):
        def op(self, other):
            if reflected:
                return self.recorder.python_op(name, fn, (other, self))
            return self.recorder.python_op(name, fn, (self, other))
        return op

    def unary(name, fn):
        def op(self):
            return self.recorder.python_op(name, fn, (self,))
        return op

    for name in _BINARY:
        fn = getattr(operator, name)
        setattr(Tracked, f"__{name}__", binary(name, fn, False))
        if name not in ("lt", "le", "gt", "ge", "eq", "ne"):
            setattr(Tracked, f"__r{name}__", binary(name, fn, True))
    unary_fns = {"neg": operator.neg, "pos": operator.pos, "abs": abs, "bool": bool, "int": int,
                 "trunc": math.trunc, "floor": math.floor, "ceil": math.ceil, "round": round}
    for name, fn in unary_fns.items():
        setattr(Tracked, f"__{name}__", unary(name, fn))
    Tracked.__hash__ = float.__hash__


_install_operators()

# tensor metadata: fixed by the guards on the inputs' shapes, unless a shape came from data
_META_GETTERS = {"shape", "dtype", "device", "ndim", "requires_grad", "is_leaf", "layout",
                 "is_cpu", "is_cuda", "is_sparse", "is_quantized", "is_meta", "grad_fn", "names"}
_META_METHODS = {"dim", "size", "numel", "nelement", "is_floating_point", "is_complex",
                 "element_size", "__len__", "is_contiguous", "stride", "ndimension",
                 "get_device", "is_signed"}
# operations whose result's shape depends on the values of their operands
_DATA_SHAPED = {"nonzero", "unique", "unique_consecutive", "masked_select", "argwhere",
                "repeat_interleave", "bincount", "histc"}
# data-shaped when given a tensor of indices or truth values (__getitem__) or one operand
_DATA_SHAPED_WITH = {"__getitem__", "index", "where"}
_GRAD_KEYWORDS = {"grad_outputs", "retain_graph", "create_graph", "only_inputs",
                  "allow_unused", "is_grads_batched", "materialize_grads"}
_SIMPLE = (bool, int, str, type(None), torch.dtype, torch.device, torch.Size, torch.layout)


_ASSIGNMENT = re.compile(r"(s\d+) = ([^\n]*)$")
_DATA_SET = re.compile(r"(K\d+)\((s\d+), (s\d+)\)$")
_REQUIRES_GRAD = re.compile(r"(s\d+) = (K\d+)\(([si]\d+), True\)$")
# calls that run autograd's engine on the graph the forward builds
_GRAPH_USERS = {"grad", "backward", "run_backward"}
_DETACHED = re.compile(r"(s\d+) = (K\d+)\(([si]\d+)\)$")
_CONSTANT = re.compile(r"\bK\d+\b")
_COPY = re.compile(r"(s\d+) = ([si]\d+)$")
_DETACH = torch.Tensor.detach
_SLOT_NAME = re.compile(r"\b[a-z]\d+(?:_\d+)?\b")      # s12, i3, f7, v4_0 (K12: constants)
# operations whose results are never taken from a call before: random numbers, changes in
# place (their results are their operands), results written into a tensor given
_NEVER_HELD = ("rand", "normal", "bernoulli", "multinomial", "dropout", "uniform", "poisson",
               "exponential", "cauchy", "geometric", "random", "empty")


def _may_hold(name, args, kwargs):
    name = name.lower()
    if name.endswith("_") and not name.endswith("__") or name.endswith("__set__") \
            or name.startswith("__i") or any(word in name for word in _NEVER_HELD):
        return False
    if kwargs and ("out" in kwargs or kwargs.get("requires_grad")):
        return False
    operands = list(args) + list((kwargs or {}).values())
    return not any(isinstance(a, torch.Generator) for a in operands)


def _name(func):
    if getattr(func, "__name__", None) in ("__get__", "__set__"):
        return f"{getattr(func.__self__, '__name__', '?')}.{func.__name__}"
    return getattr(func, "__name__", type(func).__name__)


# torch's arithmetic on 0-d float64 tensors, as Python's on floats ({0} {1}: the operands
# in torch's order; reflected forms swap them first): the same bits
_FLOAT_ARITHMETIC = {}
for _op, _text in (("add", "{0} + {1}"), ("sub", "{0} - {1}"), ("mul", "{0} * {1}")):
    for _form in (_op, f"__{_op}__", f"__r{_op}__"):
        _FLOAT_ARITHMETIC[_form] = _text
_FLOAT_ARITHMETIC["neg"] = _FLOAT_ARITHMETIC["__neg__"] = "-{0}"


def _scalar(value, dtype, device):
    """A 0-d tensor of the real `value` (torch.full: a third of torch.tensor's time)."""
    return torch.full((), value, dtype=dtype, device=device)


# the dtypes whose tensors numpy sees as they are (t.numpy())
_COUNTED = frozenset((torch.float64, torch.float32, torch.int64, torch.int32, torch.bool))


def _none_zero(t):
    """bool(t.all()): whether no element of the tensor t is zero (NaN is not, -0.0 is). On
    the CPU numpy's count on the same memory: a third of the cost of torch's all() and
    truth value on a short tensor (a replay's guard on a divisor, on a scan's first row)."""
    if t.is_cpu and t.dtype in _COUNTED and not t.requires_grad:
        return np.count_nonzero(t.numpy()) == t.numel()
    return bool(t.all())


def _alias(t):
    """What tells tensors on the same memory, viewed alike, apart from others."""
    return (t.device, t.dtype, t.untyped_storage().data_ptr(), t.storage_offset(),
            tuple(t.shape), t.stride())


def _is_scalar(t):
    return isinstance(t, torch.Tensor) and type(t) is torch.Tensor and t.ndim == 0 \
        and t.dtype == torch.float64 and not t.requires_grad and t.device.type == "cpu"


def _holds_tensor(v):
    if isinstance(v, torch.Tensor):
        return True
    return isinstance(v, (tuple, list)) and any(_holds_tensor(e) for e in v)


def _plain(v):
    """A value of the recorded evaluation as the ordinary one has it (Tracked -> float)."""
    if type(v) is Tracked:
        return float.__float__(v)
    if type(v) is list:
        return [_plain(e) for e in v]
    return v


class _AtenLog(TorchDispatchMode):
    """The operations torch runs below its transforms (vmap's batching rules), with their
    operands and results, while it is on."""

    def __init__(self):
        super().__init__()
        self.ops = []

    @classmethod
    def _should_skip_dynamo(cls):
        # torch wraps a mode's __torch_dispatch__ so that its compiler skips it, which
        # imports the compiler (seconds) on the first operation; nothing compiles here
        return False

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        self.ops.append((func, args, kwargs, out))
        return out


class Recorder(TorchFunctionMode):
    """Records one evaluation (see the module's docstring). `failure` is the reason the
    recording cannot be replayed, once it is known (the evaluation goes on regardless)."""

    def __init__(self, G, watched, device):
        super().__init__()
        self.device = device       # where a real of the evaluation becomes a 0-d tensor
        self.G, self.watched = G, watched     # the globals, and the names the function reads
        self.started = {}          # the globals as the recorded evaluation starts
        self.lines = []            # the replay function's body (while a vmapped body is
        self.main = self.lines     # recorded, `lines` is that body's; `main` the replay's)
        self.sub = None            # the name of the vmapped body being recorded
        self.namespace = {"NOTHING": NOTHING, "SCALAR": _scalar, "BOUND": _bound_call,
                          "F64": torch.float64,
                          "DEVICE": device,
                          "math": math, "torch": torch, "Tensor": torch.Tensor}
        self.known = {}            # id(tensor) -> its slot
        self.keep = []             # what `known` is keyed by, kept alive while recording
        self.dynamic = set()       # slots of tensors whose shape came from data
        self.globals_of = {}       # id(tensor) -> the global it is the value of
        self.inputs = []           # (slot, ("arg", i) or ("global", name), the value then)
        self.input_names = set()
        self.failure = None
        self.count = 0
        self.paused = False
        self.lifted = {}           # id(0-d tensor) -> the real of a global it stands for
        self.extracted = False     # a real was read out of a tensor (a Tracked made)
        # a 0-d float64 tensor that nothing differentiates holds what a Python float would,
        # and float arithmetic gives the same bits: such slots get a Python form (`scalar`),
        # and arithmetic on them is written as float arithmetic; a slot written that way
        # only (`virtual`) gets its tensor when an operation needs one
        self.scalar = {}           # tensor slot -> the slot of the same real as a float
        self.virtual = {}          # tensor slot -> what writes its tensor, when first needed
        self.stacked = {}          # slot of a torch.stack not written -> the tensors stacked
        self.value = {}            # tensor slot -> its tensor in the recorded evaluation
        # slots of results that later calls may take from the call before, when the inputs
        # they come from are the same tensors, unchanged (`_held`); and of tensors changed
        # in place
        self.pure = set()
        self.mutated = set()
        self.changes = collections.Counter()    # slot -> the changes in place recorded
        # x == 0 (a division's test for zero divisors), and its any(): slot -> x's slot
        self.zero_where = {}
        self.zero_any = {}
        self.sub_slots = set()     # the slots a vmapped body being recorded made
        self.sub_reads = []        # the slots of tensors made outside that body it uses
        self.clones = {}           # index in `main` of a clone's line -> (its slot, the
                                   # slot cloned, the clone method's name): see `_owned`
        # index in `main` of a line -> its form in the body of a CUDA graph, where reals
        # stay on the device and the guards on their values are checked after the graph
        # has run (write_graph)
        self.graph_forms = {}
        self.collect = None        # while the graph's outputs are written: a GraphOutputs
        # gradients: the engine's calls that _grad_text wrote (its constant's name, the
        # slots of the outputs and of the inputs, the keywords), which `_joint` may write
        # as the operations of the backward; `graph_needed`: autograd is used otherwise
        self.engines = []
        self.graph_needed = False
        self.unjoined = None       # `main` and `mutated` as they were before _joint wrote a
                                   # backward in main

    # -- slots and constants
    def line(self, text, graph_form):
        """Append `text` to the replay; `graph_form` is what a CUDA graph's body has in its
        place (a real kept as a 0-d tensor, a guard on data deferred: `OK.append(test)`)."""
        if self.lines is self.main:
            self.graph_forms[len(self.lines)] = graph_form
        self.lines.append(text)

    def slot(self, prefix="s"):
        self.count += 1
        return f"{prefix}{self.count}"

    def const(self, value):
        if type(value) in (int, bool, type(None)) or type(value) is float and math.isfinite(value):
            return repr(value)
        name = self.slot("K")
        self.namespace[name] = value
        return name

    def named(self, value):
        """A constant by name in the namespace (to be compared with `is`)."""
        name = self.slot("K")
        self.namespace[name] = value
        return name

    def bind(self, value, slot):
        self.known[id(value)] = slot
        self.keep.append(value)
        if isinstance(value, torch.Tensor):
            self.value[slot] = value
            if self.sub is not None:
                self.sub_slots.add(slot)

    # -- inputs
    def argument(self, i, value):
        return self._input(("arg", i), value)

    def global_value(self, name, value):
        """What the recorded evaluation finds in the global `name`: a real as a 0-d tensor
        (see _input), made an input when the evaluation first uses it, as a tensor is."""
        if type(value) is float:
            lifted = torch.tensor(value, dtype=torch.float64, device=self.device)
            self.lifted[id(lifted)] = value
            self.globals_of[id(lifted)] = name
            self.keep.append(lifted)
            return lifted
        if isinstance(value, torch.Tensor):
            self.globals_of.setdefault(id(value), name)
            self.keep.append(value)
        return value

    def _input(self, source, value):
        slot = self.slot("i")
        self.inputs.append((slot, source, value))
        if source[0] == "global":
            self.input_names.add(source[1])
        if type(value) is float:
            # a real the evaluation keeps as a Python float: followed as a 0-d tensor (the
            # backend keeps numbers as tensors while recording), given back as a float
            lifted = torch.tensor(value, dtype=torch.float64, device=self.device)
            self._lifted_input(lifted, slot)
            return lifted
        if isinstance(value, torch.Tensor):
            self.bind(value, slot)
        return value

    # -- operands
    def ref(self, v):
        """The replay function's expression for the operand v."""
        t = type(v)
        if t is Tracked:
            if v.recorder is not self:
                raise Unfollowable("a number of another recording")
            return v.slot
        if isinstance(v, torch.Tensor):
            slot = self.known.get(id(v))
            if slot is not None:
                make = self.virtual.pop(slot, None)
                if make is not None:
                    self.main.append(f"{slot} = {make()}")
                if self.sub is not None and slot not in self.sub_slots \
                        and slot not in self.sub_reads:
                    self.sub_reads.append(slot)
                return slot
            name = self.globals_of.get(id(v))
            if name is not None and name not in self.input_names:
                return self._input_slot(("global", name), v)
            return self.const(v)         # made before the evaluation: a constant of the code
        if t is tuple or t is list:
            inner = ", ".join(self.ref(e) for e in v)
            if t is list:
                return f"[{inner}]"
            return f"({inner},)" if v else "()"
        if t is float or t in _SIMPLE or isinstance(v, (torch.dtype, torch.device)) \
                or v is Ellipsis:
            return self.const(v)
        if t is slice:
            return f"slice({self.ref(v.start)}, {self.ref(v.stop)}, {self.ref(v.step)})"
        if isinstance(v, torch.Generator):
            return self.const(v)         # the interpreter's generator: drawn from again
        raise Unfollowable(f"a {t.__name__} the recording cannot follow reached torch")

    def _input_slot(self, source, v):
        """The slot of v, the value of a global first used now."""
        self._global_input(v)
        return self.ref(v)

    def _global_input(self, v):
        """Make the tensor v an input, when it is the value of a global (or stands for
        one's real) not used before."""
        name = self.globals_of.get(id(v))
        if name is None or name in self.input_names:
            return
        slot = self.slot("i")
        value = self.lifted.get(id(v), v)
        self.inputs.append((slot, ("global", name), value))
        self.input_names.add(name)
        if type(value) is float:
            self._lifted_input(v, slot)
        else:
            self.bind(v, slot)

    def _lifted_input(self, tensor, slot):
        """The input `slot`, a float, stands for `tensor`; its own slot holds the float."""
        self._scalar_slot(tensor, self.slot(), slot)

    # -- what the evaluation does
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if self.paused:
            return func(*args, **kwargs)
        plain_args = [_plain(a) if type(a) is Tracked else a for a in args]
        plain_kwargs = {k: _plain(v) if type(v) is Tracked else v for k, v in kwargs.items()}
        if self.failure is None and len(self.lines) > MAX_LINES:
            self.failure = f"more than {MAX_LINES} operations"     # the rest runs plainly
        if self.failure is not None:
            return func(*plain_args, **plain_kwargs)
        if self.sub is not None:
            pass
        elif _name(func) in _FLOAT_ARITHMETIC and not kwargs and self._scalars(args):
            out = func(*plain_args)
            if _is_scalar(out):
                return self._float_arithmetic(_name(func), args, out)
            call = self._call_text(func, args, kwargs)
            return self._result(func, args, call, out)
        name = _name(func)
        if isinstance(args[0] if args else None, torch.Tensor) and id(args[0]) not in self.known:
            self._global_input(args[0])      # a global's value, used first here
        if self.sub is not None:
            pass
        elif name in ("item", "sum") and len(args) == 1 and not kwargs and _is_scalar(args[0]) \
                and id(args[0]) in self.known:
            out = func(*plain_args)
            return self._same_real(name, args[0], out)
        elif name == "detach" and len(args) == 1 and not kwargs \
                and self.known.get(id(args[0])) in self.virtual:
            # a real not made a tensor yet, detached: made a tensor of its own at once
            out = func(*plain_args)
            slot = self.slot()
            form = self.scalar[self.known[id(args[0])]]
            self.lines.append(f"{slot} = SCALAR({form}, F64, DEVICE)")
            self.bind(out, slot)
            return out
        elif name == "stack" and len(args) == 1 and not kwargs and type(args[0]) in (list, tuple) \
                and args[0] and all(type(e) is torch.Tensor and id(e) in self.known
                                    and not e.requires_grad for e in args[0]):
            return self._stack(func, args[0], func(*plain_args))
        elif name == "__getitem__" and len(args) == 2 and type(args[1]) is int and not kwargs \
                and self.known.get(id(args[0])) in self.stacked:
            out = func(*plain_args)
            items = self.stacked[self.known[id(args[0])]]
            if -len(items) <= args[1] < len(items):
                self.bind(out, self.known[id(items[args[1]])])
                return out
        if (name.split(".")[0] in _META_GETTERS or name in _META_METHODS) and args \
                and isinstance(args[0], torch.Tensor) \
                and self.known.get(id(args[0]), "") not in self.dynamic and id(args[0]) in self.known:
            return func(*plain_args, **plain_kwargs)      # fixed by the inputs' guards
        if args and isinstance(args[0], torch.Tensor) and (
                name.endswith("_") and not name.endswith("__") or name.endswith("__set__")
                or name in ("__setitem__", "__iadd__", "__isub__", "__imul__", "__itruediv__")):
            # changes its tensor in place: the float form of the old value is no longer it
            changed = self.ref(args[0])
            self.mutated.add(changed)
            self.changes[changed] += 1
            self.scalar.pop(self.known.get(id(args[0])), None)
        if name in _GRAPH_USERS and func is not torch.autograd.grad:
            self.graph_needed = True    # (torch.autograd.grad: see _call_text)
        try:
            call = self._call_text(func, args, kwargs)
        except Unfollowable as e:
            self.failure = f"{_name(func)}: {e}"
            return func(*plain_args, **plain_kwargs)
        out = func(*plain_args, **plain_kwargs)
        try:
            return self._result(func, args, call, out, kwargs)
        except Unfollowable as e:
            self.failure = f"{_name(func)}: {e}"
            return out

    def _call_text(self, func, args, kwargs):
        if func is torch.autograd.grad:
            text = self._grad_text(args, kwargs)
            if text is not None:
                return text
            self.graph_needed = True
        fn = self.const(func)
        parts = [self.ref(a) for a in args] + [f"{k}={self.ref(v)}" for k, v in kwargs.items()]
        return f"{fn}({', '.join(parts)})"

    def _joint(self):
        """The engine's call of a record that takes one gradient, written as the operations
        the engine runs for it: the replay's forward then builds no graph, and no engine
        runs. The operations are had by running the replay's own lines up to that call on
        the recorded inputs, then the gradient, with a dispatch mode logging the backward:
        they are the backward of the graph those lines build, which is the replay's as it
        was (the same kernels in the same order, so the same bits). Left as it is where
        that cannot be had: several gradients, a gradient of a gradient, random numbers or
        an input changed in place (the run would be seen), an operand of the backward that
        is no tensor of the lines (a value saved inside one of their steps)."""
        if self.unjoined is not None:
            return                  # (written before, then taken back: `unjoin`)
        starts = self._graph_starts()
        if starts is None or self.graph_needed or len(self.engines) != 1 or self.mutated & {
                slot for slot, _, _ in self.inputs} \
                or any(isinstance(v, torch.Generator) for v in self.namespace.values()):
            return
        engine, outs, ins, keywords = self.engines[0]
        call = f" = {engine}("
        index = next((i for i, line in enumerate(self.main) if call in line), None)
        if index is None:
            return
        slot = self.main[index].split(" = ", 1)[0]
        params = [slot for slot, _, _ in self.inputs]
        source = _function(f"forward({', '.join(params)})",
                           self.main[:index] + ["return locals()"])
        namespace = dict(self.namespace)
        try:
            exec(compile(source, "<klong capture forward>", "exec"), namespace)
            with torch.enable_grad():
                env = namespace["forward"](*[value for _, _, value in self.inputs])
                if env is None:
                    return
                log = _AtenLog()
                with log:
                    grads = torch.autograd.grad(tuple(env[o] for o in outs),
                                                tuple(env[i] for i in ins), **keywords)
            known = {id(v): k for k, v in self.namespace.items() if isinstance(v, torch.Tensor)}
            known.update((id(v), k) for k, v in env.items() if isinstance(v, torch.Tensor))
            lines, results = self._backward(log.ops, grads, known, env)
        except Exception:
            return      # (Unfollowable, or a line that cannot run outside its replay)
        lines.append(f"{slot} = ({', '.join(results)},)")
        self.unjoined = list(self.main), set(self.mutated)
        self.main[index] = "\n    ".join(lines)       # (one entry: the lines keep their places)
        undone = collections.Counter()
        for i, (line, leaf) in starts.items():
            undone[leaf] += 1
            self.main[i] = line
        undone.update(self._without_holders())
        # a slot whose every change in place was one of those lines is changed no more
        # (the leaves of `:>`, the holders: their detached tensors are the tensors)
        self.mutated = {s for s in self.mutated if self.changes[s] > undone[s]}
        self._without_detaches()

    def unjoin(self):
        """Take back what _joint wrote (the replay it gave failed a guard, or differed: a
        guard on whether a tensor is being differentiated, say)."""
        self.main[:], self.mutated = self.unjoined

    def _backward(self, ops, grads, known, env):
        """The lines of the backward's operations `ops` (as _AtenLog logs them), and the
        expressions of the gradients `grads` they gave. `known`: id of a tensor -> its name
        (a slot of the forward, a constant); `env`: the forward's slots. Raises Unfollowable
        where an operand is none of these: a tensor saved by the forward is known by itself,
        or (a result autograd saves is handed back as a new tensor on the same memory) by
        its memory and its view of it."""
        made, lines = {}, []
        aliases = {_alias(v): k for k, v in env.items() if isinstance(v, torch.Tensor)}
        keep = []

        def ref(v):
            if isinstance(v, torch.Tensor):
                name = made.get(id(v)) or known.get(id(v)) or aliases.get(_alias(v))
                if name is None:
                    raise Unfollowable("the backward reads a tensor the lines do not make")
                return name
            if type(v) in (tuple, list):
                inner = ", ".join(ref(e) for e in v)
                return f"[{inner}]" if type(v) is list else f"({inner},)" if v else "()"
            if isinstance(v, torch.Generator):
                raise Unfollowable("the backward draws random numbers")
            return self.const(v)

        def bind(t, name):
            made[id(t)] = name
            keep.append(t)          # (alive until the end: ids stay theirs)

        for func, args, kwargs, out in ops:
            parts = [ref(a) for a in args] + [f"{k}={ref(v)}" for k, v in kwargs.items()]
            # the operator itself (its Python wrapper costs as much as the kernel here)
            text = f"{self.const(getattr(func, '_op', func))}({', '.join(parts)})"
            if isinstance(out, torch.Tensor):
                name = self.slot()
                lines.append(f"{name} = {text}")
                bind(out, name)
            elif out is None:
                lines.append(text)
            elif type(out) in (tuple, list) and all(e is None or isinstance(e, torch.Tensor)
                                                    for e in out):
                name = self.slot()
                lines.append(f"{name} = {text}")
                for i, e in enumerate(out):
                    if e is not None:
                        element = self.slot()
                        lines.append(f"{element} = {name}[{i}]")
                        bind(e, element)
            else:
                raise Unfollowable(f"the backward reads a {type(out).__name__} out of data")
        return lines, ["None" if g is None else ref(g) for g in grads]

    def _graph_starts(self):
        """{index in `main`: (the line in its place, the slot it flagged)} that turns the
        lines starting a graph (t.requires_grad_(True)) into plain copies of the slot; None
        where one is of an input (the flag the function sets on it stays, as the ordinary
        evaluation leaves it: the graph is then built as before)."""
        starts = {}
        for i, line in enumerate(self.main):
            m = _REQUIRES_GRAD.match(line)
            if m is not None and _name(self.namespace.get(m.group(2))) == "requires_grad_":
                if not m.group(3).startswith("s"):
                    return None
                starts[i] = (f"{m.group(1)} = {m.group(3)}", m.group(3))
        return starts

    def _without_holders(self):
        """With no graph built, a tensor made only to be given other values (`t.data = v`:
        torch's sum or matrix product, the step of the graph that holds Klong's sums)
        is not made: its slot is v. Lines left blank keep the others' places. Returns the
        holders' slots."""
        made, holders = {}, []
        for i, line in enumerate(self.main):
            m = _ASSIGNMENT.match(line)
            if m is not None:
                made[m.group(1)] = i
                continue
            m = _DATA_SET.match(line)
            if m is None or _name(self.namespace.get(m.group(1))) != "data.__set__":
                continue
            holder, values = m.group(2), m.group(3)
            j = made.get(holder)
            mention = re.compile(rf"\b{holder}\b")
            if j is None or j in self.clones \
                    or any(mention.search(self.main[x]) for x in range(j + 1, i)):
                continue
            self.main[j] = ""
            self.main[i] = f"{holder} = {values}"
            holders.append(holder)
        return holders

    def _without_detaches(self):
        """With no graph built, where nothing of the replay is differentiated (no input,
        constant or line of it asks for a gradient), a tensor detached is the tensor itself
        (the same memory, the same version counter): its slot is the one detached, and the
        call is not made (a leaf of `:>` and every value graph_holding took apart)."""
        if any(isinstance(value, torch.Tensor) and value.requires_grad
               for _, _, value in self.inputs):
            return
        used = set(_CONSTANT.findall("\n".join(self.main)))
        for name in used:
            value = self.namespace.get(name)
            if isinstance(value, torch.Tensor) and value.requires_grad \
                    or "requires_grad" in _name(value):
                return
        if any("requires_grad" in line for line in self.main):
            return
        # the slots changed in place, and those they are other names of: there a detached
        # tensor stays one of its own (a change of its view, t_(), would reach the other;
        # a change of its values does either way, the memory being the same)
        changed = set(self.mutated)
        for line in reversed(self.main):
            m = _COPY.match(line)
            if m is not None and m.group(1) in changed:
                changed.add(m.group(2))
        for i, line in enumerate(self.main):
            m = _DETACHED.match(line)
            if m is not None and self.namespace.get(m.group(2)) is _DETACH \
                    and not {m.group(1), m.group(3)} & changed:
                self.main[i] = f"{m.group(1)} = {m.group(3)}"

    def _grad_text(self, args, kwargs):
        """torch.autograd.grad of scalars, with no gradients given and no graph kept, as
        the call of autograd's engine it makes: the same backward, without the checks and
        conversions in Python it makes on every call (a third of a scalar step's time).
        None where it is not such a call."""
        engine = getattr(getattr(torch.autograd.Variable, "_execution_engine", None),
                         "run_backward", None)
        if engine is None or len(args) != 2 or set(kwargs) - _GRAD_KEYWORDS:
            return None
        outputs, inputs = args
        if type(outputs) is not tuple or type(inputs) is not tuple \
                or kwargs.get("grad_outputs") is not None or kwargs.get("create_graph") \
                or kwargs.get("retain_graph") or kwargs.get("is_grads_batched") \
                or kwargs.get("materialize_grads") \
                or type(kwargs.get("allow_unused")) is not bool:
            return None
        if not all(type(t) is torch.Tensor and t.numel() == 1 and t.is_floating_point()
                   for t in outputs) or not all(type(t) is torch.Tensor for t in inputs):
            return None     # (a seed of ones only for a scalar; gradient edges as inputs)
        seeds = ", ".join(f"ONES({self.ref(t)})" for t in outputs)
        self.namespace["ONES"] = torch.ones_like    # (the seeds torch.autograd.grad makes)
        name = self.const(engine)
        self.engines.append((name, [self.ref(t) for t in outputs],
                             [self.ref(t) for t in inputs],
                             {"allow_unused": kwargs["allow_unused"]}))
        return f"{name}({self.ref(outputs)}, ({seeds},), False, False, " \
               f"{self.ref(inputs)}, {kwargs['allow_unused']!r}, False)"

    def refuse(self, why):
        """The evaluation did something a replay cannot repeat: no record of it is kept."""
        self.failure = self.failure or why

    def _step_operands(self, what, args):
        """The replay's expressions for the operands of a call recorded as one step (`what`
        names it), or None where it cannot be (the reason is then `failure`)."""
        if self.failure is not None:
            return None
        if self.sub is not None:
            self.failure = f"{what} inside a vmap"
            return None
        try:
            return [self.ref(a) for a in args]
        except Unfollowable as e:
            self.failure = f"{what}: {e}"
            return None

    def whole(self, fn, *args):
        """fn(*args), a function of tensors that gives a tensor of its own and decides
        nothing from their values (Klong's sum of a vector, folded by numpy on the CPU):
        recorded as one call of fn, its own steps not (numpy's could not be followed)."""
        operands = self._step_operands(getattr(fn, "__name__", "a whole step"), args)
        paused, self.paused = self.paused, True
        try:
            out = fn(*args)
        finally:
            self.paused = paused
        if operands is not None and self.failure is None:
            slot = self.slot()
            self.lines.append(f"{slot} = {self.named(fn)}({', '.join(operands)})")
            self.bind(out, slot)
        return out

    def external(self, fn, *args):
        """fn(*args), code that reads the interpreter's globals and that the recording
        must not see (a function compiled by torch, whose compiler would trace this mode
        too): recorded as one call of fn. The globals the evaluation has bound by now to
        other values than the step started with (`:>` binds its parameters) are bound so
        around the call in the replay, where the compiled code reads them. Its result
        carries autograd's graph, whose backward no operation shows: a gradient of it
        stays the engine's call."""
        self.graph_needed = True
        rebound = [(name, v) for name, v in self.G.items()
                   if self.started.get(name, NOTHING) is not v]
        operands = self._step_operands("a compiled call", [*args, *(v for _, v in rebound)])
        with _pop_mode_temporarily():
            out = fn(*args)
        if operands is not None and self.failure is None:
            refs, values = operands[:len(args)], operands[len(args):]
            binding = "".join(f"({name!r}, {s}), " for (name, _), s in zip(rebound, values))
            slot = self.slot()
            self.lines.append(f"{slot} = BOUND({self.named(self.G)}, ({binding}), "
                              f"{self.named(fn)}, {', '.join(refs)})")
            self.bind(out, slot)
        return out

    def opaque(self, impl, fn, *args):
        """impl(fn, *args), the backend's torch.vmap of the Klong function fn over args:
        fn's operations are recorded as a function of its batched arguments, which the
        replay hands to impl in fn's place. None (vmap failed) is a miss."""
        if self.sub is not None or self.failure is not None:
            if self.sub is not None:
                self.failure = "a vmap inside a vmap"
            with _pop_mode_temporarily():
                return impl(fn, *args)
        try:
            operands = [self.ref(a) for a in args]
        except Unfollowable as e:
            self.failure = f"vmap: {e}"
            with _pop_mode_temporarily():
                return impl(fn, *args)
        name = self.slot("v")
        params, inner = [], []

        def body(*batched):
            self.paused, self.sub, self.lines = False, name, inner
            try:
                for i, b in enumerate(batched):
                    params.append(f"{name}_{i}")
                    self.bind(b, params[-1])
                r = fn(*batched)
                if not isinstance(r, torch.Tensor):
                    self.failure = self.failure or "vmap: the body gave no tensor"
                elif self.failure is None:
                    try:
                        inner.append(f"return {self.ref(r)}")
                    except Unfollowable as e:
                        self.failure = f"vmap: {e}"
                return r
            finally:
                self.paused, self.sub, self.lines = True, None, self.main

        self.paused = True          # torch.func's own steps are not the function's
        try:
            out = impl(body, *args)
        finally:
            self.paused = False
        if self.failure is not None:
            return out
        if out is None:
            self.failure = "vmap: the batched body failed"
            return out
        flat = self._flattened(params, inner, operands, args, out)
        if flat is not None:
            self.lines.extend(flat)
            return out
        self.lines.append(f"def {name}({', '.join(params)}):"
                          + "".join(f"\n        {line}" for line in inner))
        slot = self.slot()
        self.lines.append(f"{slot} = {self.const(impl)}({name}, {', '.join(operands)})")
        self.lines.append(f"if {slot} is None or type({slot}) is not Tensor or "
                          f"{slot}.shape != {self.const(tuple(out.shape))} or "
                          f"{slot}.dtype is not {self.const(out.dtype)}: return None")
        self.bind(out, slot)
        return out

    def _flattened(self, params, inner, operands, args, out):
        """The replay's lines for a vmapped body recorded as `inner` (a function of the
        batched rows `params` and of the tensors `sub_reads` made before it): the
        operations on whole tensors that torch.vmap runs for it (its batching rules'
        choice), as a dispatch mode sees them, the last one's result bound to `out`; None
        where they cannot be had. They are the operations vmap itself runs, and autograd
        records, so the bits are the same, without vmap's work on every call (wrapping,
        unwrapping, choosing the operations)."""
        outer = list(self.sub_reads)
        if any(line.startswith(("if ", "def ")) for line in inner) \
                or any(s in self.dynamic for s in self._operand_slots(args)) \
                or any(s in self.dynamic for s in outer):
            return None     # guards taken inside, or shapes that come from data
        source = f"def body({', '.join(params + outer)}):\n" \
            + "".join(f"    {line}\n" for line in inner)
        namespace = dict(self.namespace)
        exec(compile(source, "<klong capture body>", "exec"), namespace)
        body = namespace["body"]
        log = _AtenLog()
        try:
            with _pop_mode_temporarily():       # (not steps of the function)
                rows = [a.detach() for a in args]
                rest = [self.value[s].detach() for s in outer]
                with log:
                    result = torch.func.vmap(lambda *r: body(*r, *rest))(*rows)
        except Exception:
            return None     # the vmap path stays
        slots = {id(t): slot for t, slot in zip(rows + rest, list(operands) + outer)}
        slots_of = [None] * len(log.ops)
        try:
            for i, (func, fargs, fkwargs, fout) in enumerate(log.ops):
                if func._schema.is_mutable:
                    return None     # (an operation in place)
                slot = slots_of[i] = self.slot()
                if isinstance(fout, torch.Tensor):
                    slots[id(fout)] = slot
                elif type(fout) in (tuple, list) and all(isinstance(e, torch.Tensor) for e in fout):
                    # several tensors (unbind: a row's sum on a GPU is a fold of its elements)
                    slots.update((id(e), f"{slot}[{j}]") for j, e in enumerate(fout))
                else:
                    return None
        except Exception:
            return None
        if id(result) not in slots or not any(s == slots[id(result)] for s in slots_of):
            return None
        # the operations the result comes from (vmap also looks at a row it does not use)
        needed, lines = {slots[id(result)]}, []
        constants = {id(v) for v in self.namespace.values() if isinstance(v, torch.Tensor)}
        for i in reversed(range(len(log.ops))):
            if slots_of[i] not in needed:
                continue
            func, fargs, fkwargs, _ = log.ops[i]

            def text(a):
                if isinstance(a, torch.Tensor):
                    slot = slots.get(id(a))
                    if slot is None:
                        if id(a) not in constants:
                            # made by vmap out of sight: its value would be this call's
                            raise Unfollowable("a tensor vmap made")
                        return self.const(a)        # a constant of the body
                    needed.add(slot.split("[")[0])
                    return slot
                if type(a) in (list, tuple):
                    inner_text = ", ".join(text(e) for e in a)
                    if type(a) is list:
                        return f"[{inner_text}]"
                    return f"({inner_text},)" if a else "()"
                return self.const(a)

            try:
                parts = [text(a) for a in fargs] + [f"{k}={text(v)}" for k, v in fkwargs.items()]
            except Unfollowable:
                return None     # the vmap path stays
            lines.append(f"{slots_of[i]} = {self.const(func)}({', '.join(parts)})")
            if _may_hold(str(func), fargs, fkwargs):
                self.pure.add(slots_of[i])
        lines.reverse()
        self.bind(out, slots[id(result)])
        return lines

    def _scalars(self, args):
        """Whether the operands are numbers or 0-d float64 tensors that nothing tracks."""
        for a in args:
            if isinstance(a, torch.Tensor):
                if not _is_scalar(a) or id(a) not in self.known:
                    return False
            elif type(a) not in (float, int, Tracked):
                return False
        return True

    def _float_form(self, a):
        """The replay's expression of the operand a as a Python number."""
        if not isinstance(a, torch.Tensor):
            return self.ref(a)
        slot = self.known[id(a)]
        form = self.scalar.get(slot)
        if form is None:
            form = self.slot("f")
            self.line(f"{form} = {slot}.item()", f"{form} = {slot}")
            self.scalar[slot] = form
        return form

    def _float_arithmetic(self, name, args, out):
        forms = [f"({self._float_form(a)})" for a in args]
        if name.startswith("__r"):
            forms.reverse()
        slot, form = self.slot(), self.slot("f")
        self.lines.append(f"{form} = {_FLOAT_ARITHMETIC[name].format(*forms)}")
        self._scalar_slot(out, slot, form)
        return out

    def _scalar_slot(self, tensor, slot, form):
        self.bind(tensor, slot)
        self.scalar[slot] = form
        self.virtual[slot] = lambda: f"SCALAR({form}, F64, DEVICE)"

    def _same_real(self, name, a, out):
        """item() or sum() of a 0-d real: the same real, as a float or a tensor."""
        form = self._float_form(a)
        if name == "item":
            tracked = Tracked(out, form, self)
            self._finite_guard(form, out)
            return tracked
        self._scalar_slot(out, self.slot(), form)
        return out

    def _stack(self, func, items, out):
        """torch.stack of tensors: written when the stack itself is needed; an element
        taken from it (_element) is the tensor stacked."""
        slot = self.slot()
        self.bind(out, slot)
        self.stacked[slot] = list(items)
        fn = self.const(func)
        self.virtual[slot] = lambda: f"{fn}([{', '.join(self.ref(e) for e in items)}])"
        return out

    def _operand_slots(self, args):
        return [self.known.get(id(a)) for a in args if isinstance(a, torch.Tensor)]

    def _result(self, func, args, call, out, kwargs=None):
        name = _name(func)
        short = name.split(".")[0] if name.endswith(("__get__", "__set__")) else name
        dynamic = any(s in self.dynamic for s in self._operand_slots(args)) \
            or short in _DATA_SHAPED \
            or short in _DATA_SHAPED_WITH and (len(args) == 1 or _holds_tensor(args[1:]))
        if isinstance(out, torch.Tensor):
            slot = self.slot()
            self.lines.append(f"{slot} = {call}")
            self.bind(out, slot)
            if dynamic:
                self.dynamic.add(slot)
            if self.sub is None and not out.requires_grad and _may_hold(name, args, kwargs):
                self.pure.add(slot)
            if self.sub is None and not kwargs:
                first = self.known.get(id(args[0])) if args else None
                if short in ("__eq__", "eq") and len(args) == 2 and type(args[1]) in (int, float) \
                        and args[1] == 0 and first is not None:
                    self.zero_where[slot] = first
                elif short == "any" and len(args) == 1 and first in self.zero_where:
                    self.zero_any[slot] = self.zero_where[first]
            if short == "clone" and self.sub is None and len(args) == 1 \
                    and isinstance(args[0], torch.Tensor):
                clone = call[:call.index("(")]      # the clone method, by its constant
                self.clones[len(self.lines) - 1] = (slot, self.known.get(id(args[0])), clone)
            return out
        if out is None or name.endswith("__set__"):
            self.lines.append(call)
            return out
        meta = short in _META_GETTERS or short in _META_METHODS
        if type(out) is float:
            slot = self.slot()
            if short == "item" and len(args) == 1 and not kwargs:
                self.line(f"{slot} = {call}", f"{slot} = {self.ref(args[0])}")
            else:
                self.lines.append(f"{slot} = {call}")
            # a decision on its finiteness (math.isfinite) is not seen: guarded here
            self._finite_guard(slot, out)
            return Tracked(out, slot, self)
        if isinstance(out, _SIMPLE) or short == "grad_fn":
            if meta and not dynamic:
                return out                 # fixed by the guards on the inputs
            if short == "grad_fn":
                raise Unfollowable("the graph's nodes are read")
            zeros = self.zero_any.get(self.known.get(id(args[0]))) if args else None
            if short == "__bool__" and zeros is not None and type(out) is bool and not kwargs:
                # whether x has a zero: whether not all of x is non-zero (NaN is, -0.0 is
                # not, as for ==), one operation for x==0, its any() and the truth value
                # (which are left unused, and not written)
                every = f"{self.const(torch.Tensor.all)}({zeros})"
                self.line(f"if {'' if out else 'not '}{self.const(_none_zero)}({zeros}): "
                          "return None", f"OK.append({'~' if out else ''}{every})")
                return out
            self.lines.append(f"if {call} != {self.const(out)}: return None")
            return out
        if isinstance(out, (tuple, list)) and all(isinstance(e, torch.Tensor) for e in out):
            slot = self.slot()
            self.lines.append(f"{slot} = {call}")
            for i, e in enumerate(out):
                element = self.slot()
                self.lines.append(f"{element} = {slot}[{i}]")
                self.bind(e, element)
                if dynamic:
                    self.dynamic.add(element)
            return out
        if type(out) is list:          # tolist(): the numbers it hands out, followed
            slot = self.slot()
            self.lines.append(f"{slot} = {call}")
            return self._follow_list(out, slot)
        raise Unfollowable(f"gives a {type(out).__name__}, computed outside torch")

    def _follow_list(self, items, slot):
        if all(type(e) in (int, bool) for e in items):
            self.lines.append(f"if {slot} != {self.const(list(items))}: return None")
            return items
        out = []
        for i, e in enumerate(items):
            if type(e) is float:
                element = self.slot()
                self.lines.append(f"{element} = {slot}[{i}]")
                out.append(Tracked(e, element, self))
            elif type(e) is list:
                element = self.slot()
                self.lines.append(f"{element} = {slot}[{i}]")
                out.append(self._follow_list(e, element))
            elif type(e) in (int, bool):
                self.lines.append(f"if {slot}[{i}] != {e!r}: return None")
                out.append(e)
            else:
                raise Unfollowable(f"a list of {type(e).__name__}")
        return out

    def python_op(self, name, fn, operands):
        """A Python operator applied to Tracked reals (and other numbers)."""
        plain = [_plain(a) if type(a) is Tracked else a for a in operands]
        out = fn(*plain)
        if self.failure is not None:
            return out
        try:
            if any(type(a) not in (Tracked, float, int, bool) for a in operands):
                raise Unfollowable(f"{type(operands[-1]).__name__} operands")
            refs = [self.ref(a) for a in operands]
        except Unfollowable as e:
            self.failure = f"Python {name}: {e}"
            return out
        text = (_BINARY.get(name) or _UNARY[name]).format(*(f"({r})" for r in refs))
        if type(out) is float:
            slot = self.slot()
            self.lines.append(f"{slot} = {text}")
            return Tracked(out, slot, self)
        if type(out) is bool:
            self.line(f"if ({text}) != {out!r}: return None", f"OK.append(({text}) == {out!r})")
        else:
            self.lines.append(f"if ({text}) != {self.const(out)}: return None")
        return out

    def _finite_guard(self, form, value):
        """The guard that the real in `form` is finite, or not, as `value` was."""
        test = f"{form} - {form} {'==' if math.isfinite(value) else '!='} 0"
        self.line(f"if not ({test}): return None", f"OK.append({test})")

    # -- the replay function
    def output(self, v, ordinary):
        """The expression giving the value v (an output: a global written, the result),
        which the ordinary evaluation has as `ordinary`."""
        t = type(v)
        collect = self.collect
        if t is Tracked:
            return self.ref(v) if collect is None else collect.real(self.ref(v))
        if isinstance(v, torch.Tensor):
            if type(ordinary) is float:
                if v.ndim != 0:
                    raise Unfollowable("a number became an array")
                if id(v) not in self.known:
                    self._global_input(v)       # a global's real, given back as it is
                form = self.scalar.get(self.known.get(id(v)))
                if collect is not None:
                    return collect.real(form if form is not None else self.ref(v))
                return form if form is not None else f"{self.ref(v)}.item()"
            return self.ref(v) if collect is None else collect.tensor(self.ref(v))
        if t is float:
            # made from integers (their values guarded) and constants, unless a real was
            # read out of a tensor: math.exp of one, say, is not followed
            if self.extracted:
                raise Unfollowable("a real computed outside the recorded operations is kept")
            return self.const(v)
        if t is list:
            if type(ordinary) is not list or len(ordinary) != len(v):
                raise Unfollowable("a list of another shape")
            return "[" + ", ".join(self.output(e, o) for e, o in zip(v, ordinary)) + "]"
        return self.const(v)

    def guard(self, slot, value):
        """The replay function's test that the input in `slot` is like `value` was."""
        if type(value) is float:
            return f"type({slot}) is not float"
        if isinstance(value, torch.Tensor):
            if type(value) is not torch.Tensor:
                raise Unfollowable(f"an input of type {type(value).__name__}")
            return (f"type({slot}) is not Tensor or {slot}.dtype is not {self.const(value.dtype)}"
                    f" or {slot}.shape != {self.const(tuple(value.shape))}"
                    f" or {slot}.device != {self.const(value.device)}"
                    f" or {slot}.requires_grad is not {value.requires_grad!r}")
        if type(value) in (int, bool):
            return f"type({slot}) is not {type(value).__name__} or {slot} != {value!r}"
        return f"{slot} is not {self.named(value)}"

    def write(self, arity, written, result, watched, ordinary):
        """Python source of `replay(G, args...)`: guards on the inputs and on `watched`
        (global name -> the value it had, for the globals read that are no input), the
        recorded operations, then (result, {global: value}) to be written."""
        self._joint()
        # the outputs first: one may be an input not used before (a global given back)
        returned, writes = self._outputs(written, result, ordinary)
        body = self._inputs(watched)
        outputs = f"{returned} {writes}"
        # _owned first: it finds the recorded clones by their places in self.lines
        lines = self._used(self._owned(self.lines, outputs), outputs)
        body += self._held(outputs, written, lines)
        body.append(f"return {returned}, {{{writes}}}")
        return _function(f"replay({self._params(arity)})", body)

    def write_graph(self, arity, written, result, watched, ordinary):
        """The replay through a CUDA graph, as Python source: (`body(inputs...)`, the
        recorded operations with reals kept as 0-d tensors on the device, giving the reals
        and tensors of the outputs and the tests of the guards on data; `replay(G, args...)`,
        which guards the inputs as `write`'s replay does, then runs the graph of body as
        GRAPH(inputs...) and writes the outputs from what it gave (F, T)). Raises
        Unfollowable where the operations cannot run in a graph: a read of a value that no
        test on the device can replace, shapes that come from data, random numbers, an
        input changed in place, or inputs elsewhere than on the device."""
        self.collect = GraphOutputs()
        try:
            returned, writes = self._outputs(written, result, ordinary)
        finally:
            collect, self.collect = self.collect, None
        if self.dynamic:
            raise Unfollowable("a shape comes from data")
        if any(isinstance(v, torch.Generator) for v in self.namespace.values()):
            raise Unfollowable("it draws random numbers")
        lines = []
        for i, line in enumerate(self.main):
            form = self.graph_forms.get(i)
            if form is None and ("return None" in line or ".item()" in line or "tolist" in line
                                 or line.startswith("def ")):
                raise Unfollowable("it reads values that the graph cannot keep on the device")
            lines.append(line if form is None else form)
        slots = []
        for slot, source, value in self.inputs:
            if slot in self.mutated:
                raise Unfollowable("it changes an input in place")
            if isinstance(value, torch.Tensor) and (value.device != self.device
                                                    or value.requires_grad):
                raise Unfollowable("an input is elsewhere, or differentiated")
            slots.append(slot)
        outputs = f"{', '.join(collect.reals)} {', '.join(collect.tensors)}"
        body = ["OK = []", *self._used(lines, outputs),
                f"return [{', '.join(collect.reals)}], [{', '.join(collect.tensors)}], OK"]
        replay = self._inputs(watched) + [
            f"o = GRAPH({', '.join(slots)})",
            "if o is None: return None",
            f"if o is PLAIN: return REPLAY({self._params(arity)})",
            "F, T = o",
            f"return {returned}, {{{writes}}}"]
        return _function(f"body({', '.join(slots)})", body), \
            _function(f"replay({self._params(arity)})", replay)

    @staticmethod
    def _params(arity):
        return ", ".join(["G"] + [f"a{i}" for i in range(arity)])

    def _outputs(self, written, result, ordinary):
        """The expressions of the result and of the globals written (as a dict's items)."""
        result_ordinary, written_ordinary = ordinary
        if written.keys() != written_ordinary.keys():
            raise Unfollowable("it wrote other globals than the ordinary evaluation")
        writes = ", ".join(f"{k!r}: {self.output(v, written_ordinary[k])}"
                           for k, v in written.items())
        return self.output(result, result_ordinary), writes

    def _inputs(self, watched):
        """The replay's first lines: the inputs read and guarded, the globals it reads
        that are no input checked to be those of the recording."""
        body = []
        for slot, (where, which), value in self.inputs:
            source = f"a{which}" if where == "arg" else f"G.get({which!r}, NOTHING)"
            body.append(f"{slot} = {source}")
            body.append(f"if {self.guard(slot, value)}: return None")
        for name, value in watched.items():
            if name not in self.input_names:
                body.append(f"if G.get({name!r}, NOTHING) is not {self.named(value)}: "
                            "return None")
        return body

    def _used(self, lines, outputs):
        """`lines` without the tests for zero divisors that one test replaced, where
        nothing else uses them. (Not any operation whose result is unused: one indexing
        with data, say, may fail with other data, as it does in the ordinary evaluation.)"""
        tests = set(self.zero_where) | set(self.zero_any)
        dropped = set()
        while True:     # (a `del` of a slot, _owned's, is no use of it)
            uses = collections.Counter(_SLOT_NAME.findall("\n".join(
                [*(line for line in lines if not line.startswith("del ")), outputs])))
            kept = []
            for line in lines:
                m = _ASSIGNMENT.match(line)
                if m is not None and uses[m.group(1)] == 1 and m.group(1) in tests \
                        and m.group(1) in self.pure:
                    dropped.add(m.group(1))
                else:
                    kept.append(line)
            if len(kept) == len(lines):
                return [_deleting(line, dropped) for line in lines
                        if _deleting(line, dropped) is not None]
            lines = kept

    def _held(self, outputs, written, lines):
        """The `lines`, those computed from inputs that do not change from call to
        call (the data of a training step, a transposed copy of it, its conversion to
        reals) first, in a block that takes their results from the call before when those
        inputs are the same tensors, unchanged since (their version counters, which
        every change in place moves, theirs and their views'), and the results too.
        `outputs`: the text of the replay's outputs; `written`: the globals it writes
        (a new tensor each call: what comes from them is computed each time)."""
        invariant = {slot for slot, source, value in self.inputs
                     if isinstance(value, torch.Tensor) and not value.requires_grad
                     and not (source[0] == "global" and source[1] in written)}
        seeds, held, rest = [], [], []
        for line in lines:
            m = _ASSIGNMENT.match(line)
            if m is not None and m.group(1) in self.pure and m.group(1) not in self.mutated:
                operands = _SLOT_NAME.findall(m.group(2))
                if operands and all(s in invariant for s in operands):
                    held.append(line)
                    invariant.add(m.group(1))
                    seeds += [s for s in dict.fromkeys(operands) if s[0] == "i" and s not in seeds]
                    continue
            rest.append(line)
        if all(_SLOT_NAME.fullmatch(_ASSIGNMENT.match(line).group(2)) for line in held):
            return lines        # (nothing but other names for the inputs: nothing to keep)
        used = set(_SLOT_NAME.findall("\n".join([*rest, outputs])))
        kept = [_ASSIGNMENT.match(line).group(1) for line in held]
        kept = [s for s in kept if s in used]
        if not kept:
            return rest
        self.namespace["HOLD"] = [None]
        n = len(seeds)
        versions = ", ".join(f"{s}._version" for s in seeds + kept)
        check = " and ".join([f"h[{i}] is {s}" for i, s in enumerate(seeds)]
                             + [f"({', '.join(f'{s}._version' for s in seeds)}, "
                                + ", ".join(f"h[{n + j}]._version" for j in range(len(kept)))
                                + f",) == h[{n + len(kept)}]"])
        block = ["h = HOLD[0]",
                 f"if h is not None and {check}:",
                 f"    {', '.join(kept)}, = h[{n}:{n + len(kept)}]",
                 "else:"]
        block += [f"    {line}" for line in held]
        block.append(f"    HOLD[0] = ({', '.join(seeds + kept)}, ({versions},))")
        return block + rest

    def _owned(self, lines, returned):
        """`lines`, where a tensor the replay made is cloned and its slot is not read after
        (an in-place Amend's copy, recorded as clone and write): the tensor itself, when
        nothing but its slot holds it at that point (OWN), else the clone. The slots that
        are not read after that line are deleted before it: the views of the tensor that
        they hold would otherwise keep it shared."""
        if not self.clones:
            return lines
        last, made = {}, {}                 # slot -> index of its last mention, of its line
        for i, line in enumerate(lines):
            for name in _SLOT.findall(line):
                last[name] = i
            assigned = _ASSIGNMENT.match(line)
            if assigned:
                made.setdefault(assigned.group(1), i)
        for name in _SLOT.findall(returned):
            last[name] = len(lines)
        out, deleted = [], set()
        for i, line in enumerate(lines):
            clone = self.clones.get(i)
            if clone is not None and clone[1] is not None and clone[1].startswith("s") \
                    and last.get(clone[1]) == i:
                slot, source, method = clone
                dead = sorted((n for n, j in last.items() if j < i and n in made
                               and n not in deleted), key=lambda n: made[n])
                if dead:
                    out.append(f"del {', '.join(dead)}")
                    deleted.update(dead)
                line = f"{slot} = OWN({source}, {method})"
            out.append(line)
        return out


# a slot of a tensor or number the replay function made
_SLOT = re.compile(r"\bs\d+\b")


def _deleting(line, dropped):
    """`line`, a `del` of slots without those `dropped` (None: it deletes nothing then)."""
    if not line.startswith("del ") or not dropped:
        return line
    names = [n for n in line[4:].split(", ") if n not in dropped]
    return f"del {', '.join(names)}" if names else None


def _function(signature, body):
    return f"def {signature}:\n" + "".join(f"    {line}\n" for line in body if line)


class GraphOutputs:
    """The outputs of a CUDA graph's body, as Recorder.write_graph collects them: the
    reals (read back as floats, F[i] in the replay) and the tensors (T[i]). An input is
    given back as it is."""

    def __init__(self):
        self.reals, self.tensors = [], []

    def real(self, expr):
        return self._add(self.reals, expr, "F")

    def tensor(self, expr):
        return self._add(self.tensors, expr, "T")

    @staticmethod
    def _add(exprs, expr, name):
        if expr.startswith("i"):
            return expr
        if expr not in exprs:
            exprs.append(expr)
        return f"{name}[{exprs.index(expr)}]"


def _owner(writable_alone):
    """OWN(t, clone) of the replay: t where the replay's slot is the only holder of tensor
    t (and the backend may write it: no view, graph or other storage user), else clone(t)."""
    def own(t, clone):
        if sys.getrefcount(t) == _passing() + 1 and writable_alone(t):
            return t
        return clone(t)
    return own


def _references(t, clone):
    """sys.getrefcount(t) as `own` sees it (passed the same way)."""
    return sys.getrefcount(t)


def _passing():
    """What passing a value to a function of `own`'s shape adds to its reference count
    (it differs between Python versions, and with a frame evaluator installed)."""
    held = object()                 # one reference: this local
    return _references(held, None) - 1


class Capturer:
    """backend.capture: records a run and makes its replay function."""

    def __init__(self, backend):
        self.backend = backend
        # replays through CUDA graphs: on a CUDA device, unless KLONG_CUDA_GRAPHS=0; the
        # graph class is CudaGraph (tests give a stand-in that runs the body on the CPU)
        self.graphs = backend.device.type == "cuda" and torch_graphs.enabled_by_default()
        self.graph_class = torch_graphs.CudaGraph

    grad_enabled = staticmethod(torch.is_grad_enabled)

    @staticmethod
    def same(a, b):
        return same(a, b)

    def record(self, run, args, G, watched, ordinary, unused=()):
        """Run `run(*args)` with the globals G, recording it; `ordinary` is what the
        ordinary evaluation gave: (its result, the globals it wrote). Returns (the
        recorded evaluation's result, the globals it wrote (name -> value), the replay
        function, its source) with the values as the ordinary evaluation has them; raises
        Unfollowable (its reason) when what it did cannot be replayed, after it ran. The
        arguments at the positions `unused` are not looked at (their value is never used)."""
        rec = Recorder(G, watched, self.backend.device)
        original = dict(G)
        traced = [a if i in unused else rec.argument(i, a) for i, a in enumerate(args)]
        for name, value in list(G.items()):
            wrapped = rec.global_value(name, value)
            if wrapped is not value:
                G[name] = wrapped
        before = rec.started = dict(G)
        with torch.enable_grad() if torch.is_grad_enabled() else torch.no_grad():
            self.backend.recorder = rec
            try:
                with rec, self.backend.tracing():
                    result = run(*traced)
            finally:
                self.backend.recorder = None
        written = {k: v for k, v in G.items() if before.get(k, NOTHING) is not v}
        if any(k not in G for k in before):
            raise Unfollowable("a global was removed")
        if rec.failure is not None:
            raise Unfollowable(rec.failure)
        source = rec.write(len(args), written, result, watched, ordinary)
        replay = self._replay(rec, source)
        if rec.unjoined is not None:
            # a gradient written as its backward's operations: where the replay does not
            # give what the ordinary evaluation gave, the engine's call
            G.clear()
            G.update(original)
            try:
                out = replay(G, *args)
            except Exception:
                out = None
            if not _gives(out, ordinary):
                rec.unjoin()
                source = rec.write(len(args), written, result, watched, ordinary)
                replay = self._replay(rec, source)
        plain = replay
        if self.graphs:
            replay, source = self._graphed(rec, replay, source, (len(args), written, result,
                                                                  watched, ordinary))
        G.clear()
        G.update(original)
        out = replay(G, *args)
        graphed = getattr(replay, "graphed", None)
        if graphed is not None and out is not None:
            graphed.choose(lambda: replay(G, *args), lambda: plain(G, *args))
        return out, replay, source

    def _replay(self, rec, source):
        namespace = dict(rec.namespace)
        namespace["OWN"] = _owner(self.backend.writable_alone)
        exec(compile(source, "<klong capture>", "exec"), namespace)
        return namespace["replay"]

    def _graphed(self, rec, plain, source, recorded):
        """The replay through a CUDA graph (torch_graphs.py), where the record allows
        one, with its source after the plain one's; else the plain replay, and its source
        with the reason."""
        try:
            body_source, replay_source = rec.write_graph(*recorded)
        except Unfollowable as e:
            return plain, f"{source}# no CUDA graph: {e}\n"
        kinds = [torch_graphs.TENSOR if isinstance(value, torch.Tensor) else
                 torch_graphs.REAL if type(value) is float else torch_graphs.FIXED
                 for _, _, value in rec.inputs]
        namespace = dict(rec.namespace)
        namespace["SCALAR"] = torch_graphs.graph_scalar
        exec(compile(body_source, "<klong capture graph>", "exec"), namespace)
        graphed = torch_graphs.GraphedReplay(namespace["body"], kinds, rec.device,
                                             self.graph_class)
        namespace.update(GRAPH=graphed, PLAIN=torch_graphs.PLAIN, REPLAY=plain)
        exec(compile(replay_source, "<klong capture graph>", "exec"), namespace)
        replay = namespace["replay"]
        replay.graphed = graphed
        return replay, f"{source}# through a CUDA graph:\n{body_source}{replay_source}"


def _gives(out, ordinary):
    """Whether a replay's `out` is what the ordinary evaluation gave: (its result, the
    globals it wrote)."""
    result, written = ordinary
    return out is not None and same(out[0], result) and out[1].keys() == written.keys() \
        and all(same(out[1][k], written[k]) for k in written)


def same(a, b):
    """Whether two Klong values are the same to the bit (type, dtype, shape, device, every
    element; a NaN equals a NaN, 0.0 differs from -0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, torch.Tensor):
        if a.dtype != b.dtype or a.shape != b.shape or a.device != b.device \
                or a.requires_grad != b.requires_grad:
            return False
        if a.is_floating_point():
            x, y = a.detach(), b.detach()
            if not torch.equal(torch.signbit(x), torch.signbit(y)):
                return False
            nan = torch.isnan(x)
            return torch.equal(nan, torch.isnan(y)) and torch.equal(x[~nan], y[~nan])
        return torch.equal(a, b)
    if type(a) is float:
        return a == b and math.copysign(1, a) == math.copysign(1, b) or a != a and b != b
    if type(a) is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    try:
        return a is b or bool(a == b)
    except Exception:
        return False
