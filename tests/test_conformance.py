"""Klong's conformance cases (tests/conformance/*.jsonl), on every backend: each file runs
in order in one interpreter (later cases use what earlier ones defined), in an empty
directory (cases write and remove files). A case of values.jsonl passes when its `klong`
matches (~) its `matches`; one of display.jsonl when .w of its `klong` writes exactly its
`writes`. The cases that may fail are listed, each with its reason, in
tests/conformance_known_failures.txt (torch: conformance_known_failures_torch.txt); any
other failure fails the test, and a listed case that passes is reported so the list can
shrink."""
import contextlib
import io
import json
import signal
import warnings
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CASES = HERE / "conformance"
KNOWN = {"numpy": HERE / "conformance_known_failures.txt",
         "torch": HERE / "conformance_known_failures_torch.txt"}
SECONDS_PER_CASE = 10
COUNTS = {"values.jsonl": 1256, "display.jsonl": 1663}


class CaseTimeout(Exception):
    pass


def known_failures(backend):
    names = set()
    for line in KNOWN[backend].read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(line)
    return names


def passes(k, case):
    if case["before"].strip():
        k(case["before"])
    if "writes" in case:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            k(".w(" + case["klong"] + ")")
        return out.getvalue() == case["writes"]
    got = k("(" + case["matches"] + ")~(" + case["klong"] + ")")
    return not isinstance(got, (bool, str)) and got == 1


def run_cases(path, k):
    """{case name: None when it passed, else why not}, the cases run in interpreter k."""

    def alarm(signum, frame):
        raise CaseTimeout()
    previous = signal.signal(signal.SIGALRM, alarm)
    results = {}
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            signal.alarm(SECONDS_PER_CASE)
            try:
                results[case["case"]] = None if passes(k, case) else "wrong result"
            except CaseTimeout:
                results[case["case"]] = f"more than {SECONDS_PER_CASE}s"
            except Exception as e:        # one case's crash must not end the run
                results[case["case"]] = f"{type(e).__name__}: {e}"[:200]
            finally:
                signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    return results


def test_the_cases_are_all_here():
    for name, count in COUNTS.items():
        cases = [json.loads(line) for line in (CASES / name).read_text(encoding="utf-8")
                 .splitlines() if line.strip()]
        assert len(cases) == count
        assert len({c["case"] for c in cases}) == count
        field = "writes" if name == "display.jsonl" else "matches"
        assert all(set(c) == {"case", "group", "before", "klong", field} for c in cases)


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_conformance(name, k, backend, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    results = run_cases(CASES / name, k)
    known = known_failures(backend)
    failed = {case: why for case, why in results.items() if why is not None}
    unexpected = {case: why for case, why in failed.items() if case not in known}
    assert not unexpected, f"{len(unexpected)} failing cases not in {KNOWN[backend].name}: " \
                           + "; ".join(f"{c}: {w}" for c, w in list(unexpected.items())[:20])
    fixed = sorted(case for case in known & set(results) if results[case] is None)
    if fixed:
        warnings.warn(f"now passing, remove from {KNOWN[backend].name}: {' '.join(fixed)}")
    assert len(results) == COUNTS[name]
