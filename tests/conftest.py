"""Shared fixtures for the klong test suite.

`k`      a fresh KlongInterpreter for each test, once per backend (numpy, and torch when it
         is installed): every test that uses it runs on both.
`backend` the name of that backend.
`kw`     kw(src) runs Klong source in that interpreter and returns the printed (write) form of
         the value, e.g. kw("1+!3") == "[1 2 3]". Printed forms are exact and also check the
         integer/real distinction, so most tests compare them.
`kerr`   kerr(src) runs source that must fail and returns the KlongError it raised.
"""
import os
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:          # run the checkout without installing it
    sys.path.insert(0, str(ROOT))

from klong import KlongError, KlongInterpreter  # noqa: E402
from klong.display import write  # noqa: E402


from klong.backends import list_backends  # noqa: E402

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]


def _torch_device():
    """The device of the torch interpreters: KLONG_DEVICE when it names one that is here
    (`KLONG_DEVICE=cuda python -m pytest` runs on the GPU where there is one, on the CPU
    otherwise), else torch's best. The kgpy processes that tests start get the same."""
    wanted = os.environ.get("KLONG_DEVICE")
    if not wanted or "torch" not in BACKENDS:
        return None
    from klong.backends.torch_backend import pick_device
    try:
        device = str(pick_device(wanted))
    except ValueError:
        device = "cpu"
    os.environ["KLONG_DEVICE"] = device
    return device


TORCH_DEVICE = _torch_device()


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


@pytest.fixture
def k(backend):
    return KlongInterpreter(backend=backend, device=TORCH_DEVICE if backend == "torch" else None)


@pytest.fixture
def kt():
    """A torch interpreter (the test is skipped where torch is not installed)."""
    if "torch" not in BACKENDS:
        pytest.skip("torch is not installed")
    return KlongInterpreter(backend="torch", device=TORCH_DEVICE)


@pytest.fixture
def kn():
    """A numpy interpreter, for tests about the numpy backend alone."""
    return KlongInterpreter(backend="numpy")


def host(v):
    """A Klong number or numeric array as a float64 numpy array (0-d for a number)."""
    if hasattr(v, "detach"):                 # a torch tensor
        v = v.detach().cpu().numpy()
    return np.asarray(v, dtype=np.float64)


@pytest.fixture
def kw(k):
    def run(src):
        return write(k.run(src))
    return run


@pytest.fixture
def kerr(k):
    def run(src):
        with pytest.raises(KlongError) as info:
            k.run(src)
        return info.value
    return run


@pytest.fixture
def repo_root():
    return ROOT


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Run the test with tmp_path as the current directory (for relative file names)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path

