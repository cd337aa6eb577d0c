"""Array backends: a registry of named backends, the classes of their arrays, and the one
active while Klong code runs.

numpy is always available and is the default; torch is registered when it is installed and
imported only when asked for, so `import klong` never loads it (nor does this package:
`TorchBackend` is looked up on first use). Other backends come from installed packages that
declare an entry point in the group `klong.backends` (docs/backends.md), or from
register_backend. This package imports nothing of klong but errors: the value model, the
context and the limits ask it, never the other way round; `running` is the thread's record
of who runs Klong code (the backend, and the interpreter's context as the runtime made it).
A backend's parts (autograd, compiler, process group: base.py) are made on first use.
"""
import threading

import numpy as np

from .arrays import add_array_type, array_backend, to_host
from .base import DTYPES, Backend
from .numpy_backend import NumpyBackend

# The host: where list literals are read and Python's data comes from (numpy, on the CPU).
HOST = NumpyBackend()

add_array_type(NumpyBackend)
_REGISTRY = {"numpy": lambda: NumpyBackend}


# klong is installed from its checkout, not from a package index: torch is installed on its own
INSTALL_TORCH = "pip install torch"


def _torch_class():
    try:
        from .torch_backend import TorchBackend
    except ImportError:
        raise ValueError(f"the torch backend needs PyTorch, which is not installed: "
                         f"{INSTALL_TORCH}") from None
    add_array_type(TorchBackend)
    return TorchBackend


_REGISTRY["torch"] = _torch_class


def register_backend(name, cls):
    """Make a Backend subclass available under `name`."""
    add_array_type(cls)
    _REGISTRY[name] = lambda: cls


PLUGIN_GROUP = "klong.backends"


def _entry_points():
    """The entry points of installed backend packages, by name (read on each call: cheap,
    and a package installed while Python runs is seen). importlib.metadata is imported here,
    not at start-up, which it would slow down by a tenth."""
    import importlib.metadata
    try:
        found = importlib.metadata.entry_points(group=PLUGIN_GROUP)
    except Exception:       # a broken package's metadata must not stop the built-in backends
        return {}
    return {ep.name: ep for ep in found}


def _package_of(ep):
    dist = getattr(ep, "dist", None)
    if dist is not None and getattr(dist, "name", None):
        return dist.name
    return ep.value.split(":")[0].split(".")[0]


def _load_plugin(ep):
    """The Backend subclass an entry point names; a failure is one line naming the package."""
    package = _package_of(ep)
    try:
        cls = ep.load()
    except Exception as e:
        detail = str(e).splitlines()[0] if str(e) else ""
        raise ValueError(f"backend {ep.name!r} from package {package!r} failed to load: "
                         f"{type(e).__name__}{': ' + detail if detail else ''}") from None
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise ValueError(f"backend {ep.name!r} from package {package!r} is not a "
                         f"klong.backends.Backend subclass: {ep.value}")
    if not isinstance(cls.array_type, type):
        raise ValueError(f"backend {ep.name!r} from package {package!r} names no array_type")
    return cls


def list_backends():
    """Names of the backends that can be used here: the built-in ones, those registered,
    and those of installed packages (entry-point group klong.backends, not loaded here)."""
    names = ["numpy"]
    try:
        import importlib.util
        if importlib.util.find_spec("torch") is not None:
            names.append("torch")
    except (ImportError, ValueError):
        pass
    others = set(_REGISTRY) | set(_entry_points())
    return names + sorted(n for n in others if n not in ("numpy", "torch"))


def _available():
    names = list_backends()
    text = f"available: {', '.join(names)}"
    if "torch" not in names:
        text += f" (and torch, once PyTorch is installed: {INSTALL_TORCH})"
    return text


def get_backend(name=None, device=None, dtype=None):
    """A backend instance by name ('numpy' when None) on `device` (None: the best one), its
    reals in `dtype` (one of DTYPES; None: float64, or what the device supports)."""
    name = name or "numpy"
    factory = _REGISTRY.get(name)
    if factory is None:
        ep = _entry_points().get(name)
        if ep is None:
            raise ValueError(f"unknown backend {name!r}; {_available()}")
        cls = _load_plugin(ep)
        if dtype is not None and dtype not in DTYPES:
            raise ValueError(f"unknown dtype {dtype!r}; use one of {', '.join(DTYPES)}")
        try:
            backend = cls(device, dtype) if dtype is not None else cls(device)
        except ValueError:
            raise
        except Exception as e:      # the plugin's own bug: one line, naming its package
            raise ValueError(f"backend {name!r} from package {_package_of(ep)!r} failed to "
                             f"start: {type(e).__name__}: {e}") from None
        add_array_type(cls)        # only a backend that works joins the value model
        return backend
    if dtype is not None and dtype not in DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}; use one of {', '.join(DTYPES)}")
    cls = factory()
    return cls(device, dtype) if dtype is not None else cls(device)


class _Running(threading.local):
    """Who runs Klong code in this thread: the one record of it. `backend` is the backend
    the verbs use (the host outside any interpreter, and while a list literal is read);
    `context` is the running interpreter's klong.runtime.context.Context (its limits and
    settings), None outside any. Kept here, in the lowest room, so that the verbs' most
    frequent question, current(), is one attribute read. Per thread, not a process global,
    so two interpreters in two threads, or one calling the other through Python, each see
    their own. (A thread-local rather than a ContextVar because torch.compile can trace
    reads of a thread-local but not ContextVar.get. Set in __init__, which each thread runs,
    not as class attributes: torch's compiler before 2.13 read a thread-local's attributes
    from its class, so the compiled code ran on the host's backend.)"""

    def __init__(self):
        self.backend = HOST
        self.context = None


running = _Running()


def has_math_function(name):
    """Whether the active backend's library has `name` as an elementwise math function
    (sqrt, exp, tanh ...: a numpy ufunc of that name), which .bkf imports: an undefined name
    spelt so most likely wanted it. Other functions of the library (load, sort, size) are
    left out: a variable of that name is likelier."""
    return isinstance(getattr(np, name, None), np.ufunc) \
        and current().math_function(name) is not None


def current():
    """The backend of the interpreter that is running Klong code now (in this thread)."""
    return running.backend


class using:
    """with using(backend, context): run the block on `backend` in this thread, as the
    interpreter whose context is `context` (None: as no interpreter). A class rather than a
    generator: it is entered around every run and every call from Python, and this is
    cheaper. klong.runtime.context.entered enters an interpreter's whole context, its
    settings included."""
    __slots__ = ("backend", "context", "previous")

    def __init__(self, backend, context=None):
        self.backend, self.context = backend, context

    def __enter__(self):
        self.previous = running.backend, running.context
        running.backend, running.context = self.backend, self.context
        return self.backend

    def __exit__(self, *exc):
        running.backend, running.context = self.previous


def __getattr__(name):
    """TorchBackend on first use, so that importing this package never imports torch."""
    if name == "TorchBackend":
        return _torch_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# TorchBackend is public too, but not in __all__: `from klong.backends import *` must not
# import torch
__all__ = ["Backend", "DTYPES", "HOST", "NumpyBackend", "PLUGIN_GROUP",
           "array_backend", "current", "get_backend", "list_backends", "register_backend",
           "running", "to_host", "using"]
