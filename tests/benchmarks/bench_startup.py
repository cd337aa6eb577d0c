"""Start-up as whole processes: `kgpy -e 1` beside `python3 -c "import numpy"`, and the torch
backend beside `python3 -c "import torch"`.

Not pytest-benchmark: a start-up is one process, and the machine's load moves in seconds,
so the two commands run in alternating pairs (PAIRS of them) and each side's best counts, as
for every other row of ratios.py: the run least disturbed by others.
Both start as an installed package does, from Python's bytecode caches.
ratios.py adds these rows to its table; run alone, this module prints them:

    python3 tests/benchmarks/bench_startup.py
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KGPY = os.path.join(ROOT, "kgpy")
PAIRS = 9

# Group -> (title, backend, baseline label, goal, Klong command, baseline command)
ROWS = {
    "startup[numpy]": ("start-up, `kgpy -e 1`", "numpy", 'python3 -c "import numpy"', 1.3,
                       [KGPY, "-e", "1"], ["-c", "import numpy"]),
    "startup[torch]": ("start-up, `kgpy --backend torch -e 1`", "torch",
                       'python3 -c "import torch"', 1.05,
                       [KGPY, "--backend", "torch", "-e", "1"], ["-c", "import torch"]),
}


def _seconds(args, env):
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL,
                   stdin=subprocess.DEVNULL)
    return time.perf_counter() - start


def startup_groups(names=None, pairs=PAIRS, env=None):
    """{group: {"klong": best seconds, "baseline": best seconds}} for the rows named
    (all by default); one warm-up pair first fills the file system's cache."""
    env = dict(os.environ if env is None else env)
    # as an installed package starts: from the bytecode Python caches (written by the warm-up
    # pair), not compiled from source each time as PYTHONDONTWRITEBYTECODE would have it
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = {}
    for group, (_, backend, _, _, klong, baseline) in ROWS.items():
        if names is not None and group not in names:
            continue
        if backend == "torch":
            try:
                import importlib.util
                if importlib.util.find_spec("torch") is None:
                    continue
            except ImportError:
                continue
        _seconds(klong, env), _seconds(baseline, env)
        times = {"klong": [], "baseline": []}
        for _ in range(pairs):
            times["klong"].append(_seconds(klong, env))
            times["baseline"].append(_seconds(baseline, env))
        out[group] = {side: min(t) for side, t in times.items()}
    return out


if __name__ == "__main__":
    for group, pair in startup_groups().items():
        print("%-16s klong %.1f ms, baseline %.1f ms, ratio %.2fx" % (
            group, pair["klong"] * 1e3, pair["baseline"] * 1e3, pair["klong"] / pair["baseline"]))
