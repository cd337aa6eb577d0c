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

Stack placement: on CPython 3.11 the time of deeply recursive Python code
depends on the call depth it starts from.  Frames live in 16 KiB "data stack
chunks"; when a hot call sits exactly on a chunk boundary every call mmaps and
munmaps a chunk (python/cpython#142183, fixed by a one-chunk cache in 3.13+).
Klong's fib(18) measured 12 ms from a script's top level but 30-100 ms under
pytest's deeper stack.  So every benchmark here, Klong and baseline alike,
runs on a fresh thread's stack (``on_fresh_stack``), i.e. at the shallow
depth a script or the REPL would call from.  ``ratios.py --depth-scan`` shows
how much the starting depth matters.
"""

import functools
import operator
import threading

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


def on_fresh_stack(fn):
    """Decorator: run the test body (timing included) in a new thread, so the
    timed code starts near the bottom of a fresh frame stack rather than under
    pytest's ~60 frames (see the module docstring)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        failure = []

        def target():
            try:
                fn(*args, **kwargs)
            except BaseException as exc:  # re-raised in the test's thread
                failure.append(exc)

        worker = threading.Thread(target=target, name="bench-" + fn.__name__)
        worker.start()
        worker.join()
        if failure:
            raise failure[0]
    return wrapper


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
@on_fresh_stack
def test_fib_klong(benchmark):
    _run_klong(benchmark, "fib", rounds=25)


@pytest.mark.benchmark(group="fib")
@on_fresh_stack
def test_fib_python(benchmark):
    assert benchmark(py_fib, FIB_N) == 2584


# ------------------------------------------------------- 2. {x*x}'!100000

def py_each_square():
    return [i * i for i in range(N)]


@pytest.mark.benchmark(group="each_square")
@on_fresh_stack
def test_each_square_klong(benchmark):
    result = _run_klong(benchmark, "each_square")
    assert len(result) == N
    assert int(result[-1]) == (N - 1) * (N - 1)


@pytest.mark.benchmark(group="each_square")
@on_fresh_stack
def test_each_square_python(benchmark):
    result = benchmark(py_each_square)
    assert result[-1] == (N - 1) * (N - 1)


# ------------------------------------------------------- 3. {x+y}/!100000

def py_reduce_add():
    return functools.reduce(operator.add, range(N))


@pytest.mark.benchmark(group="reduce_add")
@on_fresh_stack
def test_reduce_add_klong(benchmark):
    _run_klong(benchmark, "reduce_add")


@pytest.mark.benchmark(group="reduce_add")
@on_fresh_stack
def test_reduce_add_python(benchmark):
    assert benchmark(py_reduce_add) == 4999950000


# --------------------------------------------------- 4. {x<10000}{x+1}:~0

def py_while_count():
    x = 0
    while x < WHILE_N:
        x = x + 1
    return x


@pytest.mark.benchmark(group="while_count")
@on_fresh_stack
def test_while_count_klong(benchmark):
    _run_klong(benchmark, "while_count", rounds=25)


@pytest.mark.benchmark(group="while_count")
@on_fresh_stack
def test_while_count_python(benchmark):
    assert benchmark(py_while_count) == WHILE_N


# ---------------------------------------------------------- 5. +/a*a (1e6)

@pytest.mark.benchmark(group="sum_squares")
@on_fresh_stack
def test_sum_squares_klong(benchmark):
    _run_klong(benchmark, "sum_squares")


@pytest.mark.benchmark(group="sum_squares")
@on_fresh_stack
def test_sum_squares_numpy(benchmark):
    # The same array the Klong side works on: !1000000 is int64 arange.
    a = np.arange(BIG_N)
    assert int(benchmark(lambda: np.sum(a * a))) == 333332833333500000


# ------------------------- 6. per-element each that cannot be vectorised

def py_each_cond():
    return [i if i % 2 else 0 for i in range(N)]


@pytest.mark.benchmark(group="each_cond")
@on_fresh_stack
def test_each_cond_klong(benchmark):
    result = _run_klong(benchmark, "each_cond", rounds=7)
    assert len(result) == N
    assert int(result[-1]) == N - 1 and int(result[-2]) == 0


@pytest.mark.benchmark(group="each_cond")
@on_fresh_stack
def test_each_cond_python(benchmark):
    result = benchmark(py_each_cond)
    assert result[-1] == N - 1 and result[-2] == 0
