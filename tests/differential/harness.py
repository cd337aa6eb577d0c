"""Running one Klong program in the four modes and saying what came out.

An outcome is what a user can see, made comparable: the text the program printed, then
either the value's written form (as the REPL echoes it) and its element-type signature, or
the error's kind, message and line. Two modes agree on a program when their outcomes are
equal, exactly.
"""
import json
import sys
from pathlib import Path

from klong import KlongError, KlongInterpreter
from klong.backends import list_backends
from klong.runtime.display import write
from klong.runtime.values import Char, Dict, Function, MixedNumbers, Symbol

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(HERE.parent) not in sys.path:    # tests/, for the fuzzer's sandbox
    sys.path.insert(0, str(HERE.parent))
from fuzz import OutOfTime, sandbox  # noqa: E402
CORPUS = HERE / "corpus.jsonl"
PENDING = HERE / "pending.txt"

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
MODES = [(backend, codegen) for backend in BACKENDS for codegen in (True, False)]
# a program with an Each runs once more on each backend with Each over rows as a loop
# (KLONG_BATCH=0): batched bodies must give the loop's outcome exactly
LOOP_MODES = [(backend, True, False) for backend in BACKENDS]
MAX_ELEMENTS = 100_000          # a small size guard keeps every program cheap
SECONDS = 2.0                   # per generated program and mode
CORPUS_SECONDS = 120.0          # per corpus program and mode: ample, since a timeout fails
# side effects or answers that differ from run to run by design
UNSAFE = (".ac", ".oc", ".ic", ".df", ".sys", ".x", ".l", ".py", ".pya", ".pyc", ".pyf",
          ".compile", ".compilex", ".export", ".rn", ".pc", ".tm", ".rl", ".rls", ".r")


def mode_name(mode):
    backend, codegen, *batch = mode
    return f"{backend}/{'codegen' if codegen else 'closures'}{'/loop' if batch == [False] else ''}"


def interpreter(mode, safe=True, capture=None):
    """A fresh interpreter of `mode`: (backend, codegen), or (backend, codegen, batch);
    `capture` as KlongInterpreter's (None: KLONG_CAPTURE decides)."""
    backend, codegen, *batch = mode
    interp = KlongInterpreter(backend=backend, codegen=codegen, max_elements=MAX_ELEMENTS,
                              batch=batch[0] if batch else None, capture=capture)
    if safe:
        for name in UNSAFE:
            interp.globals.pop(name, None)
    return interp


# ---------------------------------------------------------------- element types

def _dtype_name(a):
    """The element type of a backend array, named alike for numpy and torch."""
    name = str(a.dtype).removeprefix("torch.")
    return {"object": "object", "bool": "bool"}.get(name, name)


def signature(v):
    """The element type of a value, all the way down, as a short string: "i" integer,
    "float64"/"float32"... for a real (the dtype of a 0-d tensor, float64 for a Python
    float), "c" character, "s" string, "y" symbol, "f" function, "D{...}" dictionary, and
    for a list "L" followed by its items' common signature, or "L{a,b,...}" when they
    differ. A numeric array of n axes reads as n nested lists of its dtype; an empty list
    is "L0" whatever array type holds it (it prints the same and has no elements)."""
    t = type(v)
    if t is int or t is bool:
        return "i"
    if t is float:
        return "float64"
    if t is MixedNumbers:               # a list like any other (runtime/mixed.py)
        return signature(v.general())
    if t is str:
        return "s"
    if t is Char:
        return "c"
    if t is Symbol:
        return "y"
    if isinstance(v, Function):
        return "f"
    if isinstance(v, Dict):
        pairs = ",".join(f"{signature(k)}:{signature(x)}" for k, x in v.pairs())
        return "D{" + pairs + "}"
    if t is list or t is tuple:
        return _list_signature([signature(x) for x in v])
    if hasattr(v, "dtype") and hasattr(v, "ndim"):
        if v.ndim == 0:
            name = _dtype_name(v)
            if name.startswith(("int", "uint")):
                return "i" if name == "int64" else name
            return name
        if _dtype_name(v) == "object":
            return _list_signature([signature(x) for x in v])
        if 0 in tuple(v.shape):
            return "L0" if v.shape[0] == 0 else _list_signature([signature(x) for x in v])
        name = _dtype_name(v)
        leaf = "i" if name == "int64" else name
        return "L" * v.ndim + leaf
    if hasattr(v, "item") and callable(v.item):     # a numpy scalar
        return _dtype_name(v) if "float" in str(v.dtype) else (
            "i" if str(v.dtype) == "int64" else str(v.dtype))
    return type(v).__name__


def _list_signature(items):
    if not items:
        return "L0"
    if all(s == items[0] for s in items):
        return "L" + items[0]
    return "L{" + ",".join(items) + "}"


# ---------------------------------------------------------------- running

def outcome(interp, source, filename=None, seconds=SECONDS):
    """What running `source` in `interp` shows: a tuple, compared exactly between modes.
    ("value", printed, written form, signature), ("error", printed, kind, message, line),
    or ("timeout",)."""
    try:
        with sandbox(seconds) as out:
            try:
                v = interp.run(source, filename)
                if v is None:
                    return ("value", out.getvalue(), None, None)
                return ("value", out.getvalue(), write(v), signature(v))
            except KlongError as e:
                line = e.line if e.line is None else int(e.line)
                return ("error", out.getvalue(), e.kind, e.message, line)
    except OutOfTime:
        return ("timeout",)


def describe(result):
    """An outcome as one line for a report."""
    if result[0] == "value":
        printed = f" printed {result[1]!r}" if result[1] else ""
        return f"{result[2]}  <{result[3]}>{printed}"
    if result[0] == "error":
        printed = f" printed {result[1]!r}" if result[1] else ""
        return f"{result[2]} error: {result[3]} (line {result[4]}){printed}"
    return "timed out"


# ---------------------------------------------------------------- the corpus

def load_corpus(path=CORPUS):
    """The corpus: a list of {"id", "source"} or {"id", "file"} entries."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def entry_source(entry):
    """(source text, file name or None) of a corpus entry; an example is read from the tree."""
    if "file" in entry:
        return (ROOT / entry["file"]).read_text(encoding="utf-8"), entry["file"]
    return entry["source"], None


def run_all_modes(source, filename=None, modes=None, seconds=SECONDS):
    """{mode: outcome} of one program, each in a fresh interpreter of its mode (and of the
    loop modes too, by default, when it has an Each)."""
    results = {}
    if modes is None:
        modes = MODES + LOOP_MODES if "'" in source else MODES
    for mode in modes:
        interp = interpreter(mode, safe=filename is None)
        results[mode] = outcome(interp, source, filename, seconds)
    return results


# the captured mode: a program run again and again in one torch interpreter, with capture
# and replay (klong/runtime/capture.py) on and off; its functions are called often enough
# to be recorded and replayed
CAPTURE_REPEATS = 3


def run_captured(source, filename=None, seconds=SECONDS, repeats=CAPTURE_REPEATS):
    """{("torch", capture): [outcome of each run]} of one program run `repeats` times in
    one interpreter with capture on, and in one with capture off."""
    results = {}
    for capture in (True, False):
        interp = interpreter(("torch", True), safe=filename is None, capture=capture)
        results[("torch", "capture" if capture else "no capture")] = tuple(
            outcome(interp, source, filename, seconds) for _ in range(repeats))
    return results


def captured_disagreement(results):
    """None when capture on and off gave the same outcomes, run after run."""
    on, off = results.values()
    if on == off:
        return None
    if any(r == ("timeout",) for r in on + off):
        return "  timed out"
    return "\n".join(f"  {m[1]:10} run {i + 1}: {describe(r)}" for m, runs in results.items()
                     for i, r in enumerate(runs) if r != (on if m[1] != "capture" else off)[i])


def disagreement(results, within_backend=False, strict=False):
    """None when every mode's outcome is the same, else a multi-line description. A
    timeout anywhere compares nothing (a generated program may never end), unless `strict`
    (a corpus program, known to end quickly): then it is a disagreement itself.
    `within_backend` compares generated code with closures on each backend only (for a
    program that needs torch)."""
    values = list(results.values())
    if any(r == ("timeout",) for r in values) and not strict:
        return None
    groups = [[r for m, r in results.items() if m[0] == backend] for backend in BACKENDS] \
        if within_backend else [values]
    if all(r == group[0] for group in groups for r in group):
        return None
    return "\n".join(f"  {mode_name(m):16} {describe(r)}" for m, r in results.items())


def load_list(path):
    """A list file (pending.txt, accepted.txt): {entry id: reason}; # starts a comment."""
    found = {}
    if not Path(path).is_file():
        return found
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, reason = line.partition("\t")
        found[key.strip()] = reason.strip()
    return found
