"""Klong beside the same work done directly, in one run (pytest-benchmark).

Not part of the default test run (the default run only collects test_*.py). Run explicitly:

    python3 -m pytest tests/benchmarks/bench_core.py --benchmark-only

or through ``tests/benchmarks/ratios.py``, which prints the ratios as a table (with kg and
KlongPy beside them where they are installed). Each workload of WORKLOADS runs on every
backend it names, as two tests in one pytest-benchmark group "<workload>[<backend>]": the
Klong expression (the test whose name ends in ``_klong``) and the baseline (pure Python,
or the array library's own code on that backend's arrays). Setup is not timed; the timed
part is ``k(src)`` (the interpreter's call from Python, conversion of the result included),
which hits the interpreter's parse and code caches from the second round.

Stack placement: on CPython 3.11 the time of deeply recursive Python code depends on the
call depth it starts from (frames live in 16 KiB chunks; a hot call on a chunk boundary
maps and unmaps one every call, python/cpython#142183, fixed in 3.13). Every benchmark here,
Klong and baseline alike, runs on a fresh thread's stack (``on_fresh_stack``), at the shallow
depth a script or the REPL calls from; ``ratios.py --depth-scan`` shows how much it matters.
"""
import functools
import threading

import numpy as np
import pytest

from klong import KlongError, KlongInterpreter
from klong.backends import list_backends

try:
    import torch
except ImportError:
    torch = None

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
N = 100000
BIG_N = 1000000
MATRIX = 200


class Workload:
    """One row of the table: Klong setup and expression, the baseline for each backend (a
    function of the backend name returning a callable, or None: not measured there), the
    issue's goal (the highest ratio accepted; a dictionary by backend where it differs) and
    whether kg can run it."""

    def __init__(self, title, setup, src, baseline, label, goal=None, backends=("numpy", "torch"),
                 check=None, kg=True, rounds=None, needs_compiler=False):
        self.title, self.setup, self.src = title, setup, src
        self.baseline, self.label, self.goal = baseline, label, goal
        self.backends, self.check, self.kg, self.rounds = backends, check, kg, rounds
        self.needs_compiler = needs_compiler     # skipped where torch.compile cannot compile

    def goal_on(self, backend):
        return self.goal.get(backend) if isinstance(self.goal, dict) else self.goal


def _array(backend, a):
    return torch.as_tensor(a) if backend == "torch" else a


def _python(fn):
    return lambda backend: fn


def _fib(x):
    return x if x < 2 else _fib(x - 1) + _fib(x - 2)


def _count():
    x = 0
    while x < 10000:
        x = x + 1
    return x


def _where(backend):
    if backend == "torch":
        return lambda: (lambda a: torch.where(a % 2 != 0, a, 0))(torch.arange(N))
    return lambda: (lambda a: np.where(a % 2, a, 0))(np.arange(N))


def _reals():
    return np.random.default_rng(1).random(BIG_N)


def _ints():
    return np.random.default_rng(2).integers(0, 1000, BIG_N)


PHRASE = "the quick brown fox jumps over the lazy dog "
TEXT_SETUP = f's::{BIG_N}#"{PHRASE}"'


def _text():
    return (PHRASE * (BIG_N // len(PHRASE) + 1))[:BIG_N]


def _sort(backend):
    a = _array(backend, _reals())
    return (lambda: torch.sort(a, stable=True).values) if backend == "torch" else (lambda: np.sort(a, kind="stable"))


def _group(backend):
    a = _ints()
    if backend == "torch":
        t = torch.as_tensor(a)

        def groups():
            order = torch.argsort(t, stable=True)
            _, counts = torch.unique_consecutive(t[order], return_counts=True)
            return torch.split(order, counts.tolist())
        return groups

    def groups():
        order = np.argsort(a, kind="stable")
        _, starts = np.unique(a[order], return_index=True)
        return np.split(order, starts[1:])
    return groups


def _range(backend):
    a = _ints()
    if backend == "torch":
        t = torch.as_tensor(a)
        return lambda: torch.unique(t)

    def distinct():
        _, first = np.unique(a, return_index=True)
        return a[np.sort(first)]
    return distinct


def _range_chars(backend):
    codes = np.frombuffer(_text().encode(), dtype=np.uint8)
    return lambda: np.unique(codes)


def _find_char(backend):
    codes = np.frombuffer(_text().encode(), dtype=np.uint8)
    return lambda: np.flatnonzero(codes == ord("x"))


def _read_numbers(backend):
    text = "[" + "12345 " * N + "]"
    return lambda: np.array(text[1:-1].split(), dtype=np.int64)


def _matmul(backend):
    a = np.arange(MATRIX * MATRIX, dtype=np.float64).reshape(MATRIX, MATRIX) / MATRIX
    a = _array(backend, a)
    return lambda: a @ a


def _join(n):
    def baseline(backend):
        q = np.repeat(np.arange(n), 2).reshape(n, 2)
        return lambda: q.ravel().copy()
    return baseline


# The sieve of Eratosthenes, each prime's multiples struck out by an Amend of the variable
# into itself, written in place when nothing else holds it (klong/verbs/inplace.py); two
# sizes, to show how the time grows. The baseline: numpy striking them out in place, in the
# same element type (int64) on either backend.
SIEVE = ("sieve::{[s n];n::x;s::n:^1;s::s:=0,0,1;"
         "{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s}")


def _numpy_sieve(n):
    def sieve():
        s = np.ones(n, dtype=np.int64)
        s[:2] = 0
        p = 2
        while p * p < n:
            if s[p]:
                s[p * p::p] = 0
            p += 1
        return np.flatnonzero(s)
    return lambda backend: sieve


MLP = """.bkf("tanh")
N::256
X::(2*(!N)%N)-1
XY::X,'X^2
W1::0.1*(!16)-8
B1::0.1*!16
W2::0.05*(!16)-6
B2::0.0
net::{B2++/W2*tanh(B1+W1*x)}
loss::{(+/{(net(x@0)-x@1)^2}'XY)%N}
step::{[g];g::loss:>[W1 B1 W2 B2];W1::W1-0.1*g@0;B1::B1-0.1*g@1;W2::W2-0.1*g@2;B2::B2-0.1*g@3}"""


def _mlp_batched(backend):
    f64 = torch.float64
    x = torch.arange(256, dtype=f64) / 256 * 2 - 1
    y = x ** 2
    params = [0.1 * (torch.arange(16, dtype=f64) - 8), 0.1 * torch.arange(16, dtype=f64),
              0.05 * (torch.arange(16, dtype=f64) - 6), torch.tensor(0.0, dtype=f64)]

    def step():
        w1, b1, w2, b2 = (p.detach().requires_grad_() for p in params)
        pred = b2 + (w2 * torch.tanh(b1 + w1 * x[:, None])).sum(1)
        loss = ((pred - y) ** 2).sum() / 256
        grads = torch.autograd.grad(loss, [w1, b1, w2, b2])
        params[:] = [p - 0.1 * g for p, g in zip(params, grads)]
    return step


LINREG = """X::[1.0 2.0 3.0 4.0 5.0]
Y::[3.0 5.0 7.0 9.0 11.0]
w::0.0
b::0.0
loss::{(+/((b+w*X)-Y)^2)%#X}
step::{[g];g::loss:>[w b];w::w-0.02*g@0;b::b-0.02*g@1}"""


def _linreg(backend):
    f64 = torch.float64
    x = torch.tensor([1.0, 2, 3, 4, 5], dtype=f64)
    y = torch.tensor([3.0, 5, 7, 9, 11], dtype=f64)
    params = [torch.tensor(0.0, dtype=f64), torch.tensor(0.0, dtype=f64)]

    def step():
        w, b = (p.detach().requires_grad_() for p in params)
        loss = (((b + w * x) - y) ** 2).sum() / 5
        grads = torch.autograd.grad(loss, [w, b])
        params[:] = [p - 0.02 * g for p, g in zip(params, grads)]
    return step


# The MLP written with matrix products: 256 samples of 32 inputs, 64 hidden tanh units, one
# output, mean squared error, one SGD step (the matrix-product spellings of docs/verbs.md)
MLP_MATRIX = """.bkf("tanh")
X::((([256 32]:^!8192)!97)%97)-0.5
Y::(+/'X)%32
W1::0.01*(([64 32]:^!2048)!13)-6
B1::0.01*!64
W2::0.01*(!64)-32
B2::0.0
loss::{[h];h::tanh({B1+x{+/x*y}:/W1}'X);(+/((B2+{+/x*W2}'h)-Y)^2)%256}
step::{[g];g::loss:>[W1 B1 W2 B2];W1::W1-0.1*g@0;B1::B1-0.1*g@1;W2::W2-0.1*g@2;B2::B2-0.1*g@3}"""

# The same step with the loss compiled by `.compile` (torch.compile; compiling is setup)
MLP_COMPILED = MLP_MATRIX + """
lx::{[h];h::tanh({B1+x{+/x*y}:/W1}'x);(+/((B2+{+/x*W2}'h)-Y)^2)%256}
cl::.compile(lx;X)
cstep::{[g];g::{cl(X)}:>[W1 B1 W2 B2];W1::W1-0.1*g@0;B1::B1-0.1*g@1;W2::W2-0.1*g@2;B2::B2-0.1*g@3}
cstep()"""


ROWS_SETUP = "m::([2000 16]:^{x;.rn()}'!32000)-0.5"


def _rows(op):
    """The array library's operation along the rows of a 2000x16 matrix of reals."""
    def baseline(backend):
        m = _array(backend, np.random.default_rng(4).random((2000, 16)) - 0.5)
        return lambda: op(m)
    return baseline


ROWS_INT_SETUP = "i::[2000 16]:^{x;_1000*.rn()}'!32000"


def _rows_ints(op):
    """The array library's operation along the rows of a 2000x16 matrix of integers."""
    def baseline(backend):
        i = _array(backend, np.random.default_rng(4).integers(0, 1000, (2000, 16)))
        return lambda: op(i)
    return baseline


def _sort_rows(i):
    return torch.sort(i, dim=1, stable=True).values if isinstance(i, torch.Tensor) \
        else np.sort(i, 1, kind="stable")


def _grade_rows(i):
    return torch.argsort(i, dim=1, stable=True) if isinstance(i, torch.Tensor) \
        else np.argsort(i, 1, kind="stable")


def _roll_rows(m):
    return torch.roll(m, 1, 1) if isinstance(m, torch.Tensor) else np.roll(m, 1, 1)


def _rows_max(m):
    r = m.max(1)
    return getattr(r, "values", r)      # (torch gives the values and their positions)


def _values(r):
    return getattr(r, "values", r)     # (torch's max and min give the positions as well)


def _lib(m):
    return torch if isinstance(m, torch.Tensor) else np


def _joined(m):
    zeros = _lib(m).zeros((m.shape[0], 1), dtype=m.dtype)
    return torch.cat((m, zeros), 1) if isinstance(m, torch.Tensor) else np.concatenate((m, zeros), 1)


def _signs(m):
    s = m.sum(1)
    return torch.where(s > 0, 1, -1) if isinstance(m, torch.Tensor) else np.where(s > 0, 1, -1)


def _running_max(m):
    return torch.cummax(m, 1).values if isinstance(m, torch.Tensor) else np.maximum.accumulate(m, 1)


def _flip_rows(m):
    return torch.flip(m, (1,)) if isinstance(m, torch.Tensor) else m[:, ::-1].copy()


def _tally_rows(m):
    return _lib(m).full((m.shape[0],), m.shape[1])


def _dot_rows(m):
    v = _lib(m).arange(16, dtype=m.dtype) / 16
    return m @ v


def _variance(m):
    d = m - m.sum(1)[:, None] / m.shape[1]
    return (d * d).sum(1) / m.shape[1]


# Row-wise idioms beside the array library's operation along the rows (issue 32 aims at 3x)
ROW_IDIOMS = [
    ("mean", "{(+/x)%#x}'m", lambda m: m.sum(1) / m.shape[1], "mean of each row"),
    ("var", "{(+/(x-(+/x)%#x)^2)%#x}'m", _variance, "variance of each row"),
    ("min", "&/'m", lambda m: _values(m.min(1)), "min along rows"),
    ("prod", "*/'m", lambda m: m.prod(1), "product along rows"),
    ("argmax", "{*>x}'m", lambda m: m.argmax(1), "argmax along rows"),
    ("argmin", "{*<x}'m", lambda m: m.argmin(1), "argmin along rows"),
    ("count", "{+/x>0}'m", lambda m: (m > 0).sum(1), "count of positives"),
    ("clip", "{(x|-0.25)&0.25}'m", lambda m: m.clip(-0.25, 0.25), "clip"),
    ("cumsum", "+\\'m", lambda m: m.cumsum(1), "cumulative sum along rows"),
    ("runmax", "|\\'m", _running_max, "running max along rows"),
    ("append", "{x,0.0}'m", _joined, "a column of zeros appended"),
    ("dot", "{+/x*v}'m", _dot_rows, "matrix-vector product"),
    ("sign", "{:[(+/x)>0;1;-1]}'m", _signs, "where on the row sums"),
    ("last", "{*|x}'m", lambda m: m[:, -1] + 0, "last column"),
    ("range", "{(|/x)-&/x}'m", lambda m: _values(m.max(1)) - _values(m.min(1)), "max - min"),
    ("scale", "{x%|/x}'m", lambda m: m / _values(m.max(1))[:, None], "divided by row max"),
    ("normalise", "{x%+/x}'p", lambda p: p / p.sum(1)[:, None], "rows summing to 1"),
    ("abssum", "{+/x|-x}'m", lambda m: abs(m).sum(1), "L1 norm"),
    ("sumsq", "{+/x*x}'m", lambda m: (m * m).sum(1), "sum of squares"),
    ("tally", "#'m", _tally_rows, "row lengths"),
    ("reverse", "|'m", _flip_rows, "flip along rows"),
    ("diff", "{(1_x)-(-1)_x}'m", lambda m: m[:, 1:] - m[:, :-1], "differences along rows"),
    ("shift", "{x-*x}'m", lambda m: m - m[:, :1], "minus the first column"),
    ("cubenorm", "{(+/x*x*x)^1.5}'p", lambda p: (p * p * p).sum(1) ** 1.5, "real power"),
]


IDIOM_SETUP = ROWS_SETUP + ";p::m+1;v::(!16)%16"


def _idiom_rows():
    """The workloads of ROW_IDIOMS: m the 2000x16 reals of ROWS_SETUP, p::m+1 (positive),
    v a vector of 16 reals."""
    rows = {}
    for name, src, op, label in ROW_IDIOMS:
        baseline = _rows_plus_one(op) if "'p" in src else _rows(op)
        rows["rows_" + name] = Workload(f"`{src}`, 2000x16 reals", IDIOM_SETUP, src,
                                        baseline, label)
    return rows


def _rows_plus_one(op):
    """_rows, on the matrix plus one (made before the timing)."""
    def baseline(backend):
        p = _array(backend, np.random.default_rng(4).random((2000, 16)) + 0.5)
        return lambda: op(p)
    return baseline


# A softmax-regression step: 256 samples of 4 features, 3 classes; the rows of the
# exponentials normalised by an Each that batches, the gradient written out (no :>)
SOFTMAX = """.bkf("exp")
X::((([256 4]:^!1024)!37)%37)-0.5
XT::+X
Y::{x=!3}'(!256)!3
W::0.01*([3 4]:^!12)-6
step::{[p];p::{x%+/x}'exp({x{+/x*y}:/W}'X);W::W-0.1*({x{+/x*y}:/XT}'+p-Y)%256}"""


def _softmax(backend):
    f64 = torch.float64
    x = ((torch.arange(1024, dtype=f64).reshape(256, 4) % 37) / 37) - 0.5
    y = ((torch.arange(256) % 3)[:, None] == torch.arange(3)).to(f64)
    w = [0.01 * (torch.arange(12, dtype=f64).reshape(3, 4) - 6)]

    def step():
        e = torch.exp(x @ w[0].T)
        p = e / e.sum(1, keepdim=True)
        w[0] = w[0] - 0.1 * ((p - y).T @ x) / 256
    return step


def _mlp_matrix(backend):
    f64 = torch.float64
    x = ((torch.arange(8192, dtype=f64).reshape(256, 32) % 97) / 97) - 0.5
    y = x.sum(1) / 32
    params = [0.01 * ((torch.arange(2048, dtype=f64).reshape(64, 32) % 13) - 6),
              0.01 * torch.arange(64, dtype=f64), 0.01 * (torch.arange(64, dtype=f64) - 32),
              torch.tensor(0.0, dtype=f64)]

    def step():
        w1, b1, w2, b2 = (p.detach().requires_grad_() for p in params)
        h = torch.tanh(x @ w1.T + b1)
        loss = (((b2 + h @ w2) - y) ** 2).sum() / 256
        grads = torch.autograd.grad(loss, [w1, b1, w2, b2])
        params[:] = [p - 0.1 * g for p, g in zip(params, grads)]
    return step


WORKLOADS = {
    "fib": Workload("`fib(18)`, recursive", "fib::{:[x<2;x;fib(x-1)+fib(x-2)]}", "fib(18)",
                    _python(lambda: _fib(18)), "Python", goal=2.0, check=2584, rounds=25),
    "while_count": Workload("`{x<10000}{x+1}:~0`", "", "{x<10000}{x+1}:~0",
                            _python(_count), "Python loop", goal=1.5, check=10000, rounds=25),
    "each_cond": Workload("`{:[x!2;x;0]}'!100000`", "", "{:[x!2;x;0]}'!100000", _where,
                          "numpy/torch where", goal=3.0),
    "each_square": Workload("`{x*x}'!100000`", "", "{x*x}'!100000",
                            _python(lambda: [i * i for i in range(N)]), "comprehension"),
    "reduce_add": Workload("`{x+y}/!100000`", "", "{x+y}/!100000",
                           _python(lambda: sum(range(N))), "Python sum", check=4999950000),
    "sum_squares": Workload("`+/a*a`, a million integers", "a::!1000000", "+/a*a",
                            lambda b: (lambda a: lambda: (a * a).sum())(_array(b, np.arange(BIG_N))),
                            "array library", goal={"torch": 1.05}, check=333332833333500000),
    "sum_squares_reals": Workload("`+/a*a`, a million reals (summed in Klong's one order)",
                                  "a::0.5*!1000000", "+/a*a",
                                  lambda b: (lambda a: lambda: (a * a).sum())(
                                      _array(b, 0.5 * np.arange(BIG_N))),
                                  "array library", goal=1.3),
    "sort_reals": Workload("sort a million reals, `a@<a`", "a::{x;.rn()}'!1000000", "a@<a", _sort,
                           "stable sort", goal=1.3, rounds=5),
    "group_ints": Workload("group a million integers, `=a`", "a::{x;_1000*.rn()}'!1000000", "=a",
                           _group, "argsort and split", goal=1.3, rounds=5),
    "range_ints": Workload("range of a million integers, `?a`", "a::{x;_1000*.rn()}'!1000000", "?a",
                           _range, "unique", goal=1.3, rounds=5),
    "range_chars": Workload("range of a million characters, `?s`",
                            TEXT_SETUP, "?s", _range_chars,
                            "numpy unique on bytes", goal=3.0, backends=("numpy",), rounds=3),
    "find_char": Workload("find a character, `s?0cx`, a million characters",
                          TEXT_SETUP, "s?0cx", _find_char,
                          "numpy ==", goal=3.0, backends=("numpy",), rounds=5),
    "read_numbers": Workload("`.rs` of 100,000 numbers", f't::"[",({6 * N}#"12345 "),"]"', ".rs(t)",
                             _read_numbers, "numpy parse", goal=1.1, backends=("numpy",), rounds=5,
                             kg=False),     # kg 2022 hangs reading the text a second time
    # Each over the rows of a matrix, batched (verbs/batching.py); issue 32 aims at 3x
    "rows_sum": Workload("`+/'m`, 2000x16 reals", ROWS_SETUP, "+/'m",
                         _rows(lambda m: m.sum(1)), "sum along rows"),
    "rows_max": Workload("`|/'m`, 2000x16 reals", ROWS_SETUP, "|/'m", _rows(_rows_max),
                         "max along rows"),
    # the first column copied, as Klong's result is (m[:, 0] alone is a view: no work)
    "rows_first": Workload("`*'m`, 2000x16 reals", ROWS_SETUP, "*'m",
                           _rows(lambda m: m[:, 0] + 0), "first column"),
    "rows_centre": Workload("`{x-(+/x)%#x}'m`, 2000x16 reals", ROWS_SETUP, "{x-(+/x)%#x}'m",
                            _rows(lambda m: m - m.sum(1)[:, None] / m.shape[1]),
                            "centre each row"),
    "rows_sort": Workload("`{x@<x}'i`, 2000x16 integers", ROWS_INT_SETUP, "{x@<x}'i",
                          _rows_ints(_sort_rows), "sort along rows"),
    "rows_grade": Workload("`<'i`, 2000x16 integers", ROWS_INT_SETUP, "<'i",
                           _rows_ints(_grade_rows), "argsort along rows"),
    "rows_take": Workload("`{3#x}'m`, 2000x16 reals", ROWS_SETUP, "{3#x}'m",
                          _rows(lambda m: m[:, :3] + 0), "first three columns"),
    "rows_drop": Workload("`{2_x}'m`, 2000x16 reals", ROWS_SETUP, "{2_x}'m",
                          _rows(lambda m: m[:, 2:] + 0), "all but two columns"),
    "rows_rotate": Workload("`{1:+x}'m`, 2000x16 reals", ROWS_SETUP, "{1:+x}'m",
                            _rows(_roll_rows), "roll along rows"),
    "rows_norm": Workload("`{(+/x*x)^0.5}'m`, 2000x16 reals", ROWS_SETUP, "{(+/x*x)^0.5}'m",
                          _rows(lambda m: (m * m).sum(1) ** 0.5), "row norms"),
    **_idiom_rows(),
    "rows_softmax_step": Workload("softmax-regression step, rows normalised by `{x%+/x}'e`",
                                  SOFTMAX, "step()", _softmax, "eager torch",
                                  backends=("torch",), kg=False),
    "matmul": Workload("matrix product in Klong, 200x200 reals",
                       "mm::{[a b];a::x;b::+y;{x{+/x*y}:/b}'a};m::([200 200]:^!40000)%200",
                       "mm(m;m)", _matmul, "the library's matmul", goal=2.0),
    "join_25k": Workload("`,/q`, `q::{x,x}'!25000`", "q::{x,x}'!25000", ",/q", _join(25000),
                         "numpy ravel", backends=("numpy",)),
    "join_100k": Workload("`,/q`, `q::{x,x}'!100000`", "q::{x,x}'!100000", ",/q", _join(100000),
                          "numpy ravel", backends=("numpy",), kg=False),    # kg: minutes
    "sieve_100k": Workload("sieve of Eratosthenes to 100,000, `s::s:=0,...` per prime", SIEVE,
                           "sieve(100000)", _numpy_sieve(100000), "numpy in-place sieve",
                           goal=5.0, rounds=50),
    "sieve_1m": Workload("sieve of Eratosthenes to 1,000,000", SIEVE, "sieve(1000000)",
                         _numpy_sieve(1000000), "numpy in-place sieve", goal=5.0, rounds=20,
                         kg=False),
    "mlp_step": Workload("per-sample MLP step with `'` (256 samples, 16 hidden)", MLP, "step()",
                         _mlp_batched, "batched torch", goal=1.3, backends=("torch",), kg=False),
    "linreg_step": Workload("linear-regression training step", LINREG, "step()", _linreg,
                            "torch", goal=1.1, backends=("torch",), kg=False),
    "mlp_matrix_step": Workload("MLP training step with matrix products (256x32, 64 hidden)",
                                MLP_MATRIX, "step()", _mlp_matrix, "eager torch", goal=1.1,
                                backends=("torch",), kg=False),
    "mlp_compiled_step": Workload("the same step, loss through `.compile`", MLP_COMPILED,
                                  "cstep()", _mlp_matrix, "eager torch", goal=0.8,
                                  backends=("torch",), kg=False, needs_compiler=True),
}

CASES = [(name, b) for name, w in WORKLOADS.items() for b in w.backends if b in BACKENDS]


def on_fresh_stack(fn):
    """Decorator: run the test body (timing included) in a new thread, so the timed code
    starts near the bottom of a fresh frame stack rather than under pytest's frames."""
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


def klong_for(name, backend):
    """An interpreter on `backend` with the workload's setup run (untimed)."""
    w = WORKLOADS[name]
    k = KlongInterpreter(backend=backend, device="cpu" if backend == "torch" else None)
    if w.setup:
        k(w.setup)
    k(w.src)            # warm-up: parse and code caches, lazy imports
    return k


def _timed(benchmark, fn, rounds):
    if rounds is None:
        return benchmark(fn)
    return benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)


@pytest.mark.parametrize("name, backend, side",
                         [(name, backend, side) for name, backend in CASES
                          for side in ("klong", "baseline")])
@on_fresh_stack
def test_workload(benchmark, name, backend, side):
    """The two sides of a group run one after the other, in the same state of the process."""
    w = WORKLOADS[name]
    benchmark.group = f"{name}[{backend}]"
    if side == "baseline":
        benchmark.extra_info["baseline"] = w.label
        _timed(benchmark, w.baseline(backend), w.rounds)
        return
    benchmark.extra_info["klong"] = w.src
    try:
        k = klong_for(name, backend)
    except KlongError as e:
        if not w.needs_compiler:
            raise
        pytest.skip(f"torch.compile cannot compile here: {e}")
    result = _timed(benchmark, lambda: k(w.src), w.rounds)
    if w.check is not None:
        assert result == w.check
