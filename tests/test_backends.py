"""Backends and devices (system.md B.1, B.4, B.5): choosing numpy or torch, array types and
dtypes, devices (only the CPU exists here, so every GPU device must be refused), values
coming in from Python, the KLONG_BACKEND / KLONG_DEVICE defaults of kgpy, the lazy torch
import, and the registry functions of klong.backends."""
import os
import subprocess
import sys

import numpy as np
import pytest

import klong.backends as kb
from klong import KlongError, KlongInterpreter
from klong.errors import KlongBackendError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KGPY = os.path.join(ROOT, "kgpy")
HAS_TORCH = "torch" in kb.list_backends()
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed")


def _cuda():
    if not HAS_TORCH:
        return False
    import torch
    return torch.cuda.is_available()


def _mps():
    if not HAS_TORCH:
        return False
    import torch
    mps = getattr(torch.backends, "mps", None)
    return bool(mps is not None and mps.is_available())


def run_kgpy(args, **env):
    full = {k: v for k, v in os.environ.items() if k not in ("KLONG_BACKEND", "KLONG_DEVICE")}
    full.update(env)
    return subprocess.run([sys.executable, KGPY, *args], capture_output=True, text=True,
                          env=full, cwd=ROOT, timeout=120)


# ------------------------------------------------------------------ torch arrays

@needs_torch
def test_torch_backend_gives_tensors(kt):
    import torch
    v = kt("2*1+!1000000")
    assert isinstance(v, torch.Tensor)
    assert v.dtype == torch.int64
    assert v.shape == (1000000,)
    assert int(v[0]) == 2 and int(v[-1]) == 2000000
    assert int(kt("+/2*1+!1000000")) == 1000001000000


@needs_torch
def test_torch_dtypes(kt):
    import torch
    assert kt("!3").dtype == torch.int64
    assert kt("1.5*!3").dtype == torch.float64
    assert kt("[1.0 2.0]").dtype == torch.float64
    assert kt("[1 2]%2").dtype == torch.float64
    assert kt("[1 2]%2").tolist() == [0.5, 1.0]
    # integer arithmetic stays exact int64
    assert int(kt("*/[2 3 5 7 11 13 17 19 23 29 31 37 41 43 47]")) == 614889782588491410


@needs_torch
def test_torch_scalars_and_non_numeric_values(kt):
    assert kt("1+1") == 2 and isinstance(kt("1+1"), int)
    assert kt("+/[1.5 2.5]") == 4.0
    assert kt('"abc"') == "abc"
    assert kt("#?\"abacabc\"") == 3
    assert kt(':{["a" 2]}') == {"a": 2}


@needs_torch
def test_torch_dictionary_with_integer_keys_to_python(kt):
    d = kt(":{[1 2] [3 4]}")
    assert d == {1: 2, 3: 4}
    assert d[1] == 2


@needs_torch
def test_torch_backend_introspection(kt):
    import torch
    assert kt.backend.name == "torch"
    assert kt.backend.device == torch.device("cpu") or _cuda() or _mps()
    assert kt._backend is kt.backend
    assert kt.backend.array_type is torch.Tensor


@needs_torch
def test_default_torch_device_is_the_best_available():
    import torch
    k = KlongInterpreter(backend="torch")
    if _cuda():
        assert k.backend.device.type == "cuda"
    elif _mps():
        assert k.backend.device.type == "mps"
    else:
        assert k.backend.device == torch.device("cpu")
        assert k("[1.0 2.0]").device == torch.device("cpu")


@needs_torch
def test_explicit_cpu_device(kt):
    import torch
    k = KlongInterpreter(backend="torch", device="cpu")
    assert k.backend.device == torch.device("cpu")
    assert str(k.backend.device) == "cpu"
    assert k("1.0*!4").device.type == "cpu"
    assert k("{+/x^2}:>[1 2]").device.type == "cpu"


@needs_torch
@pytest.mark.parametrize("device", [
    pytest.param("cuda", marks=pytest.mark.skipif(_cuda(), reason="CUDA is available")),
    pytest.param("cuda:0", marks=pytest.mark.skipif(_cuda(), reason="CUDA is available")),
    "cuda:1" if not _cuda() else "cuda:999",
    pytest.param("mps", marks=pytest.mark.skipif(_mps(), reason="MPS is available")),
    "tpu",
    "bogus",
])
def test_unavailable_devices_are_refused(device):
    with pytest.raises(KlongBackendError) as info:
        KlongInterpreter(backend="torch", device=device)
    err = info.value
    assert isinstance(err, KlongError) and isinstance(err, ValueError)
    assert device.split(":")[0] in str(err)


def test_unknown_backend_is_refused():
    for name in ("jax", "Torch", "cupy"):
        with pytest.raises(ValueError) as info:
            KlongInterpreter(backend=name)
        assert isinstance(info.value, KlongError)
        msg = str(info.value)
        assert name in msg and "numpy" in msg
        if HAS_TORCH:
            assert "torch" in msg


def test_numpy_backend_is_the_default():
    k = KlongInterpreter()
    assert k.backend.name == "numpy"
    assert k.backend.device == "cpu"
    assert k._backend is k.backend
    assert isinstance(k("!3"), np.ndarray)
    assert k("!3").dtype == np.int64 and k("1.5*!3").dtype == np.float64
    assert KlongInterpreter(backend="numpy").backend.name == "numpy"
    assert KlongInterpreter(backend="numpy", device="cpu").backend.device == "cpu"


def test_numpy_backend_refuses_gpu_devices():
    with pytest.raises(KlongBackendError):
        KlongInterpreter(backend="numpy", device="cuda")


def test_interp_np_attribute():
    k = KlongInterpreter()
    assert k.np is not None


def test_interpreters_are_independent():
    a, b = KlongInterpreter(), KlongInterpreter(backend="torch" if HAS_TORCH else "numpy")
    a("v::[1 2 3]")
    with pytest.raises(KlongError):
        b("v")
    assert a.backend is not b.backend


# ------------------------------------------------------------------ values from Python

@needs_torch
def test_python_values_become_tensors(kt):
    import torch
    kt["a"] = np.arange(5)
    assert isinstance(kt("a*2"), torch.Tensor) and kt("a*2").tolist() == [0, 2, 4, 6, 8]
    assert kt("+/a") == 10
    kt["b"] = [1.0, 2.0, 3.0]
    assert isinstance(kt("b*2"), torch.Tensor) and kt("b*2").dtype == torch.float64
    assert kt("+/b") == 6.0
    kt["c"] = torch.arange(3)
    assert kt("c*2").tolist() == [0, 2, 4]
    kt["f32"] = np.array([1.5, 2.5], dtype=np.float32)
    assert kt("f32*2").dtype == torch.float64
    kt["m"] = np.array([[1, 2], [3, 4]])
    assert kt("+m").tolist() == [[1, 3], [2, 4]]
    assert kt("{+/+/x^2}:>m").tolist() == [[2.0, 4.0], [6.0, 8.0]]


@needs_torch
def test_tensors_into_numpy_interpreter():
    import torch
    k = KlongInterpreter()
    k["t"] = torch.tensor([1.0, 2.0])
    v = k("t*2")
    assert isinstance(v, np.ndarray) and v.tolist() == [2.0, 4.0]


def test_python_values_into_numpy_interpreter():
    k = KlongInterpreter()
    k["a"] = [1, 2, 3]
    assert k("+/a") == 6
    k["n"] = np.array([1.5, 2.5])
    assert isinstance(k("n*2"), np.ndarray) and k("n*2").tolist() == [3.0, 5.0]


# ------------------------------------------------------------------ registry

def test_list_backends():
    names = kb.list_backends()
    assert names[0] == "numpy"
    assert ("torch" in names) == HAS_TORCH


def test_get_backend():
    nb = kb.get_backend("numpy")
    assert nb.name == "numpy" and nb.device == "cpu"
    assert kb.get_backend().name == "numpy"
    with pytest.raises(ValueError) as info:
        kb.get_backend("nope")
    assert "numpy" in str(info.value)


@needs_torch
def test_get_backend_torch_device():
    import torch
    tb = kb.get_backend("torch", device="cpu")
    assert tb.name == "torch" and tb.device == torch.device("cpu")
    with pytest.raises(ValueError):
        kb.get_backend("torch", device="tpu")


def test_register_backend():
    from klong.backends.numpy_backend import NumpyBackend

    class LoudNumpy(NumpyBackend):
        name = "loudnumpy"

    kb.register_backend("loudnumpy", LoudNumpy)
    try:
        assert "loudnumpy" in kb.list_backends()
        assert isinstance(kb.get_backend("loudnumpy"), LoudNumpy)
        k = KlongInterpreter(backend="loudnumpy")
        assert k.backend.name == "loudnumpy"
        assert k("+/!10") == 45
    finally:
        kb._REGISTRY.pop("loudnumpy", None)
    assert "loudnumpy" not in kb.list_backends()


# ------------------------------------------------------------------ kgpy and the environment

@needs_torch
def test_kgpy_backend_option():
    r = run_kgpy(["--backend", "torch", "-e", '#?"abacabc"'])
    assert r.returncode == 0, r.stderr
    assert r.stdout == "3\n"
    r = run_kgpy(["--backend", "torch", "--device", "cpu", "-e", "{x^3}:>2.0"])
    assert r.returncode == 0, r.stderr
    assert r.stdout == "12.0\n"


@needs_torch
def test_kgpy_environment_defaults():
    # sigmoid exists only in torch's array module, so it tells the backends apart
    probe = '.bkf("sigmoid");sigmoid(0)'
    r = run_kgpy(["-e", probe], KLONG_BACKEND="torch")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "0.5\n"
    r = run_kgpy(["-e", probe], KLONG_BACKEND="numpy")
    assert r.returncode == 1 and "sigmoid" in r.stderr
    r = run_kgpy(["--backend", "torch", "-e", probe], KLONG_BACKEND="numpy")
    assert r.returncode == 0 and r.stdout == "0.5\n"          # the option wins
    r = run_kgpy(["-e", probe], KLONG_BACKEND="torch", KLONG_DEVICE="cpu")
    assert r.returncode == 0 and r.stdout == "0.5\n"


@needs_torch
@pytest.mark.skipif(_cuda(), reason="CUDA is available")
def test_kgpy_refuses_unavailable_device():
    r = run_kgpy(["-e", "1"], KLONG_BACKEND="torch", KLONG_DEVICE="cuda")
    assert r.returncode == 2 and "cuda" in r.stderr and r.stdout == ""
    r = run_kgpy(["--backend", "torch", "--device", "cuda:1", "-e", "1"])
    assert r.returncode == 2 and "cuda:1" in r.stderr


def test_kgpy_refuses_unknown_backend():
    r = run_kgpy(["--backend", "jax", "-e", "1"])
    assert r.returncode == 2 and "jax" in r.stderr
    r = run_kgpy(["-e", "1"], KLONG_BACKEND="jax")
    assert r.returncode == 2 and "jax" in r.stderr


def test_kgpy_numpy_backend():
    r = run_kgpy(["--backend", "numpy", "-e", "[1 2]%2"])
    assert r.returncode == 0 and r.stdout == "[0.5 1.0]\n"


# ------------------------------------------------------------------ lazy torch import

def test_import_klong_does_not_import_torch():
    code = ("import sys, klong\n"
            "k = klong.KlongInterpreter()\n"
            "k('+/!10'); k('{x^2}:>3.0'); k('.bkf(\"exp\");exp(1)')\n"
            "import klong.backends, klong.autograd, klong.sysfns.compiler\n"
            "klong.backends.list_backends()\n"
            "print('torch' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
    r = subprocess.run([sys.executable, "-c", "import klong, sys; print('torch' in sys.modules)"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.stdout.strip() == "False"
