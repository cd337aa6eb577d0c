"""Lexemes (language.md section 2): numbers, characters, strings, names, symbols, comments,
list and dictionary literals, and the tricky cases of the lexer checklist (2.11)."""
import numpy as np
import pytest

from klong import KlongError
from klong.syntax.lexer import tokenize
from klong.values import Char, Symbol


def kinds(src):
    return [t.type for t in tokenize(src)]


def values(src):
    return [t.value for t in tokenize(src)]


# ---------------------------------------------------------------- numbers (2.2)

@pytest.mark.parametrize("src, printed", [
    ("0", "0"),
    ("123", "123"),
    ("007", "7"),
    ("1.", "1.0"),
    ("1.5", "1.5"),
    ("1.50", "1.5"),
    ("1.5e-3", "0.0015"),
    ("1e+5", "100000.0"),
    ("1e5", "100000.0"),
    ("2e0", "2.0"),
    ("1.25e2", "125.0"),
    ("0XFF", "255"),
    ("0xff", "255"),
    ("0xcafe", "51966"),
    ("0x1F", "31"),
    ("0X1f", "31"),
    ("0b101", "5"),
    ("0B11", "3"),
    ("0o777", "511"),
    ("0O17", "15"),
    (":1", "1"),
    (":1+1", "2"),
    ("12345678901234567890", "12345678901234567890"),
])
def test_number_literals(kw, src, printed):
    assert kw(src) == printed


def test_integer_and_real_types():
    assert values("42") == [42] and type(values("42")[0]) is int
    assert type(values("42.")[0]) is float
    assert type(values("1e5")[0]) is float
    assert type(values("0x10")[0]) is int


@pytest.mark.parametrize("src", ["1..2", "1e", "2exp", "1e5e", "1.2.3", "1e+"])
def test_invalid_numbers(kerr, src):
    err = kerr(src)
    assert err.kind == "syntax"
    assert "number" in err.message


@pytest.mark.parametrize("src", ["0x", "0b2", "0o8"])
def test_prefix_without_digits_is_a_syntax_error(kerr, src):
    assert kerr(src).kind == "syntax"


def test_invalid_number_position(kerr):
    err = kerr("a::1+1..2")
    assert (err.line, err.column) == (1, 6)


def test_dot_five_is_a_name(k, kw, kerr):
    assert kinds(".5") == ["NAME"]
    assert kerr(".5").kind == "undefined"


def test_letter_other_than_e_ends_a_number():
    toks = tokenize("0f[1 2 3]")
    assert [t.type for t in toks] == ["CONST", "NAME", "CONST"]
    assert toks[0].value == 0 and toks[1].value == "f"
    assert toks[2].value.tolist() == [1, 2, 3]


def test_digit_cannot_start_a_name():
    toks = tokenize("1A1")
    assert [(t.type, t.value) for t in toks] == [("CONST", 1), ("NAME", "A1")]


# ---------------------------------------------------------------- the minus sign (2.2)

@pytest.mark.parametrize("src, printed", [
    ("[1 -2]", "[1 -2]"),
    ("[-1 -2.5]", "[-1 -2.5]"),
    ("1-1", "0"),
    ("a::5; a-1", "4"),
    ("a::5; a -1", "4"),
    ("a::5; a - 1", "4"),
    ("1 -1", "0"),
    ("-1", "-1"),
    ("-1+2", "-3"),
    ("456+-123", "333"),
    ("@-1", "1"),
    ("(-3)_\"abcdef\"", '"abc"'),
    ("a::-1;a", "-1"),
    ("[2 -1]:^!8", "[[0 1 2 3] [4 5 6 7]]"),
])
def test_minus_sign(kw, src, printed):
    assert kw(src) == printed


@pytest.mark.parametrize("src", ["a-1", "a -1", "a - 1"])
def test_minus_after_operand_is_a_verb(src):
    assert [(t.type, t.value) for t in tokenize(src)] == [
        ("NAME", "a"), ("VERB", "-"), ("CONST", 1)]


def test_minus_at_start_is_a_separate_verb():
    assert [(t.type, t.value) for t in tokenize("-1+2")] == [
        ("VERB", "-"), ("CONST", 1), ("VERB", "+"), ("CONST", 2)]


def test_negative_literal_in_list_is_one_token():
    toks = tokenize("[2 -1]:^!8")
    assert [t.type for t in toks] == ["CONST", "VERB", "VERB", "CONST"]
    assert toks[0].value.tolist() == [2, -1]
    assert toks[1].value == ":^"


# ---------------------------------------------------------------- characters (2.3)

@pytest.mark.parametrize("src, char", [
    ("0ca", "a"), ("0c0", "0"), ("0c ", " "), ('0c"', '"'), ("0c;", ";"),
    ("0c]", "]"), ("0c[", "["), ("0c:", ":"), ("0C{", "{"),
])
def test_character_literals(src, char):
    (tok,) = tokenize(src)
    assert tok.type == "CONST"
    assert isinstance(tok.value, Char) and str(tok.value) == char


@pytest.mark.parametrize("src, printed", [
    ("0ca", "0ca"), ("0c ", "0c "), ('0c"', '0c"'), ("0c]", "0c]"),
    ("[0cx0cy]", "[0cx 0cy]"), ("[0c] 0c[]", "[0c] 0c[]"),
    (":#10", "0c\n"),
])
def test_character_printing(kw, src, printed):
    assert kw(src) == printed


def test_char_at_end_of_input_is_an_error(kerr):
    assert kerr("0c").kind == "syntax"


# ---------------------------------------------------------------- strings (2.4)

@pytest.mark.parametrize("src, printed", [
    ('""', '""'),
    ('"abc"', '"abc"'),
    ('"say ""hi"""', '"say ""hi"""'),
    ('"a""b"', '"a""b"'),
    (',0c"', '""""'),
    ('"a;b]:[c"', '"a;b]:[c"'),
    ('":""not a comment"""', '":""not a comment"""'),
])
def test_string_literals(kw, src, printed):
    assert kw(src) == printed


def test_string_token_values():
    assert values('"a""b"') == ['a"b']
    assert values('""') == [""]


def test_string_lengths(kw):
    assert kw('#"say ""hi"""') == "8"
    assert kw('#""') == "0"
    assert kw('#"a""b"') == "3"


def test_string_holds_newline(kw):
    assert kw('s::"x\ny";#s') == "3"


def test_unterminated_string(kerr):
    err = kerr('"abc')
    assert err.kind == "syntax" and "string" in err.message


def test_string_is_not_a_list_of_chars(kw):
    assert kw('"abc"~[0ca 0cb 0cc]') == "0"
    assert kw(",0cx") == '"x"'


# ---------------------------------------------------------------- names and symbols (2.5, 2.6)

@pytest.mark.parametrize("name", ["foo", "F00F", "a1b2", "a.b", "X.", "x.y.z"])
def test_names_are_one_token(name):
    assert [(t.type, t.value) for t in tokenize(name)] == [("NAME", name)]


def test_dotted_system_names():
    assert [(t.type, t.value) for t in tokenize(".p(1)")][0] == ("NAME", ".p")


def test_underscore_is_not_a_name_character():
    assert [(t.type, t.value) for t in tokenize("a_b")] == [
        ("NAME", "a"), ("VERB", "_"), ("NAME", "b")]


def test_dotted_names_evaluate(kw):
    assert kw("a.b::7; a.b+1") == "8"
    assert kw("a::1;a.b::2;a.b") == "2"


def test_names_are_case_sensitive(kw):
    assert kw("foo::1;Foo::2;foo,Foo") == "[1 2]"


@pytest.mark.parametrize("src, printed", [
    (":foo", ":foo"),
    (":x.y", ":x.y"),
    (":a1", ":a1"),
    ("[a b]", "[:a :b]"),
    ("[:a b]", "[:a :b]"),
    (":test~*[test]", "1"),
    ("A:::foobar;A", ":foobar"),
])
def test_symbols(kw, src, printed):
    assert kw(src) == printed


def test_symbol_token():
    (tok,) = tokenize(":foo")
    assert isinstance(tok.value, Symbol) and str(tok.value) == "foo"


# ---------------------------------------------------------------- comments (2.1)

def test_comment_is_whitespace(kw):
    assert kw('1+:"first operand done" 2') == "3"


def test_comment_with_doubled_quotes(kw):
    assert kw(':"say ""hi"" first" 5') == "5"
    assert tokenize(':"c""d"') == []


def test_comment_inside_list_literal(kw):
    assert kw('[1 :"two" 3]') == "[1 3]"


def test_comment_only_source_has_no_value(k):
    assert k.run(':"nothing"') is None


def test_unterminated_comment(kerr):
    assert kerr(':"abc').kind == "syntax"


# ---------------------------------------------------------------- shift character (2.7)

@pytest.mark.parametrize("src, expected", [
    ("a:::b", [("NAME", "a"), ("VERB", "::"), ("CONST", "b")]),
    ("a:-1", [("NAME", "a"), ("VERB", ":-"), ("CONST", 1)]),
    ("a::-1", [("NAME", "a"), ("VERB", "::"), ("VERB", "-"), ("CONST", 1)]),
    ("x:~y", [("NAME", "x"), ("ADVERB", ":~"), ("NAME", "y")]),
    ("f\\~x", [("NAME", "f"), ("ADVERB", "\\~"), ("NAME", "x")]),
    ("f\\*x", [("NAME", "f"), ("ADVERB", "\\*"), ("NAME", "x")]),
    ("f\\x", [("NAME", "f"), ("ADVERB", "\\"), ("NAME", "x")]),
    ("f/x", [("NAME", "f"), ("ADVERB", "/"), ("NAME", "x")]),
    ("f:'x", [("NAME", "f"), ("ADVERB", ":'"), ("NAME", "x")]),
    ("f:*x", [("NAME", "f"), ("ADVERB", ":*"), ("NAME", "x")]),
    ("a:=b", [("NAME", "a"), ("VERB", ":="), ("NAME", "b")]),
    ("a:#b", [("NAME", "a"), ("VERB", ":#"), ("NAME", "b")]),
    ("a:@b", [("NAME", "a"), ("VERB", ":@"), ("NAME", "b")]),
    (":1", [("CONST", 1)]),
])
def test_two_character_tokens(src, expected):
    got = [(t.type, t.value if not isinstance(t.value, Symbol) else str(t.value))
           for t in tokenize(src)]
    assert got == expected


def test_symbol_after_assignment_is_a_symbol():
    toks = tokenize("a:::b")
    assert isinstance(toks[2].value, Symbol)


def test_conditional_tokens():
    assert kinds(":[1;2:|3;4;5]") == [
        "COND", "CONST", "SEMI", "CONST", "ELSEIF", "CONST", "SEMI", "CONST", "SEMI",
        "CONST", "RBRACK"]


def test_old_style_argument_list_token():
    assert kinds("{x}:(1)") == ["LBRACE", "NAME", "RBRACE", "LPAR", "CONST", "RPAR"]


def test_dictionary_literal_after_assignment():
    toks = tokenize("d:::{}")
    assert [t.type for t in toks] == ["NAME", "VERB", "DICT"]


# ---------------------------------------------------------------- list and dict literals (2.9)

@pytest.mark.parametrize("src, printed", [
    ("[]", "[]"),
    ("[1 2 3]", "[1 2 3]"),
    ("[1 2.5 \"a\" 0cb :c [3]]", '[1 2.5 "a" 0cb :c [3]]'),
    ("[[1 2] [3 [4 []]]]", "[[1 2] [3 [4 []]]]"),
    ("[ 1   2\t3 ]", "[1 2 3]"),
    ("[1\n2\n3]", "[1 2 3]"),
    ("[:{[1 2]} 3]", "[:{[1 2]} 3]"),
    ("[1 -2 [-3]]", "[1 -2 [-3]]"),
    ("[0x10 0b11 1e2]", "[16 3 100.0]"),
    ("[\"a\" \"\" \"b\"\"c\"]", '["a" "" "b""c"]'),
    (":{}", ":{}"),
    (":{[1 2] [3 4]}", ":{[1 2] [3 4]}"),
    (":{[a 1] [\"b\" [2 3]]}", ':{[:a 1] ["b" [2 3]]}'),
    (":{[[1 2] :{[3 4]}]}", ":{[[1 2] :{[3 4]}]}"),
    (":{[-1 -2]}", ":{[-1 -2]}"),
])
def test_literals(kw, src, printed):
    assert kw(src) == printed


def test_list_literal_is_one_token():
    (tok,) = tokenize("[1 [2 3] \"x\" y]")
    assert tok.type == "CONST"


def test_list_literal_keeps_element_types(kw):
    assert kw("@'[1 2.5 \"a\"]") == "[1 1 0]"
    assert kw("[1 2.5]") == "[1 2.5]"


def test_list_literal_does_not_compute(kw):
    # a name in a list literal is a symbol, not a variable
    assert kw("a::5;[a]") == "[:a]"


@pytest.mark.parametrize("src", [":{[1 2 3]}", ":{[a]}", ":{1}", ":{[1 2]", "[1 2", "[[1]"])
def test_malformed_literals(kerr, src):
    assert kerr(src).kind == "syntax"


def test_locals_list_token():
    assert kinds("{[a b];a}") == ["LBRACE", "CONST", "SEMI", "NAME", "RBRACE"]


# ---------------------------------------------------------------- checklist leftovers (2.11)

def test_function_literal_between_operands(kw):
    assert kinds("0{x,y}[1 2 3]") == [
        "CONST", "LBRACE", "NAME", "VERB", "NAME", "RBRACE", "CONST"]
    assert kw("0{x,y}[1 2 3]") == "[0 1 2 3]"


def test_big_integers(kw):
    assert kw("2^100") == "1267650600228229401496703205376"


def test_token_positions():
    toks = tokenize("ab + 12\n  cd")
    assert [(t.line, t.column) for t in toks] == [(1, 1), (1, 4), (1, 6), (2, 3)]


def test_unknown_character(kerr):
    assert kerr("1 ` 2").kind == "syntax"
