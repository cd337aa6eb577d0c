"""The steps of issue 35's programs at their smallest sizes: a number joined to a vector of
its kind made in one step (Backend.attached: on numpy the new vector filled in place, no
one-element array concatenated: a row of Pascal's triangle, 0,x and x,0), and the text of
character codes checked and made in one step (Backend.byte_text, in test_text_paths.py).
Each join is compared with the same join written with a one-element list, (,n),v, which
takes the general path: printed value and element kind alike, in all four modes."""
import numpy as np
import pytest

from conftest import MODES, MODE_IDS, interpreter_in, printed_or_error as outcome

# (n, v): n,v and v,n both ways
JOINS = [
    ("0", "1+!3"), ("-7", "[5]"), ("9223372036854775807", "!3"),
    ("-9223372036854775808", "[1 2]"), ("9223372036854775808", "!3"),   # beyond int64
    ("1.5", "[2.0 3.0]"), ("-0.0", "[1.0]"), ("1e308", "[0.5]"),
    ("0", "[1.5 2.5]"), ("0.5", "!3"),               # kinds that differ: a general list
    ("0", "!0"), ("0", "[[1 2] [3 4]]"), ("0cx", "\"ab\""), ("0", "3*!100"),
]


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_a_number_joined_to_a_vector_is_the_general_join(mode):
    k = interpreter_in(mode)
    for n, v in JOINS:
        k(f"n::{n};v::{v}")
        for joined, written in (("n,v", "(,n),v"), ("v,n", "v,,n")):
            got, want = outcome(k, joined), outcome(k, written)
            assert got == want, (n, v, joined)
            if not got.startswith("error") and got not in ("[]", '""'):
                assert outcome(k, f"@*|{joined}") == outcome(k, f"@*|{written}")
                assert outcome(k, f"@*{joined}") == outcome(k, f"@*{written}")


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_joined_rows_of_pascals_triangle(mode):
    # the rows as int64 vectors to row 67, Python integers past it, added exactly
    k = interpreter_in(mode)
    k("pas::{(x-1){(0,x)+x,0}\\*,1}")
    assert outcome(k, "*|pas(8)") == "[1 7 21 35 35 21 7 1]"
    assert outcome(k, "r::*|pas(70);(+/r),(#r),r@35") \
        == "[590295810358705651712 70 56093138908331422716]"


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_a_joined_vector_leaves_the_one_held_alone(mode):
    k = interpreter_in(mode)
    assert outcome(k, "v::1+!3;t::v;w::0,v;u::v,9;(t),(v),(w),u") == "[1 2 3 1 2 3 0 1 2 3 1 2 3 9]"
    assert outcome(k, "v::[1.5 2.5];t::v;w::0.5,v;(t),w") == "[1.5 2.5 0.5 1.5 2.5]"


def test_a_long_progression_joined_after_a_number_stays_known(k):
    # Amend writes at 0,(x*x)+x*!k as a slice: the progression from the second element on
    r = k.run("0,3*!100")
    assert k.limits.progression(r) == (0, 3, 1)
    assert k.limits.progression(k.run("0,3*!10")) is None      # short: nothing remembered


@pytest.mark.parametrize("kind, vector, x", [
    ("i", [1, 2, 3], 0), ("i", [5], 2 ** 63 - 1), ("i", [5], -2 ** 63),
    ("f", [1.5, -0.0], 2.5), ("f", [0.5], -0.0), ("f", [0.5], 7)])
def test_attached_puts_the_number_first_or_last_in_the_vectors_dtype(k, kind, vector, x):
    backend = k.backend
    v = backend.asarray(vector, kind)
    for at_end, want in ((True, vector + [x]), (False, [x] + vector)):
        r = backend.attached(v, x, kind, at_end)
        assert r.dtype == v.dtype and r.shape == (len(vector) + 1,)
        got = backend.to_host(r).tolist()
        assert got == want and [str(e) for e in got] == [str(type(e)(w)) for e, w in zip(got, want)]
    assert backend.to_host(v).tolist() == vector          # the vector itself unchanged


def test_attached_to_a_vector_of_another_width_widens_as_the_join_does(kn):
    # a numpy vector of 32-bit integers handed in as it is: the result is int64
    r = kn.backend.attached(np.array([1, 2], np.int32), 2 ** 40, "i", False)
    assert r.dtype == np.int64 and r.tolist() == [2 ** 40, 1, 2]
