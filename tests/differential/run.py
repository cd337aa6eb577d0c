#!/usr/bin/env python3
"""Run programs in the four modes and report every disagreement.

    python3 tests/differential/run.py                         # the corpus
    python3 tests/differential/run.py --write-pending         # ... and rewrite pending.txt
    python3 tests/differential/run.py --generated 20000 --seed 7   # fresh generated programs

The corpus run is what tests/test_differential.py requires: no disagreement outside
pending.txt. A generated run looks further; it prints each disagreeing program and its
outcomes, then counts.
"""
import argparse
import os
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent))

from differential import generate, harness  # noqa: E402


def run_entry(entry):
    """{mode: outcome} of a corpus entry; an example runs from the root of the tree."""
    source, filename = harness.entry_source(entry)
    if filename is None:
        return harness.run_all_modes(source, seconds=harness.CORPUS_SECONDS)
    here = os.getcwd()
    os.chdir(harness.ROOT)
    try:
        return harness.run_all_modes(source, filename, seconds=harness.CORPUS_SECONDS)
    finally:
        os.chdir(here)


def corpus_disagreements(entries=None):
    """{entry id: description} of the corpus entries on which the modes disagree."""
    found = {}
    for entry in entries or harness.load_corpus():
        problem = harness.disagreement(run_entry(entry), "within_backend" in entry, strict=True)
        if problem:
            found[entry["id"]] = problem
    return found


def captured_disagreements(entries=None):
    """{entry id: description} of the corpus entries that capture and replay change (the
    captured mode: harness.run_captured)."""
    found = {}
    for entry in entries or harness.load_corpus():
        if "file" in entry:
            continue
        problem = harness.captured_disagreement(
            harness.run_captured(entry["source"], seconds=harness.CORPUS_SECONDS))
        if problem:
            found[entry["id"]] = problem
    return found


def first_line_reason(problem):
    """A short reason for pending.txt: which modes stand apart."""
    lines = [line.split(None, 1) for line in problem.splitlines()]
    outcomes = {}
    for mode, what in lines:
        outcomes.setdefault(what, []).append(mode)
    groups = sorted(outcomes.values(), key=len)
    if len(groups) != 2:
        return "modes disagree"
    if len(groups[0]) == len(groups[1]) and len({m.split("/")[0] for m in groups[0]}) == 1:
        return "numpy and torch differ"
    return "differs in " + ", ".join(groups[0])


def write_pending(found, path=harness.PENDING):
    corpus = {e["id"]: e for e in harness.load_corpus()}
    lines = ["# Corpus entries on which the four modes disagree today (tests/test_differential.py",
             "# tolerates exactly these; an entry that agrees again must be removed).",
             "# id<TAB>reason"]
    for key in sorted(found, key=list(corpus).index):
        source = corpus[key].get("source", corpus[key].get("file"))
        lines.append(f"{key}\t{first_line_reason(found[key])}: {source[-60:]!r}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--generated", type=int, default=0, help="run this many fresh programs instead")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--write-pending", action="store_true")
    p.add_argument("--quiet", action="store_true", help="counts only")
    args = p.parse_args(argv)
    started = time.time()
    if args.generated:
        count = agree = timeouts = errors = 0
        found = {}
        rng = random.Random(args.seed)
        for i in range(args.generated):
            source = generate.program(rng)
            results = harness.run_all_modes(source)
            count += 1
            if any(r == ("timeout",) for r in results.values()):
                timeouts += 1
                continue
            problem = harness.disagreement(results)
            if problem:
                found[f"{args.seed}:{i}"] = (source, problem)
            else:
                agree += 1
                errors += next(iter(results.values()))[0] == "error"
        if not args.quiet:
            for key, (source, problem) in found.items():
                print(f"{key} {source!r}\n{problem}")
        print(f"seed {args.seed}: {count} programs, {len(found)} disagreements, {timeouts} "
              f"timed out, {agree} agree ({errors} of them errors in every mode); "
              f"{time.time() - started:.0f} s")
        return 1 if found else 0
    found = corpus_disagreements()
    pending = harness.load_list(harness.PENDING)
    if not args.quiet:
        for key, problem in found.items():
            mark = "" if key in pending else "  (NOT PENDING)"
            print(f"{key}{mark}\n{problem}")
    print(f"{len(found)} disagreements, {len(set(found) - set(pending))} not pending, "
          f"{len(set(pending) - set(found))} pending entries that agree now; "
          f"{time.time() - started:.0f} s")
    if args.write_pending:
        write_pending(found)
    return 1 if set(found) ^ set(pending) else 0


if __name__ == "__main__":
    sys.exit(main())
