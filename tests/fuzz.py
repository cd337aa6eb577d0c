#!/usr/bin/env python3
"""Fuzzing klong: run many generated and mutated Klong programs and report every input after
which something other than a proper Klong error came out.

A finding is any of:
  - a Python exception other than KlongError escaping `KlongInterpreter.run`;
  - printing a result (`write`, `show`) or converting it for Python (`to_python`) failing
    other than as the REPL reports it (a condition of the machine, such as a value nested
    too deep to print, is its Klong error there: a recursion error, say);
  - a KlongError of kind "internal" (a bug of ours, by definition);
  - a KlongError whose message or report's first line spans more than one line.
An input that runs past its time limit is counted, not reported: generated loops may never end.

Inputs come from three sources (see `program`): token soup from Klong's alphabet, random
expression trees, and mutations of the conformance cases (../shared/conformance/nmh.jsonl
beside the checkout). tests/test_fuzz.py runs a small deterministic share of this in the test
suite; run this script for minutes to look further:

    python3 tests/fuzz.py --count 400000 --backend both --jobs 2
    python3 tests/fuzz.py --replay findings.txt        # re-run the inputs of a report

Each worker process limits its own address space (--memory-gb), so that an allocation the
size guard did not stop shows up as a finding instead of taking the machine.
"""
import argparse
import contextlib
import io
import json
import os
import random
import re
import signal
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from klong import KlongError, KlongInterpreter  # noqa: E402
from klong.runtime.display import show, write  # noqa: E402
from klong.errors import as_klong_error  # noqa: E402
from klong.runtime.pyconv import to_python  # noqa: E402

# beside the checkout, as CI lays it out; KLONG_FUZZ_CASES names another place
CASES = Path(os.environ.get("KLONG_FUZZ_CASES")
             or ROOT.parent / "shared" / "conformance" / "nmh.jsonl")

# System functions that reach outside the interpreter (files, processes, Python, exiting):
# removed from every fuzzed interpreter.
UNSAFE = (".ac", ".oc", ".ic", ".df", ".sys", ".x", ".l", ".py", ".pya", ".pyc", ".pyf",
          ".compile", ".compilex", ".export")
MAX_ELEMENTS = 10**6          # a small size guard keeps every input cheap

# ---------------------------------------------------------------- Klong's alphabet

NUMBERS = ["0", "1", "2", "3", "-1", "10", "255", "256", "1000", "-7", "0.0", "1.5", "-0.5",
           "1e5", "1e-300", "1e308", "3.14", "0.1", "2^63", "9223372036854775807",
           "-9223372036854775808", "4611686018427387904", "10^20", "10^400", "-10^400",
           "2^-1075", "0x1F", "0b101", "123456789012345678901234567890"]
TEXTS = ['"abc"', '""', '"a"', '"hello world"', '"a""b"', "0ca", "0c ", '0c"', ":a", ":foo",
         ":b.c"]
LISTS = ["[]", "[1 2 3]", "[[1 2] [3 4]]", "[1 2.5]", '["a" 1 :b]', "[[]]", "[[1] [2 3]]",
         "[0.5 1.5]", "[9223372036854775807 1]", "[-9223372036854775808]", ":{}",
         ":{[1 2] [:a 3]}", "!0", "!5", "!10", "1+!4", '"xyz"', "[[[1]]]",
         "[[1 2 3] [4 5 6] [7 8 9]]", "[1e308 -1e308]"]
NAMES = ["x", "y", "z", "a", "b", "f", "g", "h", "d", "m", "it"]
FUNCTIONS = ["{x}", "{x+y}", "{x*2}", "{1}", "{x,y}", "{x;y;z}", "{[a];a::x;a}", "{x@0}",
             "{#x}", "{x+y+z}", "{:[x;1;0]}", "{.p(x)}"]
MONADS = list("!#$%&*+,-<=>?@^_|~") + [":#", ":_", "∇", "˙"]
DYADS = list("!#$%&*+,-<=>?@^_|~") + [":#", ":$", ":%", ":+", ":-", ":=", ":^", ":_", ":@",
                                        ":>", "::", "∂", "∇"]
ADVERBS = ["'", "/", "\\", ":'", ":\\", ":/", ":~", ":*", "\\~", "\\*"]
SYSTEM = [".p", ".d", ".w", ".rs", ".E", ".jacobian", ".hessian", ".gradcheck", ".module",
          ".comment", ".rn", ".pc", ".tc", ".fc", ".cc", ".fl", ".r", ".rl", ".mi", ".bkd"]
PUNCTUATION = ["(", ")", "{", "}", "[", "]", ";", ":[", ":|", ":", "\n", " ", "  ", ":\"c\"",
               "::", "'", ".", "0c", '"']
EXTREMES = ["0", "-1", "2^63", "-2^63", "10^400", "-10^400", "1e308", "-1e308", "1e-320",
            "0.0", "[]", '""', "!0", "2147483648", "65536", "1e10", "[2147483648]",
            "9223372036854775807", "[[]]", ":{}", "{x}", "0c", "(-10^400)", "1e400"]

CHARACTERS = "!#$%&*+,-<=>?@^_|~:;'/\\()[]{}\"0123456789.e xyzabfc\n\r\t\x00é∇"

ATOMS = NUMBERS + TEXTS + LISTS + NAMES
TOKENS = ATOMS + FUNCTIONS + MONADS + DYADS + ADVERBS + SYSTEM + PUNCTUATION


# ---------------------------------------------------------------- programs

def token_soup(rng):
    """A short sequence of Klong tokens, mostly nonsense: exercises the reader."""
    return " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 12))).replace(" \n ", "\n")


def expression(rng, depth=0):
    """A random well-formed expression: exercises the verbs and adverbs."""
    kind = rng.random() if depth < 4 else 0.0
    if kind < 0.3:
        return rng.choice(ATOMS)
    if kind < 0.45:
        return f"{rng.choice(MONADS)}{expression(rng, depth + 1)}"
    if kind < 0.7:
        return f"({expression(rng, depth + 1)}){rng.choice(DYADS)}{expression(rng, depth + 1)}"
    if kind < 0.8:
        verb = rng.choice(DYADS + FUNCTIONS)
        left = f"({expression(rng, depth + 1)})" if rng.random() < 0.5 else ""
        return f"{left}{verb}{rng.choice(ADVERBS)}{expression(rng, depth + 1)}"
    if kind < 0.87:
        args = ";".join(expression(rng, depth + 1) for _ in range(rng.randint(0, 3)))
        return f"{rng.choice(FUNCTIONS + SYSTEM)}({args})"
    if kind < 0.92:
        return ":[" + ";".join(expression(rng, depth + 1) for _ in range(3)) + "]"
    if kind < 0.95:                 # code run from a string: .E quotes it by doubling
        inner = expression(rng, depth + 1).replace('"', '""')
        return f'{rng.choice([".E", ".rs"])}("{inner}")'
    return f"{rng.choice(NAMES[3:])}::{expression(rng, depth + 1)}"


def statements(rng):
    """Two or three expressions run one after the other, on one line or on several."""
    sep = rng.choice([";", "\n"])
    return sep.join(expression(rng) for _ in range(rng.randint(2, 3)))


def load_cases(path=CASES):
    """The conformance cases as source texts (setup, then expression); [] without the file."""
    if not Path(path).is_file():
        return []
    sources = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                case = json.loads(line)
                setup = case.get("setup") or ""
                sources.append((setup + "\n" if setup else "") + case["expr"])
    return sources


_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?(e-?[0-9]+)?")


def mutate(rng, source):
    """`source` changed in one to three places."""
    for _ in range(rng.randint(1, 3)):
        choice = rng.random()
        pos = rng.randint(0, len(source))
        if choice < 0.3:
            numbers = list(_NUMBER.finditer(source))
            if numbers:
                m = rng.choice(numbers)
                source = source[:m.start()] + rng.choice(EXTREMES) + source[m.end():]
                continue
        if choice < 0.55:
            source = source[:pos] + rng.choice(TOKENS) + source[pos:]
        elif choice < 0.7:
            end = min(len(source), pos + rng.randint(1, 4))
            source = source[:pos] + source[end:]
        elif choice < 0.8:
            end = min(len(source), pos + rng.randint(1, 10))
            source = source[:pos] + source[pos:end] * 2 + source[end:]
        elif choice < 0.85:
            source = source[:pos] + rng.choice(MONADS + DYADS + ADVERBS) + source[pos:]
        elif choice < 0.92:
            source = source[:pos] + rng.choice(CHARACTERS) + source[pos:]
        else:
            source = source[:pos] + rng.choice(EXTREMES) + source[pos:]
    return source


def program(rng, cases):
    """One fuzz input: token soup, an expression, or a mutated conformance case."""
    choice = rng.random()
    if cases and choice < 0.45:
        return mutate(rng, rng.choice(cases))
    if choice < 0.7:
        return expression(rng)
    if choice < 0.8:
        return statements(rng)
    if choice < 0.9:
        return mutate(rng, expression(rng))
    return token_soup(rng)


# ---------------------------------------------------------------- running one input

class OutOfTime(BaseException):
    """Raised by the timer; a BaseException, so the interpreter never takes it for an
    error of the program."""


def _alarm(signum, frame):
    raise OutOfTime()


# names the generated programs use, defined so that fewer inputs stop at "undefined"
PRELUDE = 'a::[1 2 3];b::"abc";f::{x+1};g::{x,y};h::{x*y*z};d:::{[1 2] [:a "x"]};m::[[1 2] [3 4]]'


def fuzz_interpreter(backend):
    interp = KlongInterpreter(backend=backend, max_elements=MAX_ELEMENTS)
    for name in UNSAFE:
        interp.globals.pop(name, None)
    interp.run(PRELUDE)
    return interp


def check(backend, source, seconds=2.0):
    """Run one input in a fresh interpreter. Returns None when all is well, "timeout" when
    it ran out of time, else a one-line description of the finding."""
    interp = fuzz_interpreter(backend)
    try:
        with sandbox(seconds):
            try:
                value = interp.run(source)
                if value is not None:
                    _print(value)
            except KlongError as e:
                return _bad_error(e)
    except OutOfTime:
        return "timeout"
    except RecursionError:
        return "RecursionError escaped"
    except Exception as e:  # the finding itself
        return f"{type(e).__name__} escaped: {_short(e)}"
    return None


@contextlib.contextmanager
def sandbox(seconds):
    """Run a with-block with its output captured (the buffer is yielded), no standard input,
    and OutOfTime raised once `seconds` have passed."""
    out = io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), \
                mock.patch.object(sys, "stdin", io.StringIO("")):
            yield out
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _print(value):
    """Print a value as the REPL does: in its guard, which turns a condition of the machine
    (a value nested too deep to print, say) into its Klong error and a bug into "internal"."""
    try:
        write(value)
        show(value)
        to_python(value)
    except Exception as e:
        raise as_klong_error(e) from e


def _bad_error(e):
    """What is wrong with a KlongError, or None."""
    if e.kind == "internal":
        return f"internal error: {_short(e.message)}"
    if not e.message or len(e.message.splitlines()) != 1 or len(str(e).splitlines()) != 1:
        return f"message not one line: {_short(repr(str(e)))}"
    # a report is one line, or for a syntax error three: message, source line, caret
    lines = len(e.report().splitlines())
    if lines != 1 and not (lines == 3 and e.kind == "syntax"):
        return f"report of {lines} lines: {_short(repr(e.report()))}"
    return None


def _short(e):
    return str(e).replace("\n", "\\n")[:200]


# ---------------------------------------------------------------- the long run

def _worker(job):
    """Run `count` inputs from `seed` on `backend`; returns (backend, counts, findings)."""
    backend, seed, count, memory_gb, case_path = job
    try:
        import resource
        limit = int(memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass
    rng = random.Random(seed)
    cases = load_cases(case_path)
    counts = {"inputs": 0, "timeouts": 0}
    findings = []
    for _ in range(count):
        source = program(rng, cases)
        result = check(backend, source)
        counts["inputs"] += 1
        if result == "timeout":
            counts["timeouts"] += 1
        elif result is not None:
            findings.append((backend, result, source))
    return backend, counts, findings


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--count", type=int, default=20000, help="inputs per backend")
    p.add_argument("--backend", default="numpy", choices=["numpy", "torch", "both"])
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--memory-gb", type=float, default=4.0, help="address space per worker")
    p.add_argument("--cases", default=str(CASES), help="conformance cases to mutate")
    p.add_argument("--chunk", type=int, default=2000, help="inputs per task")
    p.add_argument("--out", help="write the findings here (one JSON object a line)")
    p.add_argument("--replay", help="run the inputs of a findings file again")
    args = p.parse_args(argv)

    if args.replay:
        return _replay(args.replay)
    backends = ["numpy", "torch"] if args.backend == "both" else [args.backend]
    jobs = []
    for backend in backends:
        for k, start in enumerate(range(0, args.count, args.chunk)):
            n = min(args.chunk, args.count - start)
            jobs.append((backend, args.seed * 1_000_003 + k, n, args.memory_gb, args.cases))
    totals = {b: {"inputs": 0, "timeouts": 0} for b in backends}
    findings = []
    started = time.time()
    import multiprocessing
    with multiprocessing.get_context("spawn").Pool(args.jobs, maxtasksperchild=1) as pool:
        for backend, counts, found in pool.imap_unordered(_worker, jobs):
            for key in counts:
                totals[backend][key] += counts[key]
            findings.extend(found)
            done = sum(t["inputs"] for t in totals.values())
            print(f"{done} inputs, {len(findings)} findings, "
                  f"{time.time() - started:.0f} s", file=sys.stderr, flush=True)
    _report(totals, findings, args.out)
    return 1 if findings else 0


def _report(totals, findings, out):
    for backend, t in totals.items():
        print(f"{backend}: {t['inputs']} inputs, {t['timeouts']} timed out")
    kinds = {}
    for backend, what, source in findings:
        kinds.setdefault((backend, what.split(":")[0]), []).append((what, source))
    for (backend, kind), items in sorted(kinds.items()):
        print(f"\n{backend}: {kind} ({len(items)})")
        for what, source in items[:5]:
            print(f"  {what}\n    input: {source!r}")
    if out:
        with open(out, "w", encoding="utf-8") as f:
            for backend, what, source in findings:
                f.write(json.dumps({"backend": backend, "finding": what, "source": source}) + "\n")
    print(f"\n{len(findings)} findings")


def _replay(path):
    bad = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            item = json.loads(line)
            result = check(item["backend"], item["source"])
            if result not in (None, "timeout"):
                bad += 1
                print(f"{item['backend']}: {result}\n    input: {item['source']!r}")
    print(f"{bad} still failing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
