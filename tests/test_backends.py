"""Backends and devices (system.md B.1, B.4, B.5): choosing numpy or torch, array types and
dtypes, devices (only the CPU exists here, so every GPU device must be refused), values
coming in from Python, the KLONG_BACKEND / KLONG_DEVICE defaults of kgpy, the lazy torch
import, and the registry functions of klong.backends."""
import os
import subprocess
import sys
from pathlib import Path

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
    full = {k: v for k, v in os.environ.items()
            if k not in ("KLONG_BACKEND", "KLONG_DEVICE", "KLONG_DTYPE")}
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


def test_values_shared_in_klong_are_converted_once(k):
    # one dictionary in every element: converted once, and shared in the result as in Klong
    r = k("d:::{};{d,x,x*2}'!2000")
    assert len(r) == 2000 and all(e is r[0] for e in r) and len(r[0]) == 2000
    assert r[0][1999] == 3998
    d = k('e:::{};e,"a",1;e,"self",e;e')               # a dictionary that holds itself
    assert d["self"] is d and d["a"] == 1
    from klong.runtime.values import Char, Symbol
    assert list(k('[1 "a" :b 0cc 2.5]')) == [1, "a", Symbol("b"), Char("c"), 2.5]


def test_klong_functions_in_python_and_back(k):
    f = k("{x*2}")
    assert callable(f) and f.arity == 1 and f(21) == 42
    k["g"] = f                                   # back in Klong: the function itself
    assert k.globals["g"] is k.globals["g"] and k("g(4)") == 8
    k["twice"] = lambda fn, x: fn(fn(x))         # Python code calling a Klong function
    assert k("twice({x+1};5)") == 7
    py = lambda x: x + 1                         # noqa: E731
    k["inc"] = py
    assert k["inc"] is py                        # a Python function comes back as itself


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


@pytest.mark.parametrize("name", ["numpy"] + (["torch"] if HAS_TORCH else []))
def test_select_nonzero_takes_any_number_but_zero_as_true(name):
    """select_nonzero(mask, a, b): a where the mask's number is not 0 (a Klong truth: 2, -1,
    a NaN, but neither 0 nor -0.0), b elsewhere, broadcast as select broadcasts."""
    b = kb.get_backend(name, device="cpu" if name == "torch" else None)
    ints = b.asarray([2, 0, -1, 1], "i")
    reals = b.asarray([float("nan"), -0.0, 0.5, 0.0], "f")
    rows = b.asarray([[1, 2], [3, 4], [5, 6], [7, 8]], "i")
    zeros = b.full((4, 2), 0, "i")
    host = kb.to_host
    assert host(b.select_nonzero(ints, b.arange(4), b.full((4,), 9, "i"))).tolist() \
        == [0, 9, 2, 3]
    assert host(b.select_nonzero(reals, b.arange(4), b.full((4,), 9, "i"))).tolist() \
        == [0, 9, 2, 9]
    assert host(b.select_nonzero(ints.reshape(4, 1), rows, zeros)).tolist() \
        == [[1, 2], [0, 0], [5, 6], [7, 8]]


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


@needs_torch
@pytest.mark.parametrize("device", ["gpu", "bogus", "cuda:x"])
def test_an_unknown_device_is_one_line_naming_those_accepted(device):
    with pytest.raises(KlongBackendError) as info:
        KlongInterpreter(backend="torch", device=device)
    assert str(info.value) == \
        f"backend error: unknown torch device {device!r}; use cpu, cuda, cuda:N or mps"


@needs_torch
def test_kgpy_unknown_device():
    r = run_kgpy(["--backend", "torch", "--device", "gpu", "-e", "1"])
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == "kgpy: backend error: unknown torch device 'gpu'; use cpu, cuda, " \
                       "cuda:N or mps\n"


@pytest.fixture
def torch_missing(monkeypatch):
    """This Python as if PyTorch were not installed: `import torch` fails, and klong's
    torch backend is not loaded yet."""
    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setitem(sys.modules, "klong.backends.torch_backend", None)


def test_without_torch_its_backend_says_how_to_install_it(torch_missing):
    assert "torch" not in kb.list_backends()
    with pytest.raises(KlongBackendError) as info:
        KlongInterpreter(backend="torch")
    # klong comes from its checkout, not from a package index: klong[torch] cannot be had
    assert str(info.value) == "backend error: the torch backend needs PyTorch, which is not " \
                              "installed: pip install torch"


def test_without_torch_an_unknown_backend_says_torch_needs_installing(torch_missing):
    with pytest.raises(KlongBackendError) as info:
        KlongInterpreter(backend="jax")
    message = str(info.value)
    assert message.startswith("backend error: unknown backend 'jax'; available: numpy")
    assert message.endswith(" (and torch, once PyTorch is installed: pip install torch)")


@needs_torch
def test_with_torch_an_unknown_backend_lists_it():
    with pytest.raises(KlongBackendError) as info:
        KlongInterpreter(backend="jax")
    assert str(info.value).startswith("backend error: unknown backend 'jax'; available: "
                                      "numpy, torch")
    assert "once PyTorch is installed" not in str(info.value)


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
            "import klong.backends, klong.runtime.autograd, klong.sysfns.compiler\n"
            "klong.backends.list_backends()\n"
            "print('torch' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
    r = subprocess.run([sys.executable, "-c", "import klong, sys; print('torch' in sys.modules)"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.stdout.strip() == "False"


# ------------------------------------------------------------------ the dtype of reals

@pytest.mark.parametrize("backend,dtype", [("numpy", "float32")] + (
    [("torch", "float32"), ("torch", "bfloat16")] if HAS_TORCH else []))
def test_dtype_makes_every_real_list_of_that_type(backend, dtype):
    k = KlongInterpreter(backend=backend, dtype=dtype, device="cpu")
    assert k.backend.dtype == dtype and dtype in repr(k.backend)
    for src in ("[1.0 2.0]", "1.5*!3", "[1 2]%3", "(!3)+0.5", "a::[3.0 1.0 2.0];a@<a",
                "?[1.0 2.0 1.0]", "[1.0 2.0],3.0", "3:^1.5", "(1.0*!4):=[9.5 1]",
                '.bkf("exp");exp([1.0 2.0])', "{+/x^2}:>[1.0 2.0]"):
        v = k.run(src)
        assert str(v.dtype).endswith(dtype), (src, v.dtype)
    assert str(k.run("_[1.5 2.5]").dtype).endswith("int64")    # integers stay int64
    k["p"] = np.array([0.25, 0.5])                             # from Python too
    assert str(k.run("p").dtype).endswith(dtype)
    assert k("+/[1.5 2.5]") == 4.0 and k("[1.5 2.5]~[1.5 2.5]") == 1


def test_default_dtype_is_float64():
    assert KlongInterpreter().backend.dtype == "float64"
    if HAS_TORCH:
        k = KlongInterpreter(backend="torch", device="cpu")
        assert k.backend.dtype == "float64" and str(k("[1.0]").dtype) == "torch.float64"


@pytest.mark.parametrize("backend,dtype,words", [
    ("numpy", "bfloat16", ["numpy", "bfloat16", "float32"]),
    ("numpy", "float16", ["float16", "float64"]),
    ("torch", "int8", ["int8", "bfloat16"]),
])
def test_unsupported_dtypes_are_refused(backend, dtype, words):
    if backend == "torch" and not HAS_TORCH:
        pytest.skip("torch is not installed")
    with pytest.raises(KlongBackendError) as info:
        KlongInterpreter(backend=backend, dtype=dtype)
    assert all(w in str(info.value) for w in words)


def test_kgpy_dtype_option_and_environment():
    r = run_kgpy(["--dtype", "float32", "-e", "[1 2]%3"])
    assert r.returncode == 0 and r.stdout == "[0.333333343267441 0.666666686534882]\n", r.stderr
    r = run_kgpy(["-e", "[1 2]%3"], KLONG_DTYPE="float32")
    assert r.stdout == "[0.333333343267441 0.666666686534882]\n", r.stderr
    r = run_kgpy(["-e", "[1 2]%3"])
    assert r.stdout == "[0.333333333333333 0.666666666666667]\n", r.stderr
    r = run_kgpy(["--dtype", "bfloat16", "-e", "1"])
    assert r.returncode == 2 and "bfloat16" in r.stderr


@needs_torch
def test_kgpy_bfloat16_on_torch():
    r = run_kgpy(["--backend", "torch", "--dtype", "bfloat16", "-e", "[1 2]%3"])
    assert r.returncode == 0 and r.stdout == "[0.333984375 0.66796875]\n", r.stderr


def test_kgpy_device_variable_leaves_numpy_alone():
    # KLONG_DEVICE is for the torch backend: a numpy run ignores it, an explicit --device not
    r = run_kgpy(["-e", "+/!4"], KLONG_DEVICE="cuda")
    assert r.returncode == 0 and r.stdout == "6\n", r.stderr
    r = run_kgpy(["--device", "cuda", "-e", "1"])
    assert r.returncode == 2 and "cuda" in r.stderr


# ------------------------------------------------------------------ the backend interface

def _required(cls):
    """The Backend methods that a backend must write itself (the base raises)."""
    import inspect
    names = []
    for name, fn in vars(cls).items():
        if callable(fn) or isinstance(fn, staticmethod):
            fn = fn.__func__ if isinstance(fn, staticmethod) else fn
            if "raise NotImplementedError" in inspect.getsource(fn):
                names.append(name)
    return names


def test_every_backend_implements_the_whole_interface():
    required = _required(kb.Backend)
    assert {"asarray", "argsort", "sort_columns", "codes", "row_ranks"} <= set(required)
    classes = [type(kb.HOST)]
    if HAS_TORCH:
        classes.append(type(kb.get_backend("torch", device="cpu")))
    for cls in classes:
        missing = [n for n in required if getattr(cls, n) is getattr(kb.Backend, n)]
        assert not missing, (cls.__name__, missing)


def test_a_backend_is_composed_of_parts_made_on_first_use():
    """Autograd, compiler and process group are parts of a backend (each class at most one
    base deep), not a chain of base classes; a backend that names none gets the defaults."""
    from klong.backends.group import ALONE
    from klong.backends.numeric_autograd import NumericAutograd
    numpy = kb.get_backend("numpy")
    assert kb.Backend.__bases__ == (object,)
    assert "autograd" not in vars(numpy)            # not made until asked for
    assert type(numpy.autograd) is NumericAutograd and numpy.autograd.backend is numpy
    assert numpy.autograd is numpy.autograd
    assert numpy.compiler is None and numpy.group is ALONE
    with pytest.raises(KlongError, match=r"\.compile requires the torch backend"):
        KlongInterpreter()(".compile({x*x}; 2.0)")
    if HAS_TORCH:
        torch = kb.get_backend("torch", device="cpu")
        assert type(torch).__bases__ == (kb.Backend,)
        assert type(torch.autograd).__bases__ == (NumericAutograd,)
        assert torch.autograd.exact_gradients and not numpy.autograd.exact_gradients
        assert type(torch.compiler).__bases__ == (object,)
        assert torch.compiler.backend is torch and torch.group is ALONE


@pytest.mark.parametrize("name", ["numpy", "torch"])
def test_take_gives_rows_of_a_matrix_at_positions(name):
    # (numpy takes rows along the first axis rather than indexing: a batched While's rows
    # still looping, every step; the same rows, a new array, laid out as the positions)
    if name == "torch" and not HAS_TORCH:
        pytest.skip("torch is not installed")
    B = kb.get_backend(name, device="cpu")
    m = B.asarray([[1, 2], [3, 4], [5, 6]])
    assert B.take(m, B.asarray([2, 0, 2])).tolist() == [[5, 6], [1, 2], [5, 6]]
    assert B.take(m, B.asarray([[1], [0]])).tolist() == [[[3, 4]], [[1, 2]]]
    r = B.take(m[:, 1:], B.asarray([1, 1]))          # (a view's rows: copied)
    assert r.tolist() == [[4], [4]]
    r[0, 0] = 9
    assert m.tolist() == [[1, 2], [3, 4], [5, 6]]
    c = B.asarray([[[1.5, -0.0]], [[2.5, 3.0]]])
    assert B.take(c, B.asarray([1, 0])).tolist() == [[[2.5, 3.0]], [[1.5, -0.0]]]
    assert B.take(m, B.asarray([], "i")).shape[0] == 0


@pytest.mark.parametrize("name", ["numpy", "torch"])
def test_backend_primitives(name):
    if name == "torch" and not HAS_TORCH:
        pytest.skip("torch is not installed")
    B = kb.get_backend(name, device="cpu")
    a = B.asarray([3, 1, 2, 1])
    assert B.argsort(a).tolist() == [1, 3, 2, 0]                    # stable
    values, order = B.sort_order(a)
    assert values.tolist() == [1, 1, 2, 3] and order.tolist() == [1, 3, 2, 0]
    assert B.sort(a).tolist() == [1, 1, 2, 3]
    assert B.take(a, B.asarray([[0, 1], [3, 3]])).tolist() == [[3, 1], [1, 1]]
    assert B.put(B.full(3, 0, "i"), B.asarray([2, 0]), B.asarray([7, 8])).tolist() == [8, 0, 7]
    assert [p.tolist() for p in B.split(a, [1, 3])] == [[3], [1, 2, 1]]
    keys = B.asarray([[2, 0], [1, 3]])
    assert B.sort_columns(keys, B.asarray([[10, 11], [12, 13]])).tolist() == [[12, 11], [10, 13]]
    assert B.row_ranks(B.asarray([[1, 2], [0, 5], [1, 2]])).tolist() == [1, 0, 1]
    m = B.asarray([[3, 1, 2], [0, -5, 9]])
    assert B.sort_each_row(m).tolist() == [[1, 2, 3], [-5, 0, 9]]
    for rows in (m, B.asarray([[3, 1, 2], [0, -2 ** 62, 2 ** 62]]),      # (a range too wide
                 B.asarray([[3.0, 1.0, 2.5], [0.0, -5.0, 9.0]])):       # for positions)
        s, order = B.order_each_row(rows)
        assert s.tolist() == B.sort_each_row(rows).tolist()
        assert order.tolist() == [[1, 2, 0], [1, 0, 2]]
    assert B.text(B.codes("h\u00e9\u03b1!")) == "h\u00e9\u03b1!"
    assert B.lookup(["x", "y", [1]], B.asarray([2, 0, 0])) == [[1], "x", "x"]
    assert B.equal(B.asarray([0.1 + 0.2]), B.asarray([0.3]), 1e-14)
    assert not B.equal(B.asarray([1, 2]), B.asarray([1, 3]), 1e-14)
    assert B.flip(a).tolist() == [1, 2, 1, 3] and B.swap01(keys).tolist() == [[2, 1], [0, 3]]
    B.synchronize()
    assert B.array_module().__name__ == name


# ------------------------------------------------------------------ one room knows the library

ALLOWED = ("klong/backends/", "klong/runtime/pyconv.py", "klong/sysfns/python.py",
           # the differentiation engine moves into klong/backends/ (another change)
           "klong/runtime/autograd.py", "klong/sysfns/compiler.py",
           # the torch integration: a Klong layer as an nn.Module, Klong data as a Dataset
           "klong/nn.py", "klong/data.py")


def test_only_the_backends_name_the_array_libraries():
    import re
    pattern = re.compile(r"^\s*(import|from)\s+(numpy|torch)\b|\b(np|numpy|torch)\.\w")
    offenders = []
    for path in sorted(Path(ROOT, "klong").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(ALLOWED):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#")[0]
            if pattern.search(code) and not code.strip().startswith(('"', "'")):
                offenders.append(f"{rel}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("name", [b for b in ("numpy", "torch") if b in kb.list_backends()])
def test_may_share_tells_views_and_owners_apart(name):
    """Backend.may_share (how tests tell a fresh result from a view of an operand): an array with itself, a view with its base and with another view of it may
    share; two arrays that own their memory may not, nor a copy with its original."""
    b = kb.get_backend(name)
    a = b.asarray([[1.0, 2.0], [3.0, 4.0]], "f")
    other = b.asarray([5.0, 6.0], "f")
    assert b.may_share(a, a) and b.may_share(a[1], a) and b.may_share(a, a[:, 0])
    assert b.may_share(a[0], a[:, 0])
    assert not b.may_share(a, other) and not b.may_share(b.copy(a), a)
    assert not b.may_share(a[1:] * 2.0, a)
