"""Small realistic Klong programs beside their Python/numpy equivalents, at three sizes.

Not part of the default test run. Run through ``tests/benchmarks/ratios.py`` (which prints
each program's ratio at every size and how both sides grow from the smallest size to the
largest), or directly:

    python3 -m pytest tests/benchmarks/bench_programs.py --benchmark-only

Each program is written as a Klong programmer would write it (`define`, untimed) and applied
to inputs made once in Python (`inputs(n)`, given to Klong as globals and to the baseline as
they are); the timed part is ``k(src)``, the interpreter's call from Python, conversion of the
result included, as in bench_core.py. Before it is timed, the Klong result is checked against
the baseline's (`agree`), so a faster wrong answer cannot pass. The baseline is the same
computation in plain Python or numpy, the way one would write it there; on the torch backend
the baseline stays numpy (the ratio says what running the program on torch costs).

The goal is 10x on numpy. Known slow paths are named beside the programs that show them.
"""
import collections
import math
import time

import numpy as np
import pytest

from klong import KlongInterpreter
from klong.runtime.values import Char

from bench_core import BACKENDS, on_fresh_stack

GOAL = 10.0
TIMED_SECONDS = 0.4         # rounds per case: about this long in all, 3 to 50 of them


class Program:
    """One program: Klong definitions, the timed Klong expression, the inputs at size n (a
    dict of global name -> Python value), the baseline (a function of the inputs giving a
    callable), agree(klong result, baseline result), and the three sizes."""

    def __init__(self, title, define, src, inputs, baseline, agree, sizes, note=""):
        self.title, self.define, self.src = title, define, src
        self.inputs, self.baseline, self.agree = inputs, baseline, agree
        self.sizes, self.note = sizes, note


def _rng(n):
    return np.random.default_rng(1000 + n)


# ---------------------------------------------------------------- word frequencies

def _words(n):
    vocabulary = ["w%d" % i for i in range(500)]
    picks = _rng(n).zipf(1.3, n) % len(vocabulary)
    return {"t": " ".join(vocabulary[i] for i in picks) + " "}


def _word_counts(d):
    return lambda: collections.Counter(d["t"].split())


def _same_counts(klong, counts):
    return {str(w).strip(): int(c) for w, c in klong} == dict(counts)


# ---------------------------------------------------------------- CSV

def _csv(n):
    m = np.round(_rng(n).random((n, 8)) * 1000, 2)
    text = "".join(",".join("%.2f" % v for v in row) + "\n" for row in m)
    return {"t": text, "nl": Char("\n")}


def _csv_baseline(d):
    def run():
        text = d["t"]
        columns = text[:text.index("\n")].count(",") + 1
        m = np.array(text.replace(",", " ").split(), dtype=np.float64).reshape(-1, columns)
        return m.sum(0) / len(m), m.max(1)
    return run


def _same_csv(klong, base):
    return np.allclose(np.asarray(klong[0], float), base[0], rtol=1e-12) \
        and np.array_equal(np.asarray(klong[1], float), base[1])


# ---------------------------------------------------------------- k-means

def _points(n):
    rng = _rng(n)
    centres = np.array([[0.0, 0.0], [5.0, 5.0], [0.0, 5.0], [5.0, 0.0]])
    p = centres[np.arange(n) % 4] + rng.normal(0, 0.8, (n, 2))
    return {"X": p[:, 0].copy(), "Y": p[:, 1].copy(), "C": p[:4].copy()}


def _kmeans_baseline(d):
    p = np.stack([d["X"], d["Y"]], 1)

    def run():
        c = d["C"]
        for _ in range(5):
            dist = ((p[:, None, :] - c[None, :, :]) ** 2).sum(2)
            a = dist.argmin(1)
            c = np.array([p[a == j].mean(0) for j in range(len(c))])
        return c
    return run


def _close(klong, base):
    return np.allclose(np.asarray(klong, float), base, rtol=1e-9, atol=1e-12)


# ---------------------------------------------------------------- prime sieve

def _sieve_baseline(d):
    def run():
        n = d["n"]
        s = np.ones(n, dtype=bool)
        s[:2] = False
        for i in range(2, math.isqrt(n - 1) + 1):
            if s[i]:
                s[i * i::i] = False
        return np.flatnonzero(s)
    return run


def _equal(klong, base):
    return np.array_equal(np.asarray(klong), np.asarray(base))


# ---------------------------------------------------------------- Game of Life

def _grid(n):
    return {"g": (_rng(n).random((n, n)) < 0.3).astype(np.int64)}


def _life_baseline(d):
    def run():
        g = d["g"]
        for _ in range(10):
            h = g + np.roll(g, 1, 1) + np.roll(g, -1, 1)
            nb = h + np.roll(h, 1, 0) + np.roll(h, -1, 0) - g
            g = ((nb == 3) | (g & (nb == 2))).astype(np.int64)
        return g
    return run


# ---------------------------------------------------------------- moving statistics

def _series(n):
    return {"v": _rng(n).random(n)}


def _moving_baseline(d):
    def run():
        x, w = d["v"], 10
        s = np.concatenate(([0.0], np.cumsum(x)))
        q = np.concatenate(([0.0], np.cumsum(x * x)))
        m = (s[w:] - s[:-w]) / w
        return np.stack([m, (q[w:] - q[:-w]) / w - m * m])
    return run


# ---------------------------------------------------------------- a string of numbers

def _string_baseline(d):
    return lambda: ",".join([str(i * 7) for i in range(d["n"])])


# ---------------------------------------------------------------- counting into a dictionary

def _keys(n):
    return {"xs": _rng(n).integers(0, 100, n)}


def _count_baseline(d):
    return lambda: collections.Counter(d["xs"].tolist())


def _same_dict(klong, counts):
    return {int(k): int(v) for k, v in klong.items()} == dict(counts)


# ---------------------------------------------------------------- recursion over a tree

def _tree(depth, first=0):
    return first if depth == 0 else [_tree(depth - 1, 3 * first + i) for i in range(3)]


def _tree_baseline(d):
    t = _tree(d["depth"])

    def total(x):
        return x if type(x) is int else sum(total(e) for e in x)
    return lambda: total(t)


# ---------------------------------------------------------------- Gauss-Jordan inversion

def _matrix(n):
    return {"A": _rng(n).random((n, n)) + n * np.eye(n)}


def _gauss_jordan_baseline(d):
    def run():
        a = d["A"]
        n = len(a)
        a = np.concatenate([a, np.eye(n)], 1)
        for i in range(n):
            r = a[i] / a[i, i]
            a = a - np.outer(a[:, i], r)
            a[i] = r
        return a[:, n:]
    return run


def _inverse(klong, base):
    return _close(klong, base)


PROGRAMS = {
    "wordfreq": Program(
        "word frequencies of a text", "wf::{[w g];w::(1+(-1)_x?0c ):_x;g::=w;(w@*'g),'#'g}",
        "wf(t)", _words, _word_counts, _same_counts, (1000, 10000, 100000)),
    "csv": Program(
        "CSV rows to a matrix, column means and row maxima",
        "csv::{[t c v m];t::(x:=(0c ),x?0c,):=(0c ),x?nl;c::1+#((*x?nl)#x)?0c,;"
        "v::.rs(\"[\",t,\"]\");m::(((#v):%c),c):^v;(,(+/m)%#m),,|/'m}",
        "csv(t)", _csv, _csv_baseline, _same_csv, (1000, 10000, 100000)),
    "kmeans": Program(
        "k-means, 4 centres, 5 steps, points in the plane",
        "km::{[c a];c::x;{[d];d::{((X-x@0)^2)+(Y-x@1)^2}'c;a::{*<x}'+d;"
        "c::{[i];i::&a=x;((+/X@i)%#i),(+/Y@i)%#i}'!#c}'!y;c}",
        "km(C;5)", _points, _kmeans_baseline, _close, (1000, 10000, 100000)),
    "sieve": Program(
        "prime sieve (Amend of the multiples of each prime)",
        "sieve::{[s n];n::x;s::n#,1;s::s:=0,0,1;"
        "{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s}",
        "sieve(n)", lambda n: {"n": n}, _sieve_baseline, _equal, (1000, 10000, 100000),
        note="per number the loop's test and index; per prime the Amend at 0,(x*x)+x*!k "
             "written as a slice (passes/progressions.py), ~10 us of Klong steps"),
    "life": Program(
        "Game of Life, 10 generations on an n x n torus",
        "life::{[h n];h::x+({1:+x}'x)+{(-1):+x}'x;n::(h+(1:+h)+(-1):+h)-x;(n=3)|x&n=2}",
        "10{life(x)}:*g", _grid, _life_baseline, _equal, (32, 64, 128)),
    "moving": Program(
        "moving mean and variance, window 10 (prefix sums)",
        "ms::{[s q m];s::0,+\\x;q::0,+\\x*x;m::((y_s)-(-y)_s)%y;(,m),,(((y_q)-(-y)_q)%y)-m*m}",
        "ms(v;10)", _series, _moving_baseline, _close, (10000, 100000, 1000000)),
    "numbers_text": Program(
        "a string of numbers, comma-separated", "", "{x,\",\",y}/{$x*7}'!n",
        lambda n: {"n": n}, _string_baseline, lambda a, b: a == b, (1000, 10000, 100000)),
    "count_dict": Program(
        "counting into a dictionary",
        "cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d}",
        "cnt(xs)", _keys, _count_baseline, _same_dict, (1000, 10000, 100000),
        note="a lambda call per element (one find, a conditional, the entry: ~0.35 us)"),
    "tree": Program(
        "recursion over a tree of lists (sum of the leaves)",
        "mk::{:[x=0;y;mk(x-1;)'(3*y)+!3]};sm::{:[@x;x;+/sm'x]};t::mk(depth;0)",
        "sm(t)", lambda n: {"depth": n}, _tree_baseline, lambda a, b: a == b, (5, 7, 9),
        note="a call per node, its +/ of the results as they come (~1.8 us a node)"),
    "gauss_jordan": Program(
        "Gauss-Jordan inversion of an n x n matrix",
        "gj::{[a n];n::#x;a::x,'{1.0*x=!n}'!n;"
        "{[r];r::a@x;r::r%r@x;a::a-{x*r}'{y@x}(x;)'a;a::(x#a),(,r),(x+1)_a}'!n;{n_x}'a}",
        "gj(A)", _matrix, _gauss_jordan_baseline, _inverse, (10, 20, 40),
        note="per pivot a dozen verbs, ~60 us at n=10: {x*r}'c ~11 us, {y@x}(x;)'a ~6 us, "
             "a join ~3 us"),
}

CASES = [(name, n, backend) for name, p in PROGRAMS.items() for n in p.sizes
         for backend in BACKENDS]


def group(name, n, backend):
    return f"{name}@{n}[{backend}]"


def _prepared(name, n, backend):
    """An interpreter on `backend` with the program defined and its inputs at size n, and
    the baseline's callable for the same inputs."""
    p = PROGRAMS[name]
    data = p.inputs(n)
    k = KlongInterpreter(backend=backend, device="cpu" if backend == "torch" else None)
    for key, value in data.items():
        k[key] = value
    if p.define:
        k(p.define)
    return k, p.baseline(data)


def _rounds(fn):
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    return max(3, min(50, int(TIMED_SECONDS / max(once, 1e-6))))


@pytest.mark.parametrize("name, n, backend, side",
                         [(name, n, backend, side) for name, n, backend in CASES
                          for side in ("klong", "baseline")])
@on_fresh_stack
def test_program(benchmark, name, n, backend, side):
    p = PROGRAMS[name]
    benchmark.group = group(name, n, backend)
    k, base = _prepared(name, n, backend)
    if side == "baseline":
        fn = base
    else:
        fn = lambda: k(p.src)       # noqa: E731
        result = fn()               # warm-up (parse and code caches), and the check
        assert p.agree(result, base()), f"{name} at {n}: Klong and the baseline differ"
    benchmark.pedantic(fn, rounds=_rounds(fn), iterations=1, warmup_rounds=1)


# ---------------------------------------------------------------- the table's rows

def rows_for_ratios(programs=None):
    """(title, backend, group, label, goal) for every program (of PROGRAMS unless given), size
    and backend, for ratios.py's table: the goal is set on numpy."""
    out = []
    for name, p in (PROGRAMS if programs is None else programs).items():
        for backend in BACKENDS:
            for n in p.sizes:
                out.append((f"{p.title}, n={n}", backend, group(name, n, backend),
                            "Python/numpy", GOAL if backend == "numpy" else None))
    return out


def growth_rows(groups, programs=None):
    """[program, backend, sizes, ratios at each size, Klong's growth, the baseline's] from
    the first size to the last, where all of them were measured (PROGRAMS unless given)."""
    out = []
    for name, p in (PROGRAMS if programs is None else programs).items():
        for backend in BACKENDS:
            pairs = [groups.get(group(name, n, backend), {}) for n in p.sizes]
            if not all("klong" in g and "baseline" in g for g in pairs):
                continue
            ratios = " / ".join("%.1fx" % (g["klong"] / g["baseline"]) for g in pairs)
            out.append([name, backend, "/".join(str(n) for n in p.sizes), ratios,
                        "%.0fx" % (pairs[-1]["klong"] / pairs[0]["klong"]),
                        "%.0fx" % (pairs[-1]["baseline"] / pairs[0]["baseline"]),
                        p.note])
    return out
