"""Run the Klong-vs-baseline benchmarks and print a ratio table.

    python3 tests/benchmarks/ratios.py [--check] [--json FILE] [extra pytest args]

Runs ``tests/benchmarks/bench_core.py`` and ``bench_autograd.py`` through pytest with
``--benchmark-only --benchmark-json`` (to a temporary file unless --json is
given), pairs each group's Klong test with its pure-Python/numpy baseline and
prints: workload, Klong median, baseline median, ratio, and for the workloads
the issue puts a limit on, the limit and whether it holds.

With --check the exit status is 1 when a limit is missed (default: 0, the
table is informational).  Any other arguments go to pytest, e.g. ``-k fib``.

--depth-scan skips pytest and prints the Klong fib(18) time against the
number of extra Python frames below the call (see bench_core.py's docstring:
on CPython 3.11 a recursion that keeps crossing a frame-stack chunk boundary
gets several times slower).
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BENCH_FILE = os.path.join(HERE, "bench_core.py")
BENCH_FILES = [BENCH_FILE, os.path.join(HERE, "bench_autograd.py")]

# Order of the table, Klong source shown, and the limits
# (Klong median / baseline median must be at most this).
ROWS = [
    ("fib", "fib(18)", 60.0),
    ("each_square", "{x*x}'!100000", 40.0),
    ("reduce_add", "{x+y}/!100000", None),
    ("while_count", "{x<10000}{x+1}:~0", None),
    ("sum_squares", "+/a*a  (a::!1000000)", 1.5),
    ("each_cond", "{:[x!2;x;0]}'!100000", None),
    ("grad_100k", "f:>v  (torch, f::{+/x^2}, 1e5 reals)", 3.0),
    ("descent_200_torch", "200 x p::p-0.1*f:>p  (torch)", None),
    ("descent_200_numpy", "200 x p::p-0.1*f:>p  (numpy)", None),
    ("jacobian_50_torch", "v\u2202{x*+/x}  (torch, 50 reals)", None),
    ("jacobian_50_numpy", "v\u2202{x*+/x}  (numpy, 50 reals)", None),
]


def run_pytest(json_path, extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"]
                                if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, "-m", "pytest", *BENCH_FILES, "--benchmark-only",
           "--benchmark-json=" + json_path, "-q", "-p", "no:cacheprovider",
           *extra]
    proc = subprocess.run(cmd, cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout)
        raise SystemExit("pytest failed (exit %d)" % proc.returncode)
    return proc.stdout


def medians_by_group(data):
    """{group: {"klong": seconds, "baseline": seconds}} from the JSON."""
    out = {}
    for bench in data["benchmarks"]:
        side = "klong" if bench["name"].endswith("_klong") else "baseline"
        out.setdefault(bench["group"], {})[side] = bench["stats"]["median"]
    return out


def fmt_time(seconds):
    if seconds >= 1.0:
        return "%.2f s" % seconds
    if seconds >= 1e-3:
        return "%.2f ms" % (seconds * 1e3)
    return "%.1f us" % (seconds * 1e6)


def table(medians):
    header = ("workload", "klong", "klong median", "baseline median",
              "ratio", "limit", "holds")
    rows = []
    missed = []
    for group, src, limit in ROWS:
        pair = medians.get(group, {})
        if "klong" not in pair or "baseline" not in pair:
            continue
        kl, base = pair["klong"], pair["baseline"]
        ratio = kl / base
        if limit is None:
            lim, holds = "-", "-"
        else:
            lim = "<= %gx" % limit
            ok = ratio <= limit
            holds = ("yes" if ok else
                     "NO (%.0f%% over)" % (100.0 * (ratio / limit - 1.0)))
            if not ok:
                missed.append(group)
        rows.append((group, src, fmt_time(kl), fmt_time(base),
                     "%.2fx" % ratio, lim, holds))
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    lines = ["| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths))
             + " |" for r in [header] + rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines), missed


def depth_scan(max_depth=120, step=4, repeats=5):
    """Print fib(18) medians (ms) with `pad` extra frames under the call."""
    import statistics
    import threading
    import time

    sys.path.insert(0, ROOT)
    from klong import KlongInterpreter

    k = KlongInterpreter()
    k("fib::{:[x<2;x;fib(x-1)+fib(x-2)]}")
    k("fib(18)")

    def timed():
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            k("fib(18)")
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1e3

    def padded(pad):
        return timed() if pad == 0 else padded(pad - 1)

    results = []
    worker = threading.Thread(target=lambda: results.extend(
        (pad, padded(pad)) for pad in range(0, max_depth + 1, step)))
    worker.start()
    worker.join()
    print("fib(18) median ms by extra stack depth (frames), fresh thread:")
    for i in range(0, len(results), 8):
        print("  " + "  ".join("%3d:%6.1f" % r for r in results[i:i + 8]))
    fastest = min(t for _, t in results)
    slowest = max(results, key=lambda r: r[1])
    print("fastest %.1f ms, slowest %.1f ms at depth %d (%.1fx)"
          % (fastest, slowest[1], slowest[0], slowest[1] / fastest))
    return 0


def main(argv):
    if "--depth-scan" in argv:
        return depth_scan()
    check = False
    json_out = None
    extra = []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--check":
            check = True
        elif a == "--json":
            json_out = args.pop(0)
        else:
            extra.append(a)

    if json_out is None:
        fd, path = tempfile.mkstemp(suffix=".json", prefix="klong-bench-")
        os.close(fd)
    else:
        path = json_out
    try:
        run_pytest(path, extra)
        with open(path) as f:
            data = json.load(f)
    finally:
        if json_out is None:
            os.unlink(path)

    text, missed = table(medians_by_group(data))
    machine = data.get("machine_info", {})
    print("python %s, %s, %s cpu(s)" % (
        machine.get("python_version", "?"),
        machine.get("cpu", {}).get("brand_raw", machine.get("processor", "?")),
        os.cpu_count()))
    print("ratio = klong median / baseline median\n")
    print(text)
    if missed:
        print("\nlimits missed: " + ", ".join(missed))
    return 1 if (check and missed) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
