"""Reading source and data: time grows linearly with the input (pytest-benchmark).

    python3 -m pytest tests/benchmarks/bench_reading.py --benchmark-only

Each workload runs at two sizes four times apart (the growth shows in the report: about
4x for linear reading) beside a baseline doing the same work in Python or numpy in the same
run:

  list_lines    a list literal over N lines, read by run() and by the REPL (piped input);
                baseline: numpy parsing the same numbers
  code_lines    N lines of definitions; baseline: Python's compile() of the same program
  long_line     one line holding a list literal of N numbers (a 1 MB line at the larger
                size); baseline: numpy parsing the same numbers
  long_chain    one line `1+1+...+1` (lexing and parsing only: evaluating it would nest
                N calls); baseline: Python splitting and summing it (Python's compiler
                refuses chains this long)
  rs            .rs of the text of a list of 100,000 numbers; baseline: numpy parsing it

The parse cache is cleared before every round, so each round reads its input anew.
"""
import contextlib
import io

import numpy as np
import pytest

from klong import KlongInterpreter
from klong.frontends.replcommands import Session
from klong.compiler.syntax.parser import parse

SIZES = [5000, 20000]
RS_N = 100000


def _numbers(n):
    return [str((i * 7919) % 1000003 - 500000) for i in range(n)]


def _list_lines(n):
    words = _numbers(5 * n)
    return "a::[" + "\n".join(" ".join(words[i:i + 5]) for i in range(0, len(words), 5)) + "]"


def _fresh(*args):
    """A pedantic setup: call with `args`, the parse cache emptied first."""
    def setup():
        parse.cache_clear()
        return args, {}
    return setup


def _numpy_parse(text):
    return np.array(text.replace("[", " ").replace("]", " ").replace("a::", " ").split(),
                    dtype=np.int64)


# ---------------------------------------------------------------- a list over many lines

@pytest.mark.parametrize("n", SIZES)
@pytest.mark.benchmark(group="list_lines")
def test_list_lines_run(benchmark, n):
    k = KlongInterpreter()
    src = _list_lines(n)
    benchmark.pedantic(k.run, setup=_fresh(src), rounds=5)
    assert k("#a") == 5 * n


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.benchmark(group="list_lines")
def test_list_lines_piped(benchmark, n):
    lines = _list_lines(n).split("\n")

    def feed():
        session = Session(KlongInterpreter())
        with contextlib.redirect_stdout(io.StringIO()):
            for line in lines:
                session.feed(line)
        return session

    session = benchmark.pedantic(feed, setup=_fresh(), rounds=5)
    assert session.interp("#a") == 5 * n


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.benchmark(group="list_lines")
def test_list_lines_numpy(benchmark, n):
    src = _list_lines(n)
    assert len(benchmark(_numpy_parse, src)) == 5 * n


# ---------------------------------------------------------------- many lines of code

def _code_lines(n):
    return "\n".join(f"v{i}::{i}+{i}*2" for i in range(n))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.benchmark(group="code_lines")
def test_code_lines_run(benchmark, n):
    k = KlongInterpreter()
    src = _code_lines(n)
    benchmark.pedantic(k.run, setup=_fresh(src), rounds=3)
    assert k(f"v{n - 1}") == 3 * (n - 1)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.benchmark(group="code_lines")
def test_code_lines_python_compile(benchmark, n):
    src = _code_lines(n).replace("::", "=")
    benchmark(compile, src, "<bench>", "exec")


# ---------------------------------------------------------------- one long line

def _long_line(n):
    return "a::[" + " ".join(_numbers(n)) + "]"


@pytest.mark.parametrize("n", [40000, 160000])
@pytest.mark.benchmark(group="long_line")
def test_long_line_run(benchmark, n):
    k = KlongInterpreter()
    src = _long_line(n)
    benchmark.pedantic(k.run, setup=_fresh(src), rounds=5)
    assert k("#a") == n


@pytest.mark.parametrize("n", [40000, 160000])
@pytest.mark.benchmark(group="long_line")
def test_long_line_numpy(benchmark, n):
    assert len(benchmark(_numpy_parse, _long_line(n))) == n


@pytest.mark.parametrize("n", [12500, 50000])
@pytest.mark.benchmark(group="long_chain")
def test_long_chain_parse(benchmark, n):
    src = "+".join(["1"] * n)
    benchmark.pedantic(parse, args=(src,), setup=lambda: parse.cache_clear(), rounds=3)


@pytest.mark.parametrize("n", [12500, 50000])
@pytest.mark.benchmark(group="long_chain")
def test_long_chain_python_sum(benchmark, n):
    # Python's compiler gives up on such a chain (recursion), so the baseline sums it
    src = "+".join(["1"] * n)
    assert benchmark(lambda: sum(map(int, src.split("+")))) == n


# ---------------------------------------------------------------- .rs of data

@pytest.mark.benchmark(group="rs")
def test_rs_klong(benchmark):
    k = KlongInterpreter()
    k["s"] = "[" + " ".join(_numbers(RS_N)) + "]"
    result = benchmark(k, ".rs(s)")
    assert len(result) == RS_N


@pytest.mark.benchmark(group="rs")
def test_rs_numpy(benchmark):
    text = "[" + " ".join(_numbers(RS_N)) + "]"
    assert len(benchmark(lambda: np.array(text[1:-1].split(), dtype=np.int64))) == RS_N
