"""Array backends: a registry of named backends. numpy is the default."""
from ..errors import KlongError


class NumpyBackend:
    name = "numpy"
    device = "cpu"

    def __init__(self, device=None):
        if device not in (None, "cpu"):
            raise ValueError(f"the numpy backend runs on the cpu only, not {device!r}")

    def __repr__(self):
        return "numpy backend (cpu)"


_REGISTRY = {"numpy": NumpyBackend}


def register_backend(name, cls):
    _REGISTRY[name] = cls


def list_backends():
    return sorted(_REGISTRY)


def get_backend(name=None, device=None):
    name = name or "numpy"
    cls = _REGISTRY.get(name)
    if cls is None:
        raise ValueError(f"unknown backend {name!r}; available: {', '.join(list_backends())}")
    return cls(device)
