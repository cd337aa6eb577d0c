"""Run the benchmarks and print Klong beside its baselines, as a table.

    python3 tests/benchmarks/ratios.py [--check] [--json FILE] [--markdown] [pytest args]

Runs bench_core.py (and bench_autograd.py, bench_programs.py, bench_independent.py, and
bench_gpu.py where there is a CUDA device) through
pytest-benchmark, pairs each group's Klong test with its baseline measured in the same run,
adds start-up as whole processes (bench_startup.py: the best of alternating pairs), and prints
for every workload and backend: the best Klong time, the best baseline time, their ratio, the
issue's goal and whether it holds; then, for the programs of bench_programs.py and
bench_independent.py, their ratios at each size and how Klong's time and the baseline's grow
from the first size to the last. Best of N rounds, not the median: the machine is shared,
and the best time is the one least disturbed by others.

Other Klongs, when they are here, get columns of their own (the same Klong text, best of 5):
kg, the reference interpreter in C (the executable named by $KG, else `kg` on PATH; run
with -u, unlimited memory, without which it collects garbage for minutes at a million
elements), and KlongPy (when `import klongpy` works).

The array libraries run on one thread (OMP_NUM_THREADS and friends, unless set): Klong and
its baselines alike, so the ratios compare the interpreters, not the thread scheduling.

--check exits with 1 when a goal is missed; --markdown prints the table README.md shows;
other arguments go to pytest (e.g. -k fib; with -k, the start-up rows run only when the
word is part of their name, "startup"; --no-startup leaves them out). --depth-scan skips
pytest and prints the Klong fib(18) time against the number of Python frames below the
call (see bench_core.py).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BENCH_FILES = [os.path.join(HERE, f)
               for f in ("bench_core.py", "bench_autograd.py", "bench_programs.py", "bench_gpu.py",
                         "bench_independent.py")]
OTHER_ROUNDS = 5
# The array libraries run single-threaded unless these are set: on a shared machine their
# worker threads wait for each other (a 256x16 tanh took 40 ms with two, 40 us with one)
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
# glibc gives large freed blocks back to the system, or keeps them, depending on what the
# process did before (its thresholds move): then every new array of a workload costs page
# faults, or none. Fixed thresholds keep them all: a workload's time no longer depends on
# the workloads measured before it (where of 100,000 numbers: 0.3 ms or 1.2 ms otherwise)
MALLOC = {"MALLOC_MMAP_THRESHOLD_": str(64 * 2 ** 20), "MALLOC_TRIM_THRESHOLD_": str(2 ** 30)}

sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)


def run_pytest(json_path, extra):
    env = dict(os.environ)
    for threads in THREAD_VARIABLES:            # see the module docstring
        env.setdefault(threads, "1")
    for variable, value in MALLOC.items():
        env.setdefault(variable, value)
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, "-m", "pytest", *BENCH_FILES, "--benchmark-only",
           "--benchmark-json=" + json_path, "-q", "-p", "no:cacheprovider", *extra]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode not in (0, 5):         # 5: -k selected none (the start-up rows only)
        sys.stdout.write(proc.stdout)
        raise SystemExit("pytest failed (exit %d)" % proc.returncode)


def best_by_group(data):
    """{group: {"klong": seconds, "baseline": seconds}} from pytest-benchmark's JSON."""
    out = {}
    for bench in data["benchmarks"]:
        name = bench["name"]
        side = "klong" if name.endswith("-klong]") or name.split("[")[0].endswith("_klong") \
            else "baseline"
        out.setdefault(bench["group"], {})[side] = bench["stats"]["min"]
    return out


def startup_groups(pytest_args):
    """The start-up rows, unless a -k selects something else."""
    from bench_startup import ROWS, startup_groups as measure
    env = dict(os.environ)
    for threads in THREAD_VARIABLES:
        env.setdefault(threads, "1")
    names = list(ROWS)
    if "-k" in pytest_args:
        word = pytest_args[pytest_args.index("-k") + 1]
        names = [n for n in names if word in n]
    return measure(names, env=env) if names else {}


def fmt_time(seconds):
    if seconds is None:
        return "-"
    if seconds >= 1.0:
        return "%.2f s" % seconds
    if seconds >= 1e-3:
        return "%.2f ms" % (seconds * 1e3)
    return "%.1f us" % (seconds * 1e6)


# ---------------------------------------------------------------- other Klongs

def kg_executable():
    path = os.environ.get("KG") or shutil.which("kg")
    return path if path and os.access(path, os.X_OK) else None


def time_kg(kg, setup, src):
    """Best of OTHER_ROUNDS of `src` in kg, timed by kg itself (.pc, process time)."""
    rounds = [f"s::.pc();{src};r::r&.pc()-s" for _ in range(OTHER_ROUNDS)]
    program = "\n".join([setup, "r::1.0e9"] + rounds + [".p(r)", ""])
    with tempfile.NamedTemporaryFile("w", suffix=".kg", delete=False) as f:
        f.write(program)
    try:
        proc = subprocess.run([kg, "-u", f.name], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, text=True, timeout=600)
        return float(proc.stdout.strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, ValueError, IndexError):
        return None
    finally:
        os.unlink(f.name)


def time_klongpy(setup, src):
    try:
        from klongpy import KlongInterpreter
        k = KlongInterpreter()
        if setup:
            k(setup)
        k(src)
        times = []
        for _ in range(OTHER_ROUNDS):
            start = time.perf_counter()
            k(src)
            times.append(time.perf_counter() - start)
        return min(times)
    except Exception:
        return None


def other_klongs(workloads, groups):
    """{column: {workload: seconds}} for kg and KlongPy, where they are installed."""
    columns = {}
    kg = kg_executable()
    if kg:
        columns["kg"] = {name: time_kg(kg, w.setup, w.src) for name, w in workloads.items()
                         if w.kg and f"{name}[numpy]" in groups}
    try:
        import klongpy  # noqa: F401
        columns["KlongPy"] = {name: time_klongpy(w.setup, w.src) for name, w in workloads.items()
                              if w.kg and f"{name}[numpy]" in groups}
    except ImportError:
        pass
    return columns


# ---------------------------------------------------------------- the table

def rows(groups, columns):
    from bench_core import WORKLOADS
    from bench_autograd import ROWS as AUTOGRAD_ROWS
    from bench_gpu import ROWS as GPU_ROWS
    from bench_startup import ROWS as STARTUP_ROWS
    from bench_programs import rows_for_ratios
    from bench_independent import rows_for_ratios as independent_rows
    entries = [(w.title, backend, f"{name}[{backend}]", w.label, w.goal_on(backend),
                w.kg and backend == "numpy", name)
               for name, w in WORKLOADS.items() for backend in w.backends]
    entries += [(title, backend, group, label, goal, False, group)
                for title, backend, group, label, goal in rows_for_ratios() + independent_rows()]
    entries += [(title, backend, group, label, goal, False, group)
                for group, (title, backend, label, goal) in {**AUTOGRAD_ROWS, **GPU_ROWS}.items()]
    entries += [(title, backend, group, label, goal, False, group)
                for group, (title, backend, label, goal, _, _) in STARTUP_ROWS.items()]
    missed = []
    out = []
    for title, backend, group, label, goal, compared, name in entries:
        pair = groups.get(group, {})
        if "klong" not in pair or "baseline" not in pair:
            continue
        kl, base = pair["klong"], pair["baseline"]
        ratio = kl / base
        goal_text, holds = "-", "-"
        if goal is not None:
            goal_text = "<= %gx" % goal
            holds = "yes" if ratio <= goal else "NO"
            if ratio > goal:
                missed.append(group)
        others = []
        for column in columns.values():
            t = column.get(name) if compared else None
            others.append(fmt_time(t) if t is not None else "-")
        out.append([title, backend, fmt_time(kl), f"{fmt_time(base)} ({label})",
                    "%.2fx" % ratio, goal_text, holds] + others)
    return out, missed


def render(header, body, markdown):
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body])
    widths = [max(len(str(r[i])) for r in [header] + body) for i in range(len(header))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in [header] + body]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def depth_scan(max_depth=120, step=4, repeats=5):
    """Print fib(18) best times (ms) with `pad` extra frames under the call."""
    import threading
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
        return min(times) * 1e3

    def padded(pad):
        return timed() if pad == 0 else padded(pad - 1)

    results = []
    worker = threading.Thread(target=lambda: results.extend(
        (pad, padded(pad)) for pad in range(0, max_depth + 1, step)))
    worker.start()
    worker.join()
    print("fib(18) best ms by extra stack depth (frames), fresh thread:")
    for i in range(0, len(results), 8):
        print("  " + "  ".join("%3d:%6.2f" % r for r in results[i:i + 8]))
    return 0


def main(argv):
    if "--depth-scan" in argv:
        return depth_scan()
    check = "--check" in argv
    markdown = "--markdown" in argv
    startup = "--no-startup" not in argv
    args = [a for a in argv if a not in ("--check", "--markdown", "--no-startup")]
    json_out = None
    if "--json" in args:
        i = args.index("--json")
        json_out = args[i + 1]
        del args[i:i + 2]
    path = json_out or tempfile.mkstemp(suffix=".json", prefix="klong-bench-")[1]
    try:
        run_pytest(path, args)
        with open(path) as f:
            text = f.read()
        data = json.loads(text) if text.strip() else {"benchmarks": []}
    finally:
        if json_out is None:
            os.unlink(path)
    from bench_core import WORKLOADS
    groups = best_by_group(data)
    if startup:
        groups.update(startup_groups(args))
    columns = other_klongs(WORKLOADS, groups)
    body, missed = rows(groups, columns)
    header = ["workload", "backend", "klong", "baseline", "ratio", "goal", "holds"] + list(columns)
    machine = data.get("machine_info", {})
    print("python %s, %s, %s cpu(s); best of N rounds; ratio = klong / baseline" % (
        machine.get("python_version", "?"),
        machine.get("cpu", {}).get("brand_raw", machine.get("processor", "?")), os.cpu_count()))
    print(render(header, body, markdown))
    from bench_programs import growth_rows
    from bench_independent import growth_rows as independent_growth
    growth = growth_rows(groups) + independent_growth(groups)
    if growth:
        print("\nprograms: ratio at each size, and growth from the first size to the last")
        print(render(["program", "backend", "sizes", "ratios", "klong growth",
                      "baseline growth", "known slow path"], growth, markdown))
    if missed:
        print("\ngoals missed: " + ", ".join(missed))
    return 1 if (check and missed) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
