"""Errors (language.md section 8): every failure is a KlongError with a kind; the state
before the failing statement is kept; no Python exception other than KlongError escapes."""
import pytest

from klong import KlongError, KlongInterpreter


@pytest.mark.parametrize("src, kind", [
    # syntax
    ("3 4", "syntax"),
    ("f::{x};f 2", "syntax"),
    ("f::{x};f[1 2]", "syntax"),
    ("(1;2)", "syntax"),
    (":[1;2]", "syntax"),
    ("1..2", "syntax"),
    ('"abc', "syntax"),
    (':"abc', "syntax"),
    ("[1 2", "syntax"),
    (":{[1 2]", "syntax"),
    ("{}", "syntax"),
    ("f::{x+y};f(;)", "syntax"),
    ("{x::1}", "syntax"),
    ("f::{x};1 f (2)", "syntax"),
    (":{[1 2 3]}", "syntax"),
    ("1+", "syntax"),
    ("{x+}", "syntax"),
    ("f(1;2;3;4)", "syntax"),
    ("0c", "syntax"),
    # undefined
    ("foo", "undefined"),
    ("foo(1)", "undefined"),
    ("{[a];a}()", "undefined"),
    ("1+nosuch", "undefined"),
    # arity
    ("{x}(1;2)", "arity"),
    ("{#x}@[1 2 3]", "arity"),
    ("{x+y}(1)", "arity"),
    ("{x}/[1 2 3]", "arity"),
    (".p(1;2)", "arity"),
    # type
    ('"a"+1', "type"),
    ('"abc"+1', "type"),
    ("a::5;a(1)", "type"),
    ("1.5{x}:*2", "type"),
    ("5@1", "type"),
    ("d:::{};d,[:{} 1]", "type"),
    # length
    ("[1 2]+[1 2 3]", "length"),
    ("[1 2 3]*[1 2]", "length"),
    # index / range
    ("[1 2]@5", "index"),
    ('"abc"@10', "index"),
    ("[1 2 3]:=[9 5]", "range"),
    (":#300", "range"),
    # domain
    ("!-1", "domain"),
    # module
    (".module(0)", "module"),
    # I/O
    ('.ic("/nonexistent/file/x")', "io"),
    # recursion
    ("f::{f(x+1)};f(0)", "recursion"),
])
def test_error_kinds(kerr, src, kind):
    err = kerr(src)
    assert err.kind == kind
    assert err.message
    assert "\n" not in err.message


def test_index_or_range_family(kerr):
    # the spec's "range / index" kind: either name is acceptable
    assert kerr("[1 2]@-1").kind in ("index", "range")
    assert kerr("[[1 2]]:@[0 5]").kind in ("index", "range")


def test_not_errors(kw):
    assert kw("1%0") == ":undefined"
    assert kw("d:::{[1 2]};d?5") == ":undefined"
    assert kw("|5") == "5"
    assert kw("*5") == "5"
    assert kw(",:'5") == "5"


# ---------------------------------------------------------------- state after an error

def test_state_kept_after_error(k):
    with pytest.raises(KlongError) as info:
        k("a::1;foo;b::2")
    assert info.value.kind == "undefined"
    assert k["a"] == 1
    assert "b" not in k
    with pytest.raises(KeyError):
        k["b"]


def test_globals_survive_every_error_kind(k):
    k("keep::[1 2 3];f::{x*2};d:::{[1 2]}")
    for bad in ["3 4", "foo", "{x}(1;2)", '"a"+1', "[1 2]+[1 2 3]", "[1 2]@5",
                "rr::{rr(x+1)};rr(0)", "!-1", ".module(0)"]:
        with pytest.raises(KlongError):
            k(bad)
    assert k("keep") .tolist() == [1, 2, 3]
    assert k("f(21)") == 42
    assert k("d?1") == 2


def test_assignment_inside_failing_function_kept(k):
    with pytest.raises(KlongError):
        k("g::{a::x;foo};g(5)")
    assert k["a"] == 5


def test_dictionary_mutation_kept_after_error(k):
    k("d:::{}")
    with pytest.raises(KlongError):
        k("d,[1 2];foo;d,[3 4]")
    assert k("#d") == 1


def test_output_before_error_kept(k, capsys):
    with pytest.raises(KlongError):
        k('.p("one");[1 2]+[1 2 3];.p("two")')
    assert capsys.readouterr().out == "one\n"


def test_locals_restored_after_error(k):
    k("a::1")
    with pytest.raises(KlongError):
        k("{[a];a::2;foo}()")
    assert k["a"] == 1


def test_module_state_after_error(k):
    # an error inside an open module closes it: no module is left open, none nests
    k(".module(:m)")
    with pytest.raises(KlongError) as info:
        k("foo")
    assert "module m closed" in info.value.message
    with pytest.raises(KlongError, match="no module is open"):
        k(".module(0)")
    assert k(".module(:n);.module(0)") == 0


def test_interpreter_usable_after_recursion_error(k):
    with pytest.raises(KlongError) as info:
        k("f::{f(x+1)};f(0)")
    assert info.value.kind == "recursion"
    assert k("{:[x<2;x;.f(x-1)+.f(x-2)]}(15)") == 610
    assert k("+/!100") == 4950


def test_deep_but_finite_recursion(k):
    assert k("f::{:[x=0;0;1+f(x-1)]};f(1000)") == 1000


def test_error_located_on_line(k):
    with pytest.raises(KlongError) as info:
        k.run("a::1\nb::2\nnosuch\nc::3")
    err = info.value
    assert err.kind == "undefined" and err.line == 3
    assert "c" not in k and k["b"] == 2


def test_error_str(kerr):
    err = kerr("foo")
    assert "undefined" in str(err)
    assert "foo" in str(err)


# ---------------------------------------------------------------- nothing else escapes

BAD_INPUTS = [
    # section 8 examples
    "3 4", "f 2", "f[1 2]", "(1;2)", ":[1;2]", "1..2", '"abc', ':"abc', "[1 2", "{}", "f(;)",
    "{x::1}", "1 f (2)", "+/\\x", ":{[1 2 3]}", "foo", "{[a];a}()", "{x}(1;2)", "{#x}@[1 2 3]",
    '"a"+1', "a::5;a(1)", "1.5{x}:*2", "[1 2]+[1 2 3]", "[1 2]@5", "!-1", ":#300",
    ".module(0)", "f::{f(x+1)};f(0)",
    # other unsuitable values
    "1+", "{x+}", "foo(1)", '"abc"+1', '"abc"@10', ")", "}", "]", ":|", ":=", "@", "1:a",
    "a::1;a:2", "{x}:(1", "(1", "{1", ":[1;2;3", "[1 2]@1.5", "[1 2]@\"a\"", ":{[1 2]}@1",
    "0c0@1", "{x}@[]", "3:@[1]", "[1.5]:^!4", "1.5_[1 2]", "1.5#[1 2]", "5:_[1 2]", "%\"a\"",
    "_\"a\"", "!1.5", "&-1", "<5", "=5", "?5", "(1%0)+1", "\"abc\":$5", "[]:#5", "7:%0",
    ".E(5)", ".rs(5)", ".l(5)", ".ic(5)", ".fc(5)", ".tc(5)", ".cc(5)", ".module(5)",
    ".comment(5)", ".p()", ".x(1;2)", "{x}'", "'", "/", "1 ` 2", "f::+", "0c", "1e", "0x",
    "{x}(1)(2)", "(f)(1)", "x'", "1{x}", "{[a b]", "{[1];1}()",
]


@pytest.mark.parametrize("src", BAD_INPUTS)
def test_only_klong_errors_escape(src):
    k = KlongInterpreter()
    try:
        k(src)
    except KlongError as e:
        assert e.kind and e.kind != "internal", (src, e.kind, e.message)
        assert isinstance(e.message, str) and "\n" not in e.message
