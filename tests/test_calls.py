"""Calls, dictionaries and short lists (issue 35 item 5): the shorter paths that the counting,
tree and word-frequency programs take give what the verbs gave before, in every mode (numpy
and torch, generated code and closures): dictionary keys of every kind kept apart, Atom of a
number, Over and Each of short lists, Join of two atoms.
"""
import pytest

from klong import KlongError
from klong.runtime.display import write


@pytest.fixture
def k(km):
    return km


def printed(k, src):
    return write(k.run(src))


# ---------------------------------------------------------------- dictionary keys

def test_keys_of_every_kind_stay_apart(k):
    # an integer or a string is its own key: a real, a character, a symbol or a list of
    # the same value is another key
    k.run('d:::{};d,1,:int;d,1.0,:real;d,"a",:str;d,0ca,:chr;d,:a,:sym;d,[[1 2] :ints];'
          'd,[[1.0 2.0] :reals];d,"1",:text;d,[[1 "a"] :mixed]')
    assert printed(k, "#d") == "9"
    assert printed(k, '(d?1),(d?1.0),(d?"a"),(d?0ca),(d?:a),(d?[1 2]),(d?[1.0 2.0]),(d?"1")') \
        == "[:int :real :str :chr :sym :ints :reals :text]"
    assert printed(k, 'd?[1 "a"]') == ":mixed"
    assert printed(k, '(:_d?2),(:_d?2.0),(:_d?"b"),(:_d?0c1),(:_d?[2 1])') == "[1 1 1 1 1]"


def test_integer_keys_from_lists_and_past_int64(k):
    # an element read from an array is a plain integer key; one past int64 is a key too
    k.run("d:::{};d,((!5)@3),:three;d,(2^70),:big;d,[-1 :minus]")
    assert printed(k, "(d?3),(d?(1+!4)@2),(d?2^70),(d?-1)") == "[:three :three :big :minus]"
    assert printed(k, "3_d;(:_d?3),#d") == "[1 2]"


def test_counting_into_a_dictionary(k):
    k.run("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d}")
    k.run("r::cnt([3 1 3 2 3 1])")
    assert printed(k, "(r?3),(r?1),(r?2),#r") == "[3 2 1 3]"
    k.run('s::cnt(["ab" "c" "ab" 0ca 1 1.0 "ab"])')
    assert printed(k, '(s?"ab"),(s?"c"),(s?0ca),(s?1),(s?1.0),#s') == "[3 1 1 1 1 5]"


def test_a_dictionary_is_shared_by_every_variable_holding_it(k):
    # dictionaries are the mutable values (language.md): a second name sees the new entry,
    # as it did with the entry put in place by a,k,v
    k.run("d:::{};t::d;f::{d,x,2*x};f'[1 2 3]")
    assert printed(k, "(t?1),(t?3),#t") == "[2 6 3]"


# ---------------------------------------------------------------- recursion over lists

def test_atom_of_numbers_and_of_lists(k):
    assert printed(k, '{@x}\'[1 2.5]') == "[1 1]"
    assert printed(k, '(@1),(@2.5),(@[]),(@""),(@[1]),(@"a"),(@0ca),(@:a),(@{x})') == \
        "[1 1 1 1 0 0 1 1 1]"
    assert printed(k, "f::{:[@x;:number;:list]};(f(3)),(f(3.0)),(f([3])),(f(!0))") == \
        "[:number :number :list :number]"


def test_sum_of_a_tree_of_lists(k):
    k.run("mk::{:[x=0;y;mk(x-1;)'(3*y)+!3]};sm::{:[@x;x;+/sm'x]}")
    assert printed(k, "sm(mk(4;0))") == "3240"
    assert printed(k, "sm(mk(2;0.5))") == "76.5"
    assert printed(k, "sm'mk(2;0)") == "[3 12 21]"
    assert printed(k, 'sm([1 [2 3] [[4] 5.5]])') == "15.5"


def test_over_of_short_integer_lists_is_exact(k):
    assert printed(k, "+/[1 2 3]") == "6"
    assert printed(k, "+/[9223372036854775807 1]") == "9223372036854775808"
    assert printed(k, "+/[-9223372036854775807 -2]") == "-9223372036854775809"
    assert printed(k, "+/'[[1 2] [3 4]]") == "[3 7]"
    assert printed(k, "+/[[1 2] [3 4]]") == "[4 6]"
    assert printed(k, "+/[1.5 2]") == "3.5"
    assert printed(k, "+/[]") == "[]"
    assert printed(k, "+/,7") == "7"


# ---------------------------------------------------------------- Join of two atoms

def test_join_of_two_atoms_is_a_pair(k):
    assert printed(k, '"w1",5') == '["w1" 5]'
    assert printed(k, "1,2.5") == "[1 2.5]"
    assert printed(k, "1,2") == "[1 2]"
    assert printed(k, "(2^70),1") == "[1180591620717411303424 1]"
    assert printed(k, '0ca,:b') == "[0ca :b]"
    assert printed(k, '"a","b"') == '"ab"'
    assert printed(k, "0ca,0cb") == '"ab"'
    assert printed(k, '{x},"s"') == '[:monad "s"]'
    assert printed(k, "(:{}),5") == "[:{} 5]"
    assert printed(k, "w::[\"a\" \"bb\"];w,'[1 2]") == '[["a" 1] ["bb" 2]]'


@pytest.mark.parametrize("src, printed", [
    ('1_"abc"', '"bc"'), ('(-1)_"abc"', '"ab"'), ('5_"abc"', '""'), ('(-5)_"abc"', '""'),
    ('0_"abc"', '"abc"'), ('1_""', '""'), ('{1_x}\'["ab" "c" ""]', '["b" "" ""]'),
    ('"abc"~"abc"', "1"), ('"abc"~"abd"', "0"), ('""~""', "1"), ('0ca~"a"', "0"),
    ('"a"~,0ca', "1"), ('{x~|x}\'["aba" "ab" "" "c"]', "[1 0 1 1]"),
    ('1.0_"abc"', 'type error: drop [1.0 "abc"]: integer expected'),
])
def test_strings_dropped_and_matched(km, src, printed):
    """Drop from a string and Match of two strings (words of a text): their short roads
    give the general verbs' values and errors."""
    try:
        got = write(km.run(src))
    except KlongError as e:
        got = str(e)
    assert got == printed
