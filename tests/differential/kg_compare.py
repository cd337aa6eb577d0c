#!/usr/bin/env python3
"""Compare this project's output with the recorded output of the reference kg.

kg computes reals in decimal with an 18-digit mantissa and prints up to 18 significant
digits; this project computes in binary float64 and prints 15. So every real in both texts
is rounded to 15 significant digits (half to even), and two reals agree when they are then
equal or one unit apart in the 15th digit (the two arithmetics round differently: Newton's
sqrt(2) is 1.41421356237309 here, 1.41421356237309504 in kg); all else must be the same
character for character. Errors are compared by being errors: the wording of messages is
this project's own.

    python3 tests/differential/kg_compare.py          # print every difference not accepted

accepted.txt lists each accepted difference with its reason (`--write` rewrites it by the
RULES below, and puts every other difference in pending_kg.txt: differences not decided
yet, a bug or a choice still to document). kg_record.jsonl entries that crashed or hung kg
are left out (see `usable`).
"""
import json
import re
import sys
from decimal import Decimal, ROUND_HALF_EVEN, localcontext
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent))

from differential import harness  # noqa: E402

RECORD = HERE / "kg_record.jsonl"
ACCEPTED = HERE / "accepted.txt"
PENDING_KG = HERE / "pending_kg.txt"
DIGITS = 15
_REAL = re.compile(r"(?<![\w.])-?[0-9]+\.[0-9]+(?:e[+-][0-9]+)?")


def _rounded(text):
    with localcontext() as context:
        context.prec = DIGITS
        context.rounding = ROUND_HALF_EVEN
        return +Decimal(text)


def _close(a, b):
    """Two reals (texts) at most one unit apart in the 15th significant digit: kg's decimal
    arithmetic and binary float64 round differently, by one unit at most in one step."""
    x, y = a, b
    if x == y:
        return True
    largest = max(abs(x), abs(y))
    unit = Decimal(10) ** (largest.adjusted() - DIGITS + 1)
    return abs(x - y) <= unit


def same_text(ours, theirs):
    """The texts agree: the same outside reals, and each real within `_close`."""
    if _REAL.split(ours) != _REAL.split(theirs):
        return False
    return all(_close(_rounded(a), _rounded(b))
               for a, b in zip(_REAL.findall(ours), _REAL.findall(theirs)))


def load_record(path=RECORD):
    with open(path, encoding="utf-8") as f:
        return {r["id"]: r for r in map(json.loads, f) if r}


def usable(record):
    """kg gave an answer (a value or an error), not a crash or a hang."""
    return record["status"] in ("value", "error")


def ours_as_kg_prints(result):
    """Our outcome in the shape of a kg record: ("value", stdout) or ("error", stdout)."""
    if result[0] == "value":
        return "value", result[1] + ("" if result[2] is None else result[2] + "\n")
    return result[0], result[1]


def difference(result, record):
    """None when our outcome matches kg's, else a one-line description."""
    status, stdout = ours_as_kg_prints(result)
    if status != record["status"]:
        theirs = record.get("error") if record["status"] == "error" else record["stdout"].strip()
        return f"ours {harness.describe(result)!s} / kg {record['status']}: {theirs}"
    if not same_text(stdout, record["stdout"]):
        return f"ours {stdout.strip()!r} / kg {record['stdout'].strip()!r}"
    return None


def differences(modes=(("numpy", True), ("numpy", False))):
    """{entry id: description} for every corpus program whose output differs from kg's in
    any of `modes`."""
    record = load_record()
    found = {}
    for entry in harness.load_corpus():
        theirs = record.get(entry["id"])
        if theirs is None or not usable(theirs):
            continue
        for mode in modes:
            result = harness.outcome(harness.interpreter(mode), entry["source"],
                                     seconds=harness.CORPUS_SECONDS)
            problem = "timed out" if result == ("timeout",) else difference(result, theirs)
            if problem:
                found[entry["id"]] = f"{harness.mode_name(mode)}: {problem}"
                break
    return found


# Differences that are this project's documented choices, recognised by what they show.
# Each rule: (reason written to accepted.txt, a test of our description of the difference).
RULES = [
    ("extension: a nilad under an adverb is called once per element (docs/programs.md)",
     lambda problem: "wrong arity: :nilad" in problem),
    ("the differential harness's size guard (max_elements 100000), not a language difference",
     lambda problem: "too many elements" in problem),
]


def classify(problem):
    for reason, applies in RULES:
        if applies(problem):
            return reason
    return None


def write_lists(found):
    """Rewrite accepted.txt (differences a rule accepts, or accepted by hand before) and
    pending_kg.txt (the rest)."""
    corpus = {e["id"]: e for e in harness.load_corpus()}
    decided = harness.load_list(ACCEPTED)        # reasons written by hand stay
    accepted, pending = [], []
    for key in sorted(found, key=list(corpus).index):
        reason = classify(found[key]) or decided.get(key)
        if reason:
            accepted.append(f"{key}\t{reason}")
        else:
            pending.append(f"{key}\t{found[key][:160]}")
    record = load_record()
    left_out = [f"#   {key}: kg {r['status']}" + (f" ({r['stderr'] or 'rc ' + str(r['rc'])})"
                                                  if r["status"] == "crash" else "")
                for key, r in record.items() if not usable(r)]
    ACCEPTED.write_text("# Differences from kg accepted on purpose (tests/test_differential.py).\n"
                        "# Left out of the comparison, kg giving no answer:\n"
                        + "\n".join(left_out) + "\n# id<TAB>reason\n" + "\n".join(accepted)
                        + "\n", encoding="utf-8")
    PENDING_KG.write_text("# Differences from kg not decided yet: a bug to fix or a choice to document\n"
                          "# (then it moves to accepted.txt). id<TAB>what differs\n"
                          + "\n".join(pending) + "\n", encoding="utf-8")


def main(argv=None):
    write = "--write" in (argv if argv is not None else sys.argv[1:])
    allowed = {**harness.load_list(ACCEPTED), **harness.load_list(PENDING_KG)}
    corpus = {e["id"]: e for e in harness.load_corpus()}
    found = differences()
    for key, problem in found.items():
        if key not in allowed or write:
            print(f"{key} {corpus[key]['source'][-120:]!r}\n    {problem[:400]}")
    print(f"{len(found)} differences from kg, {len(set(found) - set(allowed))} not listed, "
          f"{len(set(allowed) - set(found))} listed entries that agree now")
    if write:
        write_lists(found)
    return 1 if set(found) ^ set(allowed) else 0


if __name__ == "__main__":
    sys.exit(main())
