"""Names and scope (language.md 6), modules (6.5, system.md .module), .comment blocks (2.10)
and dictionaries (7)."""
import pytest


# ---------------------------------------------------------------- globals (6.1)

def test_globals_from_anywhere(kw):
    assert kw("f::{a::x}; f(3); a") == "3"
    assert kw("a::1;a::a+1;a") == "2"


def test_undefined_global(kerr):
    err = kerr("foo")
    assert err.kind == "undefined"
    assert "foo" in err.message


def test_names_resolve_when_run(kw):
    assert kw("g::{h(x)};h::{x*2};g(4)") == "8"
    assert kw("f::{a};a::7;f()") == "7"
    assert kw("f::{a};a::7;f();a::8;f()") == "8"


def test_globals_persist_across_calls(k):
    k("a::10")
    k("f::{a+x}")
    assert k("f(5)") == 15
    k("a::20")
    assert k("f(5)") == 25


# ---------------------------------------------------------------- parameters (6.2)

def test_inner_function_has_own_parameters(kw):
    assert kw("{{x}}()") == ":monad"
    assert kw("f::{{x*10}'x};f([1 2])") == "[10 20]"
    assert kw("{{x+1}(x*10)}(2)") == "21"


def test_parameters_rebound_per_call(kw):
    assert kw("f::{:[x=0;0;x+f(x-1)]};f(5)") == "15"
    assert kw("f::{x,y};g::{f(y;x)};g(1;2)") == "[2 1]"


# ---------------------------------------------------------------- locals (6.3)

@pytest.mark.parametrize("src, printed", [
    ("{[a];a::x;{a+x}'y}(10;[1 2])", "[11 12]"),
    ("{[a];a::1;{a::2}();a}()", "2"),
    ("uniq::{[d];d:::{};{d,x,x}'x;d@<d::*'d};uniq([3 1 3 2 1])", "[1 2 3]"),
    ("a::1; g::{a}; h::{[a];a::5;g()}; h()", "1"),
    ("a::1;{[a];a::2}();a", "1"),
    ("a::1;{[a];a::2;a}()", "2"),
    ("fv::{[a];a::1;a}; a::2; a,fv(),a", "[2 1 2]"),
    ("f::{[n];n::x;:[x=0;[];n,f(x-1)]};f(3)", "[3 2 1]"),
    ("{[a b c];a::1;b::2;c::3;a,b,c}()", "[1 2 3]"),
    ("{[a];a::x;{[b];b::a*2;{a+b}()}()}(5)", "15"),
])
def test_locals(kw, src, printed):
    assert kw(src) == printed


def test_local_does_not_leak(k, kerr):
    k("{[zz];zz::1}()")
    assert "zz" not in k
    assert kerr("zz").kind == "undefined"


def test_local_shadows_global_during_call_only(k):
    k("a::100;f::{[a];a::x;a*2}")
    assert k("f(3)") == 6
    assert k("a") == 100


# ---------------------------------------------------------------- modules (6.5)

MODULE_TEST = """a::0
.module(:test)
a::1
g::{a}
f::{g()}
s::{a::x}
.module(0)"""


def test_module_suite_example(k, kw):
    k.run(MODULE_TEST)
    assert kw("a") == "1"
    assert kw("g()") == "1"
    assert kw("s(2)") == "2"
    assert kw("g()") == "2"
    assert kw("a") == "1"
    assert kw("a::0; g()") == "2"
    assert kw("g::0; f()") == "2"


def test_module_exports_at_definition(k):
    k.run(MODULE_TEST)
    assert k["a"] == 1
    assert k("f()") == 1


def test_module_forward_reference(k, kw):
    k.run("fw::0\n.module(:fwd)\nfw::1\nfwd::{fw}\nfw::2\n.module(0)\nfw::3")
    assert kw("fwd()") == "2"
    assert kw("fw") == "3"


def test_module_call_defined_later_in_module(k, kw):
    k.run(".module(:m)\nouter::{inner(x)+1}\ninner::{x*10}\n.module(0)")
    assert kw("outer(2)") == "21"
    assert kw("inner::{0};outer(2)") == "21"


def test_module_private_state(k, kw):
    k.run(".module(:ctr)\nn::0\ninc::{n::n+1}\nget::{n}\n.module(0)")
    assert kw("inc();inc();get()") == "2"
    assert kw("n") == "0"
    assert kw("n::50;get()") == "2"


def test_module_uses_earlier_globals(k, kw):
    k.run("base::10\n.module(:m)\nadd::{x+base}\n.module(0)")
    assert kw("add(1)") == "11"
    assert kw("base::20;add(1)") == "21"


def test_module_locals_and_params_not_renamed(k, kw):
    k.run(".module(:m)\nh::{[t];t::x*2;t+y}\n.module(0)")
    assert kw("h(3;1)") == "7"


def test_module_lines_matter(kw):
    # joined into one line, the second .module example gives 3 (system.md .module)
    assert kw("fw::0;.module(:fwd);fw::1;fwd::{fw};fw::2;.module(0);fw::3;fwd()") == "3"


def test_module_returns_argument(kw):
    assert kw(".module(:m)") == ":m"
    assert kw(".module(0)") == "0"


def test_nested_module_is_an_error(k, kerr):
    k(".module(:a)")
    err = kerr(".module(:b)")
    assert err.kind == "module" and "module a closed" in err.message
    assert kerr(".module(0)").kind == "module"       # the error closed :a


def test_closing_without_module_is_an_error(kerr):
    assert kerr(".module(0)").kind == "module"


def test_two_modules_in_sequence(k, kw):
    k.run(".module(:one)\nv::1\nget1::{v}\n.module(0)\n"
          ".module(:two)\nv::2\nget2::{v}\n.module(0)")
    assert kw("get1(),get2()") == "[1 2]"
    assert kw("v") == "2"


def test_module_function_assigns_private_variable(k, kw, kerr):
    k.run(".module(:m)\nsetq::{q::x}\ngetq::{q}\n.module(0)")
    assert kw("setq(5)") == "5"
    assert kw("getq()") == "5"
    assert kerr("q").kind == "undefined"


def test_module_counter_defined_after_use(k, kw):
    k.run(".module(:m)\ninc::{c::c+1}\nc::0\n.module(0)")
    assert kw("inc();inc()") == "2"
    assert kw("c") == "0"


def test_module_local_shadows_module_variable(k, kw):
    k.run("v::1\n.module(:m)\nv::2\nh::{[v];v::x;v}\nget::{v}\n.module(0)")
    assert kw("h(9)") == "9"
    assert kw("get()") == "2"
    assert kw("v") == "2"


def test_module_dictionary_state(k, kw):
    k.run(".module(:m)\nd:::{}\nput::{d,x,y}\nget::{d?x}\n.module(0)")
    k("put(1;2)")
    assert kw("get(1)") == "2"
    assert kw("d?1") == "2"          # the exported d is the same dictionary object


def test_module_system_names_not_renamed(k, kw):
    k.run(".module(:m)\ne::.e\nself::{:[x=0;0;x+.f(x-1)]}\n.module(0)")
    assert kw("e") == "0.000000000000000001"
    assert kw("self(4)") == "10"


def test_fresh_local_per_recursive_call(kw):
    assert kw("f::{[a];a::x;:[x=0;0;f(x-1)];a};f(3)") == "3"


def test_dot_f_is_innermost_literal(kw):
    assert kw("{{:[x=0;0;x+.f(x-1)]}(x)}(4)") == "10"


# ---------------------------------------------------------------- .comment (2.10)

def test_comment_block(kw):
    src = ('.comment("end-of-comment")\n'
           'anything ][ " here is ignored\n'
           'end-of-comment and this line too\n'
           'a::1')
    assert kw(src) == "1"


def test_comment_block_skips_unlexable_lines(k):
    src = ('b::5\n'
           '.comment("END");c::7\n'
           ' END is indented so this line is still skipped\n'
           '  "  :" [ { (\n'
           'END\n'
           'b+c')
    assert k(src) == 12


def test_comment_block_value_is_marker(kw):
    assert kw('.comment("XX")\nXX') == '"XX"'


def test_comment_rest_of_line_runs(k, capsys):
    k.run('.comment("END");.p(7)\nignored\nEND')
    assert capsys.readouterr().out == "7\n"


def test_comment_without_end_is_an_error(kerr):
    assert kerr('.comment("END")\nnothing here').kind == "syntax"


def test_comment_then_module(k, kw):
    k.run('.comment("***")\nthis library does things\n***\n'
          '.module(:lib)\nval::42\nget::{val}\n.module(0)')
    assert kw("get()") == "42"


# ---------------------------------------------------------------- dictionaries (7, 5.4)

@pytest.mark.parametrize("src, printed", [
    ("d:::{[1 2]}; d,[3 4]; d", ":{[1 2] [3 4]}"),
    ("d:::{[1 2]}; d,[1 9]", ":{[1 9]}"),
    ("d:::{[1 2]}; [3 4],d; d", ":{[1 2] [3 4]}"),
    ("d:::{[1 2]}; e::d; e,[5 6]; d", ":{[1 2] [5 6]}"),
    ("d:::{[1 2] [3 4]}; 1_d; d", ":{[3 4]}"),
    ("d:::{[1 2]}; 7_d", ":{[1 2]}"),
    ("d:::{[1 2]}; 1_d", ":{}"),
    ("d:::{};d,[:a 1];d,[\"b\" 2];d", ':{[:a 1] ["b" 2]}'),
    (":{[:foo :bar]}?:foo", ":bar"),
    (":{[1 2]}?1", "2"),
    (":_:{[1 2]}?3", "1"),
    (":{[1.0 2]}?1", ":undefined"),
    ("d:::{[\"a\" 1] [[1 2] 2] [0cx 3]};(d?\"a\"),(d?[1 2]),d?0cx", "[1 2 3]"),
    ("d:::{[1 [2 3]]};d?1", "[2 3]"),
    ("D:::{};{D,x,x}'!5;s@<s::*'D", "[0 1 2 3 4]"),
    ("d:::{[1 2] [3 4]};s@<s::{x@1}'d", "[2 4]"),
    ("d:::{[1 2]};{x}'d", "[[1 2]]"),
    ("d:::{[1 2]};*'d", "[1]"),
    ("@:{[1 2]}", "1"),
    ("#:{[1 2] [3 4]}", "2"),
    ("#:{}", "0"),
    (":[:{};1;0]", "1"),
    ("[3 4],d:::{[1 2]}", ":{[1 2] [3 4]}"),
])
def test_dictionaries(kw, src, printed):
    assert kw(src) == printed


def test_dictionary_literal_is_fresh_each_time(kw):
    assert kw("f::{d:::{};d,[1 2];#d};f();f()") == "1"
    assert kw("g::{d:::{[0 0]};d,x,x;#d};g(1);g(2)") == "2"


def test_dictionary_mutation_seen_everywhere(k, kw):
    k("d:::{};f::{d,x,x*x}")
    k("f'[1 2 3]")
    assert kw("d?3") == "9"
    assert kw("#d") == "3"
    k("2_d")
    assert kw("d?2") == ":undefined"


def test_dictionary_iteration_order_independent(kw):
    assert kw("d:::{[3 :c] [1 :a] [2 :b]};k@<k::*'d") == "[1 2 3]"


def test_dictionary_bad_key(kerr):
    assert kerr("d:::{};d,[:{} 1]").kind == "type"


def test_dictionary_at_is_lookup_an_extension(kw):
    assert kw("d:::{[1 2]};d@1") == "2"


def test_dictionary_from_python(k, kw):
    k["d"] = {"a": 1, "b": [1, 2]}
    assert kw('d?"a"') == "1"
    assert kw('d?"b"') == "[1 2]"
