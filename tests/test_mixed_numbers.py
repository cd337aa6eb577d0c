"""A long list of reals with a few integers (`0,+\\x`) is held compactly (runtime/mixed.py,
verbs/mixed.py): these tests say that it is made where it should be, and that every verb,
the display and Python see the same values as they would in the general list: printed text,
element kinds, errors. In all four modes (numpy and torch, generated code and closures)."""
import functools
import itertools
import operator

import numpy as np
import pytest

from klong.runtime.display import write
from klong.runtime.mixed import MIN_LENGTH, MixedNumbers

from conftest import MODES, MODE_IDS, host, interpreter_in

N = 70                                   # the length of V: above MIN_LENGTH with one more


def reals_text(start, stop):
    """The written reals i+1.5 for i in start..stop-1, as V holds them."""
    return [f"{i + 1.5}" for i in range(start, stop)]


def listed(parts):
    return "[" + " ".join(parts) + "]"


@pytest.fixture(params=MODES, ids=MODE_IDS)
def k(request):
    k = interpreter_in(request.param)
    k(f"V::1.5+!{N};E::0#V")
    return k


def value(k, src):
    """The Klong value of src, as the interpreter holds it."""
    k("R::" + src)
    return k.globals["R"]


def shown(k, src):
    """src's value as .w writes it."""
    return write(value(k, src))


def kinds(k, src):
    """The Python types of src's elements, as Python receives the list (an array of
    integers or reals gives its elements as Python numbers)."""
    py = k(src)
    return [type(e).__name__ for e in (py.tolist() if hasattr(py, "tolist") else py)]


def is_real_array(v):
    """Whether Python received a numpy array or tensor of float64 reals."""
    return hasattr(v, "dtype") and str(v.dtype).endswith("float64")


def test_the_length_of_v_makes_the_compact_form():
    assert N + 1 >= MIN_LENGTH


def test_an_integer_joined_to_reals_is_held_compactly_and_reads_as_the_general_list(k):
    assert type(value(k, "0,V")) is MixedNumbers
    assert shown(k, "0,V") == listed(["0"] + reals_text(0, N))
    assert kinds(k, "0,V") == ["int"] + ["float"] * N
    assert k("#0,V") == N + 1
    assert shown(k, "^0,V") == f"[{N + 1}]"
    assert k("@0,V") == 0
    assert shown(k, "*0,V") == "0"
    assert shown(k, "(0,V)@1") == "1.5"
    assert shown(k, "(0,V)@0") == "0"
    assert shown(k, "(0,V)@[0 1 2]") == "[0 1.5 2.5]"
    assert kinds(k, "(0,V)@[0 1 2]") == ["int", "float", "float"]


@pytest.mark.parametrize("src, expected", [
    ("V,0", reals_text(0, N) + ["0"]),
    ("0,V,0", ["0"] + reals_text(0, N) + ["0"]),
    ("1.5,0,V", ["1.5", "0"] + reals_text(0, N)),
    ("(0,V),2.5", ["0"] + reals_text(0, N) + ["2.5"]),
    ("(0,V),V", ["0"] + reals_text(0, N) + reals_text(0, N)),
    ("V,0,V", reals_text(0, N) + ["0"] + reals_text(0, N)),
    ("(0,V),0,V", ["0"] + reals_text(0, N) + ["0"] + reals_text(0, N)),
    ("(0,V),E", ["0"] + reals_text(0, N)),
    ("E,0,V", ["0"] + reals_text(0, N)),
    ("0,0,0,V", ["0", "0", "0"] + reals_text(0, N)),
])
def test_joins(k, src, expected):
    assert shown(k, src) == listed(expected)
    assert kinds(k, src) == ["int" if e == "0" else "float" for e in expected]


def test_an_integer_joined_to_no_reals_or_to_few_is_as_ever(k):
    assert shown(k, "0,E") == "[0]"
    assert shown(k, "E,0") == "[0]"
    assert type(value(k, "0,E")) is not MixedNumbers
    assert type(value(k, "0,3#V")) is list
    assert shown(k, "0,3#V") == "[0 1.5 2.5 3.5]"


def test_many_integers_make_the_general_list(k):
    src = ",".join(["0"] * 12) + ",V"
    assert type(value(k, src)) is list
    assert shown(k, src) == listed(["0"] * 12 + reals_text(0, N))


def test_integers_beyond_two_to_the_53_stay_exact(k):
    big = 2 ** 64 + 1
    assert type(value(k, f"{big},V")) is list
    assert shown(k, f"{big},V") == listed([str(big)] + reals_text(0, N))
    assert shown(k, "3#(2^53),V") == "[9007199254740992 1.5 2.5]"
    assert kinds(k, "3#(2^53),V") == ["int", "float", "float"]
    # a sum that leaves the exact range of the reals: the general list's Python integers
    assert shown(k, "2#(0,V)+9007199254740991") == "[9007199254740991 9007199254740990.0]"
    assert shown(k, "2#(0,V)+9007199254740993") == "[9007199254740993 9007199254740990.0]"
    assert kinds(k, "2#(0,V)+9007199254740993") == ["int", "float"]


@pytest.mark.parametrize("src, expected", [
    ("1_0,V", reals_text(0, N)),
    ("(-1)_0,V", ["0"] + reals_text(0, N - 1)),
    ("10_0,V", reals_text(9, N)),
    ("(-10)_0,V", ["0"] + reals_text(0, N - 10)),
    ("3#0,V", ["0", "1.5", "2.5"]),
    ("(-3)#0,V", reals_text(N - 3, N)),
    ("(-3)#V,0", ["69.5", "70.5", "0"]),
    ("(N+3)#0,V", ["0"] + reals_text(0, N) + ["0", "1.5"]),
])
def test_drops_and_takes(k, src, expected):
    k(f"N::{N}")
    assert shown(k, src) == listed(expected)
    if "0" in expected:
        assert kinds(k, src) == ["int" if e == "0" else "float" for e in expected]
    else:
        assert type(value(k, src)) is not MixedNumbers


def test_a_drop_that_leaves_no_integer_is_a_real_array(k):
    assert is_real_array(k("1_0,V"))
    assert shown(k, "0#0,V") == "[]"


@pytest.mark.parametrize("src, first", [
    ("(0,V)+1", ["1", "2.5", "3.5"]),
    ("1+0,V", ["1", "2.5", "3.5"]),
    ("(0,V)-1", ["-1", "0.5", "1.5"]),
    ("1-0,V", ["1", "-0.5", "-1.5"]),
    ("(0,V)*3", ["0", "4.5", "7.5"]),
    ("(V,7)*3", ["4.5", "7.5", "10.5"]),
])
def test_arithmetic_with_an_integer_keeps_the_integers(k, src, first):
    assert shown(k, "3#" + src) == listed(first)
    assert kinds(k, "3#" + src) == ["int" if "." not in e else "float" for e in first]


def test_arithmetic_with_an_integer_keeps_the_integer_at_the_end(k):
    assert shown(k, "(-2)#(V,7)*3") == "[211.5 21]"
    assert kinds(k, "(-2)#(V,7)*3") == ["float", "int"]


@pytest.mark.parametrize("src, first", [
    ("(0,V)%2", ["0.0", "0.75", "1.25"]),
    ("(0,V)+0.5", ["0.5", "2.0", "3.0"]),
    ("(0,V)*(V,1.0)", ["0.0", "3.75", "8.75"]),
    ("(1_0,V)-(-1)_0,V", ["1.5", "1.0", "1.0"]),
    ("(10_0,V)-(-10)_0,V", ["10.5", "10.0", "10.0"]),
])
def test_arithmetic_with_reals_gives_reals(k, src, first):
    assert shown(k, "3#" + src) == listed(first)
    assert is_real_array(k(src))


def test_division_by_zero_is_worked_out_per_element(k):
    assert shown(k, "2#(0,V)%0") == "[:undefined :undefined]"
    assert shown(k, "2#2%0,V") == "[:undefined 1.33333333333333]"


@pytest.mark.parametrize("src, first", [
    ("(0,V)=0", "[1 0 0]"),
    ("(0,V)<2", "[1 1 0]"),
    ("(0,V)>2.0", "[0 0 1]"),
    ("(0,V)=0,V", "[1 1 1]"),
])
def test_comparisons_give_integers(k, src, first):
    assert shown(k, "3#" + src) == first


@pytest.mark.parametrize("src, expected", [
    ("3#-0,V", "[0 -1.5 -2.5]"),
    ("3#_0,V", "[0 1 2]"),
    ("(0,V)~0,V", "1"),
    ("(0,V)~0.0,V", "1"),
    ("(0,V)~V,0", "0"),
    ("3#<0,V", "[0 1 2]"),
    ("3#>0,V", f"[{N} {N - 1} {N - 2}]"),
    ("3#|0,V", "[70.5 69.5 68.5]"),
    ("(0,V)?1.5", "[1]"),
    ("(0,V)?0", "[0]"),
    ("+/0,V", "2520.0"),
    ("3#+\\0,V", "[0 1.5 4.0]"),
    ("3#{x*2}'0,V", "[0 3.0 5.0]"),
    ("3#1:+0,V", "[70.5 0 1.5]"),
    ("3:^0,V", "[0 1.5 2.5]"),
    ("3#$0,V", '["0" "1.5" "2.5"]'),
    ("(0,V):@,1", "1.5"),
    ("#,0,V", "1"),
    ("#*,0,V", f"{N + 1}"),
    ("3#(0,V)|1", "[1 1.5 2.5]"),
    ("3#(0,V)^2", "[0 2.25 6.25]"),
    ("#(0,V),,1", f"{N + 2}"),
])
def test_the_other_verbs_see_the_general_list(k, src, expected):
    assert shown(k, src) == expected


@pytest.mark.parametrize("src", [
    "0,V", "(0,V),7", "1,2,3,V", "(5,V),-0.0", "(9007199254740991,V),-9007199254740991",
    "(1,V*1e300),-1", "(-0.0*V),0", "0,(V*1e308)*10", "0,((V*1e308)*10)-(V*1e308)*10",
    "(V,3),7,V",
])
def test_a_sum_adds_from_left_to_right_as_the_general_list(k, src):
    """+/ of a compact list (one running sum of its reals, after the integers that come
    first) gives the bits of the general list's numbers added from left to right, as
    Python adds them and as {x+y}/ does."""
    compact = value(k, src)
    assert type(compact) is MixedNumbers
    in_order = functools.reduce(operator.add, compact.general())
    assert repr(value(k, "+/" + src)) == repr(in_order)
    assert shown(k, "+/" + src) == shown(k, "{x+y}/" + src)


@pytest.mark.parametrize("src", [
    "0,V", "1,2,3,V", "(5,V),-0.0", "(V,3),7,V", "(0,V*1e300),-1",
    "4503599627370496,4503599627370496,V",        # a running sum of integers reaches 2^53
])
def test_a_running_sum_adds_from_left_to_right_as_the_general_list(k, src):
    """+\\ of a compact list gives the general list's running sums: integers while only
    integers have been added, exactly, then reals, bit for bit."""
    compact = value(k, src)
    assert type(compact) is MixedNumbers
    running = list(itertools.accumulate(compact.general(), operator.add))
    assert shown(k, "+\\" + src) == write(k.run("[" + " ".join(map(repr, running)) + "]")) \
        == shown(k, "{x+y}\\" + src)
    assert [type(v) for v in running] == [type(v) for v in _numbers(value(k, "+\\" + src))]


def _numbers(v):
    return v.general() if type(v) is MixedNumbers else host(v).tolist() \
        if not isinstance(v, list) else v


def test_amend_and_a_second_reference(k):
    k("s::0,V;t::s;s::s:=99,0;u::t:=7,1")
    assert shown(k, "3#s") == "[99 1.5 2.5]"
    assert kinds(k, "3#s") == ["int", "float", "float"]
    assert shown(k, "3#t") == "[0 1.5 2.5]"
    assert shown(k, "3#u") == "[0 7 2.5]"
    assert kinds(k, "3#u") == ["int", "int", "float"]
    assert type(k.globals["t"]) is MixedNumbers


def test_inside_other_values(k):
    k("s::0,V;d:::{};d,(,s),1;d,1,,s")
    assert shown(k, "d?s") == "1"
    assert shown(k, "3#d?1") == "[0 1.5 2.5]"
    assert shown(k, "#(,s),,s") == "2"
    assert shown(k, "{3#x}'{0,x}'2#,V") == "[[0 1.5 2.5] [0 1.5 2.5]]"
    assert kinds(k, "*(,s),,s") == ["int"] + ["float"] * N


def test_in_a_function_and_in_a_condition(k):
    k("f::{[s];s::0,x;(1_s)-(-1)_s}")
    assert shown(k, "3#f(V)") == "[1.5 1.0 1.0]"
    assert shown(k, ":[0,V;1;2]") == "1"


def test_the_moving_statistics_program(k):
    k("ms::{[s q m];s::0,+\\x;q::0,+\\x*x;m::((y_s)-(-y)_s)%y;(,m),,(((y_q)-(-y)_q)%y)-m*m}")
    k("x::(!100)%7")
    got = k("ms(x;10)")
    x = np.arange(100) / 7
    s = np.concatenate(([0.0], np.cumsum(x)))
    q = np.concatenate(([0.0], np.cumsum(x * x)))
    m = (s[10:] - s[:-10]) / 10
    np.testing.assert_allclose(np.stack([host(row) for row in got]), np.stack([m, (q[10:] - q[:-10]) / 10 - m * m]),
                               rtol=1e-12)


def test_python_sees_the_general_list(k):
    py = k("0,V")
    assert py[0] == 0 and type(py[0]) is int
    assert py[1:].tolist() == [i + 1.5 for i in range(N)]


def test_a_narrow_real_interpreter_keeps_the_general_list():
    from klong import KlongInterpreter
    k = KlongInterpreter(dtype="float32")
    k(f"V::1.5+!{N}")
    assert type(value(k, "0,V")) is list
    assert shown(k, "3#0,V") == "[0 1.5 2.5]"
