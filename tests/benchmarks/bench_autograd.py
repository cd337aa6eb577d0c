"""Differentiation benchmarks (pytest-benchmark), Klong beside raw torch / numpy.

Not part of the default test run. Run explicitly:

    python3 -m pytest tests/benchmarks/bench_autograd.py --benchmark-only

Conventions as in bench_core.py: each group holds one Klong test (name ending in
``_klong``) and one baseline doing the same work directly, so ``ratios.py`` can pair them;
setup happens outside the timed part; every test body runs on a fresh thread's stack.

Groups:

* ``grad_100k``: ``f:>v`` for ``f::{+/x^2}`` at 100,000 reals on torch, beside
  ``torch.autograd.grad`` of ``(x**2).sum()``. The limit is 1.6x.
* ``descent_200_torch`` / ``descent_200_numpy``: 200 steps of scalar gradient descent on
  ``f::{((x-3)^2)+1}`` (``p::p-0.1*f:>p``), beside the same loop in raw torch autograd,
  and for numpy beside a Python loop computing the same numeric derivative: the rule `:>`
  follows on numpy (backends/numeric_autograd.py), f at the point (which `:>` evaluates to
  check it), then four evaluations with the step 1e-3*max(1,|p|), error O(h^4). Same rule,
  same steps, same five evaluations a step, so the ratio is the interpreter's overhead
  (a single central difference, two evaluations, made the ratio look 2.5 times worse).
  Both end at the same p, to the last bit.
* ``jacobian_50_torch`` / ``jacobian_50_numpy``: ``v∂{x*+/x}`` at 50 reals, beside
  ``torch.autograd.functional.jacobian`` and a numpy central-difference Jacobian.
"""
import numpy as np
import pytest

from klong import KlongInterpreter
from klong.backends import list_backends

from bench_core import on_fresh_stack  # noqa: E402  (same fresh-stack timing)

torch = pytest.importorskip("torch") if "torch" in list_backends() else None
needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")

N_GRAD = 100000
STEPS = 200
N_JAC = 50

# Workload name -> (Klong setup, Klong expression). ratios.py may import this table.
WORKLOADS = {
    "grad_100k": ("f::{+/x^2};v::1.0*!100000", "f:>v"),
    "descent_200": ("f::{((x-3)^2)+1}", "p::0.0;{x;p::p-0.1*f:>p}'!200;p"),
    "jacobian_50": ("g::{x*+/x};v::1.0*!50", "v∂g"),
}

# Group -> (title, backend, baseline, goal for the ratio or None): ratios.py's table rows
ROWS = {
    "grad_100k": ("`f:>v`, `f::{+/x^2}`, 100,000 reals", "torch", "torch.autograd.grad", 1.6),
    "descent_200_torch": ("200 gradient-descent steps `p::p-0.1*f:>p`", "torch",
                          "the loop in torch", 1.2),
    "descent_200_numpy": ("200 gradient-descent steps `p::p-0.1*f:>p`", "numpy",
                          "Python loop, the same 5-point rule", 3.0),
    "jacobian_50_torch": ("Jacobian `v∂{x*+/x}`, 50 reals", "torch",
                          "torch.autograd.functional.jacobian", None),
    "jacobian_50_numpy": ("Jacobian `v∂{x*+/x}`, 50 reals", "numpy",
                          "numpy central differences", None),
}


def _klong(backend, name):
    setup, src = WORKLOADS[name]
    k = KlongInterpreter(backend=backend)
    k(setup)
    k(src)                                    # warm-up: parse cache, lazy imports
    return k, src


# ------------------------------------------------------------ 1. f:>v, 100,000 reals

def _raw_grad(v):
    x = v.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad((x ** 2).sum(), x)
    return g


@needs_torch
@pytest.mark.benchmark(group="grad_100k")
@on_fresh_stack
def test_grad_100k_klong(benchmark):
    k, src = _klong("torch", "grad_100k")
    benchmark.extra_info["klong"] = src
    g = benchmark(k, src)
    assert isinstance(g, torch.Tensor) and g.shape == (N_GRAD,)
    assert float(g[-1]) == 2.0 * (N_GRAD - 1)


@needs_torch
@pytest.mark.benchmark(group="grad_100k")
@on_fresh_stack
def test_grad_100k_torch(benchmark):
    v = torch.arange(N_GRAD, dtype=torch.float64)
    _raw_grad(v)
    g = benchmark(_raw_grad, v)
    assert float(g[-1]) == 2.0 * (N_GRAD - 1)


# ------------------------------------------------------------ 2. 200 steps of descent

def _raw_descent():
    p = torch.tensor(0.0, dtype=torch.float64)
    for _ in range(STEPS):
        x = p.detach().requires_grad_(True)
        (g,) = torch.autograd.grad((x - 3) ** 2 + 1, x)
        p = p - 0.1 * g
    return p.item()


def _numeric_descent():
    """What `p::p-0.1*f:>p` computes on numpy, in Python: the same evaluations of f, the
    same steps and arithmetic (numeric_autograd._real_gradient and _derivative)."""
    def f(x):
        return (x - 3) ** 2 + 1
    p = 0.0
    for _ in range(STEPS):
        f(p)                                # :> evaluates f at the point first
        h = 1e-3 * max(1.0, abs(p))
        g = (8 * (f(p + h) - f(p - h)) - (f(p + 2 * h) - f(p - 2 * h))) / (12 * h)
        p = p - 0.1 * g
    return p


@needs_torch
@pytest.mark.benchmark(group="descent_200_torch")
@on_fresh_stack
def test_descent_200_torch_klong(benchmark):
    k, src = _klong("torch", "descent_200")
    benchmark.extra_info["klong"] = src
    p = benchmark.pedantic(k, args=(src,), rounds=10, iterations=1, warmup_rounds=0)
    assert abs(p - 3.0) < 1e-9


@needs_torch
@pytest.mark.benchmark(group="descent_200_torch")
@on_fresh_stack
def test_descent_200_torch_baseline(benchmark):
    p = benchmark(_raw_descent)
    assert abs(p - 3.0) < 1e-9


@pytest.mark.benchmark(group="descent_200_numpy")
@on_fresh_stack
def test_descent_200_numpy_klong(benchmark):
    k, src = _klong("numpy", "descent_200")
    benchmark.extra_info["klong"] = src
    # about 0.6 ms a round: about as many rounds as the baseline's calibration gives it
    # (1,000-4,000 in a second), so that both read a quiet moment of a busy machine (with
    # 100, the best round of a full run read 1.5 times this row's in-process time)
    p = benchmark.pedantic(k, args=(src,), rounds=1000, iterations=1, warmup_rounds=0)
    assert p == _numeric_descent()          # the same rule: the same p, bit for bit


@pytest.mark.benchmark(group="descent_200_numpy")
@on_fresh_stack
def test_descent_200_numpy_python(benchmark):
    p = benchmark(_numeric_descent)
    assert abs(p - 3.0) < 1e-6


# ------------------------------------------------------------ 3. Jacobian, 50 elements

def _jacobian_want():
    v = np.arange(N_JAC, dtype=np.float64)
    return np.eye(N_JAC) * v.sum() + v[:, None]      # d(x_i * sum x)/dx_j


def _numeric_jacobian(v):
    h = 1e-6
    cols = []
    for j in range(v.size):
        up, down = v.copy(), v.copy()
        up[j] += h
        down[j] -= h
        cols.append((up * up.sum() - down * down.sum()) / (2 * h))
    return np.stack(cols, axis=-1)


@needs_torch
@pytest.mark.benchmark(group="jacobian_50_torch")
@on_fresh_stack
def test_jacobian_50_torch_klong(benchmark):
    k, src = _klong("torch", "jacobian_50")
    benchmark.extra_info["klong"] = src
    j = benchmark(k, src)
    assert np.allclose(j.cpu().numpy(), _jacobian_want(), rtol=0, atol=1e-12)


@needs_torch
@pytest.mark.benchmark(group="jacobian_50_torch")
@on_fresh_stack
def test_jacobian_50_torch_baseline(benchmark):
    v = torch.arange(N_JAC, dtype=torch.float64)
    fn = torch.autograd.functional.jacobian
    j = benchmark(fn, lambda x: x * x.sum(), v)
    assert np.allclose(j.numpy(), _jacobian_want(), rtol=0, atol=1e-12)


@pytest.mark.benchmark(group="jacobian_50_numpy")
@on_fresh_stack
def test_jacobian_50_numpy_klong(benchmark):
    k, src = _klong("numpy", "jacobian_50")
    benchmark.extra_info["klong"] = src
    j = benchmark(k, src)
    assert np.allclose(j, _jacobian_want(), rtol=0, atol=1e-4)


@pytest.mark.benchmark(group="jacobian_50_numpy")
@on_fresh_stack
def test_jacobian_50_numpy_python(benchmark):
    v = np.arange(N_JAC, dtype=np.float64)
    j = benchmark(_numeric_jacobian, v)
    assert np.allclose(j, _jacobian_want(), rtol=0, atol=1e-4)
