"""Each-Pair run once on a whole array, Flip of atoms and one list, While of a pair: exact
printed values and errors in every mode (both backends, both renderers), the same as the
element-by-element loops give."""
import pytest

from klong import KlongError
from klong.runtime.display import write

from conftest import MODES, interpreter_in


def run(km, src):
    try:
        return write(km(src))
    except KlongError as e:
        return str(e)


# ---------------------------------------------------------------- Each-Pair of an atomic dyad

@pytest.mark.parametrize("src, printed", [
    ("=:'[1 1 2 2 3]", "[1 0 1 0]"),
    ("+:'[1 2 3]", "[3 5]"),
    ("-:'[]", "[]"),
    ("-:'[5]", "[5]"),
    ("-:'5", "5"),
    ("+:'[9223372036854775807 1 2]", "[9223372036854775808 3]"),
    ("*:'[4000000000 4000000000 3]", "[16000000000000000000 12000000000]"),
    ("%:'[1 2 0 4]", "[0.5 :undefined 0.0]"),
    ("%:'[0 0]", "[:undefined]"),
    ("-:'[1 2.5 3]", "[-1.5 -0.5]"),
    ("^:'[2 3 70]", "[8 2503155504993241601315571986085849]"),
    ("^:'[2 -1 3]", "[0.5 -1]"),
    ("&:'[1 0 1]", "[0 0]"),
    ("=:'\"aabb\"", "[1 0 1]"),
    (",:'[1 2 3]", "[[1 2] [2 3]]"),
    ("+:'[1 [2] 3]", "[[3] [5]]"),
    ("+:'[[1 2] [3 4] [5 6]]", "[[4 6] [8 10]]"),
    ("=:'[[1 2] [1 2] [5 6]]", "[[1 1] [0 0]]"),
    ("x::!5;+:'x", "[1 3 5 7]"),
    ("v::(!1000)!7;(=:'v)~(1_v)=(-1)_v", "1"),
    # lambdas whose body is a verb, or that have a whole-array form
    ("{x+y}:'[1 2 3]", "[3 5]"),
    ("{x*y}:'[9223372036854775807 2 1]", "[18446744073709551614 2]"),
    ("{x<y}:'[3 1 2 5]", "[0 1 1]"),
    ("{x%y}:'[1 0 2]", "[:undefined 0.0]"),
    ("{x-y}:'[[1 2] [3 4] [5 6]]", "[[-2 -2] [-2 -2]]"),
    ("{x,y}:'[1 2 3]", "[[1 2] [2 3]]"),
    ("f::{~=:'x};f([1 1 2 3])", "[0 1 1]"),
    ("f::{~=:'x};+/f((!1000)!3)", "999"),
    # errors: the loop's
    ("!:'[7 0 2]", "domain error: remainder each-pair [7 0 2]: division by zero"),
    (":%:'[7 0]", "domain error: integer-divide each-pair [7 0]: division by zero"),
    ("{x:%y}:'[7 0 1]", "domain error: integer-divide [7 0]: division by zero (in {x:%y})"),
    ("=:'+[[] [] []]", "type error: equal each-pair [[] [] []]: operands of different kinds"),
    ("-:'[9223372036854775807 -9223372036854775807]", "[18446744073709551614]"),
    ("*:'[-9223372036854775808 -1]", "[9223372036854775808]"),
    ("=:'[1.0 1.0000000000001 2]", "[0 0]"),
    ("{x+y}:'[3 2 2]:^!12", "[[[4 6] [8 10]] [[12 14] [16 18]]]"),
])
def test_each_pair(km, src, printed):
    assert run(km, src) == printed


# ---------------------------------------------------------------- Flip of atoms and lists

@pytest.mark.parametrize("src, printed", [
    ("+(!3),,!3", "[[0 1 2 0] [0 1 2 1] [0 1 2 2]]"),
    ("+[[1 2] 3]", "[[1 3] [2 3]]"),
    ("+[[1 2] 3 [4 5]]", "[[1 3 4] [2 3 5]]"),
    ("+(,3),,!2", "[[3 0] [3 1]]"),
    ("+[1.5 [2.0 3.0] 4.5]", "[[1.5 2.0 4.5] [1.5 3.0 4.5]]"),
    ("+[1 [2 3] 4.5]", "[[1 2 4.5] [1 3 4.5]]"),
    ("+[1 [2.0 3.0] 4]", "[[1 2.0 4] [1 3.0 4]]"),
    ("+[9223372036854775808 [1 2]]", "[[9223372036854775808 1] [9223372036854775808 2]]"),
    ("+[9223372036854775807 [1 2]]", "[[9223372036854775807 1] [9223372036854775807 2]]"),
    ("+[1 [1 2] :a]", "[[1 1 :a] [1 2 :a]]"),
    ("+[0c a [1 2]]", "[[0c  :a 1] [0c  :a 2]]"),
    ("a::+[1 [1 2]];a+1", "[[2 2] [2 3]]"),
    ("t::+(!300),,!300;(^t),(+/t@299),+/+/t", "[300 301 45149 13499850]"),
    ("t::+(!300),,0.5*!300;(^t),(+/t@299),+/+/t", "[300 301 44999.5 13477425.0]"),
    ("+[[1 2] [3]]", "length error: transpose [[1 2] [3]]: rows of different lengths"),
    ("+[[1 2] []]", "length error: transpose [[1 2] []]: rows of different lengths"),
])
def test_flip_of_atoms_and_lists(km, src, printed):
    assert run(km, src) == printed


def test_flip_over_the_element_limit_fails_at_once():
    # the limit is checked before the rows are made, on both backends
    for mode in MODES:
        k = interpreter_in(mode)
        k.limits.max_elements = 1000
        assert run(k, "#+(!30),,!30") == "30"
        assert run(k, "+(!40),,!40") == (
            "range error: transpose [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 "
            "...: too many elements: 1640 (the limit is 1000, set by KLONG_MAX_ELEMENTS)")


# ---------------------------------------------------------------- While of a pair

@pytest.mark.parametrize("src, printed", [
    ("{(x@0)<x@1}{(1+x@0),x@1}:~0,1000", "[1000 1000]"),
    ("{(x@0)<x@1}{(1+x@0),x@1}:~0,-1", "[0 -1]"),
    ("{(x@0)<x@1}{((x@0)+0.5),x@1}:~0.0,3.0", "[3.0 3.0]"),
    ("{(x@1)<100}{(x@1),(x@0)+x@1}:~0,1", "[89 144]"),
    ("{(x@1)<10^20}{(x@1),(x@0)+x@1}:~0,1",
     "[83621143489848422977 135301852344706746049]"),
    ("{(x@0)<3}{(1+x@0),x@1}\\~0,7", "[[0 7] [1 7] [2 7]]"),
    ("v::!20;(v@0),(v@15),(v@16),v@19", "[0 15 16 19]"),
    ("v::0.5*!20;(v@0),(v@16),v@19", "[0.0 8.0 9.5]"),
    ("m::[[1 2] [3 4]];m@1", "[3 4]"),
    ("(1,2)@2", "index error: at [[1 2] 2]: index 2 out of range 0..1"),
    ("(1,2.5)@1", "2.5"),
    ("{(x@0)<x@1}{(1+x@0),x@1}:~0,,[1]", "[1 1]"),
])
def test_while_of_a_pair(km, src, printed):
    assert run(km, src) == printed


@pytest.mark.parametrize("src, printed", [
    # a failing pair names the function's own verb and pair, as the loop does, though the
    # lambda has a whole-array form for the lists
    ("[7 1]{x:%y}'[0 1]", "domain error: integer-divide [7 0]: division by zero (in {x:%y})"),
    ("[7 1 5]{x:%y}'[1 0]", "domain error: integer-divide [1 0]: division by zero (in {x:%y})"),
    ("[7 1]{x%y}'[2 0]", "[3.5 :undefined]"),
    ("[7 1]{x:%y}'[2 1]", "[3 1]"),
])
def test_each2_errors_are_the_loops(km, src, printed):
    assert run(km, src) == printed
