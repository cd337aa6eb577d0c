"""Small arrays on the torch backend on a CPU (issue 35): the Klong programs of programs/
(k-means of 1,000 points, Game of Life on 30x30) on both backends, beside the same steps
written by hand in numpy and in torch, which give each library's own floor.

    python3 tests/benchmarks/small_torch.py [rounds]

Prints the best of `rounds` runs (default 20) of each, in milliseconds. Runs on one thread
(as ratios.py does): torch's worker threads only add waiting at these sizes. Not a test.
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
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
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
    """The steps of programs/life.kg in the library xp."""
    roll = xp.roll
    g = xp.zeros((n, n), dtype=xp.int64)
    for r, c in [(1, 2), (2, 3), (3, 1), (3, 2), (3, 3), (14, 15), (14, 16), (15, 14),
                 (15, 15), (16, 15)]:
        g[r, c] = 1
    for _ in range(generations):
        c = sum(roll(roll(g, dr, 0), dc, 1) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if dr or dc)
        g = ((c == 3) | ((g == 1) & (c == 2))).to(xp.int64) if xp is torch \
            else ((c == 3) | ((g == 1) & (c == 2))).astype(np.int64)
    return g


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


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
