"""The paths issue 35's small programs take (a sieve, a histogram, a matrix product by hand,
counting into a dictionary, Gauss-Jordan): exact printed results, element types and errors in
every mode, and the shorter paths giving what the general ones give."""
import numpy as np
import pytest

from klong import KlongError, KlongInterpreter
from klong.backends import list_backends
from klong.runtime.context import entered
from klong.runtime.display import write
from klong.verbs import VERBS, atomic

BACKENDS = [b for b in ("numpy", "torch") if b in list_backends()]
MODES = [(b, codegen) for b in BACKENDS for codegen in (True, False)]

SIEVE = ("sieve::{[s n];n::x;s::n#,1;s::s:=0,0,1;"
         "{(x*x)<n}{:[s@x;s::s:=0,(x*x)+x*!1+((n-1)-x*x):%x;0];x+1}:~2;&s}")

VALUES = [
    # Take of a one-item list, more than it holds: copies of the item
    ("5#,1", "[1 1 1 1 1]"), ("(-4)#,1", "[1 1 1 1]"), ("3#,2.5", "[2.5 2.5 2.5]"),
    ("3#,[1 2]", "[[1 2] [1 2] [1 2]]"), ("(-2)#,[1.5 2]", "[[1.5 2] [1.5 2]]"),
    ('3#,"ab"', '["ab" "ab" "ab"]'), ("3#,0cx", '"xxx"'), ("1#,7", "[7]"), ("0#,7", "[]"),
    ("7#[1 2 3]", "[1 2 3 1 2 3 1]"), ("(-7)#[1 2 3]", "[3 1 2 3 1 2 3]"),
    # ... written in place afterwards, and nobody else's value changed
    ("s::5#,1;t::s;s::s:=0,2;s,t", "[1 1 0 1 1 1 1 1 1 1]"),
    ("{[s];s::x#,1;s::s:=0,0,1;s::s:=0,4,6;s}(8)", "[0 0 1 1 0 1 0 1]"),
    # Amend at a few indices (read as a list): a slice, one place, or Amend's walk
    ("s::!10;s::s:=9,[1 3 3 5];s", "[0 9 2 9 4 9 6 7 8 9]"),
    ("s::!10;s::s:=9,[1 4 7];s", "[0 9 2 3 9 5 6 9 8 9]"),
    ("s::!10;s::s:=9,[2 4 6 8];s", "[0 1 9 3 9 5 9 7 9 9]"),
    ("s::!10;s::s:=1.5,[2 4];s", "[0 1 1.5 3 1.5 5 6 7 8 9]"),
    ("s::!10;s::s:=9,[0 1 2 3 4 5 6 7 8];s", "[9 9 9 9 9 9 9 9 9 9]"),
    ("s::!10;s::s:=8,[9 8];s", "[0 1 2 3 4 5 6 7 8 8]"), ("s::!10;s::s:=9,[7];s", "[0 1 2 3 4 5 6 9 8 9]"),
    ("s::!10;t::s;s::s:=9,[1 2 5];s,t", "[0 9 9 3 4 9 6 7 8 9 0 1 2 3 4 5 6 7 8 9]"),
    # an integer joined to a vector of integers, at either end
    ("(0,[1 2]),([1 2],0),(5,!3),((!3),5)", "[0 1 2 1 2 0 5 0 1 2 0 1 2 5]"),
    ("(9223372036854775807,[1 2]),([1 2],-9223372036854775808)",
     "[9223372036854775807 1 2 1 2 -9223372036854775808]"),
    ("(9223372036854775808,[1 2]),[1 2],-9223372036854775809",
     "[9223372036854775808 1 2 1 2 -9223372036854775809]"),
    ("(1.5,[1 2]),([1 2],2.5),(1,[1.5 2.5]),([1.5 2.5],1)",
     "[1.5 1 2 1 2 2.5 1 1.5 2.5 1.5 2.5 1]"),
    ("s::!100;v::0,2+3*!30;s::s:=7,1_v;+/s", "3795"), ("(0,!0),(!0),0", "[0 0]"),
    # Where of a mask and of counts
    ("&[0 1 1 0 1]", "[1 2 4]"), ("&[2 0 1]", "[0 0 2]"), ("&[0 0]", "[]"), ("&1", "[0]"),
    ("&(!70)!3", "[1 2 2 4 5 5 7 8 8 10 11 11 13 14 14 16 17 17 19 20 20 22 23 23 25 26 26 "
     "28 29 29 31 32 32 34 35 35 37 38 38 40 41 41 43 44 44 46 47 47 49 50 50 52 53 53 55 "
     "56 56 58 59 59 61 62 62 64 65 65 67 68 68]"),
    (SIEVE + ";sieve(100)", "[2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59 61 67 71 73 79 83 "
     "89 97]"),
    (SIEVE + ";(#sieve(10000)),sieve(3)", "[1229 2]"),
    # chains of a progression: both operands' sides, and leaving int64
    ("{x-!3}(5)", "[5 4 3]"), ("{(!3)-x}(5)", "[-5 -4 -3]"), ("{0,x-2*!3}(5)", "[0 5 3 1]"),
    ("{9223372036854775807-!x}(3)",
     "[9223372036854775807 9223372036854775806 9223372036854775805]"),
    ("{(!x)-9223372036854775807}(3)",
     "[-9223372036854775807 -9223372036854775806 -9223372036854775805]"),
    ("{x*!3}(4611686018427387904)", "[0 4611686018427387904 9223372036854775808]"),
    ("{x,2*!3}(9223372036854775808)", "[9223372036854775808 0 2 4]"),
    ("{x,2*!3}(1.5)", "[1.5 0 2 4]"), ('{"a",x-!3}(1)', '["a" 1 0 -1]'),
    # a real array and an integer
    ("v::[0.25 0.5 0.75];(v*20),(20*v),(v+3),(3+v),(v-3),(3-v)",
     "[5.0 10.0 15.0 5.0 10.0 15.0 3.25 3.5 3.75 3.25 3.5 3.75 -2.75 -2.5 -2.25 2.75 2.5 "
     "2.25]"),
    ("[0.5 1.5]*9223372036854775807", "[4.61168601842739e+18 1.38350580552822e+19]"),
    ("[0.5 1.5]*9223372036854775808", "[4.61168601842739e+18 1.38350580552822e+19]"),
    ("[[0.5 1.5] [2.5 3.5]]-2", "[[-1.5 -0.5] [0.5 1.5]]"),
    ("(1.0e308*[1.0 2.0])*10", "[inf inf]"),
    # Floor, whole or not
    ("_[1.5 -2.5 0.0 -0.0 1e17]", "[1 -3 0 0 100000000000000000]"),
    ("_[1.5 1e18]", "[1 1.0e+18]"), ("_[1.5 -1e18]", "[1 -1.0e+18]"),
    ("_[1.5],(1.0e308*10)-1.0e308*10", "[1 nan]"), ("_(1.0e308*[10.0 1.0])", "[inf 1.0e+308]"),
    ("_[[1.5 2.5] [-3.5 4.0]]", "[[1 2] [-4 4]]"),
    ("hist::{[b];b::_x*y;{+/b=x}'!y};hist([0.05 0.5 0.55 0.99 0.0 0.999];20)",
     "[1 1 0 0 0 0 0 0 0 0 1 1 0 0 0 0 0 0 0 2]"),
    # a matrix product by hand, Gauss-Jordan
    ("mm::{[t];t::+y;{[r];r::x;{+/r*x}'t}'x};mm([[1.5 2.0] [0.5 1.0]];[[2.0 0.0] [1.0 4.0]])",
     "[[5.0 8.0] [2.0 4.0]]"),
    ("mm::{[t];t::+y;{[r];r::x;{+/r*x}'t}'x};mm([[1 2] [3 4]];[[5 6] [7 8]])",
     "[[19 22] [43 50]]"),
    ("gj::{[a n];n::#x;a::x,'{1.0*x=!n}'!n;"
     "{[r];r::a@x;r::r%r@x;a::a-{x*r}'{y@x}(x;)'a;a::(x#a),(,r),(x+1)_a}'!n;{n_x}'a};"
     "gj([[2.0 0.0] [0.0 4.0]])", "[[0.5 0.0] [0.0 0.25]]"),
    # counting into a dictionary
    ("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};cnt([1 2 1 3 1])",
     ":{[1 3] [2 1] [3 1]}"),
]

ERRORS = [
    ("s::!10;s::s:=9,[3 1 2];s",
     "range error: amend [[0 1 2 3 4 5 6 7 8 9] [9 3 1 2]]: index 1 out of order"),
    ("s::!10;s::s:=9,[2 4 6 10];s",
     "range error: amend [[0 1 2 3 4 5 6 7 8 9] [9 2 4 6 10]]: index 10 out of range 0..9"),
    ("s::!10;s::s:=9,[-1 4];s",
     "range error: amend [[0 1 2 3 4 5 6 7 8 9] [9 -1 4]]: index -1 out of order"),
    ("2.5#,1", "type error: take [2.5 [1]]: integer expected"),
    ("3#1", "type error: take [3 1]: list or string expected on the right"),
    ("&[0 -1]", "domain error: expand [0 -1]: negative count"),
    ("&[0.5 1.0]", "type error: expand [0.5 1.0]: flat list of integers expected"),
    ('_"a"', "type error: floor \"a\": number expected"),
    ('[0.5 1.5]*"a"', 'type error: times [[0.5 1.5] "a"]: number expected'),
    ("[0.5 1.5]+[1 2 3]", "length error: plus [[0.5 1.5] [1 2 3]]: lists of different lengths"),
    ("{x-!3}(:undefined)", "type error: minus [:undefined [0 1 2]]: number expected "
                           "(in {x-!3})"),
]


@pytest.mark.parametrize("backend, codegen", MODES)
def test_values(backend, codegen):
    k = KlongInterpreter(backend=backend, codegen=codegen)
    for program, expected in VALUES:
        assert write(k.run(program)) == expected, program


@pytest.mark.parametrize("backend, codegen", MODES)
def test_errors(backend, codegen):
    k = KlongInterpreter(backend=backend, codegen=codegen)
    for program, message in ERRORS:
        with pytest.raises(KlongError) as e:
            k(program)
        assert str(e.value) == message, program


@pytest.mark.parametrize("backend", BACKENDS)
def test_take_of_one_item_is_written_in_place_later(backend, monkeypatch):
    """n#,1 is a fresh array of its own: an update of the variable holding it writes it."""
    from klong.verbs import structural
    stored = []
    store = structural._store
    monkeypatch.setattr(structural, "_store",
                        lambda a, p, v, in_place=False: stored.append(in_place)
                        or store(a, p, v, in_place))
    k = KlongInterpreter(backend=backend)
    assert write(k("{[s];s::x#,1;s::s:=0,2;s}(6)")) == "[1 1 0 1 1 1]"
    assert stored == [True]


def test_numpy_where_of_any_kind_of_array():
    from klong.backends.numpy_backend import NumpyBackend
    B = NumpyBackend()
    for a in (np.array([0, 2, 0, -1, 5]), np.array([0.0, 0.5, -0.0, np.nan]),
              np.array([True, False, True]), np.array([], dtype=np.int64)):
        r = B.where(a)
        assert r.dtype == np.int64
        assert r.tolist() == np.flatnonzero(a).tolist()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_real_array_and_an_int_as_the_general_path_gives_them(backend):
    """The real shortcut of + - * on a real array beside a Python int: the same values and
    element type as the verb's general path (atomic.DYADS, without shortcuts)."""
    k = KlongInterpreter(backend=backend)
    B = k.backend
    arrays = [B.asarray([0.25, -1.5, 1e300, -0.0], "f"), B.asarray([[0.5, 2.0], [3.0, -4.0]], "f")]
    numbers = [0, 3, -7, 2**53 + 1, 2**63 - 1, -2**63]
    with entered(k.context):
        for op in "+-*":
            for a in arrays:
                for c in numbers:
                    for x, y in ((a, c), (c, a)):
                        got, want = VERBS[op].dyad(x, y), atomic.DYADS[op](x, y)
                        assert got.dtype == want.dtype and got.shape == want.shape
                        assert np.array_equal(B.to_host(got), B.to_host(want)), (op, x, y)
        # an int beyond int64, an empty array: not the shortcut's
        assert atomic._reals_and_int(arrays[0], 2**63) is False
        assert atomic._reals_and_int(B.asarray([], "f"), 3) is False
        assert atomic._reals_and_int(B.asarray([1, 2], "i"), 3) is False


def test_dictionaries_to_python():
    k = KlongInterpreter()
    d = k('d:::{};d,1,2;d,"a",3;d,3.5,1.5;d,0cb,2;d,:s,4;d,4,"x";d,6,:{};d,(,[1 2]),7;'
          'd,7,,[1 2];d')
    assert [(str(key), value) for key, value in list(d.items())[:5]] == \
        [("1", 2), ("a", 3), ("3.5", 1.5), ("b", 2), ("s", 4)]
    assert [type(key).__name__ for key in d] == \
        ["int", "str", "float", "Char", "Symbol", "int", "int", "tuple", "int"]
    assert d[4] == "x" and d[6] == {} and d[(1, 2)] == 7
    assert isinstance(d[7], np.ndarray) and d[7].tolist() == [1, 2]
    assert k('{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}\'x;d}([5 5 6])') == {5: 2, 6: 1}
