"""Chains of + - * around an Enumerate, and a number joined before one, made as one arithmetic
progression (passes/progressions.py, verbs/progressions.py): the verbs' results, kinds and
errors in every mode, and the progression made without the verbs where its operands are
integers."""
import pytest

from klong import KlongError, KlongInterpreter
from klong.backends import list_backends
from klong.runtime.display import write
from klong.verbs import progressions

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
MODES = [(b, codegen) for b in BACKENDS for codegen in (True, False)]

SIEVE = ("sieve::{[s n];n::x;s::n#,1;s::s:=0,0,1;"
         "{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s}")

VALUES = [
    ("{3+2*!x}(5)", "[3 5 7 9 11]"), ("{(!x)-2}(3)", "[-2 -1 0]"), ("{2-!x}(3)", "[2 1 0]"),
    ("{0*!x}(4)", "[0 0 0 0]"), ("{(!x)*2}(1)", "[0]"), ("2*!3", "[0 2 4]"),
    ("{(x*x)+x*!1+(20-x*x):%x}(3)", "[9 12 15 18]"),
    ("{0.5*!x}(3)", "[0.0 0.5 1.0]"), ("{x+2*!y}(1.5;3)", "[1.5 3.5 5.5]"),
    ("{(x*!4)+0.5}(2)", "[0.5 2.5 4.5 6.5]"),
    # leaving int64: the verbs' exact integers
    ("{(!x)*9223372036854775807}(3)", "[0 9223372036854775807 18446744073709551614]"),
    ("{-9223372036854775807-!x}(3)",
     "[-9223372036854775807 -9223372036854775806 -9223372036854775805]"),
    ("{(3*!x)-9223372036854775807}(2)", "[-9223372036854775807 -9223372036854775804]"),
    ("{x+2*!y}(99999999999999999999;3)",
     "[99999999999999999999 100000000000000000001 100000000000000000003]"),
    ("{(1+!x)*(2+!x)}(3)", "[2 6 12]"), ("{(!x)+!x}(3)", "[0 2 4]"),
    ("+/3+2*!1000", "1002000"), ("{(2*!x)@y}(5;3)", "6"),
    # joined before: the Amend's value and indices, or anything else
    ("0,2*!3", "[0 0 2 4]"), ("1.5,2*!3", "[1.5 0 2 4]"), ('"a",2*!3', '[a 0 2 4]'),
    ("99999999999999999999,2*!3", "[99999999999999999999 0 2 4]"),
    ("[1 2],2*!3", "[1 2 0 2 4]"), ("{x,!y}(3;0)", "[3]"), (",2*!3", "[[0 2 4]]"),
    ("{s::!10;s::s:=99,3+2*!x;s}(4)", "[0 1 2 99 4 99 6 99 8 99]"),
    ("{s::!10;s::s:=7.5,x+x*!y;s}(2;4)", "[0 1 7.5 3 7.5 5 7.5 7 7.5 9]"),
    ("q::0;r::{q::7;(q::8)+2*!x}(3);r,q", "[8 10 12 8]"),
    (SIEVE + ";sieve(60)", "[2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59]"),
]

ERRORS = [
    ("{2+!x}(0)", "type error: plus [2 []]: number expected (in {2+!x})"),
    ("{2*!x}(2.5)", "type error: enumerate 2.5: integer expected (in {2*!x})"),
    ("{2*!x}(-1)", "domain error: enumerate -1: negative argument (in {2*!x})"),
    ('{"a"*!x}(3)', 'type error: times ["a" [0 1 2]]: number expected (in {"a"*!x})'),
    ("{[3 4]+!x}(3)",
     "length error: plus [[3 4] [0 1 2]]: lists of different lengths (in {[3 4]+!x})"),
    ("{3+x*!4}(:undefined)",
     "type error: times [:undefined [0 1 2 3]]: number expected (in {3+x*!4})"),
    ("{s::!10;s::s:=7,x+x*!y;s}(2;5)", "range error: amend [[0 1 2 3 4 5 6 7 8 9] "
     "[7 2 4 6 8 10]]: index 10 out of range 0..9 (in {s::!10;s::s:=7,x+x*...})"),
]


@pytest.mark.parametrize("backend, codegen", MODES)
def test_chains_give_what_the_verbs_give(backend, codegen):
    k = KlongInterpreter(backend=backend, codegen=codegen)
    for program, expected in VALUES:
        assert write(k(program)) == expected, program


@pytest.mark.parametrize("backend, codegen", MODES)
def test_chains_fail_where_the_verbs_fail(backend, codegen):
    k = KlongInterpreter(backend=backend, codegen=codegen)
    for program, message in ERRORS:
        with pytest.raises(KlongError) as e:
            k(program)
        assert str(e.value) == message, program
    # at the verb of the chain that failed
    for program, column, message in [
            ("f::{a::1;b::3+2*!x}\n\nf(-1)", 17,
             "domain error: enumerate -1: negative argument (in f)"),
            ("f::{a::1;b::3+x*!4}\n\nf(\"a\")", 16,
             'type error: times ["a" [0 1 2 3]]: number expected (in f)'),
            ("f::{0,3+!x}\nf(0)", 8, "type error: plus [3 []]: number expected (in f)")]:
        with pytest.raises(KlongError) as e:
            k(program)
        assert (e.value.line, e.value.column, str(e.value)) == (1, column, message)


@pytest.mark.parametrize("backend, codegen", MODES)
def test_integer_chains_make_one_vector_without_the_verbs(backend, codegen, monkeypatch):
    made, enumerated = [], []
    vector = progressions.Progression.vector
    monkeypatch.setattr(progressions.Progression, "vector",
                        lambda p, remembered=True: made.append((p.first, p.step, p.count))
                        or vector(p, remembered))
    monkeypatch.setattr(progressions, "enumerate_",
                        lambda k: enumerated.append(k) or pytest.fail("Enumerate ran"))
    k = KlongInterpreter(backend=backend, codegen=codegen)
    assert write(k("{(x*x)+x*!1+(20-x*x):%x}(3)")) == "[9 12 15 18]"
    assert made == [(9, 3, 4)]
    assert write(k("{0,(x*x)-x*!y}(3;4)")) == "[0 9 6 3 0]"
    assert made[-1] == (9, -3, 4)
    assert not enumerated


@pytest.mark.parametrize("backend, codegen", MODES)
def test_an_update_at_a_joined_progression_writes_its_places(backend, codegen, monkeypatch):
    """s::s:=c,p: the number written at the progression's places (a slice, or one place),
    in place where nothing else holds s, with neither the progression nor the join made;
    a copy where something does."""
    from klong.verbs import structural
    made, stored = [], []
    vector = progressions.Progression.vector
    monkeypatch.setattr(progressions.Progression, "vector",
                        lambda p, remembered=True: made.append(p) or vector(p, remembered))
    store = structural._store
    monkeypatch.setattr(structural, "_store",
                        lambda a, p, v, in_place=False: stored.append((p, v, in_place))
                        or store(a, p, v, in_place))
    k = KlongInterpreter(backend=backend, codegen=codegen)
    assert write(k(SIEVE + ";sieve(30)")) == "[2 3 5 7 11 13 17 19 23 29]"
    assert not made
    assert stored == [(slice(0, 2, 1), 0, True), (slice(4, 29, 2), 0, True), (slice(9, 28, 3), 0, True),
                      (25, 0, True)]
    stored.clear()
    assert write(k("{[s t];s::10#,1;t::s;s::s:=0,3+2*!x;s,t}(3)")) == \
        "[1 1 1 0 1 0 1 0 1 1 1 1 1 1 1 1 1 1 1 1]"
    assert stored == [(slice(3, 8, 2), 0, False)]
    stored.clear()
    assert write(k("g::10#,1;{g::g:=7,x+x*!3;g}(2)")) == "[1 1 7 1 7 1 7 1 1 1]"
    assert stored == [(slice(2, 7, 2), 7, True)] and not made
    # where Amend must decide: the joined vector, and Amend's own error
    with pytest.raises(KlongError) as e:
        k("{[s];s::10#,1;s::s:=0,3+2*!x;s}(5)")
    assert str(e.value) == ("range error: amend [[1 1 1 1 1 1 1 1 1 1] [0 3 5 7 9 11]]: "
                            "index 11 out of range 0..9 (in {[s];s::10#,1;s::s:=...})")
    assert (e.value.line, e.value.column) == (1, 19)
    assert write(k("{[s];s::10#,1;s::s:=0,3-2*!x;s}(2)")) == "[1 1 1 0 1 1 1 1 1 1]"
    assert write(k("{[s];s::10#,1.5;s::s:=0,3+2*!x;s}(3)")) == \
        "[1.5 1.5 1.5 0 1.5 0 1.5 0 1.5 1.5]"


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_amend_at_a_joined_progression_writes_a_slice_in_place(backend, monkeypatch):
    from klong.verbs import structural
    stored = []
    store = structural._store
    monkeypatch.setattr(structural, "_store",
                        lambda a, p, v, in_place=False: stored.append((p, in_place))
                        or store(a, p, v, in_place))
    k = KlongInterpreter(backend=backend)
    assert write(k("{[s];s::10#,1;s::s:=0,3+2*!x;s}(4)")) == "[1 1 1 0 1 0 1 0 1 0]"
    assert stored == [(slice(3, 10, 2), True)]
