"""The torch backend's compiler part (`backend.compiler`): torch.compile and torch.export for
Klong functions (`.compile`, `.compilex`, `.export`, `.graph`, `.cmodes`; the Klong side is
klong/sysfns/compiler.py). A backend without a compiler has None there.

A Klong function is traced as a Python function of one tensor. While it is traced the
backend keeps numbers as 0-d tensors (`tracing()`), so that the tracer sees every operation.
"""
import contextlib
import logging
import types
import warnings

import torch

from ..errors import KlongError
from .torch_autograd import first_line

MODES = {
    "default": "balanced compile time and speed",
    "reduce-overhead": "CUDA graphs to cut per-call overhead; best for small, repeated calls",
    "max-autotune": "longest compile, searches for the fastest kernels",
}
COMPILER_BACKENDS = {
    "inductor": "generates optimized kernels (C++ on the CPU, Triton on GPUs)",
    "eager": "no compilation: runs the traced graph as ordinary torch code",
    "aot_eager": "traces forward and backward ahead of time, without code generation",
    "cudagraphs": "records CUDA graphs (GPU only)",
}
RECOMMENDATIONS = {
    "development": ("reduce-overhead", "inductor"),
    "production": ("max-autotune", "inductor"),
    "debugging": ("default", "eager"),
    "gpu_inference": ("max-autotune", "cudagraphs"),
}
# the loggers through which torch's compiler reports graph breaks and recompilations
_COMPILER_LOGGERS = ("torch", "torch._dynamo", "torch._inductor", "torch.fx", "torch.export",
                     "torch._export")


@contextlib.contextmanager
def _quiet(quiet):
    """Keep torch's compiler from writing warnings to stderr (unless debugging). Raising the
    level of the loggers' handlers costs a few microseconds, unlike the loggers' levels."""
    if not quiet:
        yield
        return
    handlers = [h for name in _COMPILER_LOGGERS for h in logging.getLogger(name).handlers]
    levels = [h.level for h in handlers]
    for h in handlers:
        h.level = logging.ERROR
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for h, level in zip(handlers, levels):
            h.level = level


class CompiledFunction:
    """A Klong function compiled by torch.compile: call(x, order) runs it on x. order is
    the number of derivatives being taken around the call: 0 runs without autograd, 1 with
    it; from 2 on the function runs uncompiled, since a compiled backward pass cannot be
    differentiated again."""

    def __init__(self, backend, fn, compiled, mode, compiler, quiet):
        self.backend, self.fn, self.compiled = backend, fn, compiled
        self.mode, self.compiler, self.quiet = mode, compiler, quiet

    def __call__(self, x, order=0):
        b = self.backend
        t = b.autograd.point_tensor(x, "a numeric argument is needed")
        if order > 1:
            return self.fn(t)
        run = _CompiledRun(self, order)
        # while a step is recorded for replay (torch_capture.py): one call of the compiled
        # code, run outside the recording, which torch's compiler must not trace
        r = run(t) if b.recorder is None else b.recorder.external(run, t)
        return b.item(r) if r.ndim == 0 else r


class _CompiledRun:
    """The compiled code of a CompiledFunction run on a tensor, with autograd or without
    (`order`): what a replay calls."""

    def __init__(self, function, order):
        self.function, self.order = function, order

    def __call__(self, t):
        f = self.function
        b = f.backend
        grad = torch.enable_grad() if self.order else torch.no_grad()
        # (the code runs as when nothing is recorded, which is how it was traced)
        recorder, b.recorder = b.recorder, None
        try:
            with grad, b.tracing(), _quiet(f.quiet):
                return f.compiled(t)
        except KlongError:
            raise
        except Exception as e:           # a recompilation for new input that failed
            raise KlongError("compile", f"compiled function failed ({f.compiler}): "
                                        f"{first_line(e)}") from None
        finally:
            b.recorder = recorder


class TorchCompiler:
    def __init__(self, backend):
        self.backend = backend

    def _traceable(self, fn):
        """fn as a Python function of one tensor returning a tensor (what torch traces).
        torch caches compilations, limits recompilations and decides which inputs vary per
        code object (code objects that compare equal share that state): each compiled Klong
        function gets a code object of its own, told apart by its name."""
        result_tensor = self.backend.autograd.result_tensor

        def run(x):
            return result_tensor(fn(x), x)
        code = run.__code__.replace(co_name=f"klong_function_{id(fn):x}")
        return types.FunctionType(code, run.__globals__, code.co_name, run.__defaults__,
                                  run.__closure__)

    def compile_function(self, fn, example, options, what=".compile", quiet=True):
        """fn compiled with torch.compile and run once on `example`, so that compiler
        failures show now. options: mode, backend (the compiler), fullgraph, dynamic."""
        mode = options.get("mode", "default")
        compiler = options.get("backend", "inductor")
        if mode not in MODES:
            raise KlongError("domain", f"{what}: unknown mode {mode!r}; one of {', '.join(MODES)}")
        kwargs = {"backend": compiler, "fullgraph": bool(options.get("fullgraph", False))}
        if mode != "default":
            kwargs["mode"] = mode
        if options.get("dynamic") is not None:
            kwargs["dynamic"] = bool(options["dynamic"])
        try:
            compiled = CompiledFunction(self.backend, fn, torch.compile(self._traceable(fn), **kwargs),
                                        mode, compiler, quiet)
            compiled(example)
        except KlongError:
            raise
        except Exception as e:
            raise KlongError("compile", f"{what} failed ({compiler}): {first_line(e)}") from None
        return compiled

    def _exported(self, fn, example, dynamic):
        """The torch.export program of fn at `example`, its first dimension dynamic when
        asked and the example has one."""
        traceable = self._traceable(fn)

        class Wrapped(torch.nn.Module):      # the exporter takes modules, not functions
            def forward(self, x):
                return traceable(x)
        # a fresh tensor: the exporter marks the example it was given as dynamic
        x = self.backend.autograd.point_tensor(example, "a numeric argument is needed")
        x = x.detach().clone()
        shapes = ({0: torch.export.Dim.AUTO},) if dynamic and x.ndim else None
        with torch.no_grad(), self.backend.tracing():
            return torch.export.export(Wrapped(), (x,), dynamic_shapes=shapes, strict=False)

    def _trace(self, fn, example, quiet):
        """(program, dynamic): dynamic first dimension where the function allows it."""
        with _quiet(quiet):
            try:
                program = self._exported(fn, example, True)
            except Exception:
                program = self._exported(fn, example, False)
        (placeholder,) = [n for n in program.graph.nodes if n.op == "placeholder"]
        shape = placeholder.meta["val"].shape
        dynamic = len(shape) > 0 and not isinstance(shape[0], int)
        return program, dynamic, _describe_input(placeholder.meta["val"], dynamic)

    def export_function(self, fn, example, path, quiet=True):
        """Trace fn at `example` and save the program to path. Returns a dict: export_path,
        graph (text), input (what the saved program accepts), dynamic (whether the first
        dimension may vary); or export_error when fn cannot be traced. A file that cannot
        be written is an io error."""
        try:
            program, dynamic, accepts = self._trace(fn, example, quiet)
        except KlongError as e:
            return {"export_error": str(e)}
        except Exception as e:
            return {"export_error": f"{type(e).__name__}: {first_line(e)}"}
        try:
            torch.export.save(program, path)
        except Exception as e:
            reason = getattr(e, "strerror", None) or first_line(e)
            raise KlongError("io", f".export: cannot write {path}: {reason}") from None
        return {"export_path": path, "graph": str(program.graph), "input": accepts,
                "dynamic": int(dynamic)}

    def traced_graph(self, fn, example, quiet=True):
        try:
            program, _, _ = self._trace(fn, example, quiet)
        except KlongError:
            raise
        except Exception as e:
            raise KlongError("compile", f".graph: cannot trace the function: "
                                        f"{first_line(e)}") from None
        nodes = [(n.name, _node_label(n), [i.name for i in n.all_input_nodes])
                 for n in program.graph.nodes]
        return str(program.graph), nodes

    def compile_modes(self):
        return {
            "modes": dict(MODES),
            "backends": dict(COMPILER_BACKENDS),
            "recommendations": {use: {"mode": m, "backend": b}
                                for use, (m, b) in RECOMMENDATIONS.items()},
        }


def _describe_input(val, dynamic):
    """What an exported program accepts, e.g. "float64 [N 3]" (N: any size) or "float64 []"."""
    dims = ["N" if dynamic and i == 0 else str(int(d)) for i, d in enumerate(val.shape)]
    return f"{str(val.dtype).split('.')[-1]} [{' '.join(dims)}]"


def _node_label(node):
    """A graph node's short name: the operation (pow, mul, ...), or the input's name."""
    if node.op == "call_function":
        name = getattr(node.target, "__name__", str(node.target)).split(".")[0]
        constants = [str(a) for a in node.args if isinstance(a, (int, float))]
        return " ".join([name] + constants)
    return "output" if node.op == "output" else node.name
