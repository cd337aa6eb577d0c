"""What exactness and the size guard cost (pytest-benchmark; not part of the default run):

    python3 -m pytest tests/benchmarks/bench_limits.py --benchmark-only

Each group times Klong against the same work in raw numpy or Python in the same run:
integer array arithmetic, whose exactness check bounds the operands' magnitudes (limits.py),
and printing a long list, which must take time and memory in proportion to its text. (A
chain such as `+/a*a`, where the product's bound is implied rather than scanned, is
bench_core.py's sum_squares.)
"""
import numpy as np
import pytest

from klong import KlongInterpreter
from klong.runtime.display import write

N = 1_000_000


def _klong(setup):
    k = KlongInterpreter()
    k(setup)
    return k


@pytest.mark.benchmark(group="int_add_1e6")
def test_int_add_klong(benchmark):
    k = _klong("a::!1000000;b::|!1000000")
    assert int(benchmark(k, "a+b")[0]) == N - 1


@pytest.mark.benchmark(group="int_add_1e6")
def test_int_add_numpy(benchmark):
    a, b = np.arange(N), np.arange(N)[::-1].copy()
    assert int(benchmark(lambda: a + b)[0]) == N - 1


@pytest.mark.benchmark(group="int_add_100")
def test_small_add_klong(benchmark):
    k = _klong("a::!100;b::|!100")
    benchmark(k, "a+b")


@pytest.mark.benchmark(group="int_add_100")
def test_small_add_numpy(benchmark):
    a, b = np.arange(100), np.arange(100)[::-1].copy()
    benchmark(lambda: a + b)


@pytest.mark.benchmark(group="print_1e6")
def test_print_klong(benchmark):
    a = KlongInterpreter().run("!1000000")
    assert len(benchmark(write, a)) == 6888891


@pytest.mark.benchmark(group="print_1e6")
def test_print_python(benchmark):
    values = list(range(N))
    assert len(benchmark(lambda: "[" + " ".join(map(str, values)) + "]")) == 6888891
