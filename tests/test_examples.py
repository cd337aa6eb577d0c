"""Every example program runs, on every backend it is meant for, and prints what it should."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KGPY = os.path.join(ROOT, "kgpy")

try:
    import torch  # noqa: F401
    BACKENDS = ["numpy", "torch"]
except ImportError:
    BACKENDS = ["numpy"]


def run_example(path, backend, cwd=None):
    proc = subprocess.run([sys.executable, KGPY, "--backend", backend, os.path.join(ROOT, path)],
                          capture_output=True, text=True, timeout=600, cwd=cwd or ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout


def test_hello():
    out = run_example("examples/hello.kg", "numpy")
    assert "squares of 1..10: [1 4 9 16 25 36 49 64 81 100]" in out
    assert "fib(20) = 6765" in out
    assert "primes below 50: [2 3 5 7 11 13 17 19 23 29 31 37 41 43 47]" in out
    assert "mean of 1..100: 50.5" in out


EXPECTED = {
    "gradient_descent.kg": ["minimum at x = 3.0", "f(x) = 1.0"],
    "linear_regression.kg": ["w = 2.0", "b = 1.0", "loss < 1e-6: 1"],
    "neural_network.kg": ["loss went down tenfold: 1"],
    "second_derivative.kg": ["f'(2)  = 12.0", "f''(2) = 12.0"],
    "jacobians.kg": ["J of [x*y, x+y] at [2 3]: [[3.0 2.0] [1.0 1.0]]",
                     ".jacobian({x^2};[1 2]): [[2.0 0.0] [0.0 4.0]]",
                     "gradient of +/x^2 at [1 2 3]: [2.0 4.0 6.0]"],
    "adam.kg": ["w = 2.0", "b = 0.0"],
    "sgd.kg": ["w = 2.0", "b = 1.0"],
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_autograd_example(name, backend):
    out = run_example(f"examples/autograd/{name}", backend)
    for line in EXPECTED[name]:
        assert line in out.splitlines(), out


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
def test_jacobian_example_hessian():
    assert "hessian of x^3 at 2: 12.0" in run_example("examples/autograd/jacobians.kg", "torch")


def test_jacobian_example_hessian_numeric():
    # on numpy the hessian is numeric, to about a thousandth
    line = [l for l in run_example("examples/autograd/jacobians.kg", "numpy").splitlines()
            if l.startswith("hessian")][0]
    assert abs(float(line.split(":")[1]) - 12.0) < 1e-3


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
def test_gradcheck_example():
    out = run_example("examples/autograd/gradcheck.kg", "torch").splitlines()
    assert out == ["x^2 at 3: 1", "+/x^2 at [1 2 3]: 1", "sin(x)*exp(x) at 0.5: 1"]


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
def test_compile_export_example(tmp_path):
    out = run_example("examples/autograd/compile_export.kg", "torch", cwd=tmp_path)
    lines = out.splitlines()
    assert lines[0] == "compiled poly(3) = 48.0"
    assert lines[1] == "exported to poly.pt2"
    assert "graph():" in out and "aten.pow" in out
    assert not (tmp_path / "poly.pt2").exists()        # the example deletes its file


TOUR = """14
11
8
31
[1 1 2 3 4 5 6 9]
[3 1 4 5 9 2 6]
[9 1 16 1 25 81 4 36]
144
5.0
[0 1 4 9 16]
[0 1 3 6 10 15]
[3 5 7]
1.41421356237309
[13 23 33]
[-1 0 1]
dlrow ,olleh
[4 8]
12
5
3
3628800
"""

PROGRAMS = {
    "tour.kg": TOUR,
    "wordfreq.kg": "words: 11\ndistinct: 8\nmost frequent: [the fox]\ntheir counts: [3 2]\n",
    "matrix.kg": ("m:        [[1 2] [3 4]]\nm^T:      [[1 3] [2 4]]\nm*m:      [[7 10] [15 22]]\n"
                  "identity: [[1 0 0] [0 1 0] [0 0 1]]\nm^5:      [[1069 1558] [2337 3406]]\n"
                  "trace:    5\n"),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_language_examples(name, backend):
    assert run_example(f"examples/{name}", backend) == PROGRAMS[name]


# ---------------------------------------------------------------- optimizers.py from Python

@pytest.fixture
def optimizers():
    sys.path.insert(0, os.path.join(ROOT, "examples", "autograd"))
    try:
        import optimizers
        yield optimizers
    finally:
        sys.path.pop(0)


def interpreter_with(optimizers, name, backend="numpy"):
    """A Klong interpreter in which the optimizer class `name` is defined."""
    from klong import KlongInterpreter
    k = KlongInterpreter(backend=backend)
    k[name] = getattr(optimizers, name)
    return k


@pytest.mark.parametrize("backend", BACKENDS)
def test_optimizer_called_as_a_function_from_klong(optimizers, backend):
    k = interpreter_with(optimizers, "SGDOptimizer", backend)
    k("w::10.0;loss::{w^2}")
    k('opt::SGDOptimizer(klong;["w"];:{["lr" 0.1]})')
    k("{opt(loss)}'!50")
    assert abs(k["w"]) < 1e-3


@pytest.mark.parametrize("backend", BACKENDS)
def test_optimizer_older_form_still_works(optimizers, backend):
    k = interpreter_with(optimizers, "AdamOptimizer", backend)
    k("X::[1.0 2.0 3.0];Y::[2.0 4.0 6.0];w::0.0;loss::{(+/((w*X)-Y)^2)%#X}")
    k('opt::AdamOptimizer([w];:{["lr" 0.1]})')
    k("{x;.pyc(opt,\"step\";loss;:{})}'!300")
    assert abs(float(k["w"]) - 2.0) < 1e-2


def test_optimizer_rejects_unknown_options(optimizers):
    from klong import KlongError
    k = interpreter_with(optimizers, "SGDOptimizer")
    k("w::1.0")
    with pytest.raises(KlongError, match="unknown option rate"):
        k('SGDOptimizer(klong;["w"];:{["rate" 0.1]})')


def test_optimizer_gradients_go_through_one_method(optimizers):
    # a subclass can change how gradients are found (say, average them across processes)
    from klong import KlongInterpreter

    class Halved(optimizers.SGDOptimizer):
        def gradients(self, loss):
            return [g / 2 for g in super().gradients(loss)]

    k = KlongInterpreter()
    k("w::3.0;loss::{w^2}")
    opt = Halved(k, ["w"], {"lr": 0.5})
    opt(k["loss"])
    assert abs(k["w"] - 1.5) < 1e-6         # gradient 6, halved to 3, times 0.5


# -- examples/torch: Klong in a torch training stack (docs/torch.md)

@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
def test_torch_regression_example():
    """KlongLayer + Adam + StepLR + nn.MSELoss over a DataLoader: the loss falls 1000-fold
    and the weights are the polynomial's."""
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "examples/torch/regression.py")],
                          capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": ROOT})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "loss fell 1000-fold: True" in lines
    assert "weights 0.500 -1.000 2.000" in lines


@pytest.mark.skipif("torch" not in BACKENDS, reason="needs torch")
def test_torch_klong_loop_example():
    """A Klong loop trains a torch nn.Linear: the loss falls 100-fold."""
    out = run_example("examples/torch/klong_loop.kg", "torch")
    assert "loss fell 100-fold: 1" in out.splitlines()
