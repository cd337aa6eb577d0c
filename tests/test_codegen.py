"""Klong rendered as Python source (render/pysource.py) against the closure path
(codegen=False), and the whole-array forms (render/pywhole.py) against the loops they replace.

Every program runs in two interpreters, one per path, and must print the same and fail the
same way; most also have the printed value they must give. The conformance suites run both
ways in CI (.ci/run, KLONG_CODEGEN=0)."""
import numpy as np
import pytest

from klong import KlongError, KlongInterpreter, backends
from klong.verbs.adverbs import join_pairs
from klong.runtime.display import write

from conftest import BACKENDS


def both(backend="numpy"):
    return (KlongInterpreter(backend=backend, codegen=True),
            KlongInterpreter(backend=backend, codegen=False))


def outcome(k, src):
    try:
        return "value", write(k.run(src))
    except KlongError as e:
        return "error", e.kind, e.message, e.line


# (program, what it prints); None: only the agreement of the two paths is checked
PROGRAMS = [
    # recursion, conditionals, self calls
    ("fib::{:[x<2;x;fib(x-1)+fib(x-2)]};fib(15)", "610"),
    ("{:[x<2;x;.f(x-1)+.f(x-2)]}(10)", "55"),
    ("f::{:[x<1;0;1+f(x-1)]};g::f;f::{x*100};g(5)", "401"),     # the self call follows f
    ("f::{:[x<1;0;1+f(x-1)]};f(2000)", "2000"),
    ("s::{:[x=0;0:|x=1;10:|x=2;20;30]};s'!4", "[0 10 20 30]"),
    ("{:[x;\"yes\";\"no\"]}'[0 1 0.0 []]", '["no" "yes" "no" "no"]'),
    # scalar fast paths: integers, reals, mixtures, big integers, text
    ("1+2*3-4", "-1"), ("1.5*2", "3.0"), ("2*3.5+1", "9.0"), ("(2^70)+1", "1180591620717411303425"),
    ("{x*x}(2^40)", "1208925819614629174706176"), ("{x*y}(4294967296;-4294967296)",
    "-18446744073709551616"), ("{x*y}(2147483647;2147483647)", "4611686014132420609"),
    ("{x*y}(1.5;1e200)", None), ("{x*y}(3;2^100)", "3802951800684688204490109616128"), ("{x<y}(1;2.5)", "1"), ("{x=y}(1;1.0)", "1"),
    ("{x|y}(3;2.5)", "3"), ("{x&y}(3;3.0)", "3.0"), ("{-x}(2.5)", "-2.5"), ("{~x}'[0 1 2]", "[1 0 0]"),
    ("{x<y}(\"a\";\"b\")", "1"), ("{x+y}([1 2];3)", "[4 5]"), ("{x-y}(0cb;0ca)", None),
    # locals, nested literals, lexical scope
    ("{[a];a::x;{a+x}'y}(10;[1 2])", "[11 12]"),
    ("{[a];a::1;{a::2}();a}()", "2"),
    ("{[a];a::1;{{a::a+1}()}();a}()", "2"),
    ("a::1;g::{a};h::{[a];a::5;g()};h()", "1"),
    ("a::1;{[a];a::2}();a", "1"),
    ("uniq::{[d];d:::{};{d,x,x}'x;d@<d::*'d};uniq([3 1 3 2])", "[1 2 3]"),
    ("{[a b];a::x;b::y;a::a+b;a*b}(2;3)", "15"), ("{[a];a;1}()", None), ("x;1", None), ("{x;1}(5)", "1"), ("{[a];a::2;a;1}()", "1"),
    ("f::{[n];n::0;{n::n+x}'x;n};f(!5)", "10"),
    ("g::{{x}}();g(7)", "7"),
    # globals assigned inside functions, strict mode
    ("f::{t::x};f(3);t", "3"),
    ("c::0;{x;c::c+1}'!5;c", "5"),
    # projections, calls of every arity, function values
    ("g::{x-y};g(;1)'[1 2 3]", "[0 1 2]"), ("{x+y+z}(1;2;3)", "6"), ("{x,y}(1;)(2)", "[1 2]"),
    ("f::{x+1};h::{x(y)};h(f;2)", "3"), ("{1}()", "1"),
    # adverbs of literals: inline While, Converge, Iterate, and the others
    ("{x<10000}{x+1}:~0", "10000"), ("{x>1}{x%2}:~100.0", "0.78125"),
    ("p::{x<5};p{x+1}:~0", "5"), ("{:[x>1;x%2;x]}:~37", "0.578125"), ("{x}:~3", "3"),
    ("{1.0+x%2}:~0.0", None), ("3{x*2}:*1", "8"), ("0{x*2}:*1", "1"), ("n::-3;n{x+1}:*0", "3"),
    ("{x<100}{x*2}\\~1", "[1 2 4 8 16 32 64]"), ("3{x+1}\\*0", "[0 1 2 3]"),
    ("{x+y}/!10", "45"), ("{y+x}/!10", "45"), ("{x,y}/[[1] [2 3]]", "[1 2 3]"), ("{x-y}\\[10 1 2]", "[10 9 7]"),
    ("5{x+y}/!4", "11"), ("{x,y}:'[1 2 3]", "[[1 2] [2 3]]"), ("1{x,y}:\\[2 3]", "[[1 2] [1 3]]"),
    ("{x;c::c+1;x+1}:~5", None), ("c::0;{x<3}{c::c+1;x+1}:~0;c", "3"),
    # folds of arithmetic bodies: the library's reduction of the first element and g(rest)
    ("{x+y*y}/!5", "30"), ("{x+y*y}\\!5", "[0 1 5 14 30]"), ("{(y*y)+x}/[1.5 2 3]", "14.5"),
    ("{x+y%2}\\!4", "[0 0.5 1.5 3.0]"), ("{x*y+1}/[2 3 4]", "40"), ("{x+1%y}/[1 0 2]", None),
    ("{x+y*y}/[7]", "7"), ("{x+y*y}/[]", "[]"), ("{x+y*a}/!4", None), ("a::2;{x+y*a}/!4", "12"),
    # Each: whole-array forms and the loop
    ("{x*x}'!5", "[0 1 4 9 16]"), ("{:[x!2;x;0]}'!7", "[0 1 0 3 0 5 0]"),
    ("{:[x>2;1;0.5]}'!5", "[0.5 0.5 0.5 1 1]"),                 # kinds differ: a mixed list
    ("{:[x=0;0;1%x]}'[0 1 2]", "[0 1.0 0.5]"), ("{:[x=0;0;10:%x]}'[0 1 2]", "[0 10 5]"),
    ("{:[x<2;x;x*x]}'[1 2.5 3]", "[1 6.25 9]"), ("{:[x<2;x;x*x]}'[1.0 2.5 3.0]", "[1.0 6.25 9.0]"), ("{:[x>0;x:|x<0;-x;100]}'[3 -2 0]", "[3 2 100]"),
    ("{:[x>1;1;0]}'[[1 2] [3 4]]", "[1 1]"), ("{x*2}'[[1 2] [3 4]]", "[[2 4] [6 8]]"),
    ("a::3;{x*a}'!4", "[0 3 6 9]"), ("a::[1 2];{x*a}'[10 20]", "[[10 20] [20 40]]"),
    ("{x%0}'[1 2]", "[:undefined :undefined]"), ("{x!2}'[1.5]", None), ("{x+1}'\"ab\"", None),
    ("{x}'[]", "[]"), ("{x*2}'5", "10"), ("{x+1}'[1 2.5]", "[2 3.5]"),
    # inner and matrix products: the library's, and the Klong spelling where it does not fit
    ("+/[1.0 2.0 3.0]*[4.0 5.0 6.0]", "32.0"), ("+/[1 2 3]*[4 5 6]", "32"), ("+/[1.5 2]*3", "10.5"),
    ("+/[1.0 2.0]*[1.0 2.0 3.0]", None), ("+/(!3)*!3", "5"),
    ("mm::{[a b];a::x;b::+y;{x{+/x*y}:/b}'a};mm([[1 2] [3 4]];[[5 6] [7 8]])", "[[19 22] [43 50]]"),
    ("mm::{[a b];a::x;b::+y;{x{+/x*y}:/b}'a};mm([[1.5 2.0] [3.0 4.0]];[[5 6] [7 8]])", "[[21.5 25.0] [43.0 50.0]]"),
    ("mm::{[a b];a::x;b::+y;{x{+/x*y}:/b}'a};mm([[1.5 2] [3 4]];[[5 6] [7 8]])", "[[21.5 25.0] [43 50]]"),
    ("mmul::{[b];b::+y;{[r];r::x;{+/r*x}'b}'x};mmul([[1 2] [3 4]];[[5 6] [7 8]])", "[[19 22] [43 50]]"),
    ("mm::{[a b];a::x;b::+y;{x{+/x*y}:\\b}'a};mm([[1 2] [3 4]];[[5 6] [7 8]])", "[[19 22] [43 50]]"),
    ("dot::{+/x*y};[1 2]dot:/[[1 2] [3 4]]", "[5 11]"), ("[1 2]{+/x*y}:\\[[1 2] [3 4]]", "[5 11]"),
    ("m::[[1 2] [3 4]];{+/x*[10 100]}'m", "[210 430]"),
    ("big::[[4611686018427387904 1] [1 1]];{x{+/x*y}:/+big}'big", None),   # past 2^53: the loop
    ("mm::{[a b];a::x;b::+y;{x{+/x*y}:/b}'a};mm([[1 2 3]];[[1 2] [3 4]])", None),  # shapes
    ("{x{+/x*y}:/[[1 2] [3 4]]}'[[1 \"a\"]]", None),
    # join over
    ("q::{x,x}'!4;,/q", "[0 0 1 1 2 2 3 3]"), (",/[[1 2] [3] []]", "[1 2 3]"), (",/[\"ab\" \"c\" 0cd]", '"abcd"'),
    (",/[[1 2] [3.0]]", "[1 2 3.0]"), (",/[[1 2] 3]", "[1 2 3]"), (",/[1 2 3]", "[1 2 3]"),
    (",/[[[1 2]] [[3 4]]]", "[[1 2] [3 4]]"), (",/[\"a\"]", '"a"'), (",/[:a :b]", "[:a :b]"),
    # dictionaries, strings, symbols in generated code
    ("d:::{[1 2]};d?1", "2"), ("{x,\"!\"}'[\"a\" \"b\"]", '["a!" "b!"]'), ("{x}(:a)", ":a"),
    # modules (names renamed while one is open)
    ("a::0\n.module(:m)\na::1\ng::{a}\n.module(0)\na::5;g()", "1"),
    # errors: kind and position must agree too
    ("\"abc\"*2", None), ("[1 2 3]+[1 2]", None), ("{[a];a}()", None), ("nosuch", None),
    ("f::{x+y};f(1)", None), ("x::5;x(2)", None), ("{x*\"a\"}'[1 2]", None), ("2:*\"a\"", None),
    ("\"a\"{x+1}:*0", None), ("{x<3}{x+\"a\"}:~0", None), ("{:[x;1%0;2]}'[0 1]", None),
    ("f::{:[x>3;x+\"a\";f(x+1)]};f(0)", None), ("{x}(1;2)", None), ("1{x+y}:~2", None),
    (".strict();f::{zz::x};f(1)", None), ("f::{x%0};f'!3", None), ("(2^2000)*1.5", None),
]


@pytest.mark.parametrize("src, printed", PROGRAMS)
def test_generated_code_agrees_with_closures(src, printed):
    gen, closures = both()
    got = outcome(gen, src)
    assert got == outcome(closures, src), src
    if printed is not None:
        assert got == ("value", printed), src


@pytest.mark.skipif("torch" not in BACKENDS, reason="torch is not installed")
@pytest.mark.parametrize("src, printed", [p for p in PROGRAMS if "\n" not in p[0]][:60])
def test_generated_code_agrees_on_torch(src, printed):
    gen, closures = both("torch")
    assert outcome(gen, src) == outcome(closures, src), src


def test_generated_code_is_reused_for_text_run_again():
    k = KlongInterpreter(codegen=True)
    k("f::{x+1}")
    assert k("f(1)") == 2
    k("f::{x+10}")
    assert k("f(1)") == 11          # the same text: the same code, which reads f again
    assert k("{x*2}'[1 2]").tolist() == [2, 4]
    assert k("{x*2}'[1 2]").tolist() == [2, 4]


def test_only_code_with_a_function_literal_is_generated():
    """A line without a function literal runs once: closures cost less to make than code."""
    from klong.compiler.syntax.parser import parse
    k = KlongInterpreter(codegen=True)
    made = {src: k.engine.runnable(parse(src)).__code__.co_filename
            for src in ("v::1+2*3", "+/!10", "f::{x+1}", "{x*2}'!3", "d:::{[1 2]}")}
    assert made == {"v::1+2*3": made["v::1+2*3"], "+/!10": made["v::1+2*3"],
                    "f::{x+1}": "<klong>", "{x*2}'!3": "<klong>", "d:::{[1 2]}": made["v::1+2*3"]}
    assert made["v::1+2*3"] != "<klong>"


def test_codegen_option_and_environment(monkeypatch):
    monkeypatch.setenv("KLONG_CODEGEN", "0")
    assert KlongInterpreter().codegen is False
    assert KlongInterpreter(codegen=True).codegen is True
    monkeypatch.setenv("KLONG_CODEGEN", "1")
    assert KlongInterpreter().codegen is True
    monkeypatch.delenv("KLONG_CODEGEN")
    assert KlongInterpreter().codegen is True


# ---------------------------------------------------------------- errors say where and what

@pytest.fixture(params=[True, False], ids=["codegen", "closures"])
def kc(request):
    return KlongInterpreter(codegen=request.param)


def failure(k, src):
    with pytest.raises(KlongError) as info:
        k.run(src)
    return info.value


@pytest.mark.parametrize("src, text", [
    ('"abc"*2', 'type error: times ["abc" 2]: number expected'),
    ("[1 2 3]+[1 2]", "length error: plus [[1 2 3] [1 2]]: lists of different lengths"),
    ("x::5;x(2)", "type error: x is not a function"),
    (".pp(1)", "undefined error: .pp is not defined (did you mean .p?)"),
    ("f::{x*\"a\"};g::{f(x)};g(2)", 'type error: times [2 "a"]: number expected (in f, from g)'),
    ("+/[1 \"a\"]", 'type error: plus over [1 "a"]: number expected'),
    ("{x+1}'[1 \"a\"]", 'type error: plus ["a" 1]: number expected (in {x+1})'),
    ("!-1", "domain error: enumerate -1: negative argument"),
    ("f::{:[x>3;x+\"a\";f(x+1)]};f(0)", 'type error: plus [4 "a"]: number expected '
                                       '(in f, from f, from f, from f, and 1 more)'),
    ("{[a];a}()", "undefined error: a is not defined (in {[a];a})"),
    # found by tests/fuzz.py: a local read by an assignment before it has a value; a
    # function named by its text, which spans two lines
    ("fv::{[a];a::a};fv()", "undefined error: a is not defined (in fv)"),
    ("fw::{[a];b::a};fw()", "undefined error: a is not defined (in fw)"),
    ("{x+\"a\"\n}(1)", 'type error: plus [1 "a"]: number expected (in {x+"a" })'),
    ("nosuch+1", "undefined error: nosuch is not defined"),
    # repeated squaring reaches the integer size limit (limits.py) in seconds, not hours
    ("40{x*x}:*3",
     "range error: times [(~1000597 digits) (~1000597 digits)]: number too large (in {x*x})"),
    ("{x<5}{x+\"a\"}:~0", 'type error: plus [0 "a"]: number expected (in {x+"a"})'),
    ("{{x+\"a\"}:~x}(1)", 'type error: plus [1 "a"]: number expected (in {x+"a"}, from {{x+"a"}:~x})'),
    ("count::1;cuont+1", "undefined error: cuont is not defined (did you mean count?)"),
])
def test_runtime_errors_name_verb_operands_and_functions(kc, src, text):
    assert str(failure(kc, src)) == text


def test_overflow_is_a_range_error(kc):
    # an integer too long to show is shown by its length
    assert str(failure(kc, "(2^2000)*1.5")) == "range error: times [(~603 digits) 1.5]: number too large"


def test_error_operands_are_shortened(kc):
    e = failure(kc, "(!100)+!99")
    assert len(str(e)) < 120 and "..." in str(e) and e.kind == "length"


def test_error_operands_of_any_depth_and_size(kc):
    # deeper than Python's stack can write: the message says so (found by tests/fuzz.py)
    assert str(failure(kc, "!20000,:*1")) == \
        "type error: enumerate (a list too deeply nested to show): integer expected"
    # a long list is shown by its first items, the same text as when written whole
    e = failure(kc, "a::!100000;a+\"a\"")
    assert str(e) == "type error: plus [[" + " ".join(map(str, range(22))) + "...: number expected"


def test_errors_keep_their_position(kc):
    e = failure(kc, "f::{[a];a::x;\n  a+\"b\"};f(1)")
    assert (e.kind, e.line, e.column) == ("type", 2, 4)
    e = failure(kc, "g::{zz}\n\ng()")
    assert (e.kind, e.line, e.column) == ("undefined", 1, 5)
    assert e.report("p.kg").startswith("p.kg:1: undefined error: zz is not defined (in g)")


def test_function_repr_is_its_source(kc):
    k = kc
    k("fib::{:[x<2;x;fib(x-1)+fib(x-2)]}")
    assert repr(k["fib"]) == "{:[x<2;x;fib(x-1)+fib(x-2)]}"
    assert repr(k("{x+y}(1;)")) == "{x+y}(1;)"
    assert repr(k(".p")) == ".p"


# ---------------------------------------------------------------- whole-array forms

def test_each_of_a_conditional_is_one_select():
    k = KlongInterpreter(codegen=True)
    k("f::{:[x!2;x;0]}")
    assert k.globals["f"].whole is not None              # it has a whole-array form ...
    r = k.globals["f"].whole(np.arange(6))
    assert r.tolist() == [0, 1, 0, 3, 0, 5]             # ... that computes the loop's result
    assert k.globals["f"].whole(np.array([[1, 2]])) is None    # rows are not elements


def test_whole_form_declines_what_the_loop_must_do():
    k = KlongInterpreter(codegen=True)
    k("g::{:[x>0;10%x;0]}")
    # a zero divisor in the branch not taken: the whole form declines, the loop is right
    assert k.globals["g"].whole(np.array([0, 2])) is None
    assert write(k.run("g'[0 2]")) == "[0 5.0]"


@pytest.mark.parametrize("n", [1, 2, 7])
def test_matrix_product_idiom_is_the_library_product(n):
    k = KlongInterpreter(codegen=True)
    rng = np.random.default_rng(n)
    a, b = rng.integers(-9, 9, (n, n + 1)), rng.integers(-9, 9, (n + 1, 3))
    k["a"], k["b"], k["fa"] = a, b, a * 0.5
    k("mm::{[a b];a::x;b::+y;{x{+/x*y}:/b}'a}")
    assert np.array_equal(k("mm(a;b)"), a @ b)
    assert k.run("mm(a;b)").dtype == np.int64
    assert np.allclose(k("mm(fa;b)"), (a * 0.5) @ b)
    k("lit::{x{+/x*y}:/+b}")
    assert k.globals["lit"].whole(k.globals["a"]) is not None


def test_effects_keep_each_a_loop_on_torch(kt):
    kt("c::0;m::[[1.0 2.0] [3.0 4.0]];f::{c::c+1;+/x}")
    assert kt("f'm").tolist() == [3.0, 7.0] and kt("c") == 2
    kt("g::{+/x*x}")
    assert kt("g'm").tolist() == [5.0, 25.0]


def test_each_traced_on_torch_equals_the_loop(kt):
    src = ".bkf(\"tanh\");w::[0.5 -0.25];h::{+/tanh(w*x)};m::[[1.0 2.0] [3.0 4.0] [0.5 0.0]]"
    kt(src)
    with backends.using(kt.backend):
        traced = kt.backend.vmap(kt.globals["h"].run, kt.globals["m"])
    assert traced is not None
    loop = [kt(f"h(m@{i})") for i in range(3)]
    assert np.allclose(traced.tolist(), loop)
    assert np.allclose(kt("h'm").tolist(), loop)


def test_join_over_is_linear():
    k = KlongInterpreter(codegen=True)
    k("q::{x,x}'!20000")
    r = k.run(",/q")
    assert r.shape == (40000,) and r[:4].tolist() == [0, 0, 1, 1]


@pytest.mark.parametrize("a, b, at_once, printed", [
    ("[1 2 3]", "[4 5 6]", True, "[[1 4] [2 5] [3 6]]"),
    ("[1 2]", "[1.5 2.5]", False, "[[1 1.5] [2 2.5]]"),          # kinds differ: the loop
    ("[[1 2] [3 4]]", "[[5 6] [7 8]]", True, "[[1 2 5 6] [3 4 7 8]]"),
    ("[1.5 2.0]", "[[1.0 2.0] [3.0 4.0]]", True, "[[1.5 1.0 2.0] [2.0 3.0 4.0]]"),
    ("[[1 2] [3 4]]", "[9 8]", True, "[[1 2 9] [3 4 8]]"),
    ("[[1 2] [3 4]]", "[9 8 7]", False, "[[1 2 9] [3 4 8]]"),    # as long as the shorter
    ("[2 2 2]:^!8", "[2 2 2]:^!8", False,                        # items are matrices
     "[[[0 1] [2 3] [0 1] [2 3]] [[4 5] [6 7] [4 5] [6 7]]]"),
    ("[1 2 3]", '"abc"', False, "[[1 0ca] [2 0cb] [3 0cc]]"),
])
def test_each_of_join_is_one_array_operation(backend, a, b, at_once, printed):
    """a,'b joins the items of two numeric lists at once (adverbs.join_pairs): the same as the
    loop of a lambda, which runs item by item."""
    k = KlongInterpreter(backend=backend)
    k(f"a::{a};b::{b}")
    assert write(k.run("a,'b")) == write(k.run("a{x,y}'b")) == printed
    if at_once:
        with backends.using(k.backend):
            assert write(join_pairs(k.run("a"), k.run("b"))) == printed


def test_deep_code_falls_back_to_closures():
    """Python compiles about a hundred levels of blocks: deeper chunks run as closures."""
    gen, closures = both()
    chain = "f::{:[" + ":|".join(f"x={i};{i}" for i in range(150)) + ";-1]};f'[149 3 200]"
    nested = "g::" + "{" * 60 + "x" + "}" * 60 + ";g()"
    for src in (chain, nested):
        assert outcome(gen, src) == outcome(closures, src)
    assert gen(chain).tolist() == [149, 3, -1]


# ---------------------------------------------------------------- text: Format and joins

# Format applied last in an Each over numbers writes the whole vector at once; a dyad
# {x,t,y} or {x,y} over a list of strings joins them at once. Both give the loop's text
TEXT_PROGRAMS = [
    ("{$x}'!5", '["0" "1" "2" "3" "4"]'), ("{$x*7}'1.5*!3", '["0.0" "10.5" "21.0"]'),
    ("{$x}'[1 -2 3]", '["1" "-2" "3"]'), ("{$x}'[1 2.5 3]", '["1" "2.5" "3"]'),
    ("{$x}'[[1 2] [3 4]]", '[["1" "2"] ["3" "4"]]'), ("{$x}'[]", "[]"), ("{$x}'3", '"3"'),
    ("{$x}'[0.1 1e-5 1e20 -0.0]", '["0.1" "0.00001" "1.0e+20" "0.0"]'),
    ("{$x}'(2^70),1", '["1180591620717411303424" "1"]'),
    ("{$:[x;x;1%0]}'!3", '[:undefined "1" "2"]'), ("{$x%0}'[1 2]", "[:undefined :undefined]"),
    ("a::10;{$x+a}'!3", '["10" "11" "12"]'), ("{$x}'[:a 1 \"b\"]", '[":a" "1" "b"]'),
    ('{x,",",y}/$\'!5', '"0,1,2,3,4"'), ("{x,y}/$'!5", '"01234"'), ('{x,0c,,y}/$\'!3', '"0,1,2"'),
    ('{x,", ",y}/["ab" "" "c"]', '"ab, , c"'), ('{x,",",y}/"abc"', '"a,b,c"'),
    ('{x,",",y}/["ab" 0cc "d"]', '"ab,c,d"'), ('{x,",",y}/["ab" "c" 1]', '["ab,c" "," 1]'),
    ('{x,",",y}/[1 2 3]', '[1 "," 2 "," 3]'), ('{x,",",y}/["ab"]', '"ab"'),
    ('{x,",",y}/[]', "[]"), ('{x,y}/[[1] [2 3]]', "[1 2 3]"), ('{y,",",x}/$\'!3', '"2,1,0"'),
    ('{x,",",y}/{$x*7}\'!4', '"0,7,14,21"'),
    # Format's text joined to a constant text (a field of a line) is written at once too
    ('{($x),","}\'[1 -2 30]', '["1," "-2," "30,"]'),
    ('{",",$x}\'[1 -2 30]', '[",1" ",-2" ",30"]'),
    ("{($x),0c,}'[1 2]", '["1," "2,"]'), ("{(0c,),$x}'[1 2]", '[",1" ",2"]'),
    ('{($x*2),"ab"}\'[1.5 2]', '["3.0ab" "4ab"]'), ('{($x),""}\'[1 2]', '["1" "2"]'),
    ("{($x),:ab}'[1 2]", '[["1" :ab] ["2" :ab]]'),
    ('{($x),","}\'[[1 2] [3 4]]', '[["1" "2" ","] ["3" "4" ","]]'),
    ('{($x),","}\'"ab"', '["a," "b,"]'), ('{($x),","}\'[]', '[]'),
    ('{($x%0),","}\'[1 2]', '[[:undefined ","] [:undefined ","]]'),
    ('{[r];r::x;($r),","}\'[1 2]', '["1," "2,"]'), ('{($x),",",";"}\'[1 2]', '["1,;" "2,;"]'),
    ('{(",",$x),";"}\'[1 2]', '[",1;" ",2;"]'),
    ('{($x),","}\'(2^70),1', '["1180591620717411303424," "1,"]'),
    ('(-1)_,/{($x),","}\'[7 -8 9]', '"7,-8,9"'),
]


@pytest.mark.parametrize("src, printed", TEXT_PROGRAMS)
def test_text_forms_agree_with_the_loop(backend, src, printed):
    gen, closures = both(backend)
    assert outcome(gen, src) == ("value", printed), src
    assert outcome(closures, src) == ("value", printed), src


def test_format_each_has_a_whole_form():
    k = KlongInterpreter(codegen=True)
    k("f::{$x*2}")
    assert k.globals["f"].whole(np.arange(3)) == ["0", "2", "4"]
    assert k.globals["f"].whole(np.arange(4).reshape(2, 2)) is None   # rows: the loop
    k("t::{(\"<\",$x),0c,};s::{($x),:a}")
    assert k.globals["t"].whole(np.arange(3)) == ["<0,", "<1,", "<2,"]
    assert k.globals["t"].whole(np.arange(4).reshape(2, 2)) is None
    assert k.globals["s"].whole is None        # a symbol joined to text makes a list
    k("g::{x,\",\",y}")
    assert k.globals["g"].facts.joins == ","
    k("h::{x,y,\",\"}")
    assert k.globals["h"].facts.joins is None


def test_numpy_each_under_a_memory_limit_runs_each_element_once(monkeypatch):
    """numpy traces nothing: the traced Each gives way to the loop before its memory guard,
    which would run the function on the first element once more (a recursion over a tree
    of lists ran its first branch twice at every level)."""
    from klong.verbs import wholearray
    guarded = []
    monkeypatch.setattr(wholearray, "_guard", lambda fn, a: guarded.append(a))
    k = KlongInterpreter(backend="numpy", memory_limit="1GB")
    k("sm::{:[@x;x;+/sm'x]}")
    assert k("sm([[1 2 3] [4 5 6]])") == 21
    assert guarded == []


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("codegen", [True, False])
def test_a_lambdas_adverb_forms_are_made_once_and_stay_right(backend, codegen):
    """The forms an adverb derives from a lambda are kept on it (a recursion derived them
    at every call), and Each of one without a whole-array form over a list it only loops
    over makes none; whether it has effects is still asked at each call: a function it reads
    may be defined again, with effects, and then Each loops (c counts the calls)."""
    k = KlongInterpreter(backend=backend, codegen=codegen)
    k("mx::{:[@x;x;|/mx'x]};g::{x*2};f::{g(x)};p::{(x*1)+y}")
    assert k("mx([[1 2] [3 [4 5]]])") == 5
    assert k.globals["mx"].derived is None
    assert k("p/[1 2 3]") == 6
    kept = k.globals["p"].derived
    assert list(kept) == [("/",)]
    assert k("p/[4 5]") == 9 and k.globals["p"].derived[("/",)] is kept[("/",)]
    assert write(k.run("f'[1.0 2.0]")) == "[2.0 4.0]"
    k("c::0;g::{c::c+1;x*3}")
    assert write(k.run("f'[1.0 2.0]")) == "[3.0 6.0]" and k("c") == 2
