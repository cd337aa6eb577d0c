"""Adverbs (language.md section 4): each form with the examples of the spec, strings,
dictionaries, atoms and empty operands, chained adverbs and wrong contexts."""
import pytest

from klong import KlongError, KlongInterpreter


def check(kw, cases):
    for src, printed in cases:
        assert kw(src) == printed, src


# ---------------------------------------------------------------- how verbs take adverbs (4.2)

@pytest.mark.parametrize("src, printed", [
    ("-'[1 2 3]", "[-1 -2 -3]"),
    (",'[1 2 3]", "[[1] [2] [3]]"),
    ("3-:*5", "-5"),
    ("-/[1 2 3]", "-4"),
    ("-:'!5", "[-1 -1 -1 -1]"),
    ("[1 2 3],'[4 5 6]", "[[1 4] [2 5] [3 6]]"),
    ("f::{x*x};f'[2 3 4]", "[4 9 16]"),
    ("{y-x}:'!5", "[1 1 1 1]"),
    ("f::{x,y};9f:/[1 2 3]", "[[1 9] [2 9] [3 9]]"),
    ("g::{x-y};g(;0)'[1 2 3]", "[1 2 3]"),
    ("g::{x-y};g(;1)'[1 2 3]", "[0 1 2]"),
    ("{x+1}'!3", "[1 2 3]"),
    ("#'[[1 2] [3] []]", "[2 1 0]"),
    ("2#'\"abc\"", '"ab"'),
])
def test_verbs_with_adverbs(kw, src, printed):
    assert kw(src) == printed


# ---------------------------------------------------------------- Each (4.4)

@pytest.mark.parametrize("src, printed", [
    ("{x}'\"foof\"", '"foof"'),
    ("#'\"test\"", "[116 101 115 116]"),
    ("{x,x}'\"ab\"", '["aa" "bb"]'),
    ("{x}':{[1 2]}", "[[1 2]]"),
    ("*':{[1 2]}", "[1]"),
    ("{x@1}':{[1 2]}", "[2]"),
    ("{x}':{}", "[]"),
    ("{x}'[]", "[]"),
    ("{x}'\"\"", '""'),
    ("{x}'5", "5"),
    ("-'5", "-5"),
    ("{x*2}'[1 2.5]", "[2 5.0]"),
    ("{x}'[[1 2] [3 4]]", "[[1 2] [3 4]]"),
])
def test_each(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("data", [
    "=[3 1 3 2 1 3]",                       # the groups of = (integer vectors)
    "[[1.5 2] [3 4 5] [0.0]]",              # reals, and integers
    "[[1 2] [3.5] [4 5 6]]",                # vectors of both kinds in one list
    "[[1 2] [] [3]]",                       # an empty one: the loop
    "[[1 2] [[3]] [4]]",                    # a general list among them: the loop
    "[[1 2] \"ab\" [3]]",                   # a string among them: the loop
    "(=(70#[1 2 3]),[5 6 7])",              # long groups
])
def test_first_and_size_of_each_vector_as_the_loop(kw, data):
    """*'g and #'g over a list of vectors (the groups of =) take the items' first elements
    and lengths at once: as the loop of *'s and #'s does, element kinds included."""
    assert kw(f"*'{data}") == kw(f"{{*x}}'{data}")
    assert kw(f"#'{data}") == kw(f"{{#x}}'{data}")
    assert kw(f"(*'{data})~{{*x}}'{data}") == "1"


def test_each_does_not_call_on_empty(kw):
    assert kw("n::0;{x;n::n+1}'[];n") == "0"
    assert kw("n::0;{x;n::n+1}'\"\";n") == "0"
    assert kw("n::0;{x;n::n+1}'[7 8 9];n") == "3"


# ---------------------------------------------------------------- Each-2 (4.4)

@pytest.mark.parametrize("src, printed", [
    ("[1 2 3],'[4 5]", "[[1 4] [2 5]]"),
    ("[1 2],'[4 5 6]", "[[1 4] [2 5]]"),
    ("\"tst\",'\"foo\"", '["tf" "so" "to"]'),
    ("\"test\"{x;y}'\"foof\"", '"foof"'),
    ("\"abc\"{y;x}'\"xyz\"", '"abc"'),
    ("[],'[]", "[]"),
    ("[1 2 3],'[]", "[]"),
    ("[],'[1 2 3]", "[]"),
    ("\"\"+'\"\"", '""'),
    ("1,'[2 3]", "[1 2 3]"),
    ("1,'[]", "[1]"),
    ("[1 2],'3", "[1 2 3]"),
    ("[1 2 3]+'[10 20 30]", "[11 22 33]"),
    ("[1 2]{x*y}'[3 4]", "[3 8]"),
])
def test_each2(kw, src, printed):
    assert kw(src) == printed


# ---------------------------------------------------------------- Each-Left / Each-Right (4.4)

@pytest.mark.parametrize("src, printed", [
    ("0,:\\[1 2 3]", "[[0 1] [0 2] [0 3]]"),
    ("0,:/[1 2 3]", "[[1 0] [2 0] [3 0]]"),
    ("0c!,:\\\"test\"", '["!t" "!e" "!s" "!t"]'),
    ("0c!,:/\"ab\"", '["a!" "b!"]'),
    ("0,:\\[]", "[]"),
    ("0,:/[]", "[]"),
    ("0,:\\\"\"", '""'),
    ("0,:\\5", "[0 5]"),
    ("0,:/5", "[5 0]"),
    ("[1 2]-:\\[10 20]", "[[-9 -8] [-19 -18]]"),
    ("[1 2]-:/[10 20]", "[[9 8] [19 18]]"),
    ("\"x\"{y}:\\\"abc\"", '"abc"'),
])
def test_each_left_right(kw, src, printed):
    assert kw(src) == printed


# ---------------------------------------------------------------- Each-Pair (4.4)

@pytest.mark.parametrize("src, printed", [
    (",:'[1 2 3]", "[[1 2] [2 3]]"),
    (",:'\"test\"", '["te" "es" "st"]'),
    ("{y-x}:'!5", "[1 1 1 1]"),
    ("-:'[10 7 1]", "[3 6]"),
    ("{y;x}:'\"abc\"", '"ab"'),
    (",:'[1]", "[1]"),
    (",:'\"x\"", '"x"'),
    (",:'5", "5"),
    (",:'[]", "[]"),
    (",:'\"\"", '""'),
])
def test_each_pair(kw, src, printed):
    assert kw(src) == printed


# ---------------------------------------------------------------- Over / Over-Neutral (4.5)

@pytest.mark.parametrize("src, printed", [
    ("-/[1 2 3]", "-4"),
    ("{(,x),y}/!5", "[[[[0 1] 2] 3] 4]"),
    ("+/!10", "45"),
    ("*/1+!5", "120"),
    ("|/[3 1 4 1 5]", "5"),
    ("&/[3 1 4]", "1"),
    ("+/[1.5 2.5]", "4.0"),
    (",/[1]", "1"),
    (",/\"a\"", "0ca"),
    ("+/[]", "[]"),
    ("+/\"\"", '""'),
    ("+/5", "5"),
    ("+/:{[1 2]}", ":{[1 2]}"),
    (",/\"abc\"", '"abc"'),
    ("{x,y}/[\"ab\" \"cd\" \"ef\"]", '"abcdef"'),
    (",/[[1 2] [3] [4 5]]", "[1 2 3 4 5]"),
    ("+/[[1 2] [3 4]]", "[4 6]"),
])
def test_over(kw, src, printed):
    assert kw(src) == printed


# +/ of a short integer vector is Python's sum of its items (verbs/folds.py): exact, an
# integer, beyond int64 too, as the library's sum and the exact fold give longer ones
@pytest.mark.parametrize("src, printed", [
    ("+/[3 4 5]", "12"),
    ("+/[-7]", "-7"),
    ("+/[9223372036854775807 1]", "9223372036854775808"),
    ("+/[-9223372036854775807 -1 -1]", "-9223372036854775809"),
    ("+/!64", "2016"),
    ("+/!65", "2080"),
    ("+/64:^4611686018427387904", "295147905179352825856"),
    ("{:[@x;x;+/.f'x]}([[1 2] [3 [4 5]] 6])", "21"),
    ("@+/[1 2]", "1"),
])
def test_sums_of_short_integer_vectors(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, printed", [
    ("4+/[1 2 3]", "10"),
    ("5{(,x),y}/[1 2]", "[[5 1] 2]"),
    ("0c0,/\"abc\"", '"0abc"'),
    ("0+/[]", "0"),
    ("5{(,x),y}/[]", "5"),
    ("0c0,/\"\"", "0c0"),
    ("1,/2", "[1 2]"),
    ("[1 2]+/[3 4]", "[8 9]"),
    ("10-/[1 2 3]", "4"),
    ("[],/[[1] [2 3]]", "[1 2 3]"),
])
def test_over_neutral(kw, src, printed):
    assert kw(src) == printed


# ---------------------------------------------------------------- Scan-Over (4.5)

@pytest.mark.parametrize("src, printed", [
    (",\\[1 2 3]", "[1 [1 2] [1 2 3]]"),
    ("-\\[1 2 3]", "[1 -1 -4]"),
    ("+\\!5", "[0 1 3 6 10]"),
    ("{x+y}\\[1 2 3]", "[1 3 6]"),
    (",\\\"abc\"", '[0ca "ab" "abc"]'),
    (",\\[1]", "[1]"),
    (",\\\"a\"", "[0ca]"),
    (",\\[]", "[]"),
    ("+\\\"\"", '""'),
    ("+\\1", "[1]"),
    ("|\\[1 3 2 5 4]", "[1 3 3 5 5]"),
])
def test_scan_over(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, printed", [
    ("4+\\[1 2 3]", "[4 5 7 10]"),
    ("[],\\[1 2]", "[[] [1] [1 2]]"),
    ("0c0,\\\"abc\"", '[0c0 "0a" "0ab" "0abc"]'),
    ("5{(,x),y}\\[]", "5"),
    ("[],\\[]", "[]"),
    ("1,\\2", "[1 [1 2]]"),
    ("[0]+\\5", "[0 [5]]"),
    ("0+\\[1 1 1]", "[0 1 2 3]"),
])
def test_scan_over_neutral(kw, src, printed):
    assert kw(src) == printed


# ---------------------------------------------------------------- Converge and friends (4.6)

@pytest.mark.parametrize("src, printed", [
    ("{_x%2}:~1000", "0"),
    (",/:~[[1] [[2]] [3]]", "[1 2 3]"),
    (",/:~[]", "[]"),
    ("{x}:~5", "5"),
    ("{:[x>10;x;x+1]}:~0", "11"),
])
def test_converge(kw, src, printed):
    assert kw(src) == printed


def test_converge_to_square_root(k, kw):
    assert abs(k("{(x+2%x)%2}:~2") - 2 ** 0.5) < 1e-12
    assert kw("s::{(x+2%x)%2}:~2;(s+10*.e)~s") == "1"


@pytest.mark.parametrize("src, printed", [
    ("{_x%2}\\~1000", "[1000 500 250 125 62 31 15 7 3 1 0]"),
    ("{_x%2}\\~0", "[0]"),
    (",/\\~[1]", "[[1] 1]"),
    (",/\\~[]", "[[]]"),
])
def test_scan_converging(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, printed", [
    ("{x<1000}{x*2}:~1", "1024"),
    ("{x<10}{x+1}:~0", "10"),
    ("{x<0}{x+1}:~0", "0"),
    ("{(#x)<3}{x,0}:~[]", "[0 0 0]"),
])
def test_while(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, printed", [
    ("{x<10}{x+1}\\~0", "[0 1 2 3 4 5 6 7 8 9]"),
    ("{x<100}{x*2}\\~1", "[1 2 4 8 16 32 64]"),
    ("{x<1}{x+1}\\~0", "[0]"),
    ("{x<0}{x+1}\\~0", "[]"),
])
def test_scan_while(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, printed", [
    ("3{1,x}:*[]", "[1 1 1]"),
    ("0,:*1", "1"),
    ("3,:*1", "[[[1]]]"),
    ("5{x*2}:*1", "32"),
    ("2{x,x}:*\"a\"", '"aaaa"'),
])
def test_iterate(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, printed", [
    ("3{1,x}\\*[]", "[[] [1] [1 1] [1 1 1]]"),
    ("1,\\*1", "[1 [1]]"),
    ("0,\\*1", "1"),
    ("0{1,x}\\*[]", "[]"),
    ("4{x*2}\\*1", "[1 2 4 8 16]"),
])
def test_scan_iterating(kw, src, printed):
    assert kw(src) == printed


def test_iterate_count_must_be_an_integer(kerr):
    assert kerr("1.5{x+1}:*1").kind == "type"
    assert kerr("\"a\"{x+1}:*1").kind == "type"


# ---------------------------------------------------------------- chains (4.2)

@pytest.mark.parametrize("src, printed", [
    ("+/'[[1 2 3] [4 5 6] [7 8 9]]", "[6 15 24]"),
    (",/:~[1 [2 [3 [4] 5] 6] 7]", "[1 2 3 4 5 6 7]"),
    (",/\\~[1 [2 [3 [4] 5] 6] 7]",
     "[[1 [2 [3 [4] 5] 6] 7] [1 2 [3 [4] 5] 6 7] [1 2 3 [4] 5 6 7] [1 2 3 4 5 6 7]]"),
    (",/'[[[1] [2]] [[3] [4]]]", "[[1 2] [3 4]]"),
    ("+\\'[[1 2] [3 4]]", "[[1 3] [3 7]]"),
    ("#''[[[1] [2 3]] [[4 5 6]]]", "[[1 2] [3]]"),
    ("-''[[1 2] [3]]", "[[-1 -2] [-3]]"),
])
def test_chained_adverbs(kw, src, printed):
    assert kw(src) == printed


def test_scan_after_over_is_rejected(kerr):
    assert kerr("+/\\!3").kind == "syntax"


# ---------------------------------------------------------------- parameters as verbs (4.2)

def test_parameter_as_verb_with_adverb(kw):
    assert kw("{[f];f::x;f'y}({-x};[1 2 3])") == "[-1 -2 -3]"
    assert kw("{x'y}({-x};[1 2 3])") == "[-1 -2 -3]"


# ---------------------------------------------------------------- contexts and arity (4.1)

@pytest.mark.parametrize("src", ["+:\\[1 2]", "+:/[1 2]", "1+:'[1 2]"])
def test_wrong_adverb_context(kerr, src):
    assert kerr(src).kind == "syntax"


@pytest.mark.parametrize("src", ["{x}/[1 2 3]", "{x+y}'[1 2]", "{x}:'[1 2 3]", "{x+y}:~1"])
def test_adverb_with_wrong_arity(kerr, src):
    assert kerr(src).kind == "arity"


# ---------------------------------------------------------------- loops that run as array operations

@pytest.mark.parametrize("src, printed", [
    (",/[[1 2] [3] []]", "[1 2 3]"),
    (",/[[1 2] [3.5]]", "[1 2 3.5]"),
    (",/[\"ab\" \"\" \"c\"]", '"abc"'),
    (",/[[[1 2]] [[3 4] [5 6]]]", "[[1 2] [3 4] [5 6]]"),
    (",/{x,x}'!3", "[0 0 1 1 2 2]"),
    (",/[[1] 2 [3]]", "[1 2 3]"),
    (",/[1 2]", "[1 2]"),
])
def test_join_over_joins_all_at_once(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, printed", [
    ("{x+y*y}/[1 2 3]", "14"),
    ("{(y^2)+x}/[1.0 2.0 3.0]", "14.0"),
    ("{x*1+y}/[1 2 3]", "12"),
    ("{x+y*y}\\[1 2 3]", "[1 5 14]"),
    ("{x+y%2}\\[0 1 2]", "[0 0.5 1.5]"),
    ("{x+y*y}/[5]", "5"),
])
def test_folds_of_arithmetic_bodies(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, printed", [
    ("[1 2]{+/x*y}:/[[1 2] [3 4]]", "[5 11]"),
    ("[1.5 2]{+/x*y}:\\[[1 2] [3 4]]", "[5.5 12.5]"),
    ("{x{+/x*y}:/[[1 0] [0 1]]}'[[1 2] [3 4]]", "[[1 2] [3 4]]"),
    ("{:[x>1;x*x;-x]}'[0 1 2 3]", "[0 -1 4 9]"),
    ("{:[x>1;x*x;0.5]}'[0 1 2 3]", "[0.5 0.5 4 9]"),
])
def test_products_and_conditionals_over_arrays(kw, src, printed):
    assert kw(src) == printed


# Each of a lambda of two arguments with one fixed calls the lambda directly (verbs/forms.py):
# the values and errors of the projection's call
@pytest.mark.parametrize("src, printed", [
    ("{y@x}(1;)'[[1 2] [3 4]]", "[2 4]"),
    ("{x,y}(;9)'[1 2]", "[[1 9] [2 9]]"),
    ("{x-y}(10;)'[1 2.5]", "[9 7.5]"),
    ("{x+y+z}(1;;2)'[1 2]", "[4 5]"),
    ("{[a];a::x;{a+x+y}(1;)'[1 2]}(5)", "[7 8]"),
])
def test_each_of_a_projected_lambda(kw, src, printed):
    assert kw(src) == printed


# ... and over the rows of a matrix, once for all rows where the lambda has a batched form of
# pairs (its whole form: the fixed argument the same for every row): the loop's values
@pytest.mark.parametrize("src, printed", [
    ("a::[3 4]:^!12;{y@x}(2;)'a", "[2 6 10]"),
    ("a::[3 4]:^0.5*!12;{y@x}(2;)'a", "[1.0 3.0 5.0]"),
    ("a::[3 4]:^!12;{x@y}(;1)'a", "[1 5 9]"),
    ("a::[3 4]:^!12;{y-x}(2;)'a", "[[-2 -1 0 1] [2 3 4 5] [6 7 8 9]]"),
    ("a::[3 4]:^!12;{x,y}(9;)'a", "[[9 0 1 2 3] [9 4 5 6 7] [9 8 9 10 11]]"),
    ("a::[3 4]:^!12;{y@x}([0 2];)'a", "[[0 2] [4 6] [8 10]]"),
    ("a::[2 3 2]:^!12;{y@x}(1;)'a", "[[2 3] [8 9]]"),
    ("{y*x}(2;)'[1 2 3]", "[2 4 6]"),
    ("{y*x}(4611686018427387904;)'[1 2 3]",
     "[4611686018427387904 9223372036854775808 13835058055282163712]"),
    ("{[i];i::1;{y@i+x}(1;)'[3 4]:^!12}()", "[2 6 10]"),
])
def test_each_of_a_projected_lambda_over_rows(kw, src, printed):
    assert kw(src) == printed


def test_the_projection_over_rows_takes_the_batched_form(k):
    from klong.runtime.context import entered
    from klong.runtime.display import write
    from klong.verbs.forms import function_forms
    k("a::[40 3]:^!120;p::{y@x}(2;);q::{x@y}(;1);r::{x+y+z}(1;;2)")
    with entered(k.context):
        a = k.globals["a"]
        assert write(function_forms(k.globals["p"]).whole_monad(a)) == write(k("2+3*!40"))
        assert write(function_forms(k.globals["q"]).whole_monad(a)) == write(k("1+3*!40"))
        assert function_forms(k.globals["r"]).whole_monad is None     # not of two arguments


@pytest.mark.parametrize("src, message", [
    ("{y@x}(5;)'[[1 2] [3 4]]", "index error: at [[1 2] 5]: index 5 out of range 0..1 (in {y@x})"),
    ('f::{x+y};f(;"a")\'[1 2]', 'type error: plus [1 "a"]: number expected (in f)'),
])
def test_each_of_a_projected_lambda_fails_as_its_call(kerr, src, message):
    assert str(kerr(src)) == message


# ---------------------------------------------------------------- loops of literals run inline
# (compiler/passes/loops.py): the scans of While, Converge and Iterate, and literals with
# locals set before they are read, give what the adverbs give when they call the literal

@pytest.mark.parametrize("src, printed", [
    ("{x>1}{:[x!2;1+3*x;x:%2]}\\~6", "[6 3 10 5 16 8 4 2]"),
    ("col::{#{x>1}{:[x!2;1+3*x;x:%2]}\\~x};col'1+!10", "[0 1 7 2 5 8 16 3 19 6]"),
    ("{x:%2}\\~100", "[100 50 25 12 6 3 1 0]"),
    ("{:[x>10;x;x*2]}\\~1", "[1 2 4 8 16]"),
    ("3{x*2}\\*1.5", "[1.5 3.0 6.0 12.0]"),
    ("0{x+1}\\*5", "5"),
    ('{#x}{1_x}\\~"hello"', '["hello" "ello" "llo" "lo" "o"]'),
    ("f::{x<3};f{x+1}\\~0", "[0 1 2]"),
    ("{[a];a::x*2;:[a>100;x;a]}\\~1", "[1 2 4 8 16 32 64]"),
    ("{x<100}{[a];a::x*2;a+1}\\~1", "[1 3 7 15 31 63]"),
    ("5{[a];a::x*2;a+1}\\*1", "[1 3 7 15 31 63]"),
    ("{x<100}{[a];a::x*2;a+1}:~1", "127"),
    ("bs::{[a k];a::x;k::y;*{(x@0)<x@1}{[m];m::(+/x):%2;:[(a@m)<k;(m+1),x@1;(x@0),m]}:~0,#a};"
     "bs(2*!50;31),bs(2*!50;0),bs(2*!50;99)", "[16 0 50]"),
    ("{x<3}{[a];a::{x+1};a(x)}:~1", "3"),
])
def test_loops_run_inline_give_the_adverbs_results(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, message", [
    ("1{x+1}\\~1", "type error: scan-while [1 1]: not a function"),
    ("2.5{x+1}\\*1", "type error: scan-iterating [2.5 1]: iterate: count must be an integer"),
    ("{x>1}{:[x!2;1+3*x;x:%2]}\\~7.0",
     "type error: remainder [7.0 2]: integers expected (in {:[x!2;1+3*x;x:%2]})"),
    ("{x<100}{[a];a::a+1;a+x}:~1", "undefined error: a is not defined (in {[a];a::a+1;a+x})"),
    ("{x<100}{[a];:[x>5;a::1;0];a+x}:~1",
     "undefined error: a is not defined (in {[a];:[x>5;a::1;0];a+x})"),
])
@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
def test_loops_run_inline_fail_as_the_adverbs_do(backend, codegen, src, message):
    k = KlongInterpreter(backend=backend, codegen=codegen)
    with pytest.raises(KlongError) as info:
        k(src)
    assert str(info.value) == message


def test_loops_run_inline_agree_in_every_mode(km):
    from klong.runtime.display import write
    got = write(km("{x<100}{[a];a::x*2;a+1}\\~1"))
    assert got == "[1 3 7 15 31 63]"
    assert write(km("{x>1}{:[x!2;1+3*x;x:%2]}\\~7")) == \
        "[7 22 11 34 17 52 26 13 40 20 10 5 16 8 4 2]"


# ---------------------------------------------------------------- Each over strings
# of {c OP x} and {x OP c}: the verb mapped over the strings (LambdaFacts.with_constant)

@pytest.mark.parametrize("src, printed", [
    ("words::{[t];t::\" \",x;{1_x}'1_(t?0c ):_t};words(\"the cat  sat\")",
     '["the" "cat" "" "sat"]'),
    ("rev::{[w];w::|x;(*w),,/{\" \",x}'1_w};rev([\"ab\" \"c\" \"def\"])", '"def c ab"'),
    ("{x,0c.}'[\"abc\" \"de\" \"f\"]", '["abc." "de." "f."]'),
    ("{2#x}'[\"abc\" \"de\" \"\"]", '["ab" "de" ""]'),
])
def test_each_of_a_verb_with_a_constant_over_strings(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src, message", [
    ("{x@1}'[\"abc\" \"de\" \"f\"]", 'index error: at ["f" 1]: index 1 out of range 0..0 (in {x@1})'),
    ("{1_x}'[\"abc\" 1 \"f\"]",
     "type error: drop [1 1]: list, string or dictionary expected on the right (in {1_x})"),
    ("{x+1}'[\"abc\" \"de\"]", 'type error: plus ["abc" 1]: number expected (in {x+1})'),
])
def test_each_of_a_verb_with_a_constant_over_strings_fails_as_the_literal(kerr, src, message):
    assert str(kerr(src)) == message


@pytest.mark.parametrize("codegen", [True, False], ids=["codegen", "closures"])
@pytest.mark.parametrize("src, message", [
    ("{x<10000000}{x+1}\\~0", "scan-while [:monad 0]: not enough memory allowed: the result "
     "needs at least 1 MB (1048584 bytes), over the memory limit of 1 MB (1048576 bytes)"),
    ("f::{x<10000000};f{x+1}\\~0", "scan-while [:monad 0]: not enough memory allowed: the "
     "result needs at least 1 MB (1048584 bytes), over the memory limit of 1 MB (1048576 bytes)"),
    ("{x+1}\\~0.5", "scan-converging 0.5: not enough memory allowed: the result needs at least "
     "1 MB (1048584 bytes), over the memory limit of 1 MB (1048576 bytes)"),
    ("200000{x+1}\\*0", "scan-iterating [200000 0]: not enough memory allowed: the result "
     "needs 1.5 MB (1600008 bytes), over the memory limit of 1 MB (1048576 bytes)"),
])
def test_scans_run_inline_are_refused_over_the_memory_limit_as_the_adverbs(codegen, src, message):
    from klong import KlongInterpreter
    from klong.errors import KlongError
    k = KlongInterpreter(memory_limit="1MB", codegen=codegen)
    with pytest.raises(KlongError) as info:
        k.run(src)
    assert str(info.value) == "range error: " + message
