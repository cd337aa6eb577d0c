"""Property: whatever the input, only a proper Klong error comes out.

Programs are generated from Klong's alphabet and mutated from the conformance cases (see
tests/fuzz.py, which does the same at length). For every input: no Python exception other
than KlongError escapes running it or printing its value, no error is of kind "internal", and
every message is one line. Deterministic (derandomized) and small enough for every run of the
suite; `python3 tests/fuzz.py --count 400000 --backend both` looks much further.
"""
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzz  # noqa: E402

SECONDS = 0.5           # per input; generated loops may never end, and are not findings
BUDGET = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow])
CASES = fuzz.load_cases()
# an interpreter raises Python's recursion limit once; do it before hypothesis watches it
fuzz.fuzz_interpreter("numpy")


def assert_proper(backend, source):
    finding = fuzz.check(backend, source, SECONDS)
    assert finding in (None, "timeout"), f"{finding}\ninput: {source!r}"


@BUDGET
@given(rng=st.randoms(use_true_random=False))
def test_generated_programs(backend, rng):
    assert_proper(backend, fuzz.program(rng, []))


@pytest.mark.skipif(not CASES, reason=f"no conformance cases at {fuzz.CASES}")
@BUDGET
@given(rng=st.randoms(use_true_random=False))
def test_mutated_conformance_cases(backend, rng):
    assert_proper(backend, fuzz.mutate(rng, rng.choice(CASES)))


@pytest.mark.parametrize("source", [
    "_!0", "$!0", ":#!0", "a::1.0;8:>a", "{x^2}:>10^400", ".jacobian({x^2};10^400)",
    "65{,x}:*1", "!10^30", "(-10^400)#[1 2 3]", "(10^400):^[1 2 3]", "v[[1 2][3 4]]",
    "^[[]][4 5[[1 2][3 4]]]", "1+:\n2", "10^5000", ".p(2^20000)", "*/1+!21",
    "!1000000000", "&1000000000", "1e10$123", '[2147483648]:^"xyz"', "1e400",
    '"xyz"$!0', "(!0)=!0", "40{x*x}:*3", "6:^5536,:*1",
    ':{[[[]] 2]},~"12"',
])
def test_known_reproducers(backend, source):
    """Inputs that once let something escape or gave an internal error."""
    assert_proper(backend, source)


def test_the_checker_sees_findings(backend, monkeypatch):
    """The property is not vacuous: an internal error or a multi-line message is reported."""
    from klong import KlongError
    assert fuzz.check(backend, "1+1") is None
    assert fuzz._bad_error(KlongError("internal", "x")).startswith("internal")
    error = KlongError("type", "x")
    error.message = "two\nlines"
    assert fuzz._bad_error(error).startswith("message not one line")
    assert fuzz.check(backend, "{x=x}{x+1}:~0", seconds=0.2) == "timeout"
