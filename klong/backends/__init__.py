"""Array backends: a registry of named backends, and the one active while Klong code runs.

numpy is always available and is the default; torch is registered when it is installed and
imported only when asked for, so `import klong` never loads it.
"""
import contextlib
import threading

from .numpy_backend import NumpyBackend

_REGISTRY = {"numpy": lambda: NumpyBackend}


class _Active(threading.local):
    """The backend of the interpreter running Klong code in this thread: per thread, not a
    process global, so two interpreters in two threads, or one calling the other through
    Python, each see their own. (A thread-local rather than a ContextVar because
    torch.compile can trace reads of a thread-local but not ContextVar.get.) Outside any
    interpreter it is a numpy backend."""
    backend = NumpyBackend()


_active = _Active()


def _torch_class():
    try:
        from .torch_backend import TorchBackend
    except ImportError:
        raise ValueError("the torch backend needs PyTorch: pip install 'klong[torch]'") from None
    from .. import values
    values.register_array_type(TorchBackend.array_type, TorchBackend)
    return TorchBackend


_REGISTRY["torch"] = _torch_class


def register_backend(name, cls):
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


def get_backend(name=None, device=None):
    """A backend instance by name ('numpy' when None) on `device` (None: the best one)."""
    name = name or "numpy"
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown backend {name!r}; available: {', '.join(list_backends())}")
    return factory()(device)


def current():
    """The backend of the interpreter that is running Klong code now (in this thread)."""
    return _active.backend


@contextlib.contextmanager
def using(backend):
    """Make `backend` the active one in this thread for the duration of a with-block."""
    previous, _active.backend = _active.backend, backend
    try:
        yield backend
    finally:
        _active.backend = previous
