"""Syntax and core evaluation (language.md sections 1 and 3): right-to-left evaluation,
monadic/dyadic positions, function literals and arity, locals, application, projections,
conditionals, assignment, multi-line programs and syntax errors with positions."""
import pytest

from klong import KlongError
from klong.compiler.syntax import lalr
from klong.compiler.syntax import parser as parser_module
from klong.compiler.syntax.lexer import Lexer


# ---------------------------------------------------------------- right to left (3.1, 3.3)

@pytest.mark.parametrize("src, printed", [
    ("1-2-3", "2"),
    ("2*3+4", "14"),
    ("#[1 2 3],4", "4"),
    ("-1+2", "-3"),
    ("#1,2,3", "3"),
    ("10%2+3", "2.0"),
    ("(2*3)+4", "10"),
    ("2*(3+4)", "14"),
    ("((((1))))", "1"),
    ("1+2;3+4", "7"),
    ("-#[1 2 3]", "-3"),
    ("~~5", "1"),
])
def test_right_to_left(kw, src, printed):
    assert kw(src) == printed


def test_right_operand_evaluated_first(kw):
    assert kw("a::1;(a::2)+a") == "3"
    assert kw("a::1;a+a::2") == "4"


def test_statements_run_in_order(kw):
    assert kw("a::1;a::a+1;a::a*10;a") == "20"


# ---------------------------------------------------------------- monad / dyad positions (3.1)

@pytest.mark.parametrize("src, printed", [
    ("1{x+y}2", "3"),
    ("f::{x,y}; 0f[1 2 3]", "[0 1 2 3]"),
    ("f::{x,y};1 f 2", "[1 2]"),
    ("f::{x-y};10 f 3", "7"),
    ("f::{x,y};1 f 2 f 3", "[1 2 3]"),
    ("f::{x-y};10 f 5 f 1", "6"),
    ("1{x,y,z}(;0;)2", "[1 0 2]"),
])
def test_names_and_functions_as_dyads(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src", ["3 4", "f::{x};f 2", "f::{x};f[1 2]", "{x}[1 2]", "1 2 3",
                                 "5(1)", "\"a\" \"b\""])
def test_juxtaposition_is_not_application(kerr, src):
    assert kerr(src).kind == "syntax"


def test_operators_are_not_values(kerr):
    assert kerr("f::+").kind == "syntax"


# ---------------------------------------------------------------- function arity (3.8)

@pytest.mark.parametrize("src, kind", [
    ("{1}", ":nilad"),
    ("{x}", ":monad"),
    ("{y}", ":dyad"),
    ("{z}", ":triad"),
    ("{x+z}", ":triad"),
    ("{y+x}", ":dyad"),
    ("{{x+y}}", ":nilad"),
    ("{[x]}", ":nilad"),
    ("{:[1;x;2]}", ":monad"),
    ("{:[1;2;z]}", ":triad"),
    ("{.p(y)}", ":dyad"),
    ("{[a];a::x}", ":monad"),
    ("{x}'", None),
])
def test_arity_printed_forms(kw, kerr, src, kind):
    if kind is None:
        assert kerr(src).kind == "syntax"
    else:
        assert kw(src) == kind


def test_nilad_call(kw):
    assert kw("f::{42};f()") == "42"
    assert kw("{[a]}()") == "[:a]"
    assert kw("{[x]}()") == "[:x]"


def test_function_returns_last_statement(kw):
    assert kw("{1;2;3}()") == "3"
    assert kw("{x;y}(1;2)") == "2"


def test_function_values_are_first_class(kw):
    assert kw("f::{x*x};g::f;g(5)") == "25"
    assert kw("{x(2)}({x*x})") == "4"
    assert kw("{x@2}({x*x})") == "4"
    assert kw("{[f];f::x;1 f 2}({x+y})") == "3"


def test_parameters_are_read_only(kerr):
    for src in ("{x::1}", "{y::1}", "{z::1}"):
        err = kerr(src)
        assert err.kind == "syntax" and "read-only" in err.message


def test_xyz_are_globals_outside_functions(kw):
    assert kw("x::5; x+1") == "6"
    assert kw("x::5;{x}(1)") == "1"


# ---------------------------------------------------------------- locals (3.8, 6.3)

@pytest.mark.parametrize("src, printed", [
    ("{[a b];a::x;b::y;a+b}(1;2)", "3"),
    ("fv::{[a];a::1;a}; a::2; a,fv(),a", "[2 1 2]"),
    ("a::1;{[a];a::2}();a", "1"),
    ("{[a];a::x;{a+x}'y}(10;[1 2])", "[11 12]"),
    ("{[a];a::1;{a::2}();a}()", "2"),
    ("a::1; g::{a}; h::{[a];a::5;g()}; h()", "1"),
    ("f::{[n];n::x;:[n=0;0;n+f(n-1)]};f(4)", "10"),
])
def test_locals(kw, src, printed):
    assert kw(src) == printed


def test_unassigned_local_is_undefined(kerr):
    assert kerr("{[a];a}()").kind == "undefined"


# ---------------------------------------------------------------- .f recursion (6.4)

@pytest.mark.parametrize("src, printed", [
    ("{:[0=x;[];1,.f(x-1)]}(3)", "[1 1 1]"),
    ("{:[0=x;[];1,.f(x-1)]}(0)", "[]"),
    ("{:[x<2;x;.f(x-1)+.f(x-2)]}(10)", "55"),
    ("{:[@x;0;1+|/.f'x]}([1 [2 [3]]])", "3"),
    ("fr::{:[0=x;[];1,.f(x-1)]};fr(2)", "[1 1]"),
    ("{:[x>0;x,.f(x-1);[]]}(3)", "[3 2 1]"),
    (".f", "[]"),
])
def test_dot_f(kw, src, printed):
    assert kw(src) == printed


# ---------------------------------------------------------------- application (3.9)

@pytest.mark.parametrize("src, printed", [
    ("{x,y}(1;2)", "[1 2]"),
    ("{x,y,z}(1;2;3)", "[1 2 3]"),
    ("{x,y,z}:(1;2;3)", "[1 2 3]"),
    ("{x}:(1)", "1"),
    ("{x+y}@[1 2]", "3"),
    ("{#x}@,[1 2 3]", "3"),
    ("f::{x+y};f (1;2)", "3"),
    ("f::{x*2};f(f(f(1)))", "8"),
    ("g::{h(x)};h::{x*2};g(4)", "8"),
    ("f::{x+1};f(2)+f(3)", "7"),
])
def test_application(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src", ["{x}(1;2)", "{x+y}(1)", "1{x}2", "{1}(1)", "{x}()"])
def test_wrong_arity(kerr, src):
    assert kerr(src).kind == "arity"


def test_too_many_arguments_is_syntax_error(kerr):
    assert kerr("f::{x,y,z};f(1;2;3;4)").kind == "syntax"


def test_calling_a_non_function(kerr):
    assert kerr("a::5; a(1)").kind == "type"


@pytest.mark.parametrize("src", ["f::{x};(f)'[1]", "f::{x};f(1)(2)",
                                 "f::{x-y};f(1)'[1 2]", "f::{x};1 f (2)"])
def test_bad_application_forms(kerr, src):
    assert kerr(src).kind == "syntax"


def test_parenthesised_expression_with_arguments_is_a_call(kw, kerr):
    # an extension (kg refuses an argument list after a parenthesis): (d?key)(x)
    assert kw('d:::{};d,"sq",{x*x};(d?"sq")(3)') == "9"
    assert kw("fs::{x*x},{x+1};(fs@1)(3)") == "4"
    assert kw("({x-y})(5;2)") == "3"
    assert kerr("f::{x};(f)(1;2)").kind == "arity"


# ---------------------------------------------------------------- projections (3.10)

@pytest.mark.parametrize("src, printed", [
    ("{x-y}(5;)(1)", "4"),
    ("{x-y}(;5)(1)", "-4"),
    ("f::{x-y}; f(;2)(10)", "8"),
    ("f::{x-y}; f(;2)@10", "8"),
    ("{x-y}(;2)'[5 6]", "[3 4]"),
    ("1{x,y,z}(;0;)2", "[1 0 2]"),
    ("g::{x,y,z}; [1 2 3]g(;0;)'[4 5 6]", "[[1 0 4] [2 0 5] [3 0 6]]"),
    ("f3::{x,y,z};f3(1;2;)(3)", "[1 2 3]"),
    ("f3::{x,y,z};f3(1;;3)(2)", "[1 2 3]"),
    ("f3::{x,y,z};f3(;2;3)(1)", "[1 2 3]"),
    ("f3::{x,y,z};f3(;;3)(1;2)", "[1 2 3]"),
    ("f3::{x,y,z};f3(;2;)(1;3)", "[1 2 3]"),
    ("f3::{x,y,z};f3(1;;)(2;3)", "[1 2 3]"),
    ("p::{x*y}(2;);p'[1 2 3]", "[2 4 6]"),
    ("{x+y+z}(1;;)", ":dyad"),
    ("{x-y}(5;)", ":monad"),
    ("f3::{x,y,z};f3(;;3)", ":dyad"),
    ("f3::{x,y,z};f3(1;;3)", ":monad"),
])
def test_projections(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src", ["f::{x};f(;)", "f::{x+y};f(;)", "f::{x,y,z};f(;;)"])
def test_projection_needs_a_fixed_argument(kerr, src):
    assert kerr(src).kind == "syntax"


def test_projection_with_extra_slot_fails_when_called(kerr):
    assert kerr("{x}(1;)(2)").kind == "arity"


# ---------------------------------------------------------------- conditionals (3.7)

@pytest.mark.parametrize("src, printed", [
    (":[0;1;2]", "2"),
    (":[1;1;2]", "1"),
    (":[[];1;2]", "2"),
    (":[\"\";1;2]", "2"),
    (":[0.0;1;2]", "2"),
    (":[0.1;2;3]", "2"),
    (":[:{};2;3]", "2"),
    (":[[0];2;3]", "2"),
    (":[0c0;2;3]", "2"),
    (":[:foo;2;3]", "2"),
    (":[{x};2;3]", "2"),
    (":[1%0;2;3]", "2"),
    (":[0;2:|1;3;4]", "3"),
    (":[0;2:|0;3;4]", "4"),
    (":[0;2:|0;3:|0;4;5]", "5"),
    (":[0;2:|0;3:|1;4;5]", "4"),
    (":[1;:[0;1;2];3]", "2"),
    ("c:::[0;1;2];c", "2"),
])
def test_conditionals(kw, src, printed):
    assert kw(src) == printed


def test_conditional_evaluates_only_one_branch(kw):
    assert kw("a::0;:[1;a::1;a::2];a") == "1"
    assert kw(":[1;1;foo]") == "1"
    assert kw(":[0;foo;7]") == "7"
    assert kw("a::0;:[0;a::1:|0;a::2;a::3];a") == "3"


def test_conditional_needs_else(kerr):
    err = kerr(":[1;2]")
    assert err.kind == "syntax"


# ---------------------------------------------------------------- assignment (3.11)

def test_assignment(kw):
    assert kw("a::5") == "5"
    assert kw("b::1+a::2;a,b") == "[2 3]"
    assert kw("a::b::3;a,b") == "[3 3]"
    assert kw("f::{a::x}; f(3); a") == "3"


def test_assignment_needs_a_name(kerr):
    assert kerr("1::2").kind == "syntax"


# ---------------------------------------------------------------- empty statements

@pytest.mark.parametrize("src", ["1;;2", "{}", "{x;}", "(1;2)", ")", "}", "]", "1+", "{x+}",
                                 ":=", "@", "{x}:(1", "(1", "{1", ":[1;2;3"])
def test_syntax_errors(kerr, src):
    assert kerr(src).kind == "syntax"


# ---------------------------------------------------------------- multi-line programs (1.1, 1.2)

@pytest.mark.parametrize("src, printed", [
    ("a::[1\n    2 3]\na", "[1 2 3]"),
    ("f::{x+\n    1}\nf(1)", "2"),
    ("c:::[0;\n     1;\n     2]\nc", "2"),
    ("f::{[a];\n a::x;\n a*2}\nf(4)", "8"),
    ("d:::{[1 2]\n[3 4]}\nd", ":{[1 2] [3 4]}"),
    ("g::{x,\n\"a\nb\"}\n#g(\"\")", "3"),
    ("1\n\n2\n:\"c\"\n", "2"),
    ("1;2\n3;4", "4"),
    ("p::{x\n:\"comment\"\n+1}\np(2)", "3"),
    ("a::1\nb::a+1\nc::b+1\na,b,c", "[1 2 3]"),
    ("f::{:[x;\n  1:|\n  0;2;3]}\nf(0)", "3"),
])
def test_multiline_programs(kw, src, printed):
    assert kw(src) == printed


def test_newline_in_function_is_not_a_separator(kerr):
    # {a::1 NEWLINE a} reads as {a::1 a}: a used as a dyad
    assert kerr("{a::1\na}()").kind == "syntax"


def test_value_of_program_is_last_nonempty_chunk(k):
    assert k("1\n2\n\n") == 2
    assert k("") is None
    assert k("\n\n") is None


def test_lines_run_one_at_a_time(k):
    # the first line has run (and is kept) when the second fails
    with pytest.raises(KlongError):
        k.run("a::1\nb::)")
    assert k["a"] == 1


# ---------------------------------------------------------------- syntax error positions

@pytest.mark.parametrize("src, line, column, source_line", [
    ("1+", 1, 3, "1+"),
    ("a::1\nb::2\nc::3 4", 3, 6, "c::3 4"),
    ("a::1\nf::{x+\n  y+)}", 3, 5, "  y+)}"),
    ("x::1\n\n\n  3 4", 4, 5, "  3 4"),
    ("1..2", 1, 1, "1..2"),
    ("1+1\n  :[1;2]", 2, 8, "  :[1;2]"),
    ("  [1 2", 1, 3, "  [1 2"),
    ("(1;2)", 1, 3, "(1;2)"),
    ("a::[1\n2 3]\nb::1 2", 3, 6, "b::1 2"),
])
def test_syntax_error_positions(kerr, src, line, column, source_line):
    err = kerr(src)
    assert err.kind == "syntax"
    assert (err.line, err.column) == (line, column)
    assert err.source_line == source_line


def test_syntax_error_report_has_caret(kerr):
    err = kerr("x::1\nc::3 4")
    lines = err.report().split("\n")
    assert len(lines) == 3
    assert "syntax" in lines[0]
    assert lines[1] == "c::3 4"
    assert lines[2] == " " * 5 + "^"


def test_syntax_error_report_with_file_name(kerr):
    err = kerr("a::1\n1+")
    head, src, caret = err.report("prog.kg").split("\n")
    assert head.startswith("prog.kg:2:")
    assert src == "1+"
    assert caret == "  ^"


def test_runtime_error_report_is_one_line(kerr):
    err = kerr("a::1\nfoo")
    assert err.kind == "undefined"
    assert err.line == 2
    assert "\n" not in err.report()
    assert err.report("p.kg").startswith("p.kg:2:")


# ---------------------------------------------------------------- verb contexts (suite)

@pytest.mark.parametrize("src, printed", [
    ("f::{,x};f'[1 2 3]", "[[1] [2] [3]]"),
    ("{,x}'[1 2 3]", "[[1] [2] [3]]"),
    ("g::{x,y};g(;0)'[1 2 3]", "[[1 0] [2 0] [3 0]]"),
    ("{x,y}(0;)'[1 2 3]", "[[0 1] [0 2] [0 3]]"),
    ("0{x,y}:/[1 2 3]", "[[1 0] [2 0] [3 0]]"),
    ("g::{x,y,z};[1 2 3]g(;0;)[4 5 6]", "[1 2 3 0 4 5 6]"),
    ("[1 2]{x,y,z}(;0;)'[3 4]", "[[1 0 3] [2 0 4]]"),
    ("f::{x+y+z};1 f(;2;) 3", "6"),
    ("A:::foobar;A", ":foobar"),
    ("A::\"hello, world!\";A", '"hello, world!"'),
])
def test_verb_contexts(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src", ["f::{x+y};1 f(2) 3", "f::{x+y};f(1)'[1 2]",
                                 "{{x+y}(x;)}(1)(2)"])
def test_argument_list_in_verb_position_must_project(kerr, src):
    assert kerr(src).kind == "syntax"


def test_locals_list_needs_names_and_a_following_statement(kw):
    assert kw("{[1];1}()") == "1"
    assert kw("{[a b]}()") == "[:a :b]"


def test_else_if_without_else_is_an_error(kerr):
    assert kerr(":[0;1:|1;2]").kind == "syntax"


# ---------------------------------------------------------------- hints in syntax errors

@pytest.mark.parametrize("src, name", [("x:1", "x"), ("total:1+2", "total"), ("a:b", "a"),
                                       ("f:{x+1}", "f"), ("g:{[1 2]}", "g")])
def test_single_colon_suggests_assignment(kerr, src, name):
    err = kerr(src)
    assert err.kind == "syntax"
    assert f"assignment is ::, as in {name}::..." in err.message


@pytest.mark.parametrize("src", ["1 2", "x 1", ":{[1 2 3]}", "f::{x};f 2"])
def test_no_assignment_hint_without_a_single_colon_after_a_name(kerr, src):
    assert "assignment" not in kerr(src).message


def test_comment_that_swallowed_code_is_named(kerr):
    err = kerr('a::1  :" set a\nb::2  :" set b\n')
    assert err.line == 2
    assert "the comment opened on line 1 ends on this line" in err.message


def test_unterminated_comment_says_where_it_opened(kerr):
    err = kerr('a::1\nb::2  :" open\nc::3')
    assert err.message == "unterminated comment" and err.line == 2


# ---------------------------------------------------------------- work grows linearly

class _CountingBuilder:
    """The parser's builder, counting the children the parser hands to its methods (and
    to those of the helper rules, which make lists)."""

    def __init__(self):
        self.build = parser_module._Build()
        self.handed = 0

    def __getattr__(self, name):
        method = getattr(self.build, name, list)

        def counted(children):
            self.handed += len(children)
            return method(children)
        return counted


def _handed(statements):
    builder = _CountingBuilder()
    tables = lalr.cached_tables(parser_module._grammar(), lalr.cache_path("tables"),
                                lambda: lalr.lark_tables(parser_module._lark()))
    text = "a::0;" + "a::a+1;" * statements + "a"
    node = lalr.Parser(tables, builder).parse(list(Lexer(text).tokens()))
    assert len(node.exprs) == statements + 2
    return builder.handed


def test_statements_on_one_line_parse_in_work_linear_in_their_number():
    """`a;b;c;...` is read as a list that grows: each statement is handed on a bounded
    number of times, not once more for every statement after it (20,000 statements on
    a line took 5 s, 40,000 took 16 s)."""
    once, twice = _handed(2000), _handed(4000)
    assert twice <= 2 * once + 100


# ---------------------------------------------------------------- the parses kept

def test_the_parses_kept_are_bounded_by_the_length_of_their_source(monkeypatch):
    """The parse cache is shared by the interpreters of the process: what it keeps is
    bounded by the characters of source (trees grow with them), not only by count."""
    kept = parser_module._parsed
    monkeypatch.setattr(kept, "max_chars", 10_000)
    kept.clear()
    texts = [f"v{i}::0;" + "v{i}::1+v{i};".format(i=i) * 400 + f"v{i}" for i in range(10, 22)]
    assert all(4_000 < len(t) < 5_000 for t in texts)
    nodes = [parser_module.parse(t) for t in texts]
    assert kept.chars <= 10_000 and len(kept) == 2
    assert parser_module.parse(texts[-1]) is nodes[-1]          # the latest are kept
    assert parser_module.parse(texts[0]) is not nodes[0]        # the first went
    long = "w::0;" + "w::w+1;" * 2000 + "w"                      # longer than all: not kept
    assert parser_module.parse(long) is not parser_module.parse(long)
    assert kept.chars <= 10_000
    kept.clear()


# ---------------------------------------------------------------- one mistake, one message

@pytest.mark.parametrize("src, column", [
    ("1+", 3), ("{x+}", 4), ("e::{x+}", 7), ("f::{x+}", 7), ("(x+)", 4), ("a::1+", 6),
    ("a::(1+)", 7), ("a::", 4), ("g::{x;y+}", 9), ("f::{x+};1", 7), ("{+/}", 4),
    (":[1+;2;3]", 5), ("f::{x'}", 7), ("1+;2", 3),
])
def test_a_verb_without_its_operand_is_one_message_in_any_nesting(kerr, src, column):
    """The same mistake is "missing operand" at the top, inside a function, a parenthesis or
    an assignment, with the caret where the operand should be."""
    err = kerr(src)
    assert (err.kind, err.message, err.column) == ("syntax", "missing operand", column)
    assert err.report().splitlines() == [
        "syntax error: missing operand", src, " " * (column - 1) + "^"]


def test_an_expression_in_a_list_literal_is_the_lists_error(kerr):
    # [ ] holds data only: 1+ inside it is not an operand missing but a list-literal mistake
    err = kerr("[1+]")
    assert (err.kind, err.message, err.column) == ("syntax", "unexpected '+' in list literal", 3)


def test_no_assignment_hint_at_the_end_of_an_assignment(kerr):
    # the end of the input is not a mistyped `a:...`, though the last token is ::
    assert kerr("a::").message == "missing operand"
