"""Structural verbs beside the array library doing the same work (pytest-benchmark; not in
the default test run).

    python3 -m pytest tests/benchmarks/bench_structural.py --benchmark-only
    python3 tests/benchmarks/bench_structural.py [--backend numpy|torch] [--size N ...]

Each workload is a Klong expression and the same work written by hand in numpy or torch
("the baseline"), timed in the same run on the same data: best of a few rounds, with the
device synchronised before each clock read (on CUDA a kernel launch returns before the work
is done). Two tables:

ORDERING   grade, sort, group, range and find at 1M and 10M elements (issue 12's limits on
           numpy, issue 9's "within 2x of hand-written torch" on torch).
GROWTH     the structural corners of issue 12 item 4 at two sizes 4x apart: each must grow
           linearly (time ratio near 4) and stay within a small factor of its baseline.

`ordering_ratios()`, `growth_ratios()`, `return_to_python_rows()` and `list_building_rows()`
return the rows (dicts) for other tools such as ratios.py; `print_table()` prints them. The torch backend runs on KLONG_DEVICE when set, else
on the best device (CUDA when there is one).
"""
import os
import sys
import time

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from klong import KlongInterpreter  # noqa: E402
from klong.backends import list_backends  # noqa: E402

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
LETTERS = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)


def host_data(n, seed=1):
    """The data every workload reads, as numpy arrays and a str (the same for each side)."""
    rng = np.random.default_rng(seed)
    return {
        "a": rng.random(n),                               # reals, no ties
        "i": rng.integers(0, 1000, n),                    # integers, 1000 distinct
        "s": LETTERS[rng.integers(0, 26, n)].tobytes().decode("latin-1"),
        "c": rng.integers(97, 123, n),                    # character codes
        "z": np.arange(n),
        "ix": np.arange(0, n, 2),                         # every other index, ascending
        "m": np.arange(n).reshape(-1, 100),               # n/100 rows of 100
    }


# ---------------------------------------------------------------- the hand-written code

def _numpy_group(i):
    _, first, counts = np.unique(i, return_index=True, return_counts=True)
    pieces = np.split(np.argsort(i, kind="stable"), np.cumsum(counts)[:-1])
    return [pieces[j] for j in np.argsort(first)]


def _numpy_range(i):
    return i[np.sort(np.unique(i, return_index=True)[1])]


def _numpy_range_string(s):
    codes = np.frombuffer(s.encode("latin-1"), dtype=np.uint8)
    return codes[np.sort(np.unique(codes, return_index=True)[1])].tobytes().decode("latin-1")


NUMPY = {
    "sort_reals": lambda d: d["a"][np.argsort(d["a"])],
    "grade_down_reals": lambda d: np.argsort(-d["a"]),
    "group_ints": lambda d: _numpy_group(d["i"]),
    "range_ints": lambda d: _numpy_range(d["i"]),
    "range_string": lambda d: _numpy_range_string(d["s"]),
    "find_char": lambda d: np.flatnonzero(np.frombuffer(d["s"].encode("latin-1"),
                                                        dtype=np.uint8) == 120),
    "char_of_codes": lambda d: list(d["c"].astype(np.uint8).tobytes().decode("latin-1")),
    "amend_indices": lambda d: _numpy_amend(d["z"], d["ix"]),
    "transpose": lambda d: d["m"].T,
    "reverse": lambda d: d["z"][::-1],
}


def _numpy_amend(z, ix):
    r = z.copy()
    r[ix] = 0
    return r


def _torch_workloads():
    import torch

    def first_positions(x):
        s, order = torch.sort(x, stable=True)
        starts = torch.cat((torch.zeros(1, dtype=torch.int64, device=x.device),
                            torch.nonzero(s[1:] != s[:-1]).reshape(-1) + 1))
        return order, starts, order[starts]

    def group(x):
        order, starts, first = first_positions(x)
        sizes = torch.diff(torch.cat((starts, torch.tensor([len(x)], device=x.device))))
        pieces = torch.split(order, sizes.tolist())
        return [pieces[j] for j in torch.argsort(first).tolist()]

    def range_(x):
        return x[torch.sort(first_positions(x)[2]).values]

    def codes(s):
        return torch.from_numpy(np.frombuffer(s.encode("latin-1"), dtype=np.uint8).copy())

    def amend(z, ix):
        r = z.clone()
        r[ix] = 0
        return r

    return {
        "sort_reals": lambda d: d["a"][torch.argsort(d["a"])],
        "grade_down_reals": lambda d: torch.argsort(d["a"], descending=True),
        "group_ints": lambda d: group(d["i"]),
        "range_ints": lambda d: range_(d["i"]),
        "range_string": lambda d: "".join(map(chr, range_(codes(d["s"]).to(d["i"].device))
                                              .tolist())),
        "find_char": lambda d: torch.nonzero(codes(d["s"]).to(d["i"].device) == 120)
                                    .reshape(-1),
        "char_of_codes": lambda d: list(d["c"].to(torch.uint8).cpu().numpy().tobytes()
                                        .decode("latin-1")),
        "amend_indices": lambda d: amend(d["z"], d["ix"]),
        "transpose": lambda d: d["m"].T,
        "reverse": lambda d: torch.flip(d["z"], (0,)),
    }


# Klong source of each workload (names as in host_data)
KLONG = {
    "sort_reals": "a@<a",
    "grade_down_reals": ">a",
    "group_ints": "=i",
    "range_ints": "?i",
    "range_string": "?s",
    "find_char": "s?0cx",
    "char_of_codes": ":#c",
    "amend_indices": "z:=0,ix",
    "transpose": "+m",
    "reverse": "|z",
}

ORDERING = ["sort_reals", "grade_down_reals", "group_ints", "range_ints", "range_string",
            "find_char"]
GROWTH = ["char_of_codes", "amend_indices", "transpose", "reverse"]

# the issues' limits on klong time / baseline time
LIMITS = {
    "numpy": {"sort_reals": 1.3, "group_ints": 1.3, "range_ints": 1.3, "range_string": 3.0,
              "find_char": 3.0},
    "torch": {"sort_reals": 2.0, "grade_down_reals": 2.0, "group_ints": 2.0,
              "range_ints": 2.0},
}


# ---------------------------------------------------------------- running

class Side:
    """One backend with its data: a Klong interpreter holding it as globals, and the same
    data as arrays of the library for the hand-written code."""

    def __init__(self, backend, n):
        device = os.environ.get("KLONG_DEVICE") if backend == "torch" else None
        self.k = KlongInterpreter(backend=backend, device=device)
        self.backend = self.k.backend
        if backend == "torch" and self.backend.device.type == "cpu":
            _one_cpu_thread()
        data = host_data(n)
        for name, value in data.items():
            self.k[name] = value
        self.data = {name: self.k.globals[name] for name in data}    # on the device
        self.baselines = NUMPY if backend == "numpy" else _torch_workloads()

    def klong(self, name):
        src = KLONG[name]
        return lambda: self.k.run(src)

    def baseline(self, name):
        fn, data = self.baselines[name], self.data
        return lambda: fn(data)

    def timed(self, fn):
        """fn with the device synchronised after it (so that a clock read after it sees the
        work done)."""
        sync = self.backend.synchronize

        def run():
            result = fn()
            sync()
            return result
        return run


def _one_cpu_thread():
    """torch on the CPU with one thread, on both sides: on a shared machine a parallel torch
    operation waits for its slowest thread, and timings scatter by 10x; set
    KLONG_BENCH_THREADS to keep torch's own choice."""
    if not os.environ.get("KLONG_BENCH_THREADS"):
        import torch
        torch.set_num_threads(1)


def best_of(fn, rounds, min_seconds=0.5, most=200):
    """The least time of `rounds` calls, or of more while they add up to under
    min_seconds (fast workloads get many tries: the least is the least disturbed)."""
    fn()                                     # warm-up: parse cache, lazy imports, caches
    best, spent, count = float("inf"), 0.0, 0
    while count < rounds or (spent < min_seconds and count < most):
        start = time.perf_counter()
        fn()
        took = time.perf_counter() - start
        best, spent, count = min(best, took), spent + took, count + 1
    return best


def _row(side, name, n, rounds):
    klong = best_of(side.timed(side.klong(name)), rounds)
    base = best_of(side.timed(side.baseline(name)), rounds)
    backend = side.backend.name
    return {"name": name, "klong_src": KLONG[name], "backend": backend,
            "device": str(side.backend.device), "size": n, "klong_s": klong,
            "baseline_s": base, "ratio": klong / base,
            "limit": LIMITS.get(backend, {}).get(name)}


def ordering_ratios(backends=None, sizes=(1_000_000, 10_000_000), rounds=3, names=None):
    """Rows for grade/sort/group/range/find: Klong against the hand-written code."""
    rows = []
    for backend in backends or BACKENDS:
        for n in sizes:
            side = Side(backend, n)
            for name in names or ORDERING:
                rows.append(_row(side, name, n, rounds))
    return rows


def growth_ratios(backends=None, size=1_000_000, rounds=3, names=None):
    """Rows for issue 12 item 4's structural corners at size/4 and size; each row also
    gives `growth`, the Klong time at `size` over the time at size/4 (4 is linear)."""
    rows = []
    for backend in backends or BACKENDS:
        small, big = Side(backend, size // 4), Side(backend, size)
        for name in names or GROWTH:
            before = _row(small, name, size // 4, rounds)
            after = _row(big, name, size, rounds)
            after["growth"] = after["klong_s"] / before["klong_s"]
            rows += [before, after]
    return rows


def return_to_python_rows(sizes=(1000, 4000), rounds=3):
    """Returning a value to Python (issue 12 item 4): `k(src)` against the same line run
    without the conversion (`k.run(src)`), where every element shares one dictionary."""
    rows = []
    for n in sizes:
        k = KlongInterpreter()
        src = f"d:::{{}};{{d,x,x*2}}'!{n}"
        rows.append({"name": "return_to_python", "klong_src": src, "backend": "numpy",
                     "device": "cpu", "size": n, "klong_s": best_of(lambda: k(src), rounds),
                     "baseline_s": best_of(lambda: k.run(src), rounds), "limit": None})
        rows[-1]["ratio"] = rows[-1]["klong_s"] / rows[-1]["baseline_s"]
    rows[-1]["growth"] = rows[-1]["klong_s"] / rows[0]["klong_s"]
    return rows


BUILDING = {"pairs_each": "{x,x}'!{n}", "pairs_each2": "(!{n}),'!{n}"}


def list_building_rows(sizes=(5000, 20000), rounds=3):
    """Building many small lists (issue 12 item 4): the torch backend (on the CPU, where
    each small tensor costs most) against the numpy backend running the same line."""
    if "torch" not in BACKENDS:
        return []
    rows = []
    for name, template in BUILDING.items():
        first = None
        for n in sizes:
            src = template.replace("{n}", str(n))
            kt = KlongInterpreter(backend="torch", device="cpu")
            _one_cpu_thread()
            kn = KlongInterpreter()
            row = {"name": name, "klong_src": src, "backend": "torch vs numpy", "device": "cpu",
                   "size": n, "klong_s": best_of(lambda: kt.run(src), rounds),
                   "baseline_s": best_of(lambda: kn.run(src), rounds), "limit": None}
            row["ratio"] = row["klong_s"] / row["baseline_s"]
            if first is None:
                first = row
            else:
                row["growth"] = row["klong_s"] / first["klong_s"]
            rows.append(row)
    return rows


def print_table(rows, out=sys.stdout):
    def ms(s):
        return f"{s * 1e3:.2f} ms"
    header = ["workload", "klong", "backend", "n", "klong time", "baseline", "ratio", "limit",
              "growth"]
    lines = [header]
    for r in rows:
        limit = "-" if r["limit"] is None else f"<= {r['limit']:g}x" + \
            ("" if r["ratio"] <= r["limit"] else " MISSED")
        lines.append([r["name"], r["klong_src"], f"{r['backend']} ({r['device']})",
                      f"{r['size']:,}", ms(r["klong_s"]), ms(r["baseline_s"]),
                      f"{r['ratio']:.2f}x", limit,
                      f"{r['growth']:.2f}" if "growth" in r else ""])
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(header))]
    for line in lines:
        out.write("  ".join(str(c).ljust(w) for c, w in zip(line, widths)).rstrip() + "\n")


# ---------------------------------------------------------------- pytest-benchmark

SIZES = [1_000_000, 10_000_000]
_sides = {}


def _side(backend, n):
    if (backend, n) not in _sides:
        _sides.clear()                       # one data set in memory at a time
        _sides[backend, n] = Side(backend, n)
    return _sides[backend, n]


def _cases(names, sizes):
    return [(b, n, name) for b in BACKENDS for n in sizes for name in names]


@pytest.mark.parametrize("side_name", ["klong", "baseline"])
@pytest.mark.parametrize("backend,n,name",
                         _cases(ORDERING, SIZES) + _cases(GROWTH, [250_000, 1_000_000]))
def test_structural(benchmark, backend, n, name, side_name):
    side = _side(backend, n)
    benchmark.group = f"{name} {backend} n={n:,}"
    benchmark.extra_info["klong"] = KLONG[name]
    fn = side.timed(side.klong(name) if side_name == "klong" else side.baseline(name))
    fn()
    benchmark.pedantic(fn, rounds=3, iterations=1, warmup_rounds=0)


@pytest.mark.parametrize("side_name", ["to_python", "run"])
@pytest.mark.parametrize("n", [1000, 4000])
def test_return_to_python(benchmark, n, side_name):
    k = KlongInterpreter()
    src = f"d:::{{}};{{d,x,x*2}}'!{n}"
    benchmark.group = f"return_to_python n={n}"
    run = k if side_name == "to_python" else k.run
    benchmark.pedantic(run, args=(src,), rounds=3, iterations=1, warmup_rounds=1)


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
@pytest.mark.parametrize("backend", ["torch", "numpy"])
@pytest.mark.parametrize("n", [5000, 20000])
@pytest.mark.parametrize("name", sorted(BUILDING))
def test_list_building(benchmark, name, n, backend):
    k = KlongInterpreter(backend=backend, device="cpu" if backend == "torch" else None)
    if backend == "torch":
        _one_cpu_thread()
    src = BUILDING[name].replace("{n}", str(n))
    benchmark.group = f"{name} n={n}"
    benchmark.pedantic(k.run, args=(src,), rounds=3, iterations=1, warmup_rounds=1)


def main(argv):
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--backend", action="append", choices=BACKENDS)
    p.add_argument("--size", type=int, action="append",
                   help="element count of the ordering table (default: 1M and 10M)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--only", action="append", help="workload name (repeatable)")
    args = p.parse_args(argv)
    sizes = args.size or [1_000_000, 10_000_000]
    ordering = [n for n in ORDERING if not args.only or n in args.only]
    growth = [n for n in GROWTH if not args.only or n in args.only]
    if ordering:
        print_table(ordering_ratios(args.backend, sizes, args.rounds, ordering))
    if growth:
        print()
        print_table(growth_ratios(args.backend, max(sizes), args.rounds, growth))
    if not args.only or "return_to_python" in args.only:
        print()
        print_table(return_to_python_rows(rounds=args.rounds))
    if not args.only or "building" in args.only:
        print()
        print_table(list_building_rows(rounds=args.rounds))


if __name__ == "__main__":
    main(sys.argv[1:])
