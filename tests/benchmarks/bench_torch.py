"""The torch backend beside raw torch (pytest-benchmark; not in the default test run).

    python3 -m pytest tests/benchmarks/bench_torch.py --benchmark-only

Each group holds one element-wise or reduction workload twice: as Klong on the torch backend
and as the same torch code written by hand, on the device of KLONG_DEVICE (else the best one:
CUDA when there is one), synchronised before the clock is read. The issue's limit is 1.5x.
Ordering verbs (grade, group, range) are in bench_structural.py.
"""
import os

import pytest

torch = pytest.importorskip("torch")

from klong import KlongInterpreter  # noqa: E402

from bench_core import on_fresh_stack  # noqa: E402

N = 1000000


@pytest.fixture(scope="module")
def k():
    k = KlongInterpreter(backend="torch", device=os.environ.get("KLONG_DEVICE"))
    k("a::!1000000; r::a%7")
    return k


@pytest.fixture(scope="module")
def a(k):
    return torch.arange(N, dtype=torch.int64, device=k.backend.device)


def synchronised(fn, k):
    def run(*args):
        result = fn(*args)
        k.backend.synchronize()
        return result
    return run


# Klong source and the hand-written torch that does the same work, per workload
WORKLOADS = {
    "torch_elementwise_int": ("1+2*a", lambda a, r: 1 + 2 * a),
    "torch_elementwise_real": ("(r*r)-r%2", lambda a, r: (r * r) - r / 2),
    "torch_sum": ("+/a", lambda a, r: torch.sum(a).item()),
    "torch_sum_squares": ("+/r*r", lambda a, r: torch.sum(r * r).item()),
    "torch_max": ("|/r", lambda a, r: torch.amax(r).item()),
}


@pytest.mark.parametrize("name", sorted(WORKLOADS))
@on_fresh_stack
def test_klong(benchmark, k, name):
    benchmark.group = name
    src, _ = WORKLOADS[name]
    benchmark(synchronised(k.run, k), src)


@pytest.mark.parametrize("name", sorted(WORKLOADS))
@on_fresh_stack
def test_torch(benchmark, k, a, name):
    benchmark.group = name
    r = a.to(torch.float64) / 7          # Klong reals are float64
    _, raw = WORKLOADS[name]
    benchmark(synchronised(raw, k), a, r)
