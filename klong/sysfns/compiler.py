"""Compiling and exporting Klong functions: .compile .compilex .cmodes .export .graph
(system.md B.2). The compiler is the backend's compiler part (`backend.compiler`:
torch.compile and torch.export on torch; elsewhere there is none, and each of these is a
backend error)."""
import sys
import time

from ..runtime import values
from ..errors import KlongError
from ..runtime.functions import Builtin, call_value
from ..runtime.values import Dict, Function, is_true
from .table import table

FUNCTIONS, register = table()


def _dict(mapping):
    """A Python dict (nested) as a Klong dictionary."""
    return Dict((k, _dict(v) if isinstance(v, dict) else v) for k, v in mapping.items())


def _monad(f):
    if not isinstance(f, Function):
        raise KlongError("type", "a function is needed")
    return lambda x: call_value(f, [x])


def _options(opts):
    """.compilex options as Python values; unknown keys are ignored."""
    given = {str(k): v for k, v in opts.pairs()} if isinstance(opts, Dict) else {}
    options = {key: str(given[key]) for key in ("mode", "backend") if key in given}
    options["fullgraph"] = is_true(given.get("fullgraph", 0))
    if "dynamic" in given:
        options["dynamic"] = is_true(given["dynamic"])
    return options


def _compiler(interp, what):
    """The compiler part of the interpreter's backend, or a backend error naming `what`."""
    compiler = interp.backend.compiler
    if compiler is None:
        raise KlongError("backend", f"{what} requires the torch backend")
    return compiler


class _Progress:
    """A short note on stderr while a compiler works, when a person is watching."""

    def __init__(self, what):
        self.what = what
        self.shown = sys.stderr.isatty()

    def __enter__(self):
        self.start = time.perf_counter()
        if self.shown:
            print(f"{self.what}: compiling ...", end="", file=sys.stderr, flush=True)

    def __exit__(self, *exc):
        if self.shown:
            print(f" {time.perf_counter() - self.start:.1f} s", file=sys.stderr, flush=True)


def _quiet(interp):
    return not interp.debug


class Compiled(Builtin):
    """The function `.compile` gives: it calls the compiled code of the Klong function
    `compiles`, which capture reads as that function (the globals it reads, whether it
    has effects: runtime/capture.py)."""
    __slots__ = ("compiles",)

    def __init__(self, name, run, backend, compiles):
        super().__init__(name, 1, run, backend)
        self.compiles = compiles


def _compiled(interp, f, p, opts, what):
    """(a Klong function calling the compiled f, the backend's compiled function)."""
    fn = _monad(f)
    with _Progress(what):
        compiled = _compiler(interp, what).compile_function(fn, p, _options(opts), what,
                                                            _quiet(interp))
    # the compiled code has no backward pass of its own to differentiate again: the
    # backend runs f itself when derivatives of order 2 or more are being taken
    call = Compiled(f"compiled {compiled.mode}/{compiled.compiler}",
                    lambda x: compiled(x, interp.differentiation.order), interp.backend, f)
    return call, compiled


@register(".compile", 2)
def compile_function(interp, f, p):
    return _compiled(interp, f, p, None, ".compile")[0]


@register(".compilex", 3)
def compile_with_options(interp, f, p, opts):
    return _compiled(interp, f, p, opts, ".compilex")[0]


@register(".cmodes", 0)
def compile_modes(interp):
    return _dict(_compiler(interp, ".cmodes()").compile_modes())


@register(".export", 3)
def export(interp, f, p, path):
    if not values.is_string(path):
        raise KlongError("type", ".export: the path must be a string")
    fn, (call, compiled) = _monad(f), _compiled(interp, f, p, None, ".export")
    result = {"compiled_fn": call, "mode": compiled.mode, "backend": compiled.compiler}
    result.update(_compiler(interp, ".export").export_function(fn, p, path, _quiet(interp)))
    return _dict(result)


@register(".graph", (2, 3))
def graph(interp, f, p, path=None):
    if path is not None and not values.is_string(path):
        raise KlongError("type", ".graph: the path must be a string")
    fn = _monad(f)
    from .graph import Graph        # here, not at start-up: only .graph draws
    picture = Graph(*_compiler(interp, ".graph").traced_graph(fn, p, _quiet(interp)))
    return picture if path is None else picture.save(path)
