"""Klong-vs-baseline benchmarks (pytest-benchmark).

Not part of the default test run (the default run only collects test_*.py).
Run explicitly:

    python3 -m pytest tests/benchmarks/bench_core.py --benchmark-only

Each workload appears twice in the same group: once as Klong source evaluated
by a KlongInterpreter, once as the same work in pure Python or raw numpy, so
the ratio can be read off one report.  ``tests/benchmarks/ratios.py`` runs
this file and prints the ratios against the limits.

Setup (function definitions, large arrays) is evaluated outside the timed
part; the timed part is ``k(src)`` for the workload expression, so repeated
rounds can hit the interpreter's parse cache.
"""

import functools
import operator

import numpy as np
import pytest

from klong import KlongInterpreter


# Workload name -> (Klong setup, Klong expression, expected result).
# ratios.py imports this table, so names stay in one place.
WORKLOADS = {
    "fib": ("fib::{:[x<2;x;fib(x-1)+fib(x-2)]}", "fib(18)", 2584),
    "each_square": ("", "{x*x}'!100000", None),
    "reduce_add": ("", "{x+y}/!100000", 4999950000),
    "while_count": ("", "{x<10000}{x+1}:~0", 10000),
    "sum_squares": ("a::!1000000", "+/a*a", 333332833333500000),
    "each_cond": ("", "{:[x!2;x;0]}'!100000", None),
}

N = 100000
FIB_N = 18
WHILE_N = 10000
BIG_N = 1000000


def _klong(setup):
    """A fresh interpreter with ``setup`` already evaluated (untimed)."""
    k = KlongInterpreter()
    if setup:
        k(setup)
    return k


def _run_klong(benchmark, name, rounds=None):
    setup, src, expected = WORKLOADS[name]
    k = _klong(setup)
    benchmark.extra_info["klong"] = src
    if rounds is None:
        result = benchmark(k, src)
    else:
        # Slow workloads: a fixed number of rounds keeps the suite short.
        k(src)  # warm-up (parse cache, lazy imports), untimed
        result = benchmark.pedantic(k, args=(src,), rounds=rounds,
                                    iterations=1, warmup_rounds=0)
    if expected is not None:
        assert result == expected
    return result


# ---------------------------------------------------------------- 1. fib(18)

def py_fib(x):
    return x if x < 2 else py_fib(x - 1) + py_fib(x - 2)


@pytest.mark.benchmark(group="fib")
def test_fib_klong(benchmark):
    _run_klong(benchmark, "fib", rounds=10)


@pytest.mark.benchmark(group="fib")
def test_fib_python(benchmark):
    assert benchmark(py_fib, FIB_N) == 2584


# ------------------------------------------------------- 2. {x*x}'!100000

def py_each_square():
    return [i * i for i in range(N)]


@pytest.mark.benchmark(group="each_square")
def test_each_square_klong(benchmark):
    result = _run_klong(benchmark, "each_square")
    assert len(result) == N
    assert int(result[-1]) == (N - 1) * (N - 1)


@pytest.mark.benchmark(group="each_square")
def test_each_square_python(benchmark):
    result = benchmark(py_each_square)
    assert result[-1] == (N - 1) * (N - 1)


# ------------------------------------------------------- 3. {x+y}/!100000

def py_reduce_add():
    return functools.reduce(operator.add, range(N))


@pytest.mark.benchmark(group="reduce_add")
def test_reduce_add_klong(benchmark):
    _run_klong(benchmark, "reduce_add")


@pytest.mark.benchmark(group="reduce_add")
def test_reduce_add_python(benchmark):
    assert benchmark(py_reduce_add) == 4999950000


# --------------------------------------------------- 4. {x<10000}{x+1}:~0

def py_while_count():
    x = 0
    while x < WHILE_N:
        x = x + 1
    return x


@pytest.mark.benchmark(group="while_count")
def test_while_count_klong(benchmark):
    _run_klong(benchmark, "while_count", rounds=10)


@pytest.mark.benchmark(group="while_count")
def test_while_count_python(benchmark):
    assert benchmark(py_while_count) == WHILE_N


# ---------------------------------------------------------- 5. +/a*a (1e6)

@pytest.mark.benchmark(group="sum_squares")
def test_sum_squares_klong(benchmark):
    _run_klong(benchmark, "sum_squares")


@pytest.mark.benchmark(group="sum_squares")
def test_sum_squares_numpy(benchmark):
    # The same array the Klong side works on: !1000000 is int64 arange.
    a = np.arange(BIG_N)
    assert int(benchmark(lambda: np.sum(a * a))) == 333332833333500000


# ------------------------- 6. per-element each that cannot be vectorised

def py_each_cond():
    return [i if i % 2 else 0 for i in range(N)]


@pytest.mark.benchmark(group="each_cond")
def test_each_cond_klong(benchmark):
    result = _run_klong(benchmark, "each_cond", rounds=5)
    assert len(result) == N
    assert int(result[-1]) == N - 1 and int(result[-2]) == 0


@pytest.mark.benchmark(group="each_cond")
def test_each_cond_python(benchmark):
    result = benchmark(py_each_cond)
    assert result[-1] == N - 1 and result[-2] == 0
