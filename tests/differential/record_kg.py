#!/usr/bin/env python3
"""Run the differential corpus through the reference interpreter kg and record what it
prints, in tests/differential/kg_record.jsonl (committed: the comparison test reads it, so
kg is needed only to make it again).

    KG=/path/to/kg python3 tests/differential/record_kg.py

Each program runs in a fresh kg process (kg starts in about a millisecond, and a fresh
process gives every program a fresh state, as the harness does): all its lines but the
last are loaded as a file (-l), the last is evaluated with -e, which prints its value in
written form. kg stops a file at its first error and reports it on standard error as
"kg: error: ..."; that text is recorded as the program's error. A program that makes kg
crash or run past the time limit is recorded as such and left out of the comparison.
Examples (run whole, and written for this project's extensions) are not run through kg.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent))

from differential import harness  # noqa: E402

RECORD = HERE / "kg_record.jsonl"
SECONDS = 5


def split_program(source):
    """(lines to load, expression to evaluate): the last line is the expression."""
    lines = source.split("\n")
    return "\n".join(lines[:-1]), lines[-1]


def run_kg(kg, source, workdir):
    setup, expr = split_program(source)
    command = [kg, "-u"]
    if setup.strip():
        path = Path(workdir) / "setup.kg"
        path.write_text(setup + "\n", encoding="utf-8")
        command += ["-l", "./" + path.name]     # relative: the record names no directory
    command += ["-e", expr]
    try:
        proc = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=SECONDS, cwd=workdir, env=dict(os.environ, KLONGPATH=""))
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    if "kg: error:" in err:
        return {"status": "error", "stdout": out, "error": err.split("kg: error:", 1)[1].strip()}
    if proc.returncode != 0 or err.strip():
        return {"status": "crash", "stdout": out, "stderr": err.strip()[-300:],
                "rc": proc.returncode}
    return {"status": "value", "stdout": out}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kg", default=os.environ.get("KG", "kg"))
    p.add_argument("--out", default=str(RECORD))
    args = p.parse_args(argv)
    entries = [e for e in harness.load_corpus() if "source" in e]
    counts = {}
    with tempfile.TemporaryDirectory() as workdir, \
            open(args.out, "w", encoding="utf-8") as out:
        for entry in entries:
            result = run_kg(args.kg, entry["source"], workdir)
            counts[result["status"]] = counts.get(result["status"], 0) + 1
            out.write(json.dumps({"id": entry["id"], **result}, ensure_ascii=False) + "\n")
    print(f"{len(entries)} programs: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))


if __name__ == "__main__":
    main()
