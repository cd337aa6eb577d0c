"""Array backends: a registry of named backends, the classes of their arrays, and the one
active while Klong code runs.

numpy is always available and is the default; torch is registered when it is installed and
imported only when asked for, so `import klong` never loads it. This package imports nothing
else of klong: the value model asks it, never the other way round.
"""
import contextlib
import threading

from .base import DTYPES, Backend
from .numpy_backend import NumpyBackend

# The host: where list literals are read and Python's data comes from (numpy, on the CPU).
HOST = NumpyBackend()

# The array classes of the backends loaded so far, each with the backend class that knows its
# element kind and host copy (these must work outside any interpreter too, when a value is
# printed or compared from Python). A type registry: it only grows, once per library.
_ARRAY_BACKENDS = {}
_watchers = []


def _add_array_type(backend_class):
    cls = backend_class.array_type
    if cls in _ARRAY_BACKENDS:
        return
    _ARRAY_BACKENDS[cls] = backend_class
    for watcher in _watchers:
        watcher(array_types())


def array_types():
    """The tuple of array classes of the loaded backends."""
    return tuple(_ARRAY_BACKENDS)


def watch_array_types(watcher):
    """Call watcher(array_types()) now and again whenever a backend loads (the value model
    keeps its ARRAY_TYPES tuple current this way)."""
    _watchers.append(watcher)
    watcher(array_types())


def array_backend(a):
    """The backend class of array `a` (its kind and to_host work without an instance)."""
    backend_class = _ARRAY_BACKENDS.get(type(a))
    if backend_class is not None:
        return backend_class
    for cls, backend_class in _ARRAY_BACKENDS.items():    # subclasses (a torch Parameter)
        if isinstance(a, cls):
            return backend_class
    raise TypeError(f"not an array of a loaded backend: {type(a).__name__}")


def to_host(a):
    """A numpy copy of any backend's array."""
    return array_backend(a).to_host(a)


_add_array_type(NumpyBackend)
_REGISTRY = {"numpy": lambda: NumpyBackend}


def _torch_class():
    try:
        from .torch_backend import TorchBackend
    except ImportError:
        raise ValueError("the torch backend needs PyTorch: pip install 'klong[torch]'") from None
    _add_array_type(TorchBackend)
    return TorchBackend


_REGISTRY["torch"] = _torch_class


def register_backend(name, cls):
    """Make a Backend subclass available under `name`."""
    _add_array_type(cls)
    _REGISTRY[name] = lambda: cls


def list_backends():
    """Names of the backends that can be used here."""
    names = ["numpy"]
    try:
        import importlib.util
        if importlib.util.find_spec("torch") is not None:
            names.append("torch")
    except (ImportError, ValueError):
        pass
    return names + sorted(n for n in _REGISTRY if n not in ("numpy", "torch"))


def get_backend(name=None, device=None, dtype=None):
    """A backend instance by name ('numpy' when None) on `device` (None: the best one), its
    reals in `dtype` (one of DTYPES; None: float64, or what the device supports)."""
    name = name or "numpy"
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown backend {name!r}; available: {', '.join(list_backends())}")
    if dtype is not None and dtype not in DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}; use one of {', '.join(DTYPES)}")
    cls = factory()
    return cls(device, dtype) if dtype is not None else cls(device)


class _Active(threading.local):
    """The backend of the interpreter running Klong code in this thread: per thread, not a
    process global, so two interpreters in two threads, or one calling the other through
    Python, each see their own. (A thread-local rather than a ContextVar because
    torch.compile can trace reads of a thread-local but not ContextVar.get.) Outside any
    interpreter it is the host backend."""
    backend = HOST


_active = _Active()


def current():
    """The backend of the interpreter that is running Klong code now (in this thread)."""
    return _active.backend


@contextlib.contextmanager
def using(backend):
    """Make `backend` the active one in this thread for the duration of a with-block."""
    previous, _active.backend = _active.backend, backend
    # the settings its interpreter evaluates under (settings.py), when it starts evaluating
    evaluation = getattr(backend, "evaluation", None) if previous is not backend else None
    try:
        if evaluation is None:
            yield backend
        else:
            with evaluation():
                yield backend
    finally:
        _active.backend = previous


__all__ = ["Backend", "DTYPES", "HOST", "array_backend", "array_types", "current",
           "get_backend", "list_backends", "register_backend", "to_host", "using",
           "watch_array_types"]
