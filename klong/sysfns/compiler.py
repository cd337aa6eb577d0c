"""torch.compile and torch.export for Klong functions: .compile .compilex .cmodes .export
(system.md B.2). All of them need the torch backend."""
import types

from .. import values
from ..errors import KlongError
from ..functions import Builtin, call_value
from ..values import Dict, Function, is_true

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


def _dict(mapping):
    return Dict(mapping.items())


def install(interp, define):
    def need_torch(what):
        if interp.backend.name != "torch":
            raise KlongError("backend", f"{what} requires the torch backend")
        import torch
        return torch

    def as_tensor(x):
        backend = interp.backend
        if isinstance(x, values.ARRAY_TYPES):
            return x if values.array_kind(x) == "f" else backend.astype(x, "f")
        if values.is_number(x) or values.is_list(x):
            return backend.asarray(values.items(x) if values.is_list(x) else x, "f")
        raise KlongError("type", "a numeric argument is needed")

    def tensor_function(f):
        """f as a Python function of one tensor returning a tensor (what torch traces)."""
        if not isinstance(f, Function):
            raise KlongError("type", "a function is needed")
        import torch

        def run(x):
            y = call_value(f, [x])
            if isinstance(y, torch.Tensor):
                return y
            if values.is_number(y):
                return torch.as_tensor(float(y), dtype=x.dtype, device=x.device)
            return interp.backend.asarray(values.items(y), "f")
        # torch caches compilations per code object, and limits recompilations per code
        # object: give every compiled Klong function a code object of its own
        return types.FunctionType(run.__code__.replace(), run.__globals__, run.__name__,
                                  run.__defaults__, run.__closure__)

    def compile_with(f, p, options, what):
        torch = need_torch(what)
        opts = {}
        if isinstance(options, Dict):
            opts = {str(k): v for k, v in options.pairs()}
        mode = opts.get("mode", "default")
        backend = opts.get("backend", "inductor")
        if mode not in MODES:
            raise KlongError("domain", f"{what}: unknown mode {mode!r}; one of {', '.join(MODES)}")
        kwargs = {"backend": backend, "fullgraph": is_true(opts.get("fullgraph", 0))}
        if mode != "default":
            kwargs["mode"] = mode
        if "dynamic" in opts:
            kwargs["dynamic"] = is_true(opts["dynamic"])
        fn = tensor_function(f)
        tracing = interp.backend.tracing
        try:
            compiled = torch.compile(fn, **kwargs)
            with torch.no_grad(), tracing():
                compiled(as_tensor(p))      # compile now, as it will be called, so failures show here
        except KlongError:
            raise
        except Exception as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise KlongError("compile", f"{what} failed ({backend}): {first}") from None

        def call(x):
            with torch.no_grad(), tracing():
                r = compiled(as_tensor(x))
            return interp.backend.item(r) if r.ndim == 0 else r
        return Builtin(f"compiled {mode}/{backend}", 1, call, interp.backend), mode, backend

    def export(f, p, path):
        torch = need_torch(".export")
        if not values.is_string(path):
            raise KlongError("type", ".export: the path must be a string")
        compiled, mode, backend = compile_with(f, p, None, ".export")
        result = Dict([("compiled_fn", compiled), ("mode", mode), ("backend", backend)])
        fn = tensor_function(f)

        class Wrapped(torch.nn.Module):      # the exporter takes modules, not functions
            def forward(self, x):
                return fn(x)
        try:
            with interp.backend.tracing():
                program = torch.export.export(Wrapped(), (as_tensor(p),), strict=False)
            torch.export.save(program, path)
            result.put("export_path", path)
            result.put("graph", str(program.graph))
        except Exception as e:
            result.put("export_error", f"{type(e).__name__}: {e}")
        return result

    def cmodes():
        need_torch(".cmodes()")
        return _dict({
            "modes": _dict(MODES),
            "backends": _dict(COMPILER_BACKENDS),
            "recommendations": _dict({use: _dict({"mode": m, "backend": b})
                                      for use, (m, b) in RECOMMENDATIONS.items()}),
        })

    define(".compile", 2, lambda f, p: compile_with(f, p, None, ".compile")[0])
    define(".compilex", 3, lambda f, p, o: compile_with(f, p, o, ".compilex")[0])
    define(".cmodes", 0, cmodes)
    define(".export", 3, export)
