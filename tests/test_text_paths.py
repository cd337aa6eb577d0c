"""The paths that programs over words and dictionaries take (issue 35: counting into a
dictionary, the words of a text reversed, word frequencies): a dictionary read and written
through its table by generated code, the undefined test inline, strings reversed, measured,
compared and joined inline, Each of a constant joined to or dropped from each of a list of
strings, Cut of a text, Join over texts, Group of words, First of a vector, a word paired
with its count, and a list of records handed to Python. Every value is the one the general
verbs give, on both backends, in generated code and in closures; a value held elsewhere
never changes (a dictionary, which Klong changes in place, changes for every holder)."""
import sys
import warnings

import pytest

from klong import KlongError, KlongInterpreter
from klong.compiler import passes
from klong.compiler.lower import ir, lower
from klong.compiler.render import pysource
from klong.compiler.syntax.parser import parse
from klong.runtime.display import write

WORDS = "words::{[t];t::\" \",x;{1_x}'1_(t?0c ):_t}"
REVERSED = "rev::{[w];w::|words(x);(*w),,/{\" \",x}'1_w}"

CASES = [
    # counting into a dictionary: integer keys (the table written directly), then others
    ("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};c::cnt([3 1 3 2 3 1]);(c?3),(c?1),(c?2)",
     '[3 2 1]'),
    ("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};c::cnt([3 1 3 2 3 1]);:_c?7", '1'),
    ("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};c::cnt([1.5 2.5 1.5]);(c?1.5),c?2.5", '[2 1]'),
    ('cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}\'x;d};c::cnt("abca");(c?0ca),(c?0cb),:_c?"a"',
     '[2 1 1]'),
    ("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};c::cnt([:a :b :a]);(c?:a),c?:b", '[2 1]'),
    ('cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}\'x;d};c::cnt(["ab" "cd" "ab"]);(c?"ab"),c?"cd"',
     '[2 1]'),
    ("f::{[d];d:::{};{d,x,x*0.5}'x;d};c::f([2 4]);(c?2),c?4", '[1.0 2.0]'),
    ("f::{[d];d:::{};{d,x,x*1000000000000}'x;d};c::f([2 4]);(c?2),c?4",
     '[2000000000000 4000000000000]'),
    ("f::{[d];d:::{};{d,x,(x*10000000000)^2}'x;d};c::f([2]);c?2", '400000000000000000000'),
    ('f::{[d];d:::{};{d,x,"v"}\'x;d};c::f([2 4]);(c?2),c?4', '"vv"'),
    ('f::{[d];d:::{};{d,"k",x}\'x;d};c::f([2 4]);c?"k"', '4'),
    ("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};cnt([3 1 3])", ':{[3 2] [1 1]}'),
    ("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d};{x}'cnt([3 1 3])", '[[3 2] [1 1]]'),
    # not a dictionary: the verb, and its error
    ('f::{x?y};f(5;1)',
     'ERROR type error: find [5 1]: list, string or dictionary expected on the left (in f)'),
    ('f::{x@y};f(5;1)',
     'ERROR type error: at [5 1]: list, string or function expected on the left (in f)'),
    ('f::{:_x?y};f(5;1)',
     'ERROR type error: find [5 1]: list, string or dictionary expected on the left (in f)'),
    ('f::{x~y};f("ab";:ab)', '0'),
    ('f::{|x};f(:{[1 2]})', ':{[1 2]}'),
    # Each whose value is not read: the calls alone, in order, over every kind of operand
    ("f::{[s];s::0;{s::s+x}'x;s};f([1 2 3])", '6'),
    ("f::{[s];s::0;{s::s+x@1}'x;s};f(:{[1 2] [3 4]})", '6'),
    ("f::{[s];s::0;{s::s+x}'x;s};f(5)", '5'),
    ('f::{[s];s::"";{s::s,x}\'x;s};f("abc")', '"abc"'),
    ("f::{[s];s::[];{s::s,x}'x;s};f([])", '[]'),
    ('f::{[s];s::0;{s::s+#x}\'x;s};f(["ab" "c"])', '3'),
    ("f::{[s];s::0;{x*2}'x;{x%0}'x;s};f([1 2 3])", '0'),
    ("g::{x+y};f::{[s];s::0;g(1;)'x;s};f([1 2 3])", '0'),
    ("f::{[s];s::0;{x@5}'x;s};f([1 2 3])",
     'ERROR type error: at [1 5]: list, string or function expected on the left (in {x@5}, from f)'),
    # the same dictionary held twice: both see the entries (dictionaries change in place)
    ("e:::{};f::{[d];d::x;{d,x,1}'y;d};g::f(e;[5 6]);(#e),(e?5),g?6", '[2 1 1]'),
    # At reads a dictionary as Find does; a list still by position
    ('f::{(x@y),x@z};d:::{[1 10] ["a" 20]};f(d;1;"a")', '[10 20]'),
    ('f::{(x@y),x@z};f([7 8 9];0;2)', '[7 9]'),
    ('f::{x@y};f(:{[1 10]};2)', ':undefined'),
    ('f::{x?y};f(:{[1 10]};[1])', ':undefined'),
    # the undefined test, as a value and as a predicate
    ('f::{:_x};(f(:{}?1)),(f(0)),(f([])),f("")', '[1 0 0 0]'),
    ('f::{:[:_x;"u";"d"]};(f(:{}?1)),f(1)', '"ud"'),
    ('f::{:[:_1;2;3]};g::{:_5};h::{:[:_"a";1;0]};(f()),(g()),h()', '[3 0 0]'),
    # strings: reverse, size, match, join, and their other operands
    ('f::{|x};(f("abc")),f([1 2 3])', '["cba" 3 2 1]'),
    ('f::{|x};f("")', '""'),
    ('f::{#x};(f("abc")),(f("")),(f([1 2])),f(5)', '[3 0 2 5]'),
    ('f::{x~y};(f("ab";"ab")),(f("ab";"ba")),(f("a";0ca)),(f([1 2];[1 2])),f("";[])',
     '[1 0 0 1 0]'),
    ('f::{x,y};f("ab";"cd")', '"abcd"'),
    ('f::{x,y};f("ab";1)', '["ab" 1]'),
    ('f::{x,y};f(1;"ab")', '[1 "ab"]'),
    ('f::{x,y};f("ab";2.5)', '["ab" 2.5]'),
    ('f::{x,y};f("ab";0cc)', '"abc"'),
    ('f::{x,y};f("ab";:s)', '["ab" :s]'),
    ('f::{x,y};f("";"")', '""'),
    ('f::{" ",x};(f("ab")),f(0cx)', '" ab x"'),
    ('f::{" ",x};f([1 2])', '[" " 1 2]'),
    ('pal::{+/{x~|x}\'x};pal(["aba" "ab" "c" ""])', '3'),
    # Each of a constant joined to or dropped from each string
    ('{" ",x}\'["ab" "c" ""]', '[" ab" " c" " "]'),
    ('{x,"!"}\'["ab" "c"]', '["ab!" "c!"]'),
    ('{x,0cx}\'["ab" "c"]', '["abx" "cx"]'),
    ('{0cx,x}\'["ab" "c"]', '["xab" "xc"]'),
    ('{1_x}\'["abc" "d" ""]', '["bc" "" ""]'),
    ('{(-1)_x}\'["abc" "d" ""]', '["ab" "" ""]'),
    ('{5_x}\'["abc" "d"]', '["" ""]'),
    ('{(-5)_x}\'["abc" "d"]', '["" ""]'),
    ('{0_x}\'["abc" "d"]', '["abc" "d"]'),
    ('{1_x}\'["abc" 0cd]',
     'ERROR type error: drop [1 0cd]: list, string or dictionary expected on the right (in {1_x})'),
    ('{" ",x}\'["ab" :s]', '[" ab" [" " :s]]'),
    ('{" ",x}\'["ab" 1]', '[" ab" [" " 1]]'),
    ('{x,1}\'["ab" "c"]', '[["ab" 1] ["c" 1]]'),
    ('{1,x}\'["ab" "c"]', '[[1 "ab"] [1 "c"]]'),
    ('{" ",x}\'"abc"', '[" a" " b" " c"]'),
    ('w::["ab" "cd"];v::{" ",x}\'w;w', '["ab" "cd"]'),
    ('w::["ab" "cd"];v::{1_x}\'w;w,v', '["ab" "cd" "b" "d"]'),
    # the words of a text, reversed
    (WORDS + ';words("ab c  def")', '["ab" "c" "" "def"]'),
    (WORDS + ";" + REVERSED + ';rev("ab c def")', '"def c ab"'),
    (WORDS + ";" + REVERSED + ';rev("one")', '["one"]'),      # (one word: a list of it)
    # Cut of a text
    ('f::{x:_y};f([1 3];"abcdef")', '["a" "bc" "def"]'),
    ('f::{x:_y};f([0 0 2];"abc")', '["" "" "ab" "c"]'),
    ('f::{x:_y};f([];"abc")', '["abc"]'),
    ('f::{x:_y};f(3;"abcdef")', '["abc" "def"]'),
    ('f::{x:_y};f([1 6];"abcdef")', '["a" "bcdef" ""]'),
    ('f::{x:_y};f([1 3];"")',
     'ERROR range error: cut [[1 3] ""]: index 1 out of order or outside 0..0 (in f)'),
    ('f::{x:_y};f([3 1];"abcdef")',
     'ERROR range error: cut [[3 1] "abcdef"]: index 1 out of order or outside 0..6 (in f)'),
    ('f::{x:_y};f([1 7];"abcdef")',
     'ERROR range error: cut [[1 7] "abcdef"]: index 7 out of order or outside 0..6 (in f)'),
    ('f::{x:_y};f([-1 2];"abcdef")',
     'ERROR range error: cut [[-1 2] "abcdef"]: index -1 out of order or outside 0..6 (in f)'),
    ('f::{x:_y};f([1 3];[1 2 3 4 5])', '[[1] [2 3] [4 5]]'),
    ('f::{x:_y};f([1 3];[1 "a" 2 3 :b])', '[[1] ["a" 2] [3 :b]]'),
    # Join over a list of texts, and of others
    ('f::{,/x};f(["ab" "cd" ""])', '"abcd"'),
    ('f::{,/x};f(["ab" 0cx "c"])', '"abxc"'),
    ('f::{,/x};f(["ab" 1])', '["ab" 1]'),
    ('f::{,/x};f(["ab" :s])', '["ab" :s]'),
    ('f::{,/x};f([[1 2] [3]])', '[1 2 3]'),
    ('f::{,/x};f("abc")', '"abc"'),
    ('f::{,/x};f(["ab"])', '"ab"'),
    # Group of words, First of each group, a word and its count
    ('wf::{[w g];w::(1+(-1)_x?0c ):_x;g::=w;(w@*\'g),\'#\'g};wf("a b a c b a ")',
     '[["a " 3] ["b " 2] ["c " 1]]'),
    ('f::{=x};f(["b" "a" "b" "c"])', '[[0 2] [1] [3]]'),
    ('f::{=x};f([1 2 1 3 3])', '[[0 2] [1] [3 4]]'),
    ('f::{=x};f(["b" 1 "b" 1.0])', '[[0 2] [1] [3]]'),
    ("f::{*'x};f([[5 6] [7] [8 9 10]])", '[5 7 8]'),
    ('f::{*x};(f([[1 2] 3])),(f("ab")),f(7)', '[1 2 0ca 7]'),
    ('f::{*x};f(!0)', '[]'),
    ('f::{*x};f("")', '""'),
    ('f::{*x};f([1.5 2])', '1.5'),
    ('f::{x,\'y};f(["a" "b"];[1 2])', '[["a" 1] ["b" 2]]'),
    # Size of each character of a string, its code: one vector at once
    ("f::{#'x};f(\"abc\")", '[97 98 99]'),
    ("f::{#'x};f(\"a\")", '[97]'),
    ("f::{#'x};f(\"\")", '""'),
    ("f::{+/#'x};(f(\"ab\")),(#'\"a\"),1.5", '[195 97 1.5]'),
    ("f::{(#'x)-97};f(\"cab\")", '[2 0 1]'),
    # Join-Over of Char of integers (,/:#a): the text at once where the codes are those of
    # characters; a one-item list joins to its character, an atom is one, and a list of
    # characters is no string; codes out of range, reals, lists fail at Char or join as
    # Char's list
    ("f::{,/:#x};f([104 105 32 200])", '"hi È"'),
    ("f::{,/:#x};(f(,72)),f(73)", '"HI"'),
    ("f::{,/:#x};@f(,72)", '1'),
    ("f::{,/:#x};f([72 105])~\"Hi\"", '1'),
    ("f::{:#x};f([72 105])~\"Hi\"", '0'),
    ("f::{:#x};f([72 105 0 255])", '[0cH 0ci 0c\x00 0c\u00ff]'),
    ("f::{,/:#x};#f(!256)", '256'),
    ("f::{,/:#x};f([])",
     'ERROR type error: char []: integer expected (in f)'),
    ("f::{,/:#x};f([72 256])",
     'ERROR domain error: char [72 256]: character code out of range (in f)'),
    ("f::{,/:#x};f([-1 72])",
     'ERROR domain error: char [-1 72]: character code out of range (in f)'),
    ("f::{,/:#x};f([72 105.0])",
     'ERROR type error: char [72 105.0]: integer expected (in f)'),
    ("f::{,/:#x};f([[72 105] [73 74]])", '[0cH 0ci 0cI 0cJ]'),
    ("f::{,/:#x-1};f(1+!3)", '"\x00\x01\x02"'),
    ("rot::{[c s];c::#'x;s::c>96;,/:#(c*~s)+s*97+(c-84)!26};rot(\"hello, world\")",
     '"uryyb, jbeyq"'),
    ("rot::{[c s];c::#'x;s::c>96;,/:#(c*~s)+s*97+(c-84)!26};rot(\"a\")", '0cn'),
    (",/:#[72 105]", '"Hi"'),
    # Each of a literal made anew at each call, over a short list: its loop
    ("line::{(-1)_,/{($x),\",\"}'x};line([12 -3 4])", '"12,-3,4"'),
    ("line::{(-1)_,/{($x),\",\"}'x};,/{line(x),:#10}'[[1 2] [3 4]]", '"1,2\n3,4\n"'),
    ("f::{{x*2}'x};(f([1 2 3])),f(\"ab\")",
     'ERROR type error: times [0ca 2]: number expected (in {x*2}, from f)'),
    ("f::{{x,x}'x};f(\"ab\")", '["aa" "bb"]'),
    ("f::{{x+1}'x};f(:{[1 2]})", '[[2 3]]'),
    # integers beyond int64, in Python lists: paired and with a number at once
    ("pas::{(x-1){(0,x)+x,0}\\*,1};r::*|pas(70);(+/r),(#r),(r@35),r@69",
     '[590295810358705651712 70 56093138908331422716 1]'),
    ("f::{x+y};f([10000000000000000000 2];[1 2])", '[10000000000000000001 4]'),
    ("f::{x-y};(f([10000000000000000000 2];3)),f(3;[10000000000000000000 2])",
     '[9999999999999999997 -1 -9999999999999999997 1]'),
    ("f::{x*y};f([10000000000000000000 2];[10000000000000000000 2])",
     '[100000000000000000000000000000000000000 4]'),
    ("f::{x!y};f([10000000000000000001 -7];3)", '[2 -1]'),
    ("f::{x%y};f([10000000000000000000 2];[4 0])", '[2.5e+18 :undefined]'),
    ("f::{x+y};f([10000000000000000000 2];[1 2.5])", '[10000000000000000001 4.5]'),
    ("f::{x+y};f([10000000000000000000 2];\"ab\")",
     'ERROR type error: plus [[10000000000000000000 2] "ab"]: number expected (in f)'),
    # Remainder of integers by an integer: at once, its bound kept
    ("f::{(x!10)+x!-7};f([-23 15 9 0])", '[-5 6 11 0]'),
    ("f::{x!0};f([1 2])", 'ERROR domain error: remainder [[1 2] 0]: division by zero (in f)'),
]


def printed(k, src):
    try:
        return write(k.run(src))
    except KlongError as e:
        return "ERROR " + str(e)


@pytest.mark.parametrize("src, expected", CASES)
def test_the_value_is_the_general_verbs(km, src, expected):
    assert printed(km, src) == expected


@pytest.mark.parametrize("text", ["\u00e9\u20ac\U0001f600", "a\ud800b", "x" * 1000])
def test_the_codes_of_a_string_are_those_of_its_characters_one_by_one(km, text):
    km["s"] = text
    assert printed(km, "#'s") == printed(km, "{#x}'s")
    assert printed(km, "#'s") == write(km.run("[" + " ".join(str(ord(c)) for c in text) + "]"))


def rendered(src):
    k = KlongInterpreter(backend="numpy", codegen=True)
    return pysource.source(passes.run(lower(parse(src), k.engine)), k)


def test_generated_code_reads_and_writes_the_table_and_tests_undefined_inline():
    text = rendered("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d}")
    assert "v0_d.table.get(x, NO_ENTRY)[1]" in text
    assert "v0_d.table[x] = (x, t1)" in text
    assert "if t2 is UNDEFINED:" in text


def test_generated_code_reverses_compares_and_joins_strings_inline():
    text = rendered("f::{(x~|x),\" \",x}")
    # (the constant " " is a string: only the other operand is tested)
    assert "t1 = (K0 + x) if type(x) is str else V3(K0, x)" in text
    assert "t2 = (x[::-1]) if type(x) is str else M4(x)" in text
    assert "t3 = (1 if x == t2 else 0) if type(x) is str and type(t2) is str else V5(x, t2)" \
        in text


def test_a_dictionary_counted_into_keeps_its_keys_apart(km):
    # the table written directly for an integer key; a real, a character of the same value
    # are other keys, as Join puts them
    km("cnt::{[d];d:::{};{d,x,:[:_d?x;1;1+d?x]}'x;d}")
    km("c::cnt([1 2 1]);c,1.0,5;c,(:#1),7")
    assert printed(km, "(c?1),(c?2),(c?1.0),(c?:#1),#c") == "[2 1 5 7 4]"


# ---------------------------------------------------------------- records to Python

def test_records_come_to_python_as_arrays_of_their_fields(k):
    r = k('[["a" 1] ["b" 2] ["c" 3]]')
    assert r.dtype == object and r.shape == (3,)
    assert [list(row) for row in r] == [["a", 1], ["b", 2], ["c", 3]]
    assert all(row.dtype == object and row.shape == (2,) for row in r)


def test_a_record_held_twice_is_one_array_in_python(k):
    r = k('p::["a" 1];(,p),(,p),,["b" 2]')
    assert r[0] is r[1]
    assert [list(row) for row in r] == [["a", 1], ["a", 1], ["b", 2]]


def test_records_of_other_widths_or_kinds_convert_as_before(k):
    r = k('[["a" 1] ["b" 2 3]]')
    assert [list(row) for row in r] == [["a", 1], ["b", 2, 3]]
    r = k('[["a" [1 2]] ["b" [3 4]]]')
    assert r[0][0] == "a" and list(r[1][1]) == [3, 4]
    r = k('(,["a" 1]),(,["b" 2]),,:{[1 2]}')
    assert list(r[0]) == ["a", 1] and r[2] == {1: 2}


def test_a_constant_tested_for_undefined_compiles_without_warnings():
    # (a number's text beside `is` is a SyntaxWarning of Python's compiler)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        k = KlongInterpreter(backend="numpy", codegen=True)
        assert printed(k, "f::{:[:_12345;2;3]};g::{:_67890};(f()),g()") == "[3 0]"
    assert [str(w.message) for w in seen] == []


def test_each_for_its_effects_stops_at_the_failing_element(km):
    km("s::0;f::{{s::s+x;:[x=2;x@5;0]}'x;0}")
    assert printed(km, "f([1 2 3])") == ("ERROR type error: at [2 5]: list, string or function "
                                         "expected on the left (in {s::s+x;:[x=2;x@5;0]}, from f)")
    assert printed(km, "s") == "3"


def test_join_over_char_of_integers_is_one_step_in_both_renderers(km):
    # ,/:#a: the text made of the codes at once (one call, no list of characters), the
    # verbs as written behind it
    text = rendered("f::{,/:#x}")
    assert "t1 = J3(x)" in text and "if t1 is None:" in text
    chunk = passes.run(lower(parse("f::{,/:#x}"), km.engine))
    found = [n for fn in chunk.lambdas for s in fn.body for n in ir.walk(s)
             if isinstance(n, ir.JoinedChars)]
    assert len(found) == 1 and isinstance(found[0].arg, ir.Local)
    assert printed(km, "f::{,/:#x};f([75 108 111 110 103])") == '"Klong"'


def test_codes_of_a_string_and_remainders_keep_their_bounds(km):
    # arithmetic on them then scans nothing for its exactness checks (runtime/limits.py)
    km["t"] = "hello world " * 20
    c = km.run("c::#'t")
    assert km.limits.known(c) == sys.maxunicode
    r = km.run("r::(c-100)!26")
    assert km.limits.known(r) == 25
    assert printed(km, "r@!4") == "[4 1 8 8]"


@pytest.mark.parametrize("codes, expected", [
    ([104, 105, 0, 255], "hi\x00\xff"), ([104, 256], None), ([-1, 104], None),
    ([-2 ** 63, 104], None), ([2 ** 63 - 1, 104], None), ([255] * 100, "\xff" * 100)])
def test_byte_text_checks_every_code_in_one_step(k, codes, expected):
    # ,/:#a: the text where every code is one byte, else None (Char then fails as written);
    # on numpy one pass over int64 codes read as unsigned, other widths through the bounds
    backend = k.backend
    assert backend.byte_text(backend.asarray(codes, "i")) == expected
    if k.backend.name == "numpy" and all(0 <= c < 2 ** 31 for c in codes):
        import numpy as np
        assert backend.byte_text(np.asarray(codes, np.int32)) == expected
