"""Small arrays on the torch backend on a CPU (issue 35): the Klong programs of programs/
(k-means of 1,000 points, Game of Life on 30x30) on both backends, beside the same steps
written by hand in numpy and in torch, which give each library's own floor.

    python3 tests/benchmarks/small_torch.py [rounds]

Prints the best of `rounds` runs (default 20) of each, in milliseconds of the process's CPU
time (one thread: on a shared machine wall time also counts the time others hold the
cores; the same program's CPU time varies far less), then the cost of one
library call on small arrays in both libraries (OPS, microseconds): torch's own per-operation
cost, which no interpreter can remove (docs/torch-settings.md quotes them). Runs on one
thread, as ratios.py does, unless OMP_NUM_THREADS says otherwise. Not a test.
"""
import os
import sys
import time

for _threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

import numpy as np     # noqa: E402
import torch           # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from klong import KlongInterpreter  # noqa: E402

PROGRAMS = {"kmeans": "centres", "life": "final"}


def best(fn, rounds):
    fn()
    times = []
    for _ in range(rounds):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def kmeans(xp, n=1000, k=5, rounds=10):
    """The steps of programs/kmeans.kg in the library xp (numpy or torch)."""
    i = xp.arange(n)
    xs = ((i * 7919) % 1009) / 1009.0
    ys = ((i * 104729) % 1013) / 1013.0
    centres = [(xs[j], ys[j]) for j in range(k)]
    for _ in range(rounds):
        d = [(xs - cx) ** 2 + (ys - cy) ** 2 for cx, cy in centres]
        m = d[0]
        for row in d[1:]:
            m = xp.minimum(m, row)
        centres = []
        for row in d:
            w = xp.nonzero(row == m)[0]
            centres.append((xs[w].sum() / len(w), ys[w].sum() / len(w)))
    return centres


def life(xp, n=30, generations=50):
    """The steps of programs/life.kg in the library xp: the same calls the verbs make (a
    rotation is one roll in torch, two slices joined in numpy; a comparison's truth values
    are made integers)."""
    if xp is torch:
        def roll(a, k):
            return torch.roll(a, k, 0)

        def truth(a):
            return a.to(torch.int64)
    else:
        def roll(a, k):
            k %= a.shape[0]
            return np.concatenate((a[n - k:], a[:n - k]))

        def truth(a):
            return a.astype(np.int64)
    g = xp.zeros((n, n), dtype=xp.int64)
    for r, c in [(1, 2), (2, 3), (3, 1), (3, 2), (3, 3), (14, 15), (14, 16), (15, 14),
                 (15, 15), (16, 15)]:
        g[r, c] = 1
    for _ in range(generations):
        def up(a):
            return roll(a, -1)

        def down(a):
            return roll(a, 1)

        def left(a):
            return roll(a.T, -1).T

        def right(a):
            return roll(a.T, 1).T
        c = up(g) + (down(g) + (left(g) + (right(g) + (up(left(g)) + (up(right(g)) + (
            down(left(g)) + down(right(g))))))))
        g = xp.maximum(truth(c == 3), xp.minimum(g, truth(c == 2)))
    return g


def _ops():
    """(what, torch call, numpy call) on the arrays of the two programs."""
    g, v = torch.zeros((30, 30), dtype=torch.int64), torch.rand(1000, dtype=torch.float64)
    gn, vn = g.numpy().copy(), v.numpy().copy()
    mask, maskn = v > 0.5, vn > 0.5
    idx, idxn = torch.arange(0, 1000, 2), np.arange(0, 1000, 2)
    s, e, m = torch.ones(100000, dtype=torch.int64), torch.arange(4000), torch.rand(40, 80,
                                                                                dtype=torch.float64)
    sn, en, mn = s.numpy().copy(), e.numpy().copy(), m.numpy().copy()
    return [
        ("30x30 integers: a+b", lambda: g + g, lambda: gn + gn),
        ("30x30 integers: 1:+a (one roll / two slices joined)", lambda: torch.roll(g, 1, 0),
         lambda: np.concatenate((gn[29:], gn[:29]))),
        ("30x30 integers: a=3", lambda: g == 3, lambda: gn == 3),
        ("1,000 reals: a-0.5", lambda: v - 0.5, lambda: vn - 0.5),
        ("1,000 reals: a^2", lambda: v ** 2, lambda: vn ** 2),
        ("1,000 reals: sum, as a Python number", lambda: v.sum().item(), lambda: vn.sum().item()),
        ("1,000 reals: positions of a mask", lambda: torch.nonzero(mask).reshape(-1),
         lambda: np.flatnonzero(maskn)),
        ("1,000 reals: 500 picked by index", lambda: v.index_select(0, idx), lambda: vn[idxn]),
        ("a number made an array", lambda: torch.tensor(0.5, dtype=torch.float64),
         lambda: np.float64(0.5)),
        # the steps of the sieve's loop and of Gauss-Jordan's pivots (bench_programs.py)
        ("100,000 integers: one read out as a number (s@x)", lambda: s[7].item(),
         lambda: sn[7].item()),
        ("!4000", lambda: torch.arange(4000), lambda: np.arange(4000, dtype=np.int64)),
        ("4,000 integers: 7*a", lambda: 7 * e, lambda: 7 * en),
        ("4,000 integers: a number joined before them (0,a)",
         lambda: torch.cat((torch.full((1,), 0, dtype=torch.int64), e)),
         lambda: np.concatenate((np.asarray(0, dtype=np.int64)[None], en))),
        ("100,000 integers: every 7th written (an in-place Amend)",
         lambda: s.__setitem__(slice(49, 100000, 7), 0),
         lambda: sn.__setitem__(slice(49, 100000, 7), 0)),
        ("100,000 integers: a copy (an Amend not in place)", lambda: s.clone(),
         lambda: sn.copy()),
        ("40x80 reals: a column (a@x for each row)", lambda: m[:, 3], lambda: mn[:, 3]),
        ("40x80 reals: a-b", lambda: m - m, lambda: mn - mn),
        ("40 and 80 reals: outer product (x*r for each x)", lambda: torch.outer(m[:, 0], m[0]),
         lambda: np.outer(mn[:, 0], mn[0])),
    ]


def per_call(fn, calls=2000, rounds=5):
    fn()
    best_time = min(_timed(fn, calls) for _ in range(rounds))
    return best_time / calls


def _timed(fn, calls):
    start = time.process_time()
    for _ in range(calls):
        fn()
    return time.process_time() - start


def main(rounds):
    for name, result in PROGRAMS.items():
        with open(os.path.join(HERE, "programs", name + ".kg")) as f:
            src = f.read()
        row = [name]
        for backend in ("numpy", "torch"):
            k = KlongInterpreter(backend=backend)
            row.append("klong/%s %.1f ms" % (backend, 1000 * best(lambda: k(src), rounds)))
        hand = {"kmeans": kmeans, "life": life}[name]
        for xp in (np, torch):
            row.append("%s %.1f ms" % (xp.__name__, 1000 * best(lambda: hand(xp), rounds)))
        print("  ".join(row))
    print("one call, best of 5 x 2000 (microseconds): torch  numpy")
    for what, in_torch, in_numpy in _ops():
        print("  %-52s %6.1f %6.1f" % (what, 1e6 * per_call(in_torch), 1e6 * per_call(in_numpy)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
